/* cmdraft room display: read-only, for a screen in the room.  It asks /api/room (no token: public facts only) every
   two seconds and cycles its views: the join QR and seatings before the draft, the pods' progress during it, then
   pairings by name, standings, and the round clock always on top.  Every name goes in with textContent. */
(function () {
  "use strict";

  var POLL_MS = 2000;
  var CYCLE_MS = 12000;
  var ROWS_PER_PAGE = 45; // three columns of fifteen at 1080p
  var STANDINGS_PER_PAGE = 24; // a standing takes two lines (its tie-breakers under the name): three columns of eight

  var state = { room: null, offset: 0, views: [], index: 0, shownAt: 0, failures: 0 };

  var $ = cmdraftPage.$;
  var el = cmdraftPage.el;
  var clear = cmdraftPage.clear;
  var clockText = cmdraftPage.clockText;

  function now() {
    return Date.now() / 1000 + state.offset;
  }

  function points(value) {
    return Math.round(value * 100) / 100;
  }

  // --- views: each a list of pages (a page is a function that fills its section) -----------------------------

  function row(name, number, cls) {
    var line = el("div", "row" + (cls ? " " + cls : ""));
    line.appendChild(el("span", "name", name));
    line.appendChild(el("span", "num", number));
    return line;
  }

  // A list spreads over as many columns as it needs at eight rows a column, up to three (fifteen rows each at
  // most): ten players read in two wide columns, not one narrow one beside an empty screen.
  function spread(box, rows) {
    var count = Math.max(1, Math.min(3, Math.ceil(rows / 8)));
    box.style.columnCount = String(count);
    box.setAttribute("data-columns", String(count));
  }

  function pages(items, size) {
    var out = [];
    for (var i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
    return out.length ? out : [[]];
  }

  function joinPage(room) {
    return {
      id: "view-join",
      fill: function () {
        $("join-qr").src = "/api/room/qr.svg";
        $("join-url").textContent = room.join;
      }
    };
  }

  function seatingPages(room) {
    return [
      {
        id: "view-seatings",
        fill: function () {
          var box = $("seatings");
          clear(box);
          room.seatings.forEach(function (pod) {
            var card = el("div", "pod");
            card.appendChild(el("h3", null, "Pod " + pod.pod + " · " + pod.players.length + " seats"));
            pod.players.forEach(function (name, i) {
              card.appendChild(row(name, "seat " + (i + 1)));
            });
            box.appendChild(card);
          });
        }
      }
    ];
  }

  function draftPage(room) {
    return {
      id: "view-drafts",
      fill: function () {
        var box = $("drafts");
        clear(box);
        room.drafts.forEach(function (pod) {
          var line = el("div", "draft-line");
          var done = pod.status !== "drafting";
          line.appendChild(el("span", null, "Pod " + pod.pod));
          line.appendChild(el("span", null, done ? "done" : "pack " + pod.pack + " of " + pod.packs));
          box.appendChild(line);
          var bar = el("div", "bar");
          var fill = el("i");
          fill.style.width = (pod.picks_total ? Math.round((100 * pod.picks_made) / pod.picks_total) : 100) + "%";
          bar.appendChild(fill);
          box.appendChild(bar);
        });
      }
    };
  }

  function pairingPages(room) {
    var rnd = room.round;
    return pages(rnd.pairings, ROWS_PER_PAGE).map(function (chunk, i, all) {
      return {
        id: "view-pairings",
        fill: function () {
          $("pairings-title").textContent =
            (rnd.final ? "Final table" : "Pairings · round " + rnd.number) +
            (all.length > 1 ? " (" + (i + 1) + "/" + all.length + ")" : "");
          var box = $("pairings");
          clear(box);
          chunk.forEach(function (p) {
            box.appendChild(row(p.name + (p.first ? " ▶" : ""), "table " + p.table));
          });
          spread(box, chunk.length);
        }
      };
    });
  }

  function standingPages(room) {
    var title = room.event.status === "finished" ? "Final standings" : "Standings";
    return pages(room.standings, STANDINGS_PER_PAGE).map(function (chunk, i, all) {
      return {
        id: "view-standings",
        fill: function () {
          $("standings-title").textContent = title + (all.length > 1 ? " (" + (i + 1) + "/" + all.length + ")" : "");
          $("standings-winner").hidden = !room.winner;
          $("standings-winner").textContent = cmdraftPage.shown(room.winner || "");
          var box = $("standings");
          clear(box);
          chunk.forEach(function (s) {
            var line = row("", points(s.points) + (points(s.points) === 1 ? " pt" : " pts"), s.dropped ? "dropped" : s.final_place === 1 ? "winner" : "");
            line.firstChild.textContent = cmdraftPage.shown(s.rank + ". " + s.name);
            // the tie-breakers in the server's words: why players equal on points stand in this order
            line.appendChild(el("span", "ties", s.tie_breakers));
            box.appendChild(line);
          });
          spread(box, chunk.length);
        }
      };
    });
  }

  function viewsOf(room) {
    var status = room.event.status;
    var list = [];
    if (status === "registration" || status === "seated") {
      list.push(joinPage(room));
      if (room.seatings.length) list = list.concat(seatingPages(room));
    } else if (status === "drafting") {
      list.push(draftPage(room), joinPage(room));
      list = list.concat(seatingPages(room));
    } else if (status === "building") {
      if (room.drafts.length) list.push(draftPage(room));
      list.push(joinPage(room));
      if (room.standings.length) list = list.concat(standingPages(room));
    } else {
      if (room.round && room.round.open) list = list.concat(pairingPages(room));
      if (room.standings.length) list = list.concat(standingPages(room));
      if (room.round && !room.round.open && status !== "finished") list = list.concat(pairingPages(room));
    }
    if (!list.length) {
      list.push({
        id: "view-waiting",
        fill: function () {
          $("waiting-text").textContent = "Waiting for the event…";
        }
      });
    }
    return list;
  }

  function show(force) {
    var views = state.views;
    if (!views.length) return;
    var t = Date.now();
    if (!force && t - state.shownAt < CYCLE_MS) return;
    if (!force) {
      state.index = (state.index + 1) % views.length;
      state.shownAt = t;
    }
    if (state.index >= views.length) state.index = 0;
    var page = views[state.index];
    Array.prototype.forEach.call(document.querySelectorAll(".view"), function (v) {
      v.hidden = v.id !== page.id;
    });
    page.fill();
    $("pages").textContent = views.length > 1 ? state.index + 1 + " / " + views.length : "";
  }

  // --- the clock ------------------------------------------------------------------------------------------------

  function tick() {
    var room = state.room;
    var clock = $("clock");
    var banner = $("banner");
    var c = room && room.round && room.round.open ? room.round.clock : null;
    if (!c) {
      clock.textContent = "";
      clock.dataset.state = "none";
      banner.hidden = true;
      return;
    }
    var left = c.paused || c.deadline === null ? c.remaining : c.deadline - now();
    clock.textContent = clockText(left);
    if (left <= 0) {
      clock.dataset.state = "over";
      banner.hidden = false;
      banner.textContent = "Time! Finish the turn in progress, then report your result.";
    } else {
      clock.dataset.state = c.paused ? "paused" : left < 300 ? "low" : "running";
      banner.hidden = !c.paused;
      if (c.paused) banner.textContent = "The clock is paused";
    }
  }

  // --- polling -------------------------------------------------------------------------------------------------

  function apply(room) {
    var before = state.room ? JSON.stringify(state.views.map(function (v) { return v.id; })) : "";
    state.room = room;
    state.offset = room.server_time - Date.now() / 1000;
    $("event-name").textContent = cmdraftPage.shown(room.event.name);
    document.title = cmdraftPage.shown(room.event.name) + " · room";
    $("round-name").textContent = room.round
      ? room.round.final
        ? "Final table"
        : "Round " + room.round.number
      : room.players + " players";
    state.views = viewsOf(room);
    var after = JSON.stringify(state.views.map(function (v) { return v.id; }));
    if (before !== after) {
      state.index = 0;
      state.shownAt = Date.now();
    }
    show(true);
    tick();
  }

  function poll() {
    var request = new XMLHttpRequest();
    request.open("GET", "/api/room");
    request.timeout = 5000;
    request.onload = function () {
      if (request.status === 200) {
        state.failures = 0;
        $("conn").textContent = "live";
        try {
          apply(JSON.parse(request.responseText));
        } catch (e) {
          $("conn").textContent = "could not read the server's answer";
        }
      } else {
        failed();
      }
    };
    request.onerror = request.ontimeout = failed;
    request.send();
  }

  function failed() {
    state.failures += 1;
    $("conn").textContent = "reconnecting… (the server did not answer)";
  }

  poll();
  setInterval(poll, POLL_MS);
  setInterval(tick, 250);
  setInterval(function () {
    show(false);
  }, 1000);
})();
