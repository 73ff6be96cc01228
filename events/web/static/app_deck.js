/* cmdraft player page: the deck screen (commanders, Piper, main, sideboard, basics, register, exports).
   Needs app_core.js. */
(function (app) {
  "use strict";

  var $ = app.$;
  var COLORS = app.COLORS;
  var COLOR_NAMES = app.COLOR_NAMES;
  var FORMATS = app.FORMATS;
  var state = app.state;
  var api = app.api;
  var clear = app.clear;
  var el = app.el;
  var errorText = app.errorText;

  // --- deck -----------------------------------------------------------------------------------------------

  // The builder (or the pool while there is no deck to build) is drawn again on each answer and push: a redraw
  // asked for during a press on the deck's screen waits for the press to end (cmdraftPage.pressHold), the last
  // one asked for drawn then, so a button pressed is the button clicked.
  var held = cmdraftPage.pressHold(function () { return $("screen-deck"); });
  var renderDeck = held(drawDeck);
  var renderWaiting = held(drawWaiting);

  function changed() {
    state.busy = state.deckChanging = false;
    if (state.deckReload) {
      state.deckReload = false;
      loadDeck();
    }
    var next = state.deckQueue.shift();
    if (next) {  // a tap made while the change before it was on its way: its turn now
      deckAction(next);
      return;
    }
    if (state.registerNext) {  // Register was tapped while a change was on its way: it goes now, after it
      state.registerNext = false;
      register();
    }
  }

  // A reload (asked by the stream, or on reconnecting) and a button's change are separate requests whose answers
  // can arrive in either order. A change's answer is the deck after it, so it is always shown (changes go one at
  // a time); a reload's answer is shown only if no change was on its way when it was sent or has been sent since:
  // otherwise it may be the deck from before the change and would undo it on the screen.
  function loadDeck() {
    var changes = state.deckChanges;
    var during = state.deckChanging;
    return api("GET", "/api/deck").then(function (result) {
      if (during || changes !== state.deckChanges) {
        // it was asked for a reason (the stream, the desk): ask again, once the change on its way is answered
        if (state.deckChanging) state.deckReload = true;
        else loadDeck();
        return;
      }
      // the event over (the seat's state says so): the pool and the downloads stand, whatever deck arrives late
      if (result.ok && state.seat && state.seat.phase === "finished") return;
      if (result.ok) {
        // a deck changed elsewhere (the desk registered one, a terminal's builder): the words said of the deck
        // before it (a refusal, "Registered ...") are no longer about this one
        if (state.deck && deckLooks(state.deck) !== deckLooks(result.data)) $("deck-message").textContent = "";
        state.deck = result.data;
        renderDeck();
        sayWhatArrived(result.data);
      } else if (result.status === 401) app.toJoin(errorText(result)); // the server says why: opened elsewhere, or a new code
      else {
        state.deck = null;
        renderWaiting(errorText(result)); // the core's refusal: why there is no deck to build
      }
    });
  }

  function deckLooks(deck) {
    return JSON.stringify([deck.commanders, deck.chosen, deck.main, deck.registered]);
  }

  function showBuilder(on) {
    $("deck-grid").hidden = !on;
    $("deck-actions").hidden = !on;
    $("deck-legal").hidden = !on;
    $("deck-problems").hidden = !on;
    $("deck-cautions").hidden = !on;
    $("deck-waiting").hidden = on;
  }

  // No deck to build here (yet, or any more): say why and what comes next, and show the pool with what there
  // is to download, instead of a builder whose buttons can do nothing.
  // The reason is the core's: what the player waits for, else why no deck is built now (the seat's state, or the
  // deck's refusal, ``refused``); the page adds only where things are on it.
  function drawWaiting(refused) {
    var seat = state.seat;
    if (!seat) return;
    showBuilder(false);
    // the builder's line of who may change the registered deck goes with the builder: once the event is over
    // nobody may, and the core's reason below says so
    $("deck-closed").hidden = true;
    var pool = seat.pool || [];
    var why = cmdraftPage.shown(seat.waiting || seat.no_builder || refused || "");
    $("deck-size").textContent = "";
    $("deck-message").textContent =
      seat.phase === "finished"
        ? why + " Your pool" + (seat.player && seat.player.has_deck ? " and your deck are" : " is") + " below to download."
        : why + " This page moves on to the builder by itself. Your pool is below.";
    $("deck-pool-count").textContent = pool.length ? "(" + pool.length + " cards)" : "";
    var box = clear($("deck-pool"));
    if (!pool.length) box.appendChild(el("p", "hint", "No pool recorded for you in this event."));
    pool
      .slice()
      .sort(function (a, b) {
        return (a.mana_value || 0) - (b.mana_value || 0) || (a.name < b.name ? -1 : 1);
      })
      .forEach(function (card) {
        box.appendChild(app.lineNode(card));
      });
    app.credit(pool);
    downloadLinks($("deck-waiting-downloads"), pool.length > 0, !!(seat.player && seat.player.has_deck));
  }

  // The download links there is something behind: the pool once recorded, the deck once there is one.
  function downloadLinks(box, pool, deck) {
    clear(box);
    var kinds = [];
    if (pool) kinds.push(["pool", "Pool"]);
    if (deck) kinds.push(["deck", "Deck"]);
    if (!kinds.length) box.appendChild(el("p", "hint", "Nothing to download yet: your pool is kept when your pod's draft is over."));
    kinds.forEach(function (what) {
      var row = el("div", "row wrap");
      row.appendChild(el("span", "label", what[1]));
      FORMATS.forEach(function (f) {
        var a = el("a", "chip", f[1]);
        a.href = "/api/export/" + what[0] + "?format=" + f[0];
        a.setAttribute("download", "");
        cmdraftPage.label(a, f[1] + ": download your " + what[0]);
        row.appendChild(a);
      });
      box.appendChild(row);
    });
  }

  // A change or a registration whose answer was lost may have arrived or not: the page says only what it knows,
  // asks for the deck again, and says what the server has once it answers (never "not registered" on a guess).
  function unanswered(what) {
    state.deckQueue = []; // taps made meanwhile wait for no answer that may never come: the page asks again
    changed();
    state.unansweredDeck = what;
    $("deck-message").textContent = what === "register"
      ? "No answer from the server: your deck may not have been registered. The page asks again and says so here."
      : "No answer from the server: your change may not have been made. The page asks again and shows your deck as the server has it.";
    loadDeck().catch(function () {
      /* still no answer: asked again on reconnecting (the seat's state, then the deck) */
    });
  }

  function sayWhatArrived(deck) {
    var what = state.unansweredDeck;
    if (!what) return;
    state.unansweredDeck = null;
    $("deck-message").textContent = what !== "register"
      ? "The server answers again: this is your deck as it has it."
      : deck.registered
        ? cmdraftPage.shown(deck.registered_words) // the core's words
        : "Not registered: your deck did not arrive. Tap Register to send it again.";
  }

  // One change at a time, in the order tapped: a tap made while a change is on its way waits its turn (a player on
  // slow Wi-Fi tapping + three times gets three).  ``body`` is the request, or a function making it from the deck
  // as the answers before it left it (a basic's count), null for nothing to send.
  function deckAction(body) {
    if (state.busy) {
      state.deckQueue.push(body);
      return Promise.resolve();
    }
    if (typeof body === "function") body = state.deck ? body(state.deck) : null;
    if (!body) {
      changed();
      return Promise.resolve();
    }
    state.unansweredDeck = null;
    state.busy = true;
    state.deckChanges += 1;
    state.deckChanging = true;
    return api("POST", "/api/deck", body)
      .then(function (result) {
        if (result.ok) {
          state.deck = result.data;
          $("deck-message").textContent = cmdraftPage.shown(result.data.said || ""); // the core's words, as the terminal's
          renderDeck();
        } else {
          $("deck-message").textContent = cmdraftPage.shown(errorText(result));
          if (result.data && result.data.deck) {
            state.deck = result.data.deck;
            renderDeck();
          }
        }
        changed(); // after the deck it answered: a change waiting its turn starts from it
      })
      .catch(function () {
        unanswered("change");
      });
  }

  function register() {
    if (state.busy) {
      state.registerNext = true;
      return;
    }
    state.unansweredDeck = null;
    state.busy = true;
    state.deckChanges += 1;
    state.deckChanging = true;
    api("POST", "/api/deck/register", {})
      .then(function (result) {
        changed();
        if (!result.ok) {
          $("deck-message").textContent = cmdraftPage.shown(errorText(result));
          return;
        }
        if (result.data.deck) state.deck = result.data.deck;
        renderDeck();
        $("deck-message").textContent = cmdraftPage.shown(state.deck.registered_words || ""); // the core's words
      })
      .catch(function () {
        unanswered("register");
      });
  }

  function smallButton(text, label, handler) {
    var b = el("button", "small", text);
    b.type = "button";
    cmdraftPage.label(b, label);
    b.addEventListener("click", handler);
    return b;
  }

  function drawDeck() {
    var deck = state.deck;
    if (!deck) return;
    showBuilder(true);
    // "registered" only for the very deck the desk has; a deck changed after registering says so
    var registered = deck.registered;
    var changed = !registered && !!state.seat && state.seat.phase === "registered";
    $("deck-size").textContent = "· " + deck.size + (deck.size === 1 ? " card" : " cards");
    var legal = $("deck-legal");
    legal.textContent = (deck.legal ? "Legal" : deck.closed ? "Not legal" : "Not legal yet") + // closed: only the desk mends it
      (registered ? " · registered" : changed ? " · changed since registered" : "");
    legal.className = "badge " + (deck.legal ? "ok" : "bad");
    var problems = clear($("deck-problems"));
    (deck.problems || []).forEach(function (p) {
      problems.appendChild(el("li", "", p.message));
    });
    // what the figures warn of, legal or not (the core's words, as the terminal's builder says them)
    var cautions = clear($("deck-cautions"));
    (deck.cautions || []).forEach(function (words) {
      cautions.appendChild(el("li", "", words));
    });
    $("deck-undo").disabled = !deck.can_undo;
    $("deck-redo").disabled = !deck.can_redo;
    $("deck-register").textContent = registered || changed ? "Register again" : "Register";
    $("piper-note").hidden = !deck.pipers_note;
    $("piper-note").textContent = cmdraftPage.shown(deck.pipers_note || "");
    // registration closed: the registered deck read-only, with the core's line saying who can change it
    var closed = $("deck-closed");
    closed.hidden = !deck.closed;
    closed.textContent = deck.closed
      ? deck.closed + "." + (deck.correction ? " The desk corrected your deck: " + deck.correction : "")
      : "";
    $("screen-deck").classList.toggle("closed", !!deck.closed);

    var commanders = clear($("deck-commanders"));
    var added = deck.added || { card: "The Prismatic Piper", word: "Piper", words: "Pipers" }; // the product's added card
    $("piper-label").textContent = cmdraftPage.shown(added.card + " as");
    // the core says how many the deck may lead with (the pool's and the store's stock for it): none, none offered
    var noPiper = deck.pipers_most === 0 && !(deck.pipers || []).length;
    $("piper-row").hidden = noPiper;
    if (!deck.commanders.length) {
      commanders.appendChild(el("p", "hint", "None yet: tap ♛ on a sideboard card" + (noPiper ? "." : ", or lead with " + added.card + ".")));
    }
    var chosen = deck.chosen || []; // the server's pairing: each commander's chosen colour beside it (a Piper's)
    deck.commanders.forEach(function (card, at) {
      var color = chosen[at] || null;
      var line = app.lineNode(card);
      if (color) {
        var as = el("span", "as hint", "as");
        line.insertBefore(as, line.lastChild);
        var pip = el("span", "pip p-" + color, color);
        pip.setAttribute("aria-hidden", "true"); // a screen reader hears the colour's name, not its letter
        line.insertBefore(pip, line.lastChild);
        line.insertBefore(el("span", "visually-hidden", COLOR_NAMES[color].toLowerCase()), line.lastChild);
      }
      line.appendChild(
        // two of the added card lead: each button names its own by its colour, for a screen reader
        smallButton("✕", "remove " + card.name + (color ? " (" + COLOR_NAMES[color].toLowerCase() + ")" : "") + " as commander", function () {
          deckAction(uncrowned(card.id, color));
        })
      );
      commanders.appendChild(line);
    });
    // No commander yet: the cards that may lead alone (the server's answer, ``crownable``: never a Background by
    // itself), as buttons under the heading. On a phone they were found only by scrolling the whole sideboard for a
    // ♛ (still there, and on a main-deck line, for a partner too).
    var crownable = deck.crownable || [];
    var leaders = clear($("deck-leaders"));
    var offered = {};
    var leading = deck.commanders.length ? [] : sortEntries((deck.sideboard || []).concat(deck.main || [])).filter(function (entry) {
      var once = crownable.indexOf(entry.card.id) >= 0 && !offered[entry.card.id];
      offered[entry.card.id] = true;
      return once;
    });
    leaders.hidden = !leading.length;
    if (leading.length) leaders.appendChild(el("span", "hint", "Can lead:"));
    leading.forEach(function (entry) {
      var b = el("button", "chip", "♛ " + entry.card.name);
      b.type = "button";
      cmdraftPage.label(b, "lead with " + entry.card.name);
      b.addEventListener("click", function () {
        deckAction(crowned(entry.card.id));
      });
      leaders.appendChild(b);
    });
    var piperBox = clear($("piper-colors"));
    COLORS.forEach(function (c) {
      var b = el("button", "pip p-" + c + " toggle", c);
      b.type = "button";
      b.setAttribute("aria-pressed", (deck.pipers || []).indexOf(c) >= 0 ? "true" : "false");
      cmdraftPage.label(b, added.word + " colour " + COLOR_NAMES[c]);
      b.addEventListener("click", function () {
        b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
        piperButton(added);
      });
      piperBox.appendChild(b);
    });
    piperButton(added);

    var basics = clear($("deck-basics"));
    COLORS.forEach(function (c) {
      var n = (deck.basics && deck.basics[c]) || 0;
      var row = el("div", "basic");
      row.appendChild(el("span", "pip p-" + c, c));
      // the count from the deck the tap's turn finds (taps made while a change was on its way each count)
      var basicsBy = function (step) {
        return function (now) {
          var count = ((now.basics && now.basics[c]) || 0) + step;
          return count < 0 ? null : { action: "basics", color: c, count: count };
        };
      };
      row.appendChild(smallButton("−", "one " + COLOR_NAMES[c] + " basic less", function () {
        deckAction(basicsBy(-1));
      }));
      row.appendChild(el("b", "", n));
      row.appendChild(smallButton("+", "one " + COLOR_NAMES[c] + " basic more", function () {
        deckAction(basicsBy(1));
      }));
      basics.appendChild(row);
    });

    var curve = clear($("deck-curve"));
    var counts = [0, 1, 2, 3, 4, 5, 6, 7].map(function (mv) {
      return (deck.curve || {})[String(mv)] || 0; // the server's 7 counts 7 or more
    });
    app.curveBars(counts, curve);

    var table = clear($("deck-sources"));
    var head = el("tr");
    head.appendChild(el("th", "", ""));
    var srcRow = el("tr");
    srcRow.appendChild(el("th", "", "sources"));
    var symRow = el("tr");
    symRow.appendChild(el("th", "", "symbols"));
    COLORS.forEach(function (c) {
      var th = el("th");
      th.appendChild(el("span", "pip p-" + c, c));
      head.appendChild(th);
      var sources = (deck.sources && deck.sources[c]) || 0;
      var symbols = (deck.symbols && deck.symbols[c]) || 0;
      srcRow.appendChild(el("td", symbols && !sources ? "short" : "", sources));
      symRow.appendChild(el("td", "", symbols));
    });
    table.appendChild(head);
    table.appendChild(srcRow);
    table.appendChild(symRow);

    var mainBox = clear($("deck-main"));
    var mainCount = 0;
    sortEntries(deck.main).forEach(function (entry) {
      mainCount += entry.count;
      var line = app.lineNode(entry.card, entry.count);
      if (crownable.indexOf(entry.card.id) >= 0) { // the server's answer: this card may be crowned now (a copy moves up)
        line.appendChild(
          smallButton("♛", "make " + entry.card.name + " a commander", function () {
            deckAction(crowned(entry.card.id));
          })
        );
      }
      line.appendChild(
        smallButton("−", "move " + entry.card.name + " to the sideboard", function () {
          deckAction({ action: "remove", cards: [[entry.card.id, 1]] });
        })
      );
      mainBox.appendChild(line);
    });
    $("main-count").textContent = "(" + mainCount + ")";

    var side = clear($("deck-side"));
    var sideCount = 0;
    sortEntries(deck.sideboard).forEach(function (entry) {
      sideCount += entry.count;
      var line = app.lineNode(entry.card, entry.count);
      if (crownable.indexOf(entry.card.id) >= 0) { // the server's answer: this card may be crowned now
        line.appendChild(
          smallButton("♛", "make " + entry.card.name + " a commander", function () {
            deckAction(crowned(entry.card.id));
          })
        );
      }
      line.appendChild(
        smallButton("+", "add " + entry.card.name + " to the main deck", function () {
          deckAction({ action: "add", cards: [[entry.card.id, 1]] });
        })
      );
      side.appendChild(line);
    });
    $("side-count").textContent = "(" + sideCount + ")";

    downloadLinks($("downloads"), true, true);
    app.credit((deck.main || []).map(function (entry) { return entry.card; }));
  }

  function sortEntries(entries) {
    return (entries || []).slice().sort(function (a, b) {
      var la = /Land/.test(a.card.type || "") ? 1 : 0;
      var lb = /Land/.test(b.card.type || "") ? 1 : 0;
      return la - lb || (a.card.mana_value || 0) - (b.card.mana_value || 0) || (a.card.name < b.card.name ? -1 : 1);
    });
  }

  // A tap on a crown or a commander's ✕ asks for a change of the commanders as the deck stands when its turn comes
  // (a tap made while another change is on its way waits for it): worked out from the deck then, not from the one
  // drawn when it was tapped, so that it never takes back the change before it.
  function crowned(id) {
    return function (now) {
      return { action: "commanders", cards: commanderIdsOf(now).concat([id]) };
    };
  }

  function uncrowned(id, color) {
    return function (now) {
      var chosen = now.chosen || [];
      var pipers = now.pipers || [];
      var at = -1;
      now.commanders.forEach(function (card, i) {
        if (at < 0 && card.id === id && (chosen[i] || null) === color) at = i;
      });
      if (at < 0) return null; // gone already: nothing to ask
      if (color && pipers.length > 1) {
        // one of two Pipers: the other keeps its colour (the same card twice: ids can't say which went)
        var kept = pipers.slice();
        kept.splice(chosen.slice(0, at).filter(Boolean).length, 1);
        return { action: "pipers", colors: kept };
      }
      var ids = commanderIdsOf(now);
      ids.splice(at, 1);
      return { action: "commanders", cards: ids };
    };
  }

  function commanderIdsOf(deck) {
    return deck.commanders.map(function (card) {
      return card.id;
    });
  }

  function tappedColors() {
    var chosen = [];
    var buttons = $("piper-colors").children;
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].getAttribute("aria-pressed") === "true") chosen.push(COLORS[i]);
    }
    return chosen;
  }

  // the button says what a tap on it asks for: one added card a colour tapped, counted as the core counts them
  // ("Lead with 2 Faceless Ones", ``AddedOption.count_words``; how many may lead, the server says)
  function piperButton(added) {
    var n = tappedColors().length;
    var what = n <= 1 ? added.word : n + " " + added.words;
    $("piper-set").textContent = cmdraftPage.shown("Lead with " + what);
  }

  // the colours tapped, however many: how many may lead the server says, in the words every face gives
  function piperChosen() {
    deckAction({ action: "pipers", colors: tappedColors() });
  }

  // for the other parts of the page
  app.deckAction = deckAction;
  app.loadDeck = loadDeck;
  app.renderWaiting = renderWaiting;
  app.piperChosen = piperChosen;
  app.register = register;
  app.renderDeck = renderDeck;
})(cmdraft);
