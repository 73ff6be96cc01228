/* cmdraft player page, shared part: the page's state, small helpers, screens, the API call, cards drawn as
   text.  Loaded first; app_draft.js, app_deck.js and app.js add their parts to the same `cmdraft` object.
   Plain ES2017, no framework, nothing fetched but this server.  Every name and card text goes in with
   textContent: the page only shows and asks, the server decides. */
var cmdraft = (function () {
  "use strict";

  var app = {};
  var COLORS = ["W", "U", "B", "R", "G"];
  var COLOR_NAMES = { W: "White", U: "Blue", B: "Black", R: "Red", G: "Green", M: "Multicolour", C: "Colourless" };
  var FORMATS = [["arena", "Arena"], ["txt", "Text"], ["json", "JSON"], ["csv", "CSV"], ["cod", "Cockatrice"], ["dck", "Forge"]];

  var state = {
    seat: null, // the last SeatState
    deck: null, // the last DeckState
    version: -1,
    offset: 0, // server clock minus ours, seconds
    selected: [], // indices into seat.draft.cards
    packKey: "",
    poolView: "colour",
    ws: null,
    wsTries: 0,
    wsTimer: null,
    pingTimer: null,
    joined: false,
    busy: false,
    pickId: null, // the pick sent on the stream and not yet answered
    pickTimer: null,
    wakeLock: null
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
    t.textContent = text;
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

  // "{2}{G}{W/U}" -> pips
  function pips(cost) {
    var box = el("span", "pips");
    var parts = (cost || "").match(/\{[^}]*\}/g) || [];
    parts.forEach(function (part) {
      var sym = part.slice(1, -1).toUpperCase();
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

  function cardNode(card, options) {
    options = options || {};
    var node = el(options.tag || "div", "card " + frameClass(card));
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
    if (card.text && card.text.length) {
      var info = el("span", "info", "i");
      info.setAttribute("role", "button");
      info.setAttribute("aria-label", "card text of " + card.name);
      info.addEventListener("click", function (event) {
        event.stopPropagation();
        showCard(card);
      });
      node.appendChild(info);
    }
    return node;
  }

  function showCard(card) {
    $("sheet-title").textContent = card.name;
    $("sheet-meta").textContent = [card.cost, card.type, card.rarity].filter(Boolean).join(" · ");
    var box = clear($("sheet-text"));
    (card.text || []).forEach(function (line) {
      box.appendChild(el("p", "", line));
    });
    $("sheet").hidden = false;
  }

  // --- screens --------------------------------------------------------------------------------------------

  function show(name) {
    var screens = document.querySelectorAll(".screen");
    for (var i = 0; i < screens.length; i++) screens[i].hidden = screens[i].id !== "screen-" + name;
    document.body.setAttribute("data-screen", name);
  }

  function setConn(kind, text) {
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
