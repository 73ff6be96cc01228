/* cmdraft pages, the helpers they share: loaded first by each page (`<script src="/static/page.js">`), one global
   `cmdraftPage`.  Plain ES2017.  Text goes in with textContent only, through `shown` (the one policy). */
var cmdraftPage = (function () {
  "use strict";

  function $(id) {
    return document.getElementById(id);
  }

  // User and file text as every face shows it (the one policy, sets/visible.py): control and format characters
  // (bidi overrides, zero-width characters) and the line and paragraph separators written out as \u escapes, so
  // a name can't turn the text after it around or hide a letter; letters of every script stay as typed, and a
  // line break stays (a card's rules text).  Unicode's own table where the browser has it, else Unicode 14's.
  var HIDDEN = (function () {
    try {
      return new RegExp("(?!\\n)[\\p{Cc}\\p{Cf}\\p{Zl}\\p{Zp}]", "gu");
    } catch (old) {
      return /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]|\ud804[\udcbd\udccd]|\ud80d[\udc30-\udc38]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]|\udb40[\udc01\udc20-\udc7f]/g;
    }
  })();

  function written(ch) {
    var code = ch.codePointAt(0);
    var digits = code.toString(16);
    if (code < 0x100) return "\\x" + ("0" + digits).slice(-2);
    if (code < 0x10000) return "\\u" + ("000" + digits).slice(-4);
    return "\\U" + ("0000000" + digits).slice(-8);
  }

  function shown(text) {
    return String(text).replace(HIDDEN, written);
  }

  // A node's aria-label by the same policy as its visible text: a screen reader reads the label, so a name in it is
  // written out as the page shows it.
  function label(node, text) {
    node.setAttribute("aria-label", shown(text));
    return node;
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = shown(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

  function send(method, path, body) {
    var options = { method: method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    // A connection that died silently (Wi-Fi that swallows packets) keeps a request waiting for as long as the
    // phone's system keeps it, often many minutes: given up after ANSWER_MS, as no answer, so the page says so
    // and tries again (a change it asked for may have arrived: each caller says that, and asks for the state).
    if (typeof AbortController !== "function") return fetch(path, options);
    var abort = new AbortController();
    var timer = setTimeout(function () {
      abort.abort();
    }, ANSWER_MS);
    options.signal = abort.signal;
    return fetch(path, options).then(
      function (response) {
        clearTimeout(timer);
        return response;
      },
      function (error) {
        clearTimeout(timer);
        throw error;
      }
    );
  }

  var ANSWER_MS = 20000;

  // The answer as {status, ok, data}, whatever the status (data is {} when the body is not JSON).
  function api(method, path, body) {
    return send(method, path, body).then(function (response) {
      return response
        .json()
        .catch(function () {
          return {};
        })
        .then(function (data) {
          return { status: response.status, ok: response.ok, data: data };
        });
    });
  }

  function errorText(result) {
    var e = result.data && result.data.error;
    return e && e.message ? e.message : "the server answered " + result.status;
  }

  // What a page says of a request that got no answer (the Wi-Fi gone, the server down or stopped): never the
  // browser's own words ("Failed to fetch", "Load failed"), which say nothing a player can act on.
  var NO_ANSWER = "No answer from the server: what you sent may not have arrived. The page asks again and shows what the server has.";

  // The answer's data, or a rejection with the server's message when it refused (no answer: NO_ANSWER, and the
  // rejection's noAnswer set, so a page can say what arrived once the server answers again).
  function request(method, path, body) {
    return send(method, path, body).then(function (answer) {
      return answer.json().then(
        function (data) {
          if (!answer.ok) throw new Error((data.error && data.error.message) || "the server said no");
          return data;
        },
        function () {
          throw new Error("the server's answer could not be read");
        }
      );
    }, function () {
      var error = new Error(NO_ANSWER);
      error.noAnswer = true;
      throw error;
    });
  }

  // Whether this browser holds a seat's token (the server sets the mark beside the token's HttpOnly cookie, which
  // script can't read, for as long): a page that never joined asks nothing of a seat, so a fresh phone logs no
  // refusal.  A token refused since (the seat opened elsewhere, a new code) keeps its mark: the page asks once on
  // loading, and says why the seat is no longer its.
  var HOLDS_SEAT = "cmdraft_holds_seat";

  function holdsSeat() {
    return document.cookie.split(";").some(function (part) {
      return part.trim() === HOLDS_SEAT + "=1";
    });
  }

  // A text that a timer writes again and again (a countdown, four times a second), written only when it changed: the
  // same text written again still makes the browser lay out and draw the page anew, which a phone pays for in battery.
  function put(node, text) {
    if (node.textContent !== text) node.textContent = text;
  }

  // A round clock, "mm:ss", never below zero.
  function clockText(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(whole / 60);
    var s = whole % 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  // Mana costs, as every page shows them: "{2}{G}{W/U}" as pips (its symbols' letters in coloured circles, each
  // titled with its symbol) and in words for a screen reader ("2 and green and white or blue").
  var COLORS = ["W", "U", "B", "R", "G"];
  var COLOR_NAMES = { W: "White", U: "Blue", B: "Black", R: "Red", G: "Green", M: "Multicolour", C: "Colourless" };

  // "{2}{G}{W/U}" -> ["2", "G", "W/U"]
  function symbols(cost) {
    return ((cost || "").match(/\{[^}]*\}/g) || []).map(function (part) {
      return part.slice(1, -1).toUpperCase();
    });
  }

  function pips(cost) {
    var box = el("span", "pips");
    symbols(cost).forEach(function (sym) {
      var pip = el("span", "pip", sym.replace("/", ""));
      var letters = sym.split("/").filter(function (s) {
        return COLORS.indexOf(s) >= 0;
      });
      if (letters.length === 1) pip.className += " p-" + letters[0];
      else if (letters.length > 1) pip.className += " p-hybrid p-" + letters[0] + "-" + letters[1];
      else if (sym === "C") pip.className += " p-C";
      else pip.className += " p-generic";
      if (sym.length > 2) pip.className += " wide";
      pip.title = sym;
      box.appendChild(pip);
    });
    return box;
  }

  function costWords(cost) {
    return symbols(cost).map(function (symbol) {
      return symbol.split("/").map(function (sym) {
        return COLOR_NAMES[sym] ? COLOR_NAMES[sym].toLowerCase() : sym;
      }).join(" or ");
    }).join(" and ");
  }

  // A press under way on a button or link of a panel the page draws again and again (on a push, a poll's answer,
  // an answer to another request): a redraw meanwhile puts a new control where the pressed one was, and the
  // browser gives the click of a press begun on a node no longer in the page to no control at all: the tap lost (a
  // card not marked, a confirmation never sent).  So the panel's redraws asked for during a press on one of its
  // controls wait for the press to end: at its click, after the control's own handler has run (which asks with
  // what the page shows, and may draw at once itself: the press is over for it); at once when the press is
  // cancelled (the finger scrolled the page); a moment after the pointer is let go when no click comes (dragged
  // off, held long).  Only the drawing waits: what the server said is kept at once, the newest drawn.
  var PRESS_ENDS_MS = 1000;
  var PRESSED = "button, a[href]";
  var holds = [];

  // panel: a function giving the panel's node (or null).  Returns ``held(draw)``, which makes ``draw`` one of the
  // panel's redraws: called during a press on the panel, it waits, and the last redraw asked for (of those made
  // by this ``held``) is drawn when the press ends, with its arguments.
  function pressHold(panel) {
    var hold = { panel: panel, on: false, timer: null, waiting: null };
    if (!holds.length) listenToPresses();
    holds.push(hold);
    return function held(draw) {
      return function () {
        if (hold.on) {
          hold.waiting = { draw: draw, args: arguments };
          return;
        }
        hold.waiting = null;
        draw.apply(null, arguments);
      };
    };
  }

  function pressEnds(hold) {
    clearTimeout(hold.timer);
    hold.on = false;
    var waiting = hold.waiting;
    hold.waiting = null;
    if (waiting) waiting.draw.apply(null, waiting.args);
  }

  function listenToPresses() {
    document.addEventListener("pointerdown", function (event) {
      var pressed = event.target.closest ? event.target.closest(PRESSED) : null;
      if (event.button !== 0 || !pressed || pressed.disabled) return; // not a press that clicks
      holds.forEach(function (hold) {
        var box = hold.panel();
        if (!box || !box.contains(pressed)) return;
        clearTimeout(hold.timer);
        hold.on = true;
      });
    }, true);
    document.addEventListener("pointerup", function () {
      holds.forEach(function (hold) {
        if (!hold.on) return;
        clearTimeout(hold.timer); // a touch's click comes after the finger lifts
        hold.timer = setTimeout(function () { pressEnds(hold); }, PRESS_ENDS_MS);
      });
    }, true);
    document.addEventListener("pointercancel", function () {
      holds.forEach(function (hold) {
        if (hold.on) pressEnds(hold); // the finger scrolled the page: no click comes
      });
    }, true);
    // The click: before the pressed control's handler the press is over (what the handler draws is drawn), and
    // after it a redraw still waiting is made (in a moment, when the handler stopped the click there).
    window.addEventListener("click", function () {
      holds.forEach(function (hold) {
        if (!hold.on) return;
        clearTimeout(hold.timer);
        hold.on = false;
        setTimeout(function () {
          if (!hold.on && hold.waiting) pressEnds(hold);
        }, 0);
      });
    }, true);
    window.addEventListener("click", function () {
      holds.forEach(function (hold) {
        if (!hold.on && hold.waiting) pressEnds(hold);
      });
    });
  }

  // A part of the page whose headings step one level down while another part heads the page (``under``: the
  // night's table above the deck), so the page keeps one h1 and a reader's list of headings is an outline.  The
  // tags change (a heading's own element, its children moved over); data-look keeps each one's look.
  function headingsUnder(part, under) {
    Array.prototype.slice.call(part.querySelectorAll("h1, h2, h3, h4, h5")).forEach(function (heading) {
      var own = heading.getAttribute("data-look") || heading.tagName.toLowerCase();
      var wanted = under ? "h" + (Number(own.charAt(1)) + 1) : own;
      if (heading.tagName.toLowerCase() === wanted) return;
      var moved = document.createElement(wanted);
      Array.prototype.forEach.call(heading.attributes, function (a) { moved.setAttribute(a.name, a.value); });
      if (under) moved.setAttribute("data-look", own);
      else moved.removeAttribute("data-look");
      while (heading.firstChild) moved.appendChild(heading.firstChild);
      heading.parentNode.replaceChild(moved, heading);
    });
  }

  // The event's name whole under the header bar whenever the bar cuts it (a long name, or the reader's larger text:
  // the bar keeps to one line), watched as the name or its room changes; on a page without that line, nothing.
  function wholeEventName() {
    var bar = $("event-name");
    var line = $("event-whole");
    if (!bar || !line) return;
    function check() {
      line.textContent = bar.textContent;
      line.hidden = bar.scrollWidth <= bar.clientWidth + 1;
    }
    if (window.ResizeObserver) new ResizeObserver(check).observe(bar);
    new MutationObserver(check).observe(bar, { childList: true, characterData: true, subtree: true });
    window.addEventListener("resize", check);
    check();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", wholeEventName);
  else wholeEventName();

  return {
    $: $,
    el: el,
    shown: shown,
    label: label,
    clear: clear,
    api: api,
    errorText: errorText,
    request: request,
    holdsSeat: holdsSeat,
    clockText: clockText,
    put: put,
    COLORS: COLORS,
    COLOR_NAMES: COLOR_NAMES,
    pips: pips,
    costWords: costWords,
    pressHold: pressHold,
    headingsUnder: headingsUnder,
  };
})();
