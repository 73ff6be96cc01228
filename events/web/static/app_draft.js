/* cmdraft player page: the draft screen (the pack, picking, the timer) and the pool.  Needs app_core.js. */
(function (app) {
  "use strict";

  var $ = app.$;
  var COLOR_NAMES = app.COLOR_NAMES;
  var state = app.state;
  var api = app.api;
  var cardNode = app.cardNode;
  var clear = app.clear;
  var colorKey = app.colorKey;
  var el = app.el;
  var errorText = app.errorText;
  var frameClass = app.frameClass;
  var pips = app.pips;
  var serverNow = app.serverNow;
  var showCard = app.showCard;
  var toast = app.toast;

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
    var sent = app.pickOverStream(body); // the open stream carries it (the answer comes back on it)
    if (!sent) api("POST", "/api/pick", body).then(pickAnswered).catch(pickLost);
  }

  // The answer to a pick, over the stream or POST /api/pick alike: {ok, status, data}.
  function pickAnswered(result) {
    state.busy = false;
    if (result.ok) {
      state.selected = [];
      app.receive(result.data);
    } else if (result.status === 409 && result.data.seat) {
      toast(errorText(result)); // the core's words: "that pack has moved on: …"
      app.receive(result.data.seat);
    } else if (result.status === 401) {
      app.toJoin("Your seat needs its code again.");
    } else {
      toast(errorText(result));
      updateConfirm();
    }
  }

  function pickLost() {
    state.busy = false;
    toast("No answer from the server: your pick may not have arrived; reconnecting.");
    updateConfirm();
    app.reconnect(); // the seat asked for again (the pick shows if it arrived), then a new stream
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

  // for the other parts of the page
  app.confirmPick = confirmPick;
  app.pickAnswered = pickAnswered;
  app.pickLost = pickLost;
  app.lineNode = lineNode;
  app.renderDraft = renderDraft;
  app.renderPool = renderPool;
  app.tick = tick;
})(cmdraft);
