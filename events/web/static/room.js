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
  var put = cmdraftPage.put;

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

  function columns(box, count) {
    box.style.columnCount = String(count);
    box.setAttribute("data-columns", String(count));
  }

  // A list spreads over the screen's width: one column up to five rows, two up to sixteen, then three (fifteen rows
  // each at most), so eight players read in two wide columns, not one narrow one beside an empty screen.  The fewer
  // lines a column holds (``lines``: a row's lines, two for a standing and its tie-breakers), the bigger the type:
  // a short list is read from the back of the room.  The pages are cut where the screen ends, as it is drawn.
  function spread(box, rows, lines) {
    var count = rows <= 5 ? 1 : rows <= 16 ? 2 : 3;
    columns(box, count);
    var tall = Math.ceil(rows / count) * lines;
    var size = tall <= 8 && count < 3 ? "big" : tall <= 12 ? "large" : "";
    if (size) box.setAttribute("data-size", size);
    else box.removeAttribute("data-size");
  }

  // A list is cut into pages where the screen ends, measured as the browser draws it: a page ends before the first
  // item (a row, a pod) that would not be seen whole, below the stage or in a column past its right edge.  Any
  // screen size, long name or tie-breaker line that wraps is counted as it is drawn; at most ``size`` items a page.
  var cuts = {};

  function seenWhole(box) {
    var stage = $("stage");
    var area = stage.getBoundingClientRect();
    var style = getComputedStyle(stage);
    // the stage ends at the screen's edge on a TV; on a phone it grows with its one scrolling column (room.css)
    var bottom = area.bottom - parseFloat(style.paddingBottom) + 1;
    var right = area.right - parseFloat(style.paddingRight) + 1;
    var seen = 0;
    for (var i = 0; i < box.children.length; i++) {
      var r = box.children[i].getBoundingClientRect();
      if (r.bottom > bottom || r.right > right) break;
      seen += 1;
    }
    return seen;
  }

  function pages(id, items, size, draw) {
    var key = [id, JSON.stringify(items), window.innerWidth, window.innerHeight, $("top").offsetHeight].join("|");
    if (cuts[key]) return cuts[key];
    var views = document.querySelectorAll(".view");
    var hidden = Array.prototype.map.call(views, function (v) { return v.hidden; });
    Array.prototype.forEach.call(views, function (v) { v.hidden = v.id !== id; }); // measured in one task: never painted
    var out = [];
    for (var start = 0; start < items.length; ) {
      var rest = items.slice(start, start + size);
      var box = draw(rest, 0, 2);
      var count = Math.max(1, Math.min(rest.length, seenWhole(box)));
      // the page as it is drawn (fewer items may take fewer columns) must be seen whole too
      while (count > 1 && seenWhole(draw(rest.slice(0, count), 0, 2)) < count) count -= 1;
      out.push(rest.slice(0, count));
      start += count;
    }
    Array.prototype.forEach.call(views, function (v, i) { v.hidden = hidden[i]; });
    if (Object.keys(cuts).length > 20) cuts = {}; // the lists of the last few polls, no more
    cuts[key] = out.length ? out : [[]];
    return cuts[key];
  }

  function paged(id, items, size, draw) {
    return pages(id, items, size, draw).map(function (chunk, i, all) {
      return {
        id: id,
        fill: function () {
          draw(chunk, i, all.length);
        }
      };
    });
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

  // " (2/3)" after a paged view's title; nothing for a view that fits on one page.
  function pageOf(i, all) {
    return all > 1 ? " (" + (i + 1) + "/" + all + ")" : "";
  }

  function seatingPages(room) {
    return paged("view-seatings", room.seatings, room.seatings.length, function (chunk, i, all) {
      $("seatings-title").textContent = "Seatings" + pageOf(i, all);
      var box = $("seatings");
      clear(box);
      columns(box, Math.min(3, chunk.length)); // a column a pod, up to three: one pod reads wide, its long names whole
      chunk.forEach(function (pod) {
        var card = el("div", "pod");
        card.appendChild(el("h3", null, "Pod " + pod.pod + " · " + pod.players.length + " seats"));
        pod.players.forEach(function (name, seat) {
          card.appendChild(row(name, "seat " + (seat + 1)));
        });
        box.appendChild(card);
      });
      return box;
    });
  }

  // The pods' progress, one item a pod (its line and its bar), paged as the other long lists are: a night of many
  // pods reads over several pages, none cut at the screen's edge.
  function draftPages(room) {
    return paged("view-drafts", room.drafts, room.drafts.length, function (chunk, i, all) {
      // the heading and each pod's line are the core's words ("Drafting", "Deck building · 6 of 8 decks registered")
      $("drafts-title").textContent = room.drafts_title + pageOf(i, all);
      var box = $("drafts");
      clear(box);
      chunk.forEach(function (pod) {
        var item = el("div", "draft-pod");
        var line = el("div", "draft-line");
        line.appendChild(el("span", null, "Pod " + pod.pod));
        line.appendChild(el("span", null, pod.words));
        item.appendChild(line);
        var bar = el("div", "bar");
        var fill = el("i");
        fill.style.width = (pod.picks_total ? Math.round((100 * pod.picks_made) / pod.picks_total) : 100) + "%";
        bar.appendChild(fill);
        item.appendChild(bar);
        box.appendChild(item);
      });
      return box;
    });
  }

  function pairingPages(room) {
    var rnd = room.round;
    return paged("view-pairings", rnd.pairings, ROWS_PER_PAGE, function (chunk, i, all) {
      $("pairings-title").textContent =
        (rnd.final ? "Final table" : "Pairings · round " + rnd.number) + pageOf(i, all);
      var box = $("pairings");
      clear(box);
      chunk.forEach(function (p) {
        box.appendChild(row(p.name + (p.first ? " ▶" : ""), "table " + p.table));
      });
      spread(box, chunk.length, 1);
      return box;
    });
  }

  function standingPages(room) {
    var title = room.standings_title; // the core's words: final once the event is finished
    return paged("view-standings", room.standings, STANDINGS_PER_PAGE, function (chunk, i, all) {
      $("standings-title").textContent = title + pageOf(i, all);
      $("standings-winner").hidden = !room.winner;
      $("standings-winner").textContent = cmdraftPage.shown(room.winner || "");
      // once the desk has published them, where everyone's decklists are (the join address's server)
      $("standings-decklists").hidden = !room.event.decklists;
      $("standings-decklists").textContent = room.event.decklists
        ? "Everyone's decklists: " + room.join.replace(/\/join\?.*$/, "/decklists")
        : "";
      var box = $("standings");
      clear(box);
      chunk.forEach(function (s) {
        var line = row("", points(s.points) + (points(s.points) === 1 ? " pt" : " pts"), s.dropped ? "dropped" : s.final_place === 1 ? "winner" : "");
        line.firstChild.textContent = cmdraftPage.shown(s.rank_text + " " + s.name);
        // the tie-breakers in the server's words: why players equal on points stand in this order
        line.appendChild(el("span", "ties", s.tie_breakers));
        box.appendChild(line);
      });
      spread(box, chunk.length, 2);
      return box;
    });
  }

  // The views to cycle through, in the order the server names them (the core's rule: ``room_views``).
  var VIEWS = {
    join: function (room) { return [joinPage(room)]; },
    seatings: seatingPages,
    drafts: draftPages,
    pairings: pairingPages,
    standings: standingPages
  };

  function viewsOf(room) {
    var list = [];
    (room.views || []).forEach(function (name) {
      if (VIEWS.hasOwnProperty(name)) list = list.concat(VIEWS[name](room));
    });
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
      put(clock, "");
      clock.dataset.state = "none";
      banner.hidden = true;
      return;
    }
    var left = c.paused || c.deadline === null ? c.remaining : c.deadline - now();
    put(clock, clockText(left));
    if (left <= 0) {
      clock.dataset.state = "over";
      banner.hidden = false;
      put(banner, c.words.time_up); // the core's words, as the phones and the terminal's clock say them
    } else {
      clock.dataset.state = c.paused ? "paused" : left < 300 ? "low" : "running";
      banner.hidden = !c.paused;
      if (c.paused) put(banner, c.words.paused);
    }
  }

  // --- polling -------------------------------------------------------------------------------------------------

  function apply(room) {
    var before = state.room ? JSON.stringify(state.views.map(function (v) { return v.id; })) : "";
    state.room = room;
    state.offset = room.server_time - Date.now() / 1000;
    $("event-name").textContent = cmdraftPage.shown(room.event.name);
    document.title = cmdraftPage.shown(room.event.name) + " · room";
    $("round-name").textContent = room.heading; // the core's words: the round, the final table, the event over
    tick(); // the clock's place at the top first: the lists are cut to the room left under it
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
