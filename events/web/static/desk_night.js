/* cmdraft desk page, the night after the draft: every table of the round with its result, the report waiting or
   disputed (every version), time left; who dropped; and the desk's actions: settle a result, extra time, pair the
   next round, the clock, undo, the final table, the tracker from phones.  It lives in <section id="desk-night">
   (made at the end of <main> when the page has none) and asks /api/desk/night itself.  Names go in with textContent. */
(function () {
  "use strict";

  var POLL_MS = 3000;
  // ``drawn``: the answer last drawn, its clock aside (``shape``); ``size``: the final table's size the desk chose;
  // ``focus``: the key of the control to give the keyboard back to once it can have it (a button off while busy)
  var state = { view: null, offset: 0, busy: false, message: "", refused: false, typing: {}, drawn: null, size: null, focus: null };

  var el = cmdraftPage.el;
  var clear = cmdraftPage.clear;
  var request = cmdraftPage.request;
  var put = cmdraftPage.put;

  function button(text, cls, key, action) {
    var b = el("button", cls, text);
    b.type = "button";
    b.setAttribute("data-key", key);
    b.disabled = state.busy;
    b.addEventListener("click", action);
    return b;
  }

  // A button's name for a screen reader, with its table: "Record" alone says not which of the tables it records.
  function named(node, text) {
    cmdraftPage.label(node, text);
    return node;
  }

  // What the desk's last action came to, for a screen reader: one live region made once, beside the night (never
  // drawn again with it: a region made anew with its words already in is not read out), its words set when they
  // change, and set again (emptied first) when the same words come again ("table 1 recorded" twice).
  var told = "";

  function tell(words) {
    var region = document.getElementById("desk-night-said");
    if (!region) {
      region = el("p", "visually-hidden");
      region.id = "desk-night-said";
      region.setAttribute("role", "status");
      var box = root();
      box.parentNode.insertBefore(region, box.parentNode.firstChild);
    }
    if (words === told) return;
    told = words;
    region.textContent = "";
    if (words) {
      setTimeout(function () {
        if (told === words) region.textContent = cmdraftPage.shown(words);
      }, 50);
    }
  }

  function root() {
    var node = document.getElementById("desk-night");
    if (!node) {
      node = el("section");
      node.id = "desk-night";
      (document.querySelector("main") || document.body).appendChild(node);
    }
    return node;
  }

  // A phone at the desk mid-round: the round's tables come before the seats (a judge looks for a table, not a seat,
  // while games are played); moved in the page itself, so a screen reader and the Tab key meet them first too.
  var NARROW = window.matchMedia("(max-width: 700px)");

  function placeFirst(playing) {
    var box = root();
    var seats = document.getElementById("desk-main");
    if (!seats || seats.parentNode !== box.parentNode) return;
    var first = playing && NARROW.matches;
    if (first && box.nextElementSibling !== seats) seats.parentNode.insertBefore(box, seats);
    if (!first && seats.nextElementSibling !== box) seats.parentNode.insertBefore(box, seats.nextElementSibling);
  }

  function names(groups) {
    return groups
      .map(function (g) {
        return g
          .map(function (p) {
            return typeof p === "string" ? p : p.name;
          })
          .join(" = ");
      })
      .join(" > ");
  }

  function ids(groups) {
    return groups.map(function (g) {
      return g.map(function (p) {
        return p.id;
      });
    });
  }

  function clockText(seconds) {
    var whole = Math.max(0, Math.ceil(seconds));
    return Math.floor(whole / 60) + ":" + (whole % 60 < 10 ? "0" : "") + (whole % 60);
  }

  // The answer as the page shows it: the server's clock, and a running clock's seconds left, aside (the clocks
  // count from their deadlines between answers, ``tick``).
  function shape(view) {
    return JSON.stringify(view, function (key, value) {
      if (key === "server_time") return undefined;
      if (key === "remaining" && this && !this.paused && this.deadline !== null && this.deadline !== undefined) return undefined;
      return value;
    });
  }

  function load() {
    return request("GET", "/api/desk/night").then(
      function (view) {
        // while decks are built and played, the Piper ledger too (a ledger not answered: the night without it)
        if (["building", "playing"].indexOf(view.event.status) < 0) return view;
        return request("GET", "/api/desk/pipers").then(
          function (ledger) { view.pipers = ledger; return view; },
          function () { return view; }
        );
      }
    ).then(
      function (view) {
        state.view = view;
        state.offset = view.server_time - Date.now() / 1000;
        // the same night as last time: nothing is drawn again (the keyboard's place and a press half made stay)
        var now = shape(view);
        if (now !== state.drawn || state.busy) render();
        else tick();
      },
      function () {
        /* no desk token in this browser: the page says so itself */
      }
    );
  }

  function act(path, body, said) {
    state.busy = true;
    state.message = "";
    state.refused = false;
    render();
    return request("POST", path, body)
      .then(function (answer) {
        state.message = typeof said === "function" ? said(answer) : said || "done";
      })
      .catch(function (error) {
        state.message = error.message;
        state.refused = true; // drawn as a refusal, not as what an action came to
      })
      .then(function () {
        state.busy = false;
        return load();
      });
  }

  // A settled result, and the core's words when it corrects one after a later round was paired (which tables
  // that pairing would have changed): the desk's terminal says the same.
  function recorded(table) {
    return function (done) {
      return "table " + table + " recorded" + (done && done.correction ? ": " + done.correction : "");
    };
  }

  // The keyboard's place through a drawing of the night: each control has a key (what it does, and its table), and
  // the control with the same key has the focus again once drawn anew (or, while it is off, once it is on again).
  function focusedKey() {
    var active = document.activeElement;
    if (!active || active === document.body || !root().contains(active)) return null;
    return active.getAttribute("data-key");
  }

  function refocus(key) {
    if (!key) return;
    var node = root().querySelector('[data-key="' + key + '"]');
    if (node && !node.disabled) {
      if (node !== document.activeElement) node.focus({ preventScroll: true });
      state.focus = null;
    } else state.focus = key;
  }

  // A redraw asked for during a press on the night waits for the press to end (cmdraftPage.pressHold), so a button
  // pressed as an answer comes is the button clicked.
  var render = cmdraftPage.pressHold(root)(draw);

  function draw() {
    var box = root();
    var view = state.view;
    var key = focusedKey() || (document.activeElement === document.body ? state.focus : null);
    state.focus = null;
    state.drawn = state.busy ? null : shape(view);
    clear(box);
    if (!view || ["building", "playing", "finished"].indexOf(view.event.status) < 0) {
      box.hidden = true;
      placeFirst(false);
      return;
    }
    box.hidden = false;
    var head = el("div", "panel");
    var rnd = view.round;
    placeFirst(!!(rnd && rnd.open));
    head.appendChild(el("h1", null, rnd ? (rnd.final ? "Final table" : "Round " + rnd.number) : "Rounds"));
    if (view.winner) {
      var won = el("p", "desk-night-winner", view.winner);
      won.id = "desk-night-winner";
      head.appendChild(won);
    }
    var message = el("p", state.refused ? "error" : "hint", state.message);
    message.id = "desk-night-message";
    head.appendChild(message);
    tell(state.message);
    var actions = el("div", "desk-night-actions");
    // which actions the desk may take now is the core's answer (``actions``); the page only draws them
    function may(action) { return view.actions.indexOf(action) >= 0; }
    if (may("pair")) actions.appendChild(button("Pair the next round", "primary", "pair", function () { act("/api/desk/round", {}, "paired"); }));
    if (may("pair-anyway")) { // a player to be paired has no legal deck (the decks line says who): the terminal's --force
      actions.appendChild(button("Pair anyway", "", "pair-anyway", function () {
        if (!window.confirm("Pair the next round although " + (view.decks || "a player has no legal deck") + "?")) return;
        act("/api/desk/round", { force: true }, "paired");
      }));
    }
    if (may("clock")) {
      // the round's clock, as the tables show it: start it once, then pause or resume it, or start it again
      var clock = rnd.tables.length ? rnd.tables[0].clock : null;
      if (!clock) actions.appendChild(button("Start the clock", "", "clock", function () { act("/api/desk/clock", {}, "clock running"); }));
      else {
        actions.appendChild(button(clock.paused ? "Resume the clock" : "Pause the clock", "", "clock", function () {
          act("/api/desk/clock", { pause: true }, clock.paused ? "clock running" : "clock paused");
        }));
        actions.appendChild(button("Restart the clock", "", "clock-restart", function () {
          // a clock is never undone: the time played so far would be lost to one tap beside "Pause the clock"
          var length = Math.round(clock.length / 60);
          if (!window.confirm("Restart the clock of " + (rnd.final ? "the final table" : "round " + rnd.number) + " from its full " + length + " minutes? The time played so far is lost.")) return;
          act("/api/desk/clock", { restart: true }, "clock restarted");
        }));
      }
    }
    if (may("pair-again")) actions.appendChild(button("Pair this round again", "", "pair-again", function () {
      if (!window.confirm("Pair round " + rnd.number + " again? Every table is drawn again, and players may already be sitting at them.")) return;
      act("/api/desk/round", { again: true }, "paired again");
    }));
    if (may("undo")) actions.appendChild(button("Undo the desk's last change", "", "undo", undo));
    if (may("top")) {
      var size = el("select");
      cmdraftPage.label(size, "final table size");
      size.setAttribute("data-key", "top-size");
      view.final_sizes.forEach(function (n) { // the sizes the event's final table may have, as the server says
        var o = el("option", null, "top " + n);
        o.value = String(n);
        size.appendChild(o);
      });
      if (state.size !== null && view.final_sizes.indexOf(Number(state.size)) >= 0) size.value = state.size; // the desk's choice
      size.addEventListener("change", function () { state.size = size.value; });
      actions.appendChild(size);
      actions.appendChild(button("Seat the final table", "", "top", function () { act("/api/desk/top", { size: Number(size.value) }, function (seated) {
        return "final table seated: " + seated.said.join(" "); // how each tie at the cut was settled, as the terminal says
      }); }));
    }
    if (may("tracker")) actions.appendChild(button(view.event.tracker ? "Tracker from phones: on" : "Tracker from phones: off", "", "tracker", function () {
      act("/api/desk/tracker", { on: !view.event.tracker }, "tracker changed");
    }));
    if (may("finish")) actions.appendChild(button("Finish the event", "", "finish", function () {
      // a finished event stays finished (undo doesn't take it back): one tap must not end the night
      if (!window.confirm("Finish " + cmdraftPage.shown(view.event.name) + "? The standings become final; a finished event stays finished (undo can't take it back).")) return;
      act("/api/desk/finish", {}, "finished");
    }));
    if (may("publish")) actions.appendChild(button(view.event.publish_decklists ? "Decklists public after the event: yes" : "Decklists public after the event: no", "", "publish", function () {
      act("/api/desk/publish", { on: !view.event.publish_decklists }, "decklists setting changed");
    }));
    head.appendChild(actions);
    if (view.event.status === "finished" && view.event.publish_decklists) { // public now: where the room reads them
      var lists = el("a", "desk-night-decklists", "Everyone's decklists, public now at /decklists");
      lists.href = "/decklists";
      head.appendChild(lists);
    }
    if (view.decks) {  // who has registered a deck: the core's words, as the terminal's deck board says them
      var decks = el("p", "desk-night-decks", view.decks);
      decks.id = "desk-night-decks";
      head.appendChild(decks);
    }
    if (view.dropped.length) {
      head.appendChild(el("p", "hint", "Dropped: " + view.dropped.map(function (d) { return d.name + (d.after_round ? " (after round " + d.after_round + ")" : ""); }).join(", ")));
    }
    box.appendChild(head);
    if (rnd) {
      var grid = el("div", "desk-night-tables");
      rnd.tables.forEach(function (t) {
        grid.appendChild(tableCard(rnd, t));
      });
      box.appendChild(grid);
      tick();
    }
    if (view.pipers) box.appendChild(ledgerPanel(view.pipers)); // below the round's tables, which come first
    refocus(key);
  }

  // The Piper ledger (``GET /api/desk/pipers``, the terminal's ``event pipers``), in the product's words: opened per
  // pod, what the registered decks add, unused in pools, the stock, a shortfall, who could lend, and the forecast
  // from requests until every deck is registered.  A table whose rows are headed, for a screen reader.
  function ledgerPanel(ledger) {
    var panel = el("div", "panel desk-pipers");
    panel.id = "desk-pipers";
    panel.appendChild(el("h2", null, ledger.word + " ledger"));
    var table = el("table", "desk-pipers-table");
    function row(label, value, cls) {
      var tr = el("tr", cls || null);
      var th = el("th", null, label);
      th.setAttribute("scope", "row");
      tr.appendChild(th);
      tr.appendChild(el("td", null, value));
      table.appendChild(tr);
    }
    function count(n) { return n + " " + (n === 1 ? ledger.word : ledger.words); }
    function listed(items) { return items.length ? items.join(", ") : ""; }
    ledger.pods.forEach(function (pod) {
      var opened = pod.opened === null ? "no pool recorded yet" : pod.opened + " in " + pod.pools_recorded + " of " + pod.seats + " recorded pools";
      if (pod.typed !== null) opened += "; typed " + pod.typed + (pod.disagrees ? " (disagrees with the pools)" : "");
      row("Opened, pod " + pod.pod, opened, pod.disagrees ? "warn" : null);
    });
    if (!ledger.pods.length) row("Opened", ledger.held_in_pools + " in the recorded pools");
    row(ledger.word + " stock", String(ledger.stock));
    row("Added by decks", listed(ledger.decks.filter(function (d) { return d.added; }).map(function (d) { return d.name + " " + d.added; })) || "none");
    row("Needed", String(ledger.needed));
    row("Unused in pools", String(ledger.unused));
    row("Available", ledger.available + " (unused + store stock)");
    if (ledger.shortfall) row("Shortfall", count(ledger.shortfall) + " short for the registered decks", "bad");
    row("Could lend", listed(ledger.lenders.map(function (l) {
      return l.name + " (" + l.spare + (l.deck_registered ? "" : ", no deck yet") + (l.dropped ? ", dropped" : "") + ")";
    })) || "nobody");
    var forecast = ledger.forecast;
    if (!forecast.spent) { // every deck registered: the requests made before deck building no longer tell anything
      row("Requested (forecast)", listed(forecast.requests.map(function (r) { return r.name + " " + r.requested; })) || "none");
      row("Needed from others", String(forecast.needed_from_others));
      row("Could be lent", String(forecast.available));
      if (forecast.shortfall > ledger.shortfall) row("Forecast short", count(forecast.shortfall) + ", if the requests hold", "warn");
    }
    panel.appendChild(table);
    return panel;
  }

  // Undo names what it takes back, asked first (the terminal's ``event undo`` asks before a round's pairing or a
  // seating, whose players may sit at those tables), and takes back that change only: another one made meanwhile
  // is refused, in the core's words.  A change that can't be undone says why, and nothing is sent.
  function undo() {
    state.busy = true;
    state.message = "";
    state.refused = false;
    render();
    request("GET", "/api/desk/undo")
      .then(function (answer) {
        state.busy = false;
        var next = answer.next;
        if (next && next.refused) {
          state.message = next.refused;
          state.refused = true;
          return load();
        }
        if (next) {
          var sure = "Take back " + next.text + "?" + (next.asks ? " Players may be sitting at those tables." : "");
          if (!window.confirm(cmdraftPage.shown(sure))) return load();
        }
        return act("/api/desk/undo", next ? { expect: next.entry } : {}, function (done) {
          return "undone: " + done.undid;
        });
      })
      .catch(function (error) {
        state.busy = false;
        state.message = error.message;
        state.refused = true;
        return load();
      });
  }

  function tableCard(rnd, t) {
    var card = el("div", "panel desk-night-table status-" + t.status);
    card.dataset.table = String(t.table);
    var top = el("div", "row spread");
    top.appendChild(el("h2", null, "Table " + t.table));
    var left = el("span", "desk-night-clock");
    left.dataset.table = String(t.table);
    top.appendChild(left);
    card.appendChild(top);
    card.appendChild(el("p", "desk-night-status", t.status_words)); // the core's words for the status
    card.appendChild(el("p", null, t.players.join(", ") + (t.first ? " · " + t.first + " goes first" : "")));
    if (t.result) {
      card.appendChild(el("p", "desk-night-order", names(t.result.order)));
    }
    var r = t.report;
    if (r && !t.result) {
      var reported = el("div", "desk-night-version");
      reported.appendChild(el("p", "desk-night-order", names(r.order)));
      // who reported it and who is still waited for: the core's words, as the phones and the terminal say them
      reported.appendChild(el("p", "hint", r.by_words));
      if (r.waiting_words) reported.appendChild(el("p", "hint", r.waiting_words));
      reported.appendChild(named(button("Record this version", "primary", "report:" + t.table, function () {
        act("/api/desk/settle", { round: rnd.number, table: t.table, order: ids(r.order) }, recorded(t.table));
      }), "Record this version for table " + t.table + ": " + names(r.order)));
      card.appendChild(reported);
      r.disputes.forEach(function (d, i) {
        var version = el("div", "desk-night-version");
        version.appendChild(el("p", null, d.words)); // the core's words, as the phones and the terminal say them
        if (d.order.length) {
          version.appendChild(el("p", "desk-night-order", names(d.order)));
          version.appendChild(named(button("Record " + d.player + "'s version", "", "dispute:" + t.table + ":" + i, function () {
            act("/api/desk/settle", { round: rnd.number, table: t.table, order: ids(d.order) }, recorded(t.table));
          }), "Record " + d.player + "'s version for table " + t.table + ": " + names(d.order)));
        }
        card.appendChild(version);
      });
    }
    if ((rnd.open || t.result) && state.view.actions.indexOf("settle") >= 0) { // the core's answer: results may change
      var typed = el("input");
      // an example in this table's own names: a finishing order, "=" for a draw after the first
      typed.placeholder = t.players.map(function (name, i) { return (i === 0 ? "" : i === 2 ? " = " : " > ") + name; }).join("");
      cmdraftPage.label(typed, "result of table " + t.table);
      typed.setAttribute("data-key", "typed:" + t.table);
      typed.value = state.typing[t.table] || "";
      typed.addEventListener("input", function () { state.typing[t.table] = typed.value; });
      var row = el("div", "desk-night-actions");
      row.appendChild(typed);
      var record = named(button(t.result ? "Correct" : "Record", "", "record:" + t.table, function () {
        // the text stays until it is recorded: a refused one (a name mistyped) is mended, not typed again
        var text = typed.value;
        act("/api/desk/settle", { round: rnd.number, table: t.table, order: text, replace: !!t.result }, function (done) {
          if (state.typing[t.table] === text) state.typing[t.table] = "";
          return recorded(t.table)(done);
        });
      }), (t.result ? "Correct" : "Record") + " table " + t.table + "'s result as typed");
      typed.addEventListener("keydown", function (event) { // Enter in the field records it, as its button does
        if (event.key === "Enter" && !record.disabled) record.click();
      });
      row.appendChild(record);
      if (rnd.open && !t.result) {
        row.appendChild(named(button("+5 min", "", "extra:" + t.table, function () {
          act("/api/desk/extra-time", { table: t.table, minutes: 5 }, "table " + t.table + ": 5 more minutes");
        }), "+5 min for table " + t.table)); // its words first, as every name here (a voice control says them)
      }
      card.appendChild(row);
    }
    return card;
  }

  function tick() {
    var view = state.view;
    if (!view || !view.round) return;
    view.round.tables.forEach(function (t) {
      var node = document.querySelector(".desk-night-clock[data-table='" + t.table + "']");
      if (!node) return;
      var c = t.clock;
      if (!c || t.result) {
        put(node, "");
        return;
      }
      var left = c.paused || c.deadline === null ? c.remaining : c.deadline - (Date.now() / 1000 + state.offset);
      put(node, (c.paused ? "paused " : "") + clockText(left) + (c.extra ? " (+" + Math.round(c.extra / 60) + ")" : ""));
    });
  }

  NARROW.addEventListener("change", render);
  load();
  setInterval(function () {
    var active = document.activeElement;
    // a result half typed is not drawn over (an empty field with the keyboard in it is: the night goes on)
    var typing = active && active.tagName === "INPUT" && root().contains(active) && active.value;
    if (!state.busy && !typing && !document.hidden) load();
  }, POLL_MS);
  setInterval(tick, 1000);
})();
