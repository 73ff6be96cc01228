/* cmdraft player page, shared part: the page's state, small helpers, screens, the API call, cards drawn as
   text.  Loaded first; app_draft.js, app_deck.js and app.js add their parts to the same `cmdraft` object.
   Plain ES2017, no framework, nothing fetched but this server.  Every name and card text goes in with
   textContent: the page only shows and asks, the server decides. */
var cmdraft = (function () {
  "use strict";

  var app = {};
  var COLORS = cmdraftPage.COLORS;
  var COLOR_NAMES = cmdraftPage.COLOR_NAMES;
  var pips = cmdraftPage.pips;
  var costWords = cmdraftPage.costWords;
  var FORMATS = [["arena", "Arena"], ["txt", "Text"], ["json", "JSON"], ["csv", "CSV"], ["cod", "Cockatrice"], ["dck", "Forge"]];

  var state = {
    seat: null, // the last SeatState
    deck: null, // the last DeckState
    deckChanges: 0, // deck changes sent (a reload sent before one, or while one is on its way, is out of date)
    deckChanging: false, // a deck change is on its way
    deckReload: false, // a reload's answer was dropped as out of date: reload once the change is answered
    version: -1,
    offset: 0, // server clock minus ours, seconds
    clockHeld: false, // the connection was lost since the last seat state: its countdown is not the server's now
    selected: [], // indices into seat.draft.cards
    packKey: "",
    drawn: null, // the seat's draft the pack on screen was drawn from: what a tap and Confirm are about
    poolView: "colour",
    packOrder: "sorted", // the pack as players sort it, or "booster": its own order
    ws: null,
    wsTries: 0,
    wsTimer: null,
    pingTimer: null,
    joined: false,
    busy: false,
    registerNext: false, // Register tapped while a deck change was on its way: sent once it is answered
    deckQueue: [], // deck changes tapped while one was on its way, each sent in turn (app_deck.js)
    pickId: null, // the pick sent on the stream and not yet answered
    pickTimer: null,
    wakeLock: null,
    sheetOpener: null, // what had the keyboard's focus when the card sheet opened
    sheetReturn: null // and where it was (``focusPlace``): found again if a new state drew it anew meanwhile
  };

  // --- small helpers --------------------------------------------------------------------------------------

  var $ = cmdraftPage.$;
  var el = cmdraftPage.el;
  var clear = cmdraftPage.clear;
  var api = cmdraftPage.api;
  var errorText = cmdraftPage.errorText;

  function now() {
    return Date.now() / 1000;
  }

  function serverNow() {
    return now() + state.offset;
  }

  function toast(text) {
    var t = $("toast");
    t.textContent = cmdraftPage.shown(text);
    t.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(function () {
      t.hidden = true;
    }, 4000);
  }

  function colorKey(card) {
    var c = card.colors || "";
    if (c.length > 1) return "M";
    if (c.length === 1) return c;
    return "C";
  }

  function frameClass(card) {
    var c = card.colors || "";
    if (!c && card.identity && /Land/.test(card.type || "")) c = card.identity;
    if (c.length > 1) return "f-M";
    if (c.length === 1) return "f-" + c;
    return "f-C";
  }

  function identityDots(identity) {
    var box = el("span", "identity");
    box.title = "colour identity " + (identity || "colourless");
    if (!identity) {
      box.appendChild(el("i", "dot d-C"));
      return box;
    }
    identity.split("").forEach(function (c) {
      box.appendChild(el("i", "dot d-" + c));
    });
    return box;
  }

  // A card in words, as a screen reader says a card to pick: "Kamahl's Will, costs 3 and green, Instant, rare"
  // (the drawn card's name, pips, type and rarity letter run together as "Kamahl's Will3GInstantR").
  var RARITY_WORDS = { C: "common", U: "uncommon", R: "rare", M: "mythic", S: "special" };

  function cardWords(card) {
    var words = [card.name];
    var cost = costWords(card.cost);
    if (cost) words.push("costs " + cost);
    if (card.type) words.push(card.type);
    words.push(RARITY_WORDS[card.rarity] || card.rarity);
    if (card.foil) words.push("foil");
    return words.join(", ");
  }

  // A card: its image when one was downloaded (name, cost and type stay in the card as text, read by screen
  // readers), else drawn as text.  options.tag: "button" for a card to pick.  Returns the card node; with an
  // image or rules text a "full size" button sits beside it (never inside: one control in another is one too
  // many), in a wrapper that options.wrap receives.
  function cardNode(card, options) {
    options = options || {};
    var node = el(options.tag || "div", "card " + frameClass(card) + (card.image ? " has-image" : ""));
    if (card.image) {
      var img = el("img", "card-img");
      img.onerror = function () { // a kept image that can't be shown (damaged, gone): the card drawn as text
        node.classList.remove("has-image");
        img.remove();
      };
      img.src = card.image;
      img.alt = "";
      img.loading = "lazy";
      img.draggable = false;
      node.appendChild(img);
    }
    var top = el("div", "card-top");
    top.appendChild(el("span", "card-name", card.name));
    top.appendChild(pips(card.cost));
    node.appendChild(top);
    var bottom = el("div", "card-bottom");
    bottom.appendChild(el("span", "card-type", card.type));
    var marks = el("span", "card-marks");
    if (card.foil) marks.appendChild(el("span", "foil", "foil"));
    marks.appendChild(identityDots(card.identity));
    marks.appendChild(el("span", "rarity r-" + card.rarity, card.rarity));
    bottom.appendChild(marks);
    node.appendChild(bottom);
    if (options.tag === "button") cmdraftPage.label(node, cardWords(card));
    holdToShow(node, card);
    return node;
  }

  // The card and, when there is more to see (an image, rules text), its "full size" button, in one wrapper.
  function cardBox(card, options) {
    var box = el("div", "card-box");
    var node = cardNode(card, options);
    box.appendChild(node);
    if (card.image || (card.text && card.text.length)) {
      node.classList.add("with-more"); // its type and marks keep clear of the button over the card's corner
      var more = el("button", "card-more", card.image ? "⤢" : "i");
      more.type = "button";
      cmdraftPage.label(more, "Show " + card.name + (card.image ? " full size" : ": its text"));
      more.addEventListener("click", function (event) {
        event.stopPropagation();
        showCard(card);
      });
      box.appendChild(more);
    }
    return box;
  }

  // Touch and hold (half a second) shows the card full size; the tap that ends the hold picks nothing.
  function holdToShow(node, card) {
    var timer = null;
    var held = false;
    var downAt = 0;
    function cancel() {
      clearTimeout(timer);
      timer = null;
    }
    node.addEventListener("pointerdown", function (event) {
      held = false;
      downAt = event.timeStamp;
      cancel();
      timer = setTimeout(function () {
        held = true;
        showCard(card);
      }, 500);
    });
    ["pointerup", "pointerleave", "pointercancel", "pointermove"].forEach(function (kind) {
      node.addEventListener(kind, function (event) {
        if (kind === "pointermove" && event.pointerType === "mouse") return;
        cancel();
        // a busy phone can run the timer late: a press that really lasted less than the hold is a tap
        if (kind === "pointerup" && held && event.timeStamp - downAt < 500) {
          held = false;
          $("sheet").hidden = true;
        }
      });
    });
    node.addEventListener("contextmenu", function (event) {
      if (card.image) event.preventDefault(); // the phone's own image menu would cover the card
    });
    node.addEventListener(
      "click",
      function (event) {
        if (held) {
          held = false;
          event.stopImmediatePropagation();
          event.preventDefault();
        }
      },
      true
    );
  }

  function showCard(card) {
    $("sheet-title").textContent = cmdraftPage.shown(card.name);
    $("sheet-meta").textContent = cmdraftPage.shown([card.cost, card.type, card.rarity].filter(Boolean).join(" · "));
    var picture = $("sheet-img");
    picture.onerror = function () {
      picture.hidden = true;
    };
    if (card.image) {
      picture.src = card.image;
      picture.alt = cmdraftPage.shown(card.name);
      picture.hidden = false;
      $("sheet-credit").textContent = cmdraftPage.shown((card.artist ? "Illustrated by " + card.artist + ". " : "") + CREDIT);
      $("sheet-credit").hidden = false;
    } else {
      picture.hidden = true;
      picture.removeAttribute("src");
      $("sheet-credit").hidden = true;
    }
    var box = clear($("sheet-text"));
    (card.text || []).forEach(function (line) {
      box.appendChild(el("p", "", line));
    });
    if (!card.text || !card.text.length) {
      box.appendChild(el("p", "hint", "No rules text here: import it with 'cmdraft sets download CODE' at the desk."));
    }
    var opener = document.activeElement;
    if (opener && opener !== document.body && !$("sheet").contains(opener)) {
      state.sheetOpener = opener;
      state.sheetReturn = focusPlace(opener);
    }
    $("sheet").hidden = false;
    $("sheet-close").focus();
  }

  // The card sheet closed (×, Escape, a tap beside it): the keyboard goes back where it was, the card's button (the
  // same card's, drawn anew, when a new state drew the pack again while the sheet was open).
  function closeSheet() {
    if ($("sheet").hidden) return;
    $("sheet").hidden = true;
    var opener = state.sheetOpener;
    var place = state.sheetReturn;
    state.sheetOpener = state.sheetReturn = null;
    if (opener && document.body.contains(opener)) opener.focus();
    else focusAgain(place);
  }

  // Where the keyboard is in a part of the page a new state draws again (the pack): the part, the button's place
  // in it and what it says, so that ``focusAgain`` finds the same button in the new drawing.
  function focusPlace(node) {
    var within = node && node.parentElement ? node.parentElement.closest("[id]") : null;
    if (!within || node.tagName !== "BUTTON") return null;
    var buttons = Array.prototype.slice.call(within.querySelectorAll("button"));
    return { within: within.id, at: buttons.indexOf(node), label: node.getAttribute("aria-label") };
  }

  // The keyboard given back to the button at that place that says the same (else the first that does).
  function focusAgain(place) {
    var within = place && document.getElementById(place.within);
    if (!within) return;
    var buttons = Array.prototype.slice.call(within.querySelectorAll("button"));
    var same = function (button) {
      return button.getAttribute("aria-label") === place.label;
    };
    var found = buttons[place.at] && same(buttons[place.at]) ? buttons[place.at] : buttons.filter(same)[0];
    if (found) found.focus();
  }

  // Shown under any page that draws a card image (Scryfall's guidelines: say where the images are from).
  var CREDIT = "Card images from Scryfall; © Wizards of the Coast.";

  function credit(cards) {
    var any = (cards || []).some(function (card) {
      return card && card.image;
    });
    var note = $("image-credit");
    if (note && any) {
      note.textContent = CREDIT;
      note.hidden = false;
    }
  }

  // --- screens --------------------------------------------------------------------------------------------

  // A mana curve: a bar for each mana value 0 to 7 (the last, 7 or more), its count above it, each bar said in
  // words to a reader ("mana value 2: 5 cards"), as the bare figures read in a row mean nothing.
  function curveBars(counts, into) {
    var top = Math.max.apply(null, counts.concat([0]));
    var bars = into || el("div", "curve");
    counts.forEach(function (count, mv) {
      var col = el("div", "bar");
      var fill = el("i");
      fill.style.height = top ? Math.round((60 * count) / top) + "px" : "0";
      [el("b", "", count || ""), fill, el("span", "", mv === 7 ? "7+" : String(mv))].forEach(function (part) {
        part.setAttribute("aria-hidden", "true");
        col.appendChild(part);
      });
      var value = mv === 7 ? "7 or more" : String(mv);
      col.appendChild(el("span", "visually-hidden", "mana value " + value + ": " + (count === 1 ? "1 card" : count + " cards") + "."));
      bars.appendChild(col);
    });
    return bars;
  }

  function show(name) {
    var screens = document.querySelectorAll(".screen");
    for (var i = 0; i < screens.length; i++) screens[i].hidden = screens[i].id !== "screen-" + name;
    document.body.setAttribute("data-screen", name);
  }

  // The connection's state in the header.  A lost one ("bad") holds the pick's countdown until the server's next
  // seat state: what the page last heard may be out of date (a server started again gives the pick's whole time).
  function setConn(kind, text) {
    if (kind === "bad") state.clockHeld = true;
    $("conn").setAttribute("data-state", kind);
    $("conn-text").textContent = text;
  }

  // for the other parts of the page
  app.$ = $;
  app.COLORS = COLORS;
  app.COLOR_NAMES = COLOR_NAMES;
  app.FORMATS = FORMATS;
  app.api = api;
  app.cardNode = cardNode;
  app.closeSheet = closeSheet;
  app.focusPlace = focusPlace;
  app.focusAgain = focusAgain;
  app.cardBox = cardBox;
  app.credit = credit;
  app.curveBars = curveBars;
  app.holdToShow = holdToShow;
  app.clear = clear;
  app.colorKey = colorKey;
  app.el = el;
  app.errorText = errorText;
  app.frameClass = frameClass;
  app.now = now;
  app.pips = pips;
  app.serverNow = serverNow;
  app.setConn = setConn;
  app.show = show;
  app.showCard = showCard;
  app.state = state;
  app.toast = toast;
  return app;
})();
