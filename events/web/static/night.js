/* cmdraft player page, the night after the draft: my table, its clock, the result my table reports and confirms,
   my standing and the night's standings, the game tracker (when the desk allows it) and dropping.  It lives in
   <section id="night"> (made at the top of <main> when the page has none) and asks /api/table and /api/standings
   itself; the page's own code is left alone.
   Every name goes in with textContent: the page shows and asks, the server decides. */
(function () {
  "use strict";

  var POLL_MS = 3000;
  var state = {
    view: null, looks: null, focus: null, offset: 0, editing: null, dropping: false, busy: false, error: "", damage: null,
    unanswered: false,
    standings: null, standingsLooks: null, polls: 0,
    seated: "" // the round and table drawn last ("" none): a new one is scrolled into view
  };

  var el = cmdraftPage.el;
  var clear = cmdraftPage.clear;
  var clockText = cmdraftPage.clockText;
  var put = cmdraftPage.put;
  var request = cmdraftPage.request;

  function button(text, cls, action) {
    var b = el("button", cls, text);
    b.type = "button";
    b.disabled = state.busy;
    b.addEventListener("click", action);
    return b;
  }

  function root() {
    var node = document.getElementById("night");
    if (!node) {
      node = el("section", "night");
      node.id = "night";
      var main = document.querySelector("main") || document.body;
      main.insertBefore(node, main.firstChild);
    }
    return node;
  }

  function points(value) {
    return String(Math.round(value * 100) / 100);
  }

  function orderText(groups) {
    return groups
      .map(function (group, i) {
        return group
          .map(function (p) {
            return typeof p === "string" ? p : p.name;
          })
          .join(" = ");
      })
      .join("  >  ");
  }

  // --- talking to the server ------------------------------------------------------------------------------------

  function load() {
    // not joined (yet), or the join form is up (the seat was opened elsewhere): no table to ask for
    if (!cmdraftPage.holdsSeat() || document.body.getAttribute("data-screen") === "join") return Promise.resolve();
    return request("GET", "/api/table").then(apply, function () {
      /* not joined (yet): nothing to show */
    });
  }

  // The standings are the room's (GET /api/standings: the server ranks, the page only lists them), asked for once
  // the player has a standing: when their view changes, on each push (a result at any table), and every 15 s.
  function loadStandings() {
    if (!state.view || !state.view.standing) return;
    request("GET", "/api/standings").then(function (answer) {
      var looks = JSON.stringify([answer.standings, answer.winner]);
      state.standings = answer;
      if (looks === state.standingsLooks) return;
      state.standingsLooks = looks;
      render();
    }, function () {
      /* the next push or poll asks again */
    });
  }

  function act(method, path, body) {
    state.busy = true;
    state.error = "";
    render();
    return request(method, path, body)
      .then(function (view) {
        state.busy = false;
        // a table's state (its round an object, or null): shown at once; any other answer (the tracker's board,
        // whose round is a number) leaves the table as it is, asked for again
        if (view && view.server_time !== undefined && view.round !== undefined) apply(view, true);
        else {
          render(); // the controls usable again; the table as it is now follows
          load();
        }
        return view;
      })
      .catch(function (error) {
        state.busy = false;
        state.error = error.message;
        state.unanswered = !!error.noAnswer; // said until the server answers again: then it shows what it has
        render();
        load();
      });
  }

  // A table from any of the page's sources: the answer to its own request, a poll, the stream.  They can arrive
  // out of order (a poll's answer read before a change and delivered after it, a push worked out before a write
  // and sent after the write's own), so a view stamped earlier than the one shown is dropped: a change's own
  // answer, or the next poll or push after it, is stamped later.  (A stamp far in the past is the server's clock
  // set back, not a race: shown.)  A view that shows what is shown already (only the server's time moved) leaves
  // the screen alone, so a control being used, a number half typed, keeps its place and its focus.
  var CLOCK_STEP_S = 60;

  function apply(view, redraw) {
    var shown = state.view;
    if (shown && view.server_time < shown.server_time && shown.server_time - view.server_time < CLOCK_STEP_S) {
      if (redraw) render(); // the controls usable again, over the newer view
      return;
    }
    state.view = view;
    state.offset = view.server_time - Date.now() / 1000;
    if (state.unanswered) {  // the table as the server has it now: whatever arrived, it is what this view shows
      state.unanswered = false;
      state.error = "";
      redraw = true;
    }
    var looks = appearance(view);
    if (looks === state.looks && !redraw) return tick();
    state.looks = looks;
    render();
    loadStandings();
  }

  // What a view shows: all of it but the moments it was read (the server's time, and a running clock's time left,
  // which its deadline already says).
  function appearance(view) {
    return JSON.stringify(view, function (key, value) {
      if (key === "server_time") return undefined;
      if (key === "remaining" && this.deadline !== null && this.deadline !== undefined) return undefined;
      if (key === "deadline" && typeof value === "number") return Math.round(value * 10) / 10;
      return value;
    });
  }

  // --- drawing ---------------------------------------------------------------------------------------------------

  // The control that has the focus is drawn again on each render: it gets the focus back (a phone's keyboard stays
  // open, a screen reader stays where it was), found by its kind, its name and which of that name it is.
  var CONTROLS = "button, input, select";

  function controlKey(node, box) {
    var name = function (n) { return n.tagName + ":" + (n.getAttribute("aria-label") || n.textContent); };
    var same = Array.prototype.filter.call(box.querySelectorAll(CONTROLS), function (n) { return name(n) === name(node); });
    return name(node) + "#" + same.indexOf(node);
  }

  function refocus(box, key) {
    var found = Array.prototype.filter.call(box.querySelectorAll(CONTROLS), function (n) { return controlKey(n, box) === key; })[0];
    if (!found || found.disabled) {
      state.focus = key; // disabled while the page waits for an answer: focused on the render after it
      return;
    }
    state.focus = null;
    found.focus();
  }

  // The table is drawn again on a push, a poll's answer, the standings: a redraw asked for during a press on one of
  // its buttons waits for the press to end (cmdraftPage.pressHold), so a Confirm pressed is the Confirm clicked.
  var render = cmdraftPage.pressHold(function () { return document.getElementById("night"); })(draw);

  function draw() {
    var box = root();
    var view = state.view;
    var active = document.activeElement;
    var focused = active && box.contains(active) && active.matches(CONTROLS) ? controlKey(active, box) : null;
    if (!focused && (!active || active === document.body)) focused = state.focus;
    clear(box);
    var shown = !!(view && view.round);
    box.hidden = !shown;
    cmdraftPage.headingsUnder(document.getElementById("screen-deck"), shown); // the table heads the page (its h1)
    var seated = shown ? view.round.number + "/" + view.round.table + (view.round.final ? "/final" : "") : "";
    var moved = seated !== state.seated; // a table new to this page (a round just paired)
    state.seated = seated;
    if (!shown) return;
    var rnd = view.round;
    var panel = el("div", "panel night-table");
    var head = el("div", "night-head");
    // the page's one h1: the table the player is at heads the page, its parts under it (h2), and the deck below
    // steps down a level (headingsUnder), so a reader's list of headings is an outline
    head.appendChild(el("h1", null, rnd.final ? "Final table" : "Round " + rnd.number + " · Table " + rnd.table));
    var clock = el("div", "night-clock");
    clock.id = "night-clock";
    head.appendChild(clock);
    panel.appendChild(head);
    if (view.winner) {
      var won = el("p", "night-winner", view.winner);
      won.id = "night-winner";
      panel.appendChild(won);
    }
    var notice = el("p", "night-notice");
    notice.id = "night-notice";
    notice.setAttribute("role", "status");
    panel.appendChild(notice);

    var list = el("ol", "night-players");
    rnd.players.forEach(function (p) {
      var item = el("li", p.me ? "me" : "");
      var line = el("div", "who");
      line.appendChild(el("span", "name", p.name + (p.me ? " (you)" : "")));
      if (p.first) line.appendChild(el("span", "first", "goes first"));
      if (p.dropped) line.appendChild(el("span", "dropped", "dropped"));
      item.appendChild(line);
      if (p.commanders.length) {
        var led = p.commanders.map(function (name, i) { return commanderCopy(p, i).label; });
        item.appendChild(el("div", "commanders", led.join(" · ")));
      }
      list.appendChild(item);
    });
    panel.appendChild(list);
    if (view.standing) {
      var s = view.standing;
      panel.appendChild(
        el("p", "night-standing", "You: " + s.rank_text + " · " + points(s.points) + (s.points === 1 ? " point · " : " points · ") + s.rounds + " played" +
          (s.final_place_text ? " · final table: " + s.final_place_text : ""))
      );
    }
    box.appendChild(panel);
    box.appendChild(resultPanel(view));
    // the tracker for the players still in the event (the core's may_report: one who dropped plays no more)
    if (view.event.tracker && rnd.game && rnd.open && view.player.may_report !== false) box.appendChild(trackerPanel(view));
    if (view.standing && state.standings && state.standings.standings.length) box.appendChild(standingsPanel(view));
    if (view.event.decklists) box.appendChild(decklistsPanel()); // the core's word: finished, and published
    if (view.player.may_drop) box.appendChild(dropPanel()); // the core's rule, not the page's
    if (focused) refocus(box, focused);
    tick();
    // a table new to the page goes in above the deck, and the browser keeps a player who had scrolled into the
    // builder where they were: they would see nothing of being paired.  Brought into view (once: the table's later
    // pushes leave the page where the player put it).
    var top = box.getBoundingClientRect().top;
    if (moved && (top < 0 || top > window.innerHeight)) box.scrollIntoView({ block: "start" });
  }

  // The night's standings as the server ranks them, the player's own row marked.
  function standingsPanel(view) {
    var panel = el("div", "panel night-standings");
    panel.id = "night-standings";
    panel.appendChild(el("h2", null, view.standings_title)); // the core's words: final once the event is finished
    var list = el("ol", "night-ranks");
    state.standings.standings.forEach(function (row) {
      var me = row.name === view.standing.name;
      var item = el("li", me ? "me" : "");
      if (me) item.setAttribute("aria-current", "true");
      item.appendChild(el("span", "rank", row.rank_text));
      item.appendChild(el("span", "name", row.name + (me ? " (you)" : "") + (row.dropped ? " · dropped" : "")));
      item.appendChild(el("span", "points", points(row.points) + (row.points === 1 ? " pt" : " pts") + " · " + row.rounds + " played"));
      item.appendChild(el("span", "ties", row.tie_breakers)); // the server's words: why equal points stand so
      list.appendChild(item);
    });
    panel.appendChild(list);
    return panel;
  }

  function resultPanel(view) {
    var rnd = view.round;
    var panel = el("div", "panel night-result");
    panel.id = "night-result";
    panel.appendChild(el("h2", null, "Result"));
    if (state.error) panel.appendChild(el("p", "error", state.error));
    if (rnd.result) {
      panel.appendChild(el("p", "night-order", orderText(rnd.result.order)));
      panel.appendChild(el("p", "hint", rnd.status_words)); // the core's words for the table's status
      return panel;
    }
    if (state.editing) {
      panel.appendChild(editor(view));
      return panel;
    }
    var report = rnd.report;
    var mayReport = view.player.may_report !== false; // the core's rule (a player who dropped reports no more)
    if (!report) {
      panel.appendChild(el("p", "hint", rnd.status_words)); // the core's words for the table's status
      if (mayReport) panel.appendChild(button("Report the result", "primary", function () { startEditing("report"); }));
      return panel;
    }
    panel.appendChild(el("p", "night-order", orderText(report.order)));
    // who reported it and who is still waited for (this player as "you"): the core's words, as the terminal says them
    panel.appendChild(el("p", "hint", report.by_words));
    if (report.waiting_words) panel.appendChild(el("p", "night-waiting", report.waiting_words));
    report.disputes.forEach(function (d) {
      // the core's words, as the desk and the terminal say them, then the version given
      panel.appendChild(el("p", "night-dispute", d.words + (d.order.length ? " " + orderText(d.order) : "")));
    });
    // the core's words for the table's status; the desk's to settle (disputed, time up) stands out
    panel.appendChild(el("p", rnd.status === "waiting" ? "night-status" : "night-status night-desk", rnd.status_words));
    if (!mayReport) return panel;
    var row = el("div", "night-actions");
    if (!report.mine.confirmed) {
      row.appendChild(button("Confirm", "primary", function () {
        act("POST", "/api/result/confirm", { report: report.id, agree: true });
      }));
    }
    // the reporter's own report: nothing to dispute, only theirs to change (a new report replaces it)
    if (!report.mine.disputed && !report.mine.reported) {
      row.appendChild(button("Dispute", "", function () { startEditing("dispute"); }));
    }
    row.appendChild(button(report.mine.reported ? "Change my report" : "Report again", "", function () { startEditing("report"); }));
    panel.appendChild(row);
    return panel;
  }

  // The finishing order, entered by tapping the players as they finished: 1st, then 2nd, ...; "Draw" makes the
  // next tap share the place above; Undo takes the last tap back; Confirm sends it (the core refuses one that
  // misses a player).
  // It starts from the order reported (a dispute, a report again) or empty.
  function startEditing(kind) {
    var report = state.view.round.report;
    var groups = report && kind === "dispute"
      ? report.order.map(function (group) { return group.map(function (p) { return p.id; }); })
      : [];
    state.editing = { kind: kind, groups: groups, tie: false };
    render();
  }

  function placed(editing) {
    var ids = [];
    editing.groups.forEach(function (group) { ids = ids.concat(group); });
    return ids;
  }

  // The order is changed after a refusal (whom it missed): the refusal was of the order sent, not of this one, so
  // it is said no more.  "No answer from the server" stays until the server answers: what was sent is unknown.
  function amended() {
    if (!state.unanswered) state.error = "";
  }

  function editor(view) {
    var players = view.round.players;
    var names = {};
    players.forEach(function (p) { names[p.id] = p.name; });
    var editing = state.editing;
    var done = placed(editing);
    var form = el("div", "night-editor");
    var place = done.length + 1;
    var entry = view.round.entry; // the core's rule (how many the order places) and its words once they are
    form.appendChild(el("p", "hint", done.length >= entry.places
      ? (editing.kind === "dispute" ? entry.placed_version : entry.placed)
      : editing.tie
        ? "Tap who drew with " + editing.groups[editing.groups.length - 1].map(function (id) { return names[id]; }).join(" and ") + "."
        : "Tap the players in finishing order: who finished " + entry.place_words[editing.groups.length ? done.length : 0] + "?"));
    var list = el("ol", "night-picked");
    var at = 1;
    editing.groups.forEach(function (group) {
      list.appendChild(el("li", null, entry.place_words[at - 1] + ": " + group.map(function (id) { return names[id]; }).join(" = ")));
      at += group.length;
    });
    if (editing.groups.length) form.appendChild(list);
    var choices = el("div", "night-choices");
    players.forEach(function (p) {
      if (done.indexOf(p.id) >= 0) return;
      choices.appendChild(button(p.name, "night-choice", function () {
        if (editing.tie && editing.groups.length) editing.groups[editing.groups.length - 1].push(p.id);
        else editing.groups.push([p.id]);
        editing.tie = false;
        amended();
        render();
      }));
    });
    form.appendChild(choices);
    var row = el("div", "night-actions");
    var undo = button("Undo", "", function () {
      var last = editing.groups[editing.groups.length - 1];
      last.pop();
      if (!last.length) editing.groups.pop();
      editing.tie = false;
      amended();
      render();
    });
    undo.disabled = state.busy || !done.length;
    row.appendChild(undo);
    var tie = button("Draw with the place above", "", function () {
      editing.tie = !editing.tie;
      render();
    });
    tie.setAttribute("aria-pressed", editing.tie ? "true" : "false");
    tie.disabled = state.busy || !done.length || done.length >= entry.places;
    row.appendChild(tie);
    // Whether the order is complete is the core's rule: the page sends it as tapped and shows the core's refusal
    // (whom it is missing), the order kept to finish; an order taken closes the form.
    var confirm = button(editing.kind === "dispute" ? "Confirm my version" : "Confirm", "primary", function () {
      var order = editing.groups.map(function (group) { return group.slice(); });
      var sent = editing.kind === "dispute"
        ? act("POST", "/api/result/confirm", { report: view.round.report.id, agree: false, order: order })
        : act("POST", "/api/result", { order: order });
      sent.then(function (answer) {
        if (answer === undefined || state.editing !== editing) return;
        state.editing = null;
        render();
      });
    });
    confirm.disabled = state.busy;
    row.appendChild(confirm);
    row.appendChild(button("Cancel", "", function () { state.editing = null; render(); }));
    form.appendChild(row);
    return form;
  }

  // Life taps add up: a tap while the last change is on its way waits and goes with the next one, summed per
  // player, so quick taps are all counted (the server applies each change it is sent).
  var lives = { sending: false, pending: {} };

  function lifeTap(id, delta) {
    lives.pending[id] = (lives.pending[id] || 0) + delta;
    sendLives();
  }

  function sendLives() {
    if (lives.sending) return; // sent when the change on its way is answered
    var changes = Object.keys(lives.pending).map(function (key) { return [Number(key), lives.pending[key]]; })
      .filter(function (change) { return change[1] !== 0; });
    lives.pending = {};
    if (!changes.length) return;
    lives.sending = true;
    act("POST", "/api/game", { life: changes }).then(function () {
      lives.sending = false;
      sendLives(); // what was tapped meanwhile
    });
  }

  function trackerPanel(view) {
    var panel = el("div", "panel night-tracker");
    panel.appendChild(el("h2", null, "Game"));
    var me = view.round.players.filter(function (p) { return p.me; })[0];
    view.round.game.players.forEach(function (row, index) {
      var player = view.round.players[index];
      var line = el("div", "night-life" + (row.lost ? " lost" : ""));
      line.appendChild(el("span", "name", row.player));
      function lifeButton(delta) {
        var b = button((delta > 0 ? "+" : "") + delta, "small", function () { lifeTap(player.id, delta); });
        b.disabled = false; // a tap while the last is on its way is added to the next change, never lost
        cmdraftPage.label(b, row.player + ": " + (delta > 0 ? "gain " : "lose ") + Math.abs(delta) + " life");
        return b;
      }
      [-5, -1].forEach(function (delta) { line.appendChild(lifeButton(delta)); });
      line.appendChild(el("span", "life", row.life));
      [1, 5].forEach(function (delta) { line.appendChild(lifeButton(delta)); });
      panel.appendChild(line);
      row.commander_damage.forEach(function (hit) {
        panel.appendChild(el("div", "hint", "  " + hit.amount + " from " + hit.label));
      });
      row.tax.forEach(function (tax) {
        panel.appendChild(el("div", "hint", "  " + tax.label + ": tax " + tax.tax));
      });
    });
    if (me && me.commanders.length) {
      var casts = el("div", "night-actions");
      me.commanders.forEach(function (name, i) {
        var named = commanderCopy(me, i); // two Pipers: each its own commander, "#1" and "#2", with its color
        casts.appendChild(button("Cast " + named.label, "small", function () { act("POST", "/api/game", { cast: [[me.id, named.spec]] }); }));
      });
      panel.appendChild(casts);
    }
    panel.appendChild(damageForm(view.round.players));
    panel.appendChild(button("Undo my last entry", "", function () { act("POST", "/api/game", { undo: true }); }));
    return panel;
  }

  // A player's i-th commander: what the server calls it ("#2" for a second copy) and its label, with the color
  // the server says it chose (a Piper's).
  function commanderCopy(p, i) {
    var name = p.commanders[i];
    var copies = p.commanders.filter(function (other) { return other === name; }).length;
    var copy = p.commanders.slice(0, i + 1).filter(function (other) { return other === name; }).length;
    var named = copies > 1 ? { spec: name + "#" + copy, label: name + " #" + copy } : { spec: name, label: name };
    if (p.colors[i]) named.label += " (" + p.colors[i] + ")";
    return named;
  }

  // Commander damage: who took it, from which commander (its owner's, "#2" for a second copy), how much.  The
  // choices live in state.damage so that a push or a poll redrawing the table keeps them.

  function damageSources(players) {
    var sources = [];
    players.forEach(function (p) {
      p.commanders.forEach(function (name, i) {
        var named = commanderCopy(p, i);
        sources.push({ key: p.id + ":" + named.spec, id: p.id, spec: named.spec, label: p.name + ": " + named.label });
      });
    });
    return sources;
  }

  function choice(label, options, chosen, change) {
    var select = el("select");
    cmdraftPage.label(select, label);
    options.forEach(function (o) {
      var option = el("option", null, o.label);
      option.value = o.key;
      if (o.key === chosen) option.selected = true;
      select.appendChild(option);
    });
    select.addEventListener("change", function () { change(select.value); });
    return select;
  }

  function damageForm(players) {
    var sources = damageSources(players);
    var form = el("div", "night-damage");
    if (!sources.length) return form;  // no commanders known yet (decks not registered)
    var d = state.damage || (state.damage = { victim: "", source: "", amount: "" });
    if (!players.some(function (p) { return String(p.id) === d.victim; })) d.victim = String(players[0].id);
    if (!sources.some(function (s) { return s.key === d.source; })) d.source = sources[0].key;
    form.appendChild(el("h3", null, "Commander damage"));
    var victims = players.map(function (p) { return { key: String(p.id), label: p.name }; });
    form.appendChild(choice("damage to", victims, d.victim, function (v) { d.victim = v; }));
    form.appendChild(choice("damage from", sources, d.source, function (v) { d.source = v; }));
    var amount = el("input"); // what is typed is sent: the server says what a commander's damage may be
    amount.inputMode = "numeric";
    amount.value = d.amount;
    cmdraftPage.label(amount, "damage amount");
    amount.addEventListener("input", function () { d.amount = amount.value; });
    form.appendChild(amount);
    form.appendChild(button("Add damage", "small", function () {
      var source = sources.filter(function (s) { return s.key === d.source; })[0];
      var typed = d.amount;
      d.amount = "";
      act("POST", "/api/game", { damage: [[Number(d.victim), source.id, source.spec, typed]] });
    }));
    return form;
  }

  // Once the desk has published them (after the event), where everyone's decklists are: the page /decklists.
  function decklistsPanel() {
    var panel = el("div", "panel night-decklists");
    var link = el("a", "chip", "Everyone's decklists");
    link.href = "/decklists";
    panel.appendChild(link);
    return panel;
  }

  function dropPanel() {
    var panel = el("div", "panel night-drop");
    if (!state.dropping) {
      panel.appendChild(button("Drop from the event…", "", function () { state.dropping = true; render(); }));
      return panel;
    }
    panel.appendChild(el("p", null, "Leave the event for good? You won't be paired again."));
    var row = el("div", "night-actions");
    row.appendChild(button("Yes, drop me", "danger", function () {
      state.dropping = false;
      act("POST", "/api/drop", { confirm: true });
    }));
    row.appendChild(button("No, stay", "", function () { state.dropping = false; render(); }));
    panel.appendChild(row);
    return panel;
  }

  function tick() {
    var view = state.view;
    var clock = document.getElementById("night-clock");
    var notice = document.getElementById("night-notice");
    if (!clock || !view || !view.round) return;
    var c = view.round.clock;
    if (!c || !view.round.open) {
      put(clock, "");
      put(notice, "");
      return;
    }
    var left = c.paused || c.deadline === null ? c.remaining : c.deadline - (Date.now() / 1000 + state.offset);
    put(clock, clockText(left));
    clock.dataset.state = left <= 0 ? "over" : c.paused ? "paused" : left < 300 ? "low" : "running";
    put(notice, left <= 0 ? c.words.time_up : c.paused ? c.words.paused : c.words.extra); // the core's words
  }

  // The page's stream carries the table too (seat.table): when the page passes each new seat state on as a
  // "cmdraft:seat" event, the table changes at once; the polling below stays as the fallback.
  document.addEventListener("cmdraft:seat", function (event) {
    var seat = event.detail;
    if (seat && seat.table && !state.busy && !state.editing) apply(seat.table);
    if (seat && seat.table) loadStandings(); // a push: a result somewhere may have moved the standings
  });

  load();
  setInterval(function () {
    if (!state.busy && !state.editing && !document.hidden) load();
    state.polls += 1;
    if (state.polls % 5 === 0 && !document.hidden) loadStandings();
  }, POLL_MS);
  setInterval(tick, 500);
})();
