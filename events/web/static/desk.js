/* cmdraft desk page: every seat's state, a new seat code, a seat handed to a bot and back.  It only shows and
   asks: the server decides.  Names go in with textContent. */
(function () {
  "use strict";

  var STATES = { picking: "picking", waiting: "waiting", done: "done", bot: "a bot plays it" };
  var offset = 0;
  var last = null;
  var drawn = null; // the answer the seats were last drawn from, its clock aside (``shape``)
  var busy = false;
  var unfolded = false; // the desk opened the seats of a draft that is over

  var $ = cmdraftPage.$;
  var el = cmdraftPage.el;
  var clear = cmdraftPage.clear;
  var api = cmdraftPage.api;
  var errorText = cmdraftPage.errorText;

  function setConn(kind, text) {
    $("conn").setAttribute("data-state", kind);
    $("conn-text").textContent = text;
  }

  function timeLeft(deadline) {
    if (deadline === null || deadline === undefined) return "";
    var left = Math.max(0, Math.ceil(deadline - (Date.now() / 1000 + offset)));
    return Math.floor(left / 60) + ":" + (left % 60 < 10 ? "0" : "") + (left % 60);
  }

  function load() {
    return api("GET", "/api/desk")
      .then(function (result) {
        if (result.status === 401) {
          $("desk-locked").hidden = false;
          $("desk-main").hidden = true;
          setConn("idle", "no desk token");
          return;
        }
        if (!result.ok) {
          setConn("bad", errorText(result));
          return;
        }
        setConn("ok", "live");
        if (typeof result.data.server_time === "number") offset = result.data.server_time - Date.now() / 1000;
        last = result.data;
        // the same seats as last time: only the times left move (drawing the rows again would take the keyboard's
        // place and a press half made away from the desk every 2 seconds)
        var now = shape(last);
        if (now === drawn) tick();
        else {
          drawn = now;
          render();
        }
      })
      .catch(function () {
        setConn("bad", "offline · retrying");
      });
  }

  function act(path, body, done) {
    if (busy) return;
    busy = true;
    api("POST", path, body)
      .then(function (result) {
        busy = false;
        if (!result.ok) $("desk-message").textContent = cmdraftPage.shown(errorText(result));
        else done(result.data);
        load();
      })
      .catch(function () {
        busy = false;
        $("desk-message").textContent = "No answer from the server; try again.";
      });
  }

  var HOLDERS = { phone: "phone", terminal: "terminal", bot: "bot" };

  // The answer as the rows show it: the server's clock aside (the times left count from the deadlines), and when
  // a seat's page that is open now last asked (it asks all the time; its row says "online", not when).
  function shape(data) {
    return JSON.stringify(data, function (key, value) {
      if (key === "server_time") return undefined;
      if (key === "last_seen" && this && this.connected) return undefined;
      return value;
    });
  }

  // The times left, counted down between the server's answers.
  function tick() {
    Array.prototype.forEach.call(document.querySelectorAll("#desk-pods td[data-deadline]"), function (td) {
      td.textContent = timeLeft(Number(td.getAttribute("data-deadline")));
    });
  }

  // The keyboard's place through a drawing of the rows: each control has a key (its seat and what it does), and
  // the control with the same key has the focus again once the rows are drawn anew.
  function focusedKey() {
    var active = document.activeElement;
    return active && active.getAttribute ? active.getAttribute("data-key") : null;
  }

  function refocus(key) {
    if (!key) return;
    var node = document.querySelector('#desk-pods [data-key="' + key + '"]');
    if (node && node !== document.activeElement) node.focus({ preventScroll: true });
  }

  function clock(seconds) {
    var at = new Date(seconds * 1000);
    return (at.getHours() < 10 ? "0" : "") + at.getHours() + ":" + (at.getMinutes() < 10 ? "0" : "") + at.getMinutes();
  }

  // Who holds the seat and whether they are there: "phone · online", "terminal · last seen 20:14", "not joined";
  // a phone the server has not heard from since it started again: "last seen before the restart at 21:02" (the
  // server's answer: its last request's time was the old server's, never the time it joined).
  function presence(s) {
    if (!s.holder) return s.connected ? "page open · not joined" : "not joined";
    if (s.holder === "bot") return "bot";
    var here = s.connected
      ? "online"
      : s.before_restart
        ? "last seen before the restart at " + clock(s.before_restart)
        : s.last_seen
          ? "last seen " + clock(s.last_seen)
          : "offline";
    return HOLDERS[s.holder] + " · " + here;
  }

  function button(text, label, key, handler) {
    var b = el("button", "small", text);
    b.type = "button";
    b.setAttribute("data-key", key);
    cmdraftPage.label(b, label);
    b.addEventListener("click", handler);
    return b;
  }

  var shownStatus = null; // the event's status the page drew last

  function draw() {
    var data = last;
    var key = focusedKey();
    $("desk-locked").hidden = true;
    $("desk-main").hidden = false;
    $("event-name").textContent = cmdraftPage.shown(data.event.name);
    // what the seats' last action came to belongs to its phase: the draft over, "Hal's seat is played by a bot now"
    // would stand above the rounds all night
    if (shownStatus !== null && shownStatus !== data.event.status) $("desk-message").textContent = "";
    shownStatus = data.event.status;
    $("event-status").textContent = data.event.status || "";
    document.title = cmdraftPage.shown(data.event.name) + " · desk";
    var seats = data.seats || [];
    var counts = { connected: 0, picking: 0 };
    seats.forEach(function (s) {
      if (s.connected) counts.connected += 1;
      if (s.state === "picking") counts.picking += 1;
    });
    var guessing = (data.code_sources || []).map(function (g) {
      return g.source + " (" + g.wrong + (g.wait > 0 ? ", waits " + Math.ceil(g.wait) + " s" : "") + ")";
    });
    $("desk-summary").textContent =
      counts.connected + " connected · " + counts.picking + " picking" +
      (guessing.length ? " · wrong codes from " + cmdraftPage.shown(guessing.join(", ")) : "");
    // the seats holding up their pod, in the server's words (it decides who is there)
    $("desk-stalled").hidden = !data.stalled;
    $("desk-stalled").textContent = data.stalled || "";
    var pods = clear($("desk-pods"));
    var root = pods;
    var byPod = {};
    seats.forEach(function (s) {
      (byPod[s.pod] = byPod[s.pod] || []).push(s);
    });
    if (data.seats_over) {
      // The draft is over (the server says so, in its words): its seats fold into one line, so the night's tables
      // come on the first screen however many players there are (a seat's new code is one tap away).
      var fold = el("details", "desk-fold");
      fold.open = unfolded;
      var summary = el("summary", "panel", cmdraftPage.shown(data.seats_over) + " (open them for a new seat code or a drop)");
      summary.setAttribute("data-key", "fold");
      fold.appendChild(summary);
      fold.addEventListener("toggle", function () {
        unfolded = fold.open;
      });
      pods = pods.appendChild(fold);
    }
    Object.keys(byPod)
      .sort(function (a, b) {
        return a - b;
      })
      .forEach(function (pod) {
        var panel = el("div", "panel");
        panel.appendChild(el("h2", "", "Pod " + pod));
        var table = el("table", "desk-table");
        var head = el("tr");
        var labels = ["Seat", "Player", "Link", "State", "Packs", "Time", "Wrong codes", ""];
        labels.forEach(function (h) {
          head.appendChild(el("th", "", h));
        });
        table.appendChild(head);
        byPod[pod].forEach(function (s) {
          var row = el("tr", (s.wrong_codes ? "tried" : "") + (s.stalled ? " stalled" : ""));
          row.setAttribute("data-player", String(s.player));
          row.appendChild(el("td", "num", s.seat));
          row.appendChild(el("td", "", "#" + s.player + "\u00a0" + s.name)); // "#7 Gus" kept on one line
          var link = el("td", "link");
          if (s.bot_player) link.textContent = "—";
          else {
            link.appendChild(el("i", s.connected ? "dot on" : "dot off"));
            link.appendChild(el("span", "", presence(s)));
            if (s.stalled) link.appendChild(el("span", "stalled-note", s.stalled)); // the server's words
          }
          row.appendChild(link);
          var said = s.bot_player ? "bot" : STATES[s.state] || s.state;
          row.appendChild(el("td", "state s-" + s.state, said));
          // the seat's queue: the packs waiting in front of it (the one it picks from included)
          row.appendChild(el("td", "num packs", s.state === "picking" || s.state === "waiting" ? String(s.queued || 0) : ""));
          var left = el("td", "num time", s.state === "picking" ? timeLeft(s.deadline) : "");
          if (s.state === "picking" && typeof s.deadline === "number") left.setAttribute("data-deadline", String(s.deadline));
          row.appendChild(left);
          var tries = el("td", "num", String(s.wrong_codes || 0));
          if (s.wrong_codes && s.wrong_code_from) {
            tries.appendChild(el("span", "hint", " last " + (s.wrong_code_last || "").slice(11, 16) + " UTC, " + s.wrong_code_from));
          }
          row.appendChild(tries);
          var cell = el("td");
          var actions = el("div", "actions");
          cell.appendChild(actions);
          var person = s.bot_player === undefined ? true : !s.bot_player;
          if (person) {
            personActions(actions, s);
            if (s.hand === "bot") { // the server's answer: a seat of a live draft, its player's now
              actions.appendChild(
                button("To a bot", "To a bot: " + s.name + "'s seat", "hand:" + s.player, function () {
                  // one tap must not take a player's seat: asked first, naming the player, as New code is
                  var sure = "Hand " + s.name + "'s seat to a bot? It picks for " + s.name + " until you give the seat back.";
                  if (!window.confirm(cmdraftPage.shown(sure))) return;
                  act("/api/desk/bot", { player: s.player, bot: true }, function () {
                    $("desk-message").textContent = cmdraftPage.shown(s.name + "'s seat is played by a bot now.");
                  });
                })
              );
            } else if (s.hand === "player") {
              actions.appendChild(
                button("Back to player", "Back to player " + s.name, "hand:" + s.player, function () {
                  act("/api/desk/bot", { player: s.player, bot: false }, function (answer) {
                    $("desk-message").textContent = cmdraftPage.shown(answer.changed
                      ? s.name + " has the seat back."
                      : "Nothing changed: " + s.name + " already has the seat.");
                  });
                })
              );
            }
          }
          row.appendChild(cell);
          table.appendChild(labelled(row, labels));
        });
        panel.appendChild(table);
        pods.appendChild(panel);
      });
    apart(root, data.unseated || []);
    refocus(key);
  }

  // A row whose cells each name their column, for a narrow screen where the rows stack (style.css).
  function labelled(row, labels) {
    Array.prototype.forEach.call(row.children, function (td, i) {
      td.setAttribute("data-label", labels[i]);
    });
    return row;
  }

  // The players with no draft seat (a sealed pool), listed apart with what the desk may do for them (the server's
  // list: who is still in the event without a seat).
  function apart(root, players) {
    if (!players.length) return;
    var panel = el("div", "panel");
    panel.appendChild(el("h2", "", "No draft seat"));
    var table = el("table", "desk-table");
    var head = el("tr");
    var labels = ["Player", "Why", "Link", "Wrong codes", ""];
    labels.forEach(function (h) {
      head.appendChild(el("th", "", h));
    });
    table.appendChild(head);
    players.forEach(function (s) {
      var row = el("tr", s.wrong_codes ? "tried" : "");
      row.setAttribute("data-player", String(s.player));
      row.appendChild(el("td", "", "#" + s.player + "\u00a0" + s.name));
      row.appendChild(el("td", "", s.why));
      var link = el("td", "link");
      link.appendChild(el("i", s.connected ? "dot on" : "dot off"));
      link.appendChild(el("span", "", s.connected ? "phone open" : "not connected"));
      row.appendChild(link);
      row.appendChild(el("td", "num", String(s.wrong_codes || 0)));
      var cell = el("td");
      var actions = el("div", "actions");
      cell.appendChild(actions);
      personActions(actions, s);
      row.appendChild(cell);
      table.appendChild(labelled(row, labels));
    });
    panel.appendChild(table);
    root.appendChild(panel);
  }

  // A person's actions, on a seat's row and on the row of a player with no draft seat: a new code (where the server
  // says it is taken: a seat's player, or one who holds a pool), and a drop when the server says the desk may drop
  // them now.
  function personActions(actions, s) {
    if (s.new_code !== false) actions.appendChild(
      button("New code", "New code for " + s.name + "'s seat", "code:" + s.player, function () {
        if (!window.confirm(cmdraftPage.shown("Give " + s.name + " a new seat code? The old one stops working."))) return;
        act("/api/desk/reset-code", { player: s.player }, function (answer) {
          var box = $("desk-code");
          box.hidden = false;
          box.textContent = cmdraftPage.shown("New code for " + answer.name + ": " + answer.code);
        });
      })
    );
    if (s.drop) { // the server's answer: still in the event, which is not finished
      actions.appendChild(
        button("Drop", "Drop " + s.name + " from the event", "drop:" + s.player, function () {
          // nothing takes a drop back but the desk's undo: asked first, naming the player
          var sure = "Drop " + s.name + " from the event? They are paired no more (the desk's undo takes it back).";
          if (!window.confirm(cmdraftPage.shown(sure))) return;
          act("/api/desk/drop", { player: s.player }, function (answer) {
            var said = answer.name + " dropped";
            answer.recorded.forEach(function (rt) { // the terminal's words for each
              said += "; round " + rt[0] + " table " + rt[1] + ": the report that waited only for them is its result now";
            });
            $("desk-message").textContent = cmdraftPage.shown(said);
          });
        })
      );
    }
  }

  // A redraw asked for during a press on the seats waits for the press to end (cmdraftPage.pressHold): the browser
  // gives the click of a press begun on a button no longer in the page to no button at all.
  var render = cmdraftPage.pressHold(function () {
    return $("desk-pods");
  })(draw);

  $("desk-new-link").addEventListener("click", function () {
    if (!window.confirm("Make a new desk link? The old link and every other desk page stop working.")) return;
    act("/api/desk/new-link", {}, function (answer) {
      var box = $("desk-code");
      box.hidden = false;
      box.textContent = "New desk link (keep it to yourself): " + window.location.origin + answer.link;
    });
  });

  setInterval(load, 2000);
  setInterval(tick, 1000);
  load();
})();
