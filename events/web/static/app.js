/* cmdraft player page: joining, the seat state (it draws the screen for the phase), the connection, and the
   start.  Loaded last, after app_core.js, app_draft.js and app_deck.js.  Every seat state received is passed on
   as a "cmdraft:seat" event (night.js draws the table from it). */
(function (app) {
  "use strict";

  var $ = app.$;
  var state = app.state;
  var api = app.api;
  var errorText = app.errorText;
  var now = app.now;
  var setConn = app.setConn;
  var show = app.show;

  // --- joining --------------------------------------------------------------------------------------------

  // held: the seat this page (this tab, across a reload) last showed, {event, player}; its numbers fill the form
  // when the address names none.
  function prefill(held) {
    var params = new URLSearchParams(location.search);
    if (held && !params.get("event")) {
      $("join-event").value = String(held.event);
      $("join-player").value = String(held.player);
    }
    if (params.get("event")) $("join-event").value = params.get("event");
    if (params.get("seat")) $("join-player").value = params.get("seat");
    if (params.get("player")) $("join-player").value = params.get("player");
    var first = $("join-event").value ? ($("join-player").value ? "join-code" : "join-player") : "join-event";
    $(first).focus();
    joinHeading();
  }

  // The form's heading: what the player joins now, in the server's words (their draft, their deck from a sealed
  // pool, their table); the page's own words stay when the server can't be asked.
  function joinHeading() {
    var query = "?event=" + encodeURIComponent($("join-event").value) + "&player=" + encodeURIComponent($("join-player").value);
    api("GET", "/api/join" + query)
      .then(function (result) {
        if (result.ok && result.data.heading) $("join-heading").textContent = result.data.heading;
      })
      .catch(function () {});
  }

  // The join form's fields by the names the core gives them in a refusal (``error.field``).
  var JOIN_FIELDS = { event: "join-event", player: "join-player", code: "join-code" };

  // What was typed is sent as it is: the server reads it and says what is missing or wrong, in the core's words.
  function join(event) {
    event.preventDefault();
    var error = $("join-error");
    error.textContent = "";
    $("join-button").disabled = true;
    var body = { event: $("join-event").value, player: $("join-player").value, code: $("join-code").value };
    api("POST", "/api/join", body)
      .then(function (result) {
        $("join-button").disabled = false;
        if (!result.ok) {
          error.textContent = cmdraftPage.shown(errorText(result));
          // the field the core says its refusal is about (event, player or code); the code when it names none
          var about = result.data && result.data.error && result.data.error.field;
          var field = $(JOIN_FIELDS[about] || "join-code");
          field.focus();
          field.select();
          return;
        }
        $("join-code").value = "";
        $("join-notice").hidden = true;
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
    state.clockHeld = false; // the server's own state: its countdown holds again
    remember(seat);
    render();
    // night.js (the table view) listens: every seat state carries the table, so a push shows at once
    document.dispatchEvent(new CustomEvent("cmdraft:seat", { detail: seat }));
  }

  function render() {
    var seat = state.seat;
    $("event-name").textContent = seat.event && seat.event.name ? cmdraftPage.shown(seat.event.name) : "cmdraft";
    $("player-name").textContent = seat.player ? cmdraftPage.shown(seat.player.name) : "";
    document.title = (seat.player ? cmdraftPage.shown(seat.player.name) + " · " : "") + "cmdraft";
    var phase = seat.phase;
    var note = $("note");
    note.hidden = !seat.connection_note;
    note.textContent = cmdraftPage.shown(seat.connection_note || "");
    app.renderPool(seat.pool || []);
    if (phase === "drafting" && seat.draft) {
      show("draft");
      app.renderDraft(seat);
      wake(true);
    } else if (phase === "building" || phase === "registered") {
      wake(false);
      show("deck");
      if (!state.deck) app.loadDeck();
      else app.renderDeck();
    } else if (phase === "finished") {
      wake(false);
      show("deck");
      state.deck = null; // the event is over: the pool and what there is to download, nothing to build
      app.renderWaiting();
    } else {
      wake(false);
      show("wait");
      $("wait-title").textContent = cmdraftPage.shown(seat.waiting || ""); // the server's words, as the terminal's
      $("wait-text").textContent = "Keep this page open: it moves on by itself.";
    }
  }

  // --- connection -----------------------------------------------------------------------------------------

  function refresh() {
    return api("GET", "/api/seat")
      .then(function (result) {
        if (result.ok) {
          state.joined = true;
          receive(result.data);
          if (state.seat && (state.seat.phase === "building" || state.seat.phase === "registered") && state.deck)
            app.loadDeck();
          return true;
        }
        if (result.status === 401 || result.status === 403) {
          // a page that showed a seat says why it holds it no more, in the server's words (opened on another
          // device, or a new code from the desk); a page that never joined only asks for the code
          toJoin(heldSeat() ? errorText(result) : "");
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
    var held = heldSeat();
    state.joined = false;
    state.unsent = null; // a pick that got no answer is this seat's: never sent for whoever joins next
    state.selected = []; // nor the cards it marked: the next seat's pack may have the same pack, pick and size
    state.packKey = null;
    closeSocket();
    setConn("idle", "not joined");
    show("join");
    $("join-error").textContent = "";
    $("join-notice").hidden = !message;
    $("join-notice").textContent = message ? cmdraftPage.shown(message.charAt(0).toUpperCase() + message.slice(1)) : "";
    prefill(held);
  }

  // The seat this browser showed last (kept for the browser, as its seat's cookie is: a reload, a tab the phone threw
  // away or a new tab still knows it, to fill the form in and say why the seat was lost), or null.
  var HELD_KEY = "cmdraft-seat";

  function remember(seat) {
    if (!seat.event || !seat.player) return;
    try {
      localStorage.setItem(HELD_KEY, JSON.stringify({ event: seat.event.id, player: seat.player.number }));
    } catch (e) {
      /* storage refused (private mode): the page still works, the form is filled while it stays open */
    }
  }

  function heldSeat() {
    if (state.seat && state.seat.event && state.seat.player)
      return { event: state.seat.event.id, player: state.seat.player.number };
    try {
      var held = JSON.parse(localStorage.getItem(HELD_KEY) || "null");
      return held && typeof held.event === "number" && typeof held.player === "number" ? held : null;
    } catch (e) {
      return null;
    }
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
      state.version = -1; // a new stream's first state is the server's now (a restored draft may have fewer picks)
      state.heard = now();
      setConn("ok", "connected");
      if (state.selected.length) app.sendMarks(); // a new stream's seat starts with none marked at the server
      state.pingTimer = setInterval(function () {
        heartbeat(ws);
      }, HEARTBEAT_MS);
    };
    ws.onmessage = function (message) {
      state.heard = now();
      var data;
      try {
        data = JSON.parse(message.data);
      } catch (e) {
        return;
      }
      if (data.seat) data.seat = wholePool(data.seat, ws);
      if (data.type === "picked" || data.type === "refused") {
        if (data.id !== state.pickId) {
          if (data.seat) receive(data.seat); // an answer come late: its state still counts
          return;
        }
        clearTimeout(state.pickTimer);
        state.pickId = null;
        if (data.type === "refused" && data.status === 401) {
          // this stream's token holds the seat no more: ask again with the page's cookie (joined again in
          // another tab, or the desk gave a new code: then the join screen)
          closeSocket();
          return app.pickLost();
        }
        app.pickAnswered(
          data.type === "picked" ? { ok: true, status: 200, data: data.seat } : { ok: false, status: data.status, data: data }
        );
      } else if (data.type === "seat") {
        receive(data.seat);
        if (state.deck && data.seat && (data.seat.phase === "building" || data.seat.phase === "registered")) app.loadDeck();
      } else if (data.type === "pong" && typeof data.server_time === "number") state.offset = data.server_time - now();
    };
    ws.onclose = function (event) {
      clearInterval(state.pingTimer);
      state.ws = null;
      if (state.pickId !== null) pickUnanswered();
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

  // A state on the stream carries only the pool's cards the stream's earlier states didn't (from place
  // pool_from on): the page keeps the first pool_from cards it holds and appends them.  Holding fewer (a state
  // missed), it asks the stream for the whole state and drops this one (null): the whole one follows.
  function wholePool(seat, ws) {
    if (!seat.pool_from) return seat;
    var held = state.seat && state.seat.pool ? state.seat.pool : [];
    var pool = held.length >= seat.pool_from ? held.slice(0, seat.pool_from).concat(seat.pool) : null;
    if (pool && pool.length === seat.pool_size) {
      seat.pool = pool;
      seat.pool_from = 0;
      return seat;
    }
    try {
      ws.send(JSON.stringify({ type: "seat" }));
    } catch (e) {
      /* closing: the page asks for its seat again when it reconnects */
    }
    return null;
  }

  // The heartbeat: a ping every second; a stream that has said nothing for SILENT_S seconds (no pong, no
  // state) is taken for lost, said so, and replaced, so a dead connection shows within 5 s, not minutes.
  var HEARTBEAT_MS = 1000;
  var SILENT_S = 3;

  function heartbeat(ws) {
    if (ws !== state.ws || ws.readyState !== 1) return;
    if (now() - state.heard > SILENT_S) {
      setConn("bad", "connection lost · reconnecting");
      if (state.pickId !== null) return pickUnanswered();
      closeSocket();
      return retry("connection lost");
    }
    try {
      ws.send(JSON.stringify({ type: "ping" }));
    } catch (e) {
      /* closing: onclose follows */
    }
  }

  // A pick sent on the open stream (false: none open, so the caller posts it); no answer within 15 s, or the
  // stream closing first, is said as a pick that may not have arrived, and the seat is asked for again.
  function pickOverStream(body) {
    var ws = state.ws;
    if (!ws || ws.readyState !== 1) return false;
    state.pickCount = (state.pickCount || 0) + 1;
    state.pickId = state.pickCount;
    try {
      ws.send(JSON.stringify({ type: "pick", id: state.pickId, pack: body.pack, pick: body.pick, cards: body.cards }));
    } catch (e) {
      state.pickId = null;
      return false;
    }
    clearTimeout(state.pickTimer);
    state.pickTimer = setTimeout(pickUnanswered, 15000);
    return true;
  }

  // No answer: the stream may be dead while it still reads as open (a phone's lost connection can look so for
  // minutes), so it is closed (the page reconnects, and a pick meanwhile goes by POST) and the seat asked for.
  function pickUnanswered() {
    clearTimeout(state.pickTimer);
    state.pickId = null;
    closeSocket();
    app.pickLost();
  }

  function retry(why) {
    why = typeof why === "string" ? why : "offline";
    state.wsTries += 1;
    var delay = Math.min(15, Math.pow(2, Math.min(state.wsTries - 1, 4))) * (0.75 + Math.random() * 0.5);
    var until = now() + delay;
    setConn("bad", why + " · retrying");
    clearTimeout(state.wsTimer);
    (function countdown() {
      var left = Math.ceil(until - now());
      if (left > 0) {
        setConn("bad", why + " · retry in " + left + "s");
        state.wsTimer = setTimeout(countdown, 1000);
        return;
      }
      reconnect();
    })();
  }

  function reconnect() {
    state.clockHeld = true; // not connected (the page woke up, or a pick got no answer): the server says the time
    setConn("wait", "reconnecting…");
    refresh().then(function (ok) {
      if (ok) {
        connect();
        app.sendAgain(); // a pick that got no answer, when the same pack is still in front of the seat
      } else if (ok === null) retry();
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
    // the deck as it stands now: another tab, a terminal's builder or the desk may have changed it meanwhile (no
    // stream says so: a deck's change leaves the seat's state as it was)
    if (state.deck && state.seat && (state.seat.phase === "building" || state.seat.phase === "registered")) app.loadDeck();
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
  $("join-player").addEventListener("change", joinHeading);
  $("join-event").addEventListener("change", joinHeading);
  $("confirm").addEventListener("click", app.confirmPick);
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
      if (state.seat) app.renderPool(state.seat.pool || []);
    });
  }
  $("pack-order").addEventListener("click", app.togglePackOrder);
  $("sheet-close").addEventListener("click", app.closeSheet);
  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") app.closeSheet();
  });
  $("sheet").addEventListener("click", function (event) {
    if (event.target === $("sheet")) app.closeSheet();
  });
  $("deck-undo").addEventListener("click", function () {
    app.deckAction({ action: "undo" });
  });
  $("deck-redo").addEventListener("click", function () {
    app.deckAction({ action: "redo" });
  });
  $("deck-auto").addEventListener("click", function () {
    app.deckAction({ action: "auto" });
  });
  $("deck-lands").addEventListener("click", function () {
    app.deckAction({ action: "lands" });
  });
  $("deck-register").addEventListener("click", app.register);
  $("piper-set").addEventListener("click", app.piperChosen);
  setInterval(app.tick, 250);

  if (!cmdraftPage.holdsSeat()) toJoin(""); // never joined here: the form, and no request bound to be refused
  else
    refresh().then(function (ok) {
      if (ok) connect();
      else if (ok === null) {
        show("join");
        prefill();
        retry();
      }
    });

  // for the other parts of the page
  app.receive = receive;
  app.pickOverStream = pickOverStream;
  app.reconnect = reconnect;
  app.refresh = refresh;
  app.toJoin = toJoin;
})(cmdraft);
