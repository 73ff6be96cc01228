/* cmdraft player page: join, draft, deck.  Plain ES2017, no framework, nothing fetched but this server.
   Every name and card text goes in with textContent: the page only shows and asks, the server decides. */
(function () {
  "use strict";

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
    wakeLock: null
  };

  // --- small helpers --------------------------------------------------------------------------------------

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
    return node;
  }

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

  function api(method, path, body) {
    var options = { method: method, credentials: "same-origin", headers: { Accept: "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    return fetch(path, options).then(function (response) {
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

  // --- joining --------------------------------------------------------------------------------------------

  function prefill() {
    var params = new URLSearchParams(location.search);
    if (params.get("event")) $("join-event").value = params.get("event");
    if (params.get("seat")) $("join-player").value = params.get("seat");
    if (params.get("player")) $("join-player").value = params.get("player");
    var first = $("join-event").value ? ($("join-player").value ? "join-code" : "join-player") : "join-event";
    $(first).focus();
  }

  function join(event) {
    event.preventDefault();
    var eventText = $("join-event").value.trim();
    var player = $("join-player").value.trim();
    var code = $("join-code").value.trim().toUpperCase();
    var error = $("join-error");
    if (!/^[0-9]+$/.test(eventText)) return (error.textContent = "Type the event number from your slip.");
    if (!player) return (error.textContent = "Type your player number or name.");
    if (!code) return (error.textContent = "Type the seat code from your slip.");
    error.textContent = "";
    $("join-button").disabled = true;
    var body = { event: parseInt(eventText, 10), player: /^[0-9]+$/.test(player) ? parseInt(player, 10) : player, code: code };
    api("POST", "/api/join", body)
      .then(function (result) {
        $("join-button").disabled = false;
        if (!result.ok) {
          error.textContent = errorText(result);
          $("join-code").select();
          return;
        }
        $("join-code").value = "";
        if (history.replaceState) history.replaceState(null, "", "/");
        state.joined = true;
        receive(result.data.seat);
        connect();
      })
      .catch(function () {
        $("join-button").disabled = false;
        error.textContent = "No answer from the server: check the Wi-Fi and try again.";
      });
  }

  // --- seat state -----------------------------------------------------------------------------------------

  function receive(seat) {
    if (!seat || typeof seat.version !== "number") return;
    if (typeof seat.server_time === "number") state.offset = seat.server_time - now();
    if (seat.version < state.version) return;
    state.version = seat.version;
    state.seat = seat;
    render();
    // night.js (the table view) listens: every seat state carries the table, so a push shows at once
    document.dispatchEvent(new CustomEvent("cmdraft:seat", { detail: seat }));
  }

  function render() {
    var seat = state.seat;
    $("event-name").textContent = seat.event && seat.event.name ? seat.event.name : "cmdraft";
    $("player-name").textContent = seat.player ? seat.player.name : "";
    document.title = (seat.player ? seat.player.name + " · " : "") + "cmdraft";
    var phase = seat.phase;
    var note = $("note");
    note.hidden = !seat.connection_note;
    note.textContent = seat.connection_note || "";
    renderPool(seat.pool || []);
    if (phase === "drafting" && seat.draft) {
      show("draft");
      renderDraft(seat);
      wake(true);
    } else if (phase === "building" || phase === "registered") {
      wake(false);
      show("deck");
      if (!state.deck) loadDeck();
      else renderDeck();
    } else if (phase === "finished") {
      wake(false);
      show("deck");
      if (!state.deck) loadDeck();
    } else {
      wake(false);
      show("wait");
      $("wait-title").textContent = "Waiting for the draft to start";
      $("wait-text").textContent = "Keep this page open: it moves on by itself.";
    }
  }

  // --- the draft ------------------------------------------------------------------------------------------

  function renderDraft(seat) {
    var d = seat.draft;
    $("pack-pick").textContent = "Pack " + d.pack + "/" + d.packs + " · Pick " + d.pick + "/" + d.picks;
    $("direction").textContent = d.direction === "right" ? "right →" : "← left";
    $("direction").title = "this pack passes " + d.direction;
    var key = d.pack + ":" + d.pick + ":" + d.cards.length;
    if (key !== state.packKey) {
      state.packKey = key;
      state.selected = [];
    }
    var last = d.last;
    $("last-pick").textContent = last && last.cards && last.cards.length
      ? "Last pick: " + last.cards.join(", ") + (last.why ? " (" + last.why + ")" : "")
      : "";
    var waiting = $("waiting-for");
    document.body.classList.toggle("pack-waiting", !d.cards.length); // the pool shows under the message meanwhile
    if (!d.cards.length) {
      waiting.hidden = false;
      waiting.textContent = d.done
        ? "Your draft is done. Waiting for the others to finish."
        : d.waiting_for > 0
          ? "Waiting for " + d.waiting_for + (d.waiting_for === 1 ? " player" : " players") + " to pick…"
          : "Waiting for the next pack…";
    } else {
      waiting.hidden = true;
    }
    var pack = clear($("pack"));
    d.cards.forEach(function (card, index) {
      var node = cardNode(card, { tag: "button" });
      node.type = "button";
      node.setAttribute("data-index", String(index));
      node.setAttribute("aria-pressed", state.selected.indexOf(index) >= 0 ? "true" : "false");
      node.addEventListener("click", function () {
        toggle(index);
      });
      pack.appendChild(node);
    });
    updateConfirm();
    tick();
  }

  function need() {
    var d = state.seat && state.seat.draft;
    if (!d) return 0;
    return Math.min(d.take || 2, d.cards.length);
  }

  function toggle(index) {
    var at = state.selected.indexOf(index);
    if (at >= 0) state.selected.splice(at, 1);
    else {
      if (state.selected.length >= need()) state.selected.shift();
      state.selected.push(index);
    }
    var buttons = $("pack").children;
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", state.selected.indexOf(i) >= 0 ? "true" : "false");
    }
    updateConfirm();
  }

  function updateConfirm() {
    var d = state.seat && state.seat.draft;
    var n = need();
    var bar = $("confirm-bar");
    bar.hidden = !d || !d.cards.length;
    var button = $("confirm");
    button.disabled = state.busy || n === 0 || state.selected.length !== n;
    button.textContent = state.selected.length === n && n > 0 ? "Confirm" : "Pick " + (n - state.selected.length) + " more";
    var names = state.selected.map(function (i) {
      return d.cards[i].name;
    });
    $("selected-names").textContent = names.length ? names.join(" + ") : "Tap " + n + (n === 1 ? " card" : " cards") + ", then Confirm";
  }

  function confirmPick() {
    var d = state.seat && state.seat.draft;
    if (!d || state.busy || state.selected.length !== need()) return;
    state.busy = true;
    updateConfirm();
    var body = { pack: d.pack, pick: d.pick, cards: state.selected.slice().sort(function (a, b) { return a - b; }) };
    api("POST", "/api/pick", body)
      .then(function (result) {
        state.busy = false;
        if (result.ok) {
          state.selected = [];
          receive(result.data);
        } else if (result.status === 409 && result.data.seat) {
          toast("That pack moved on: " + errorText(result));
          receive(result.data.seat);
        } else if (result.status === 401) {
          toJoin("Your seat needs its code again.");
        } else {
          toast(errorText(result));
          updateConfirm();
        }
      })
      .catch(function () {
        state.busy = false;
        toast("No answer from the server: your pick may not have arrived; reconnecting.");
        updateConfirm();
        refresh();
      });
  }

  function tick() {
    var d = state.seat && state.seat.draft;
    var timer = $("timer");
    if (!d || d.deadline === null || d.deadline === undefined || !d.cards.length) {
      timer.textContent = "";
      timer.setAttribute("data-level", "none");
      return;
    }
    var left = Math.max(0, Math.ceil(d.deadline - serverNow()));
    var minutes = Math.floor(left / 60);
    var seconds = left % 60;
    timer.textContent = minutes + ":" + (seconds < 10 ? "0" : "") + seconds;
    timer.setAttribute("data-level", left <= 10 ? "low" : left <= 30 ? "warn" : "ok");
  }

  function renderPool(pool) {
    $("pool-count").textContent = String(pool.length);
    var view = clear($("pool-view"));
    if (!pool.length) {
      view.appendChild(el("p", "hint", "No cards yet."));
      return;
    }
    if (state.poolView === "curve") {
      var buckets = {};
      var top = 0;
      pool.forEach(function (card) {
        if (/Land/.test(card.type || "") && !card.mana_value) return;
        var mv = Math.min(card.mana_value || 0, 7);
        (buckets[mv] = buckets[mv] || []).push(card);
        top = Math.max(top, buckets[mv].length);
      });
      var bars = el("div", "curve");
      for (var mv = 0; mv <= 7; mv++) {
        var list = buckets[mv] || [];
        var col = el("div", "bar");
        var fill = el("i");
        fill.style.height = top ? Math.round((60 * list.length) / top) + "px" : "0";
        col.appendChild(el("b", "", list.length || ""));
        col.appendChild(fill);
        col.appendChild(el("span", "", mv === 7 ? "7+" : String(mv)));
        bars.appendChild(col);
      }
      view.appendChild(bars);
      for (var m = 0; m <= 7; m++) {
        if (!buckets[m]) continue;
        view.appendChild(poolGroup(m === 7 ? "7+" : "Mana value " + m, buckets[m]));
      }
      var lands = pool.filter(function (card) {
        return /Land/.test(card.type || "") && !card.mana_value;
      });
      if (lands.length) view.appendChild(poolGroup("Lands", lands));
      return;
    }
    var groups = {};
    pool.forEach(function (card) {
      var key = colorKey(card);
      (groups[key] = groups[key] || []).push(card);
    });
    ["W", "U", "B", "R", "G", "M", "C"].forEach(function (key) {
      if (groups[key]) view.appendChild(poolGroup(COLOR_NAMES[key], groups[key], key));
    });
  }

  function poolGroup(title, cards, key) {
    var box = el("div", "pool-group");
    var head = el("h3", key ? "g-" + key : "", title + " · " + cards.length);
    box.appendChild(head);
    cards
      .slice()
      .sort(function (a, b) {
        return (a.mana_value || 0) - (b.mana_value || 0) || (a.name < b.name ? -1 : 1);
      })
      .forEach(function (card) {
        box.appendChild(lineNode(card));
      });
    return box;
  }

  function lineNode(card, count) {
    var line = el("div", "line " + frameClass(card));
    if (count !== undefined) line.appendChild(el("span", "count", count + "×"));
    var name = el("span", "line-name", card.name);
    line.appendChild(name);
    line.appendChild(pips(card.cost));
    if (card.text && card.text.length) {
      line.classList.add("has-text");
      name.addEventListener("click", function () {
        showCard(card);
      });
    }
    return line;
  }

  // --- deck -----------------------------------------------------------------------------------------------

  function loadDeck() {
    return api("GET", "/api/deck").then(function (result) {
      if (result.ok) {
        state.deck = result.data;
        renderDeck();
      } else if (result.status === 401) toJoin("Your seat needs its code again.");
      else $("deck-message").textContent = errorText(result);
    });
  }

  function deckAction(body) {
    if (state.busy) return Promise.resolve();
    state.busy = true;
    return api("POST", "/api/deck", body)
      .then(function (result) {
        state.busy = false;
        if (result.ok) {
          state.deck = result.data;
          $("deck-message").textContent = "";
          renderDeck();
        } else {
          $("deck-message").textContent = errorText(result);
          if (result.data && result.data.deck) {
            state.deck = result.data.deck;
            renderDeck();
          }
        }
      })
      .catch(function () {
        state.busy = false;
        $("deck-message").textContent = "No answer from the server: try again when it reconnects.";
      });
  }

  function register() {
    if (state.busy) return;
    state.busy = true;
    api("POST", "/api/deck/register", {})
      .then(function (result) {
        state.busy = false;
        if (!result.ok) {
          $("deck-message").textContent = errorText(result);
          return;
        }
        if (result.data.deck) state.deck = result.data.deck;
        renderDeck();
        $("deck-message").textContent = result.data.legal
          ? "Registered. The desk has your deck."
          : "Registered, with problems the desk will see (below).";
      })
      .catch(function () {
        state.busy = false;
        $("deck-message").textContent = "No answer from the server: not registered yet; try again.";
      });
  }

  function smallButton(text, label, handler) {
    var b = el("button", "small", text);
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.addEventListener("click", handler);
    return b;
  }

  function renderDeck() {
    var deck = state.deck;
    if (!deck) return;
    var registered = deck.registered || (state.seat && state.seat.phase === "registered");
    $("deck-size").textContent = "· " + deck.size + " cards";
    var legal = $("deck-legal");
    legal.textContent = (deck.legal ? "Legal" : "Not legal yet") + (registered ? " · registered" : "");
    legal.className = "badge " + (deck.legal ? "ok" : "bad");
    var problems = clear($("deck-problems"));
    (deck.problems || []).forEach(function (p) {
      problems.appendChild(el("li", "", p.message));
    });
    $("deck-undo").disabled = !deck.can_undo;
    $("deck-redo").disabled = !deck.can_redo;
    $("deck-register").textContent = registered ? "Register again" : "Register";

    var commanders = clear($("deck-commanders"));
    if (!deck.commanders.length) commanders.appendChild(el("p", "hint", "None yet: tap ♛ on a sideboard card, or lead with a Piper."));
    var commanderIds = deck.commanders.map(function (c) {
      return c.id;
    });
    var pipers = deck.pipers || [];
    var firstPiper = deck.commanders.length - pipers.length; // Pipers lead last, one per chosen colour
    deck.commanders.forEach(function (card, at) {
      var line = lineNode(card);
      if (at >= firstPiper) {
        var as = el("span", "as hint", "as");
        line.insertBefore(as, line.lastChild);
        line.insertBefore(el("span", "pip p-" + pipers[at - firstPiper], pipers[at - firstPiper]), line.lastChild);
      }
      line.appendChild(
        smallButton("✕", "remove " + card.name + " as commander", function () {
          var ids = commanderIds.slice();
          ids.splice(at, 1);
          deckAction({ action: "commanders", cards: ids });
        })
      );
      commanders.appendChild(line);
    });
    var piperBox = clear($("piper-colors"));
    COLORS.forEach(function (c) {
      var b = el("button", "pip p-" + c + " toggle", c);
      b.type = "button";
      b.setAttribute("aria-pressed", (deck.pipers || []).indexOf(c) >= 0 ? "true" : "false");
      b.setAttribute("aria-label", "Piper colour " + COLOR_NAMES[c]);
      b.addEventListener("click", function () {
        b.setAttribute("aria-pressed", b.getAttribute("aria-pressed") === "true" ? "false" : "true");
      });
      piperBox.appendChild(b);
    });

    var basics = clear($("deck-basics"));
    COLORS.forEach(function (c) {
      var n = (deck.basics && deck.basics[c]) || 0;
      var row = el("div", "basic");
      row.appendChild(el("span", "pip p-" + c, c));
      row.appendChild(
        smallButton("−", "one " + COLOR_NAMES[c] + " basic less", function () {
          if (n > 0) deckAction({ action: "basics", color: c, count: n - 1 });
        })
      );
      row.appendChild(el("b", "", n));
      row.appendChild(
        smallButton("+", "one " + COLOR_NAMES[c] + " basic more", function () {
          deckAction({ action: "basics", color: c, count: n + 1 });
        })
      );
      basics.appendChild(row);
    });

    var curve = clear($("deck-curve"));
    var keys = Object.keys(deck.curve || {});
    var top = 0;
    keys.forEach(function (k) {
      top = Math.max(top, deck.curve[k]);
    });
    keys.forEach(function (k) {
      var col = el("div", "bar");
      var fill = el("i");
      fill.style.height = top ? Math.round((60 * deck.curve[k]) / top) + "px" : "0";
      col.appendChild(el("b", "", deck.curve[k] || ""));
      col.appendChild(fill);
      col.appendChild(el("span", "", k));
      curve.appendChild(col);
    });

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
      var line = lineNode(entry.card, entry.count);
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
      var line = lineNode(entry.card, entry.count);
      if (commanderIds.length < 2 && /Legendary/.test(entry.card.type || "")) {
        line.appendChild(
          smallButton("♛", "make " + entry.card.name + " a commander", function () {
            deckAction({ action: "commanders", cards: commanderIds.concat([entry.card.id]) });
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

    var downloads = clear($("downloads"));
    [["pool", "Pool"], ["deck", "Deck"]].forEach(function (what) {
      var row = el("div", "row wrap");
      row.appendChild(el("span", "label", what[1]));
      FORMATS.forEach(function (f) {
        var a = el("a", "chip", f[1]);
        a.href = "/api/export/" + what[0] + "?format=" + f[0];
        a.setAttribute("download", "");
        row.appendChild(a);
      });
      downloads.appendChild(row);
    });
  }

  function sortEntries(entries) {
    return (entries || []).slice().sort(function (a, b) {
      var la = /Land/.test(a.card.type || "") ? 1 : 0;
      var lb = /Land/.test(b.card.type || "") ? 1 : 0;
      return la - lb || (a.card.mana_value || 0) - (b.card.mana_value || 0) || (a.card.name < b.card.name ? -1 : 1);
    });
  }

  function piperChosen() {
    var chosen = [];
    var buttons = $("piper-colors").children;
    for (var i = 0; i < buttons.length; i++) {
      if (buttons[i].getAttribute("aria-pressed") === "true") chosen.push(COLORS[i]);
    }
    if (!chosen.length || chosen.length > 2) {
      $("deck-message").textContent = "Tap one or two colours for the Piper first.";
      return;
    }
    deckAction({ action: "pipers", colors: chosen });
  }

  // --- connection -----------------------------------------------------------------------------------------

  function refresh() {
    return api("GET", "/api/seat")
      .then(function (result) {
        if (result.ok) {
          state.joined = true;
          receive(result.data);
          if (state.seat && (state.seat.phase === "building" || state.seat.phase === "registered") && state.deck)
            loadDeck();
          return true;
        }
        if (result.status === 401 || result.status === 403) {
          toJoin("");
          return false;
        }
        setConn("bad", errorText(result));
        return false;
      })
      .catch(function () {
        setConn("bad", "offline");
        return null;
      });
  }

  function toJoin(message) {
    state.joined = false;
    closeSocket();
    setConn("idle", "not joined");
    show("join");
    $("join-error").textContent = message || "";
    prefill();
  }

  function closeSocket() {
    clearTimeout(state.wsTimer);
    clearInterval(state.pingTimer);
    if (state.ws) {
      state.ws.onclose = null;
      try {
        state.ws.close();
      } catch (e) {
        /* already closed */
      }
      state.ws = null;
    }
  }

  function connect() {
    closeSocket();
    if (!state.joined) return;
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/stream";
    var ws;
    try {
      ws = new WebSocket(url);
    } catch (e) {
      return retry();
    }
    state.ws = ws;
    setConn("wait", state.wsTries ? "reconnecting…" : "connecting…");
    ws.onopen = function () {
      state.wsTries = 0;
      setConn("ok", "connected");
      state.pingTimer = setInterval(function () {
        if (ws.readyState === 1) ws.send(JSON.stringify({ type: "ping" }));
      }, 20000);
    };
    ws.onmessage = function (message) {
      var data;
      try {
        data = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      if (data.type === "seat") {
        receive(data.seat);
        if (state.deck && data.seat && (data.seat.phase === "building" || data.seat.phase === "registered")) loadDeck();
      } else if (data.type === "pong" && typeof data.server_time === "number") state.offset = data.server_time - now();
    };
    ws.onclose = function (event) {
      clearInterval(state.pingTimer);
      state.ws = null;
      if (event && (event.code === 4401 || event.code === 4403)) {
        // refused: a seat the desk took back shows the join screen; otherwise try again later, never at once
        refresh().then(function (ok) {
          if (ok !== false) retry();
        });
        return;
      }
      retry();
    };
  }

  function retry() {
    state.wsTries += 1;
    var delay = Math.min(15, Math.pow(2, Math.min(state.wsTries - 1, 4))) * (0.75 + Math.random() * 0.5);
    var until = now() + delay;
    setConn("bad", "offline · retrying");
    clearTimeout(state.wsTimer);
    (function countdown() {
      var left = Math.ceil(until - now());
      if (left > 0) {
        setConn("bad", "offline · retry in " + left + "s");
        state.wsTimer = setTimeout(countdown, 1000);
        return;
      }
      reconnect();
    })();
  }

  function reconnect() {
    setConn("wait", "reconnecting…");
    refresh().then(function (ok) {
      if (ok) connect();
      else if (ok === null) retry();
    });
  }

  // A screen that sleeps loses the draft's timer: keep it awake while picking, where the browser offers it.
  function wake(on) {
    if (!("wakeLock" in navigator)) return;
    if (on && !state.wakeLock && document.visibilityState === "visible") {
      navigator.wakeLock
        .request("screen")
        .then(function (lock) {
          state.wakeLock = lock;
          lock.addEventListener("release", function () {
            state.wakeLock = null;
          });
        })
        .catch(function () {
          /* refused (battery saver, no user gesture yet): the page still works */
        });
    } else if (!on && state.wakeLock) {
      state.wakeLock.release();
      state.wakeLock = null;
    }
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !state.joined) return;
    if (state.seat && state.seat.phase === "drafting") wake(true);
    if (!state.ws || state.ws.readyState > 1) {
      state.wsTries = 0;
      reconnect();
    }
  });
  window.addEventListener("online", function () {
    if (state.joined && (!state.ws || state.ws.readyState > 1)) reconnect();
  });

  // --- start ----------------------------------------------------------------------------------------------

  $("join-form").addEventListener("submit", join);
  $("confirm").addEventListener("click", confirmPick);
  $("pool-toggle").addEventListener("click", function () {
    document.body.classList.toggle("pool-open");
  });
  $("pool-close").addEventListener("click", function () {
    document.body.classList.remove("pool-open");
  });
  var tabs = document.querySelectorAll("#pool-panel .tab");
  for (var t = 0; t < tabs.length; t++) {
    tabs[t].addEventListener("click", function (event) {
      state.poolView = event.currentTarget.getAttribute("data-view");
      for (var i = 0; i < tabs.length; i++) tabs[i].setAttribute("aria-pressed", tabs[i] === event.currentTarget ? "true" : "false");
      if (state.seat) renderPool(state.seat.pool || []);
    });
  }
  $("sheet-close").addEventListener("click", function () {
    $("sheet").hidden = true;
  });
  $("sheet").addEventListener("click", function (event) {
    if (event.target === $("sheet")) $("sheet").hidden = true;
  });
  $("deck-undo").addEventListener("click", function () {
    deckAction({ action: "undo" });
  });
  $("deck-redo").addEventListener("click", function () {
    deckAction({ action: "redo" });
  });
  $("deck-auto").addEventListener("click", function () {
    deckAction({ action: "auto" });
  });
  $("deck-lands").addEventListener("click", function () {
    deckAction({ action: "lands" });
  });
  $("deck-register").addEventListener("click", register);
  $("piper-set").addEventListener("click", piperChosen);
  setInterval(tick, 250);

  refresh().then(function (ok) {
    if (ok) connect();
    else if (ok === null) {
      show("join");
      prefill();
      retry();
    }
  });
})();
