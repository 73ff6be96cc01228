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
  var put = cmdraftPage.put;
  var serverNow = app.serverNow;
  var showCard = app.showCard;
  var toast = app.toast;

  // --- the draft ------------------------------------------------------------------------------------------

  // The pack is drawn again on every seat state (a pack more queued, a clock change): a redraw asked for during a
  // press on the draft's screen waits for the press to end (cmdraftPage.pressHold), so a card tapped is the card
  // marked and a Confirm pressed is sent.  Until then the page shows the pack it drew, and a tap or a Confirm asks
  // about that pack (``state.drawn``): the server says whether it is still in front of the seat.
  var held = cmdraftPage.pressHold(function () { return $("screen-draft"); });
  var renderDraft = held(drawDraft);

  function drawDraft(seat) {
    var d = seat.draft;
    state.drawn = d;
    var roundDone = !d.done && d.pick > d.picks; // every pick of this pack made: the next opens when all are done
    $("pack-pick").textContent = d.done
      ? "All " + d.packs + " packs done"
      : roundDone
        ? "Pack " + d.pack + "/" + d.packs + " done"
        : "Pack " + d.pack + "/" + d.packs + " · Pick " + d.pick + "/" + d.picks +
          (d.queued > 1 ? " · " + (d.queued - 1) + (d.queued === 2 ? " more pack waits" : " more packs wait") : "");
    // heard in words: a reader says "1/3" as "one third" and "2/10" as a date
    $("pack-pick").setAttribute("aria-label", d.done
      ? "All " + d.packs + " packs done"
      : roundDone
        ? "Pack " + d.pack + " of " + d.packs + " done"
        : "Pack " + d.pack + " of " + d.packs + ", pick " + d.pick + " of " + d.picks +
          (d.queued > 1 ? ", " + (d.queued - 1) + (d.queued === 2 ? " more pack waits" : " more packs wait") : ""));
    $("direction").textContent = d.direction === "right" ? "right →" : "← left";
    $("direction").title = "this pack passes " + d.direction;
    var key = d.pack + ":" + d.pick + ":" + d.cards.length;
    var news = key !== state.packKey;
    if (news) {
      state.packKey = key;
      // a pack holding no more cards than the pick takes: all of them are chosen, the player only confirms (the
      // server still takes the pick as any other)
      state.selected = d.cards.length && d.cards.length <= d.take ? d.cards.map(function (card, index) { return index; }) : [];
    }
    var last = d.last;
    $("last-pick").textContent = last && last.cards && last.cards.length
      ? cmdraftPage.shown("Last pick: " + last.cards.join(" + ") + (last.why ? " (" + last.why + ")" : ""))
      : "";
    var waiting = $("waiting-for");
    document.body.classList.toggle("pack-waiting", !d.cards.length); // the pool shows under the message meanwhile
    if (!d.cards.length) {
      waiting.hidden = false;
      waiting.textContent = cmdraftPage.shown(d.waiting); // the server's words: what the seat waits for
    } else {
      waiting.hidden = true;
    }
    if (news) announce(d);
    // the same pack drawn again (a pack more queued behind it, a clock change): the keyboard stays on its card
    var place = !news && $("pack").contains(document.activeElement) ? app.focusPlace(document.activeElement) : null;
    var pack = clear($("pack"));
    var order = $("pack-order");
    order.hidden = !d.cards.length;
    order.setAttribute("aria-pressed", state.packOrder === "booster" ? "true" : "false");
    displayOrder(d.cards).forEach(function (index) {
      var card = d.cards[index];
      var box = app.cardBox(card, { tag: "button" });
      var node = box.firstChild;
      node.type = "button";
      node.setAttribute("data-index", String(index));
      node.setAttribute("aria-pressed", state.selected.indexOf(index) >= 0 ? "true" : "false");
      node.addEventListener("click", function () {
        toggle(index);
      });
      pack.appendChild(box);
    });
    app.credit(d.cards);
    if (place) app.focusAgain(place);
    if (news && d.cards.length) showPackTop();
    updateConfirm();
    tick();
  }

  // A new pack is seen from its top (the mythics, rares and legends first), wherever the page was left scrolled
  // for the last pick's cards: only when its top is out of sight under the sticky header, so nothing moves else.
  function showPackTop() {
    var hidden = $("pack-area").getBoundingClientRect().top - $("draft-status").getBoundingClientRect().bottom;
    if (hidden < 0) window.scrollBy(0, hidden);
  }

  // What changed, said once to a screen reader (the page's live region): a pack to pick from, or what the seat
  // waits for.  Only when the pack or the pick changes, never on a tick or a reconnect showing the same pack.
  function announce(d) {
    say(d.cards.length ? d.news : $("waiting-for").textContent); // the server's words
  }

  function say(words) {
    var live = $("announce");
    if (live.textContent === words) live.textContent = ""; // the same words again are still news: said again
    live.textContent = words;
  }

  // The countdown is seen, not heard: a reader is told once per pick when ten seconds are left (then the cards
  // marked are taken, the bot's pick for the rest, as the timer's message says after).
  var WARN_AT_S = 10;

  // A confirmed pick that got no answer (the server down, the connection lost) is sent again by itself once the
  // server answers with the same pack in front of the seat: it never arrived (one that did shows the next pack).
  function sendAgain() {
    var unsent = state.unsent;
    state.unsent = null;
    if (!unsent || unsent.key !== state.packKey || unsent.seat !== seatOf() || state.busy) return;
    state.selected = unsent.body.cards.slice();
    toast("The server answers again: your pick is sent again.");
    send(unsent.body, unsent.key);
  }

  // The pack as players sort it (as Arena and Draftmancer show it): rares, mythics and legends first (mythic,
  // rare, then the other legends), then by colour (W U B R G, multicolour, colourless), mana value and name;
  // "booster" keeps the pack's own order.  Returns the cards' indices in the order to show them.
  var RARITY_RANK = { M: 0, R: 1 };
  var COLOUR_RANK = { W: 0, U: 1, B: 2, R: 3, G: 4, M: 5, C: 6 };

  function displayOrder(cards) {
    var indices = cards.map(function (card, index) {
      return index;
    });
    if (state.packOrder === "booster") return indices;
    function group(card) {
      if (card.rarity in RARITY_RANK) return RARITY_RANK[card.rarity];
      return /Legendary/.test(card.type || "") ? 2 : 3;
    }
    function colour(card) {
      if (/Land/.test(card.type || "") && !card.mana_value && !(card.colors || "").length) return 7; // lands last
      return COLOUR_RANK[colorKey(card)];
    }
    return indices.sort(function (a, b) {
      var x = cards[a];
      var y = cards[b];
      return (
        group(x) - group(y) ||
        colour(x) - colour(y) ||
        (x.mana_value || 0) - (y.mana_value || 0) ||
        (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) ||
        a - b
      );
    });
  }

  function togglePackOrder() {
    state.packOrder = state.packOrder === "booster" ? "sorted" : "booster";
    if (state.seat) renderDraft(state.seat);
  }

  // The draft the page shows: the one its taps and its Confirm are about.
  function drawn() {
    return state.seat && state.seat.draft ? state.drawn : null;
  }

  function need() {
    var d = drawn();
    if (!d) return 0;
    return d.take; // the server's count for this pack (fewer when the pack holds fewer)
  }

  function toggle(index) {
    state.unsent = null; // the player chooses again: the pick that got no answer is not sent again by itself
    var at = state.selected.indexOf(index);
    if (at >= 0) state.selected.splice(at, 1);
    else {
      if (state.selected.length >= need()) state.selected.shift();
      state.selected.push(index);
    }
    var buttons = $("pack").querySelectorAll(".card");
    for (var i = 0; i < buttons.length; i++) {
      var at = Number(buttons[i].getAttribute("data-index"));
      buttons[i].setAttribute("aria-pressed", state.selected.indexOf(at) >= 0 ? "true" : "false");
    }
    updateConfirm();
    sendMarks();
  }

  // The cards marked, told to the server on the open stream as they change: if the pick's time runs out they are
  // taken, the strong bot's pick for the rest.  Without a stream they are told when it opens again (app.js).
  function sendMarks() {
    var d = drawn();
    var ws = state.ws;
    if (!d || !d.cards.length || !ws || ws.readyState !== 1) return;
    try {
      ws.send(JSON.stringify({ type: "marks", pack: d.pack, pick: d.pick, cards: state.selected.slice() }));
    } catch (e) {
      /* closing: told again when the stream opens */
    }
  }

  function updateConfirm() {
    var d = drawn();
    var n = need();
    var bar = $("confirm-bar");
    bar.hidden = !d || !d.cards.length;
    var button = $("confirm");
    button.disabled = state.busy || n === 0 || state.selected.length !== n;
    // a confirmed pick that got no answer says so for as long as it waits (not only in a toast that goes away)
    var unanswered = !state.busy && state.unsent && state.unsent.key === state.packKey && state.unsent.seat === seatOf();
    button.textContent = state.busy && state.sending ? "Sending…" : unanswered ? "Send again" : state.selected.length === n && n > 0 ? "Confirm" : "Pick " + (n - state.selected.length) + " more";
    var names = state.selected.map(function (i) {
      return d.cards[i].name;
    });
    $("selected-names").classList.toggle("unanswered", !!unanswered); // said whole, over lines: not cut short
    $("selected-names").textContent = unanswered
      ? cmdraftPage.shown("No answer yet for " + names.join(" + ") + ": sent again once the server answers")
      : names.length ? cmdraftPage.shown(names.join(" + ")) : "Tap " + n + (n === 1 ? " card" : " cards") + ", then Confirm";
  }

  function confirmPick() {
    var d = drawn();
    if (!d || state.busy || state.selected.length !== need()) return;
    send({ pack: d.pack, pick: d.pick, cards: state.selected.slice().sort(function (a, b) { return a - b; }) }, state.packKey);
  }

  // The seat the page shows (event, player): a pick is sent again only for the seat that confirmed it.
  function seatOf() {
    var seat = state.seat;
    return seat && seat.event && seat.player ? seat.event.id + ":" + seat.player.number : "";
  }

  function send(body, key) {
    state.busy = true;
    state.sending = { key: key, body: body, seat: seatOf() };
    updateConfirm();
    var sent = app.pickOverStream(body); // the open stream carries it (the answer comes back on it)
    if (!sent) api("POST", "/api/pick", body).then(pickAnswered).catch(pickLost);
  }

  // The answer to a pick, over the stream or POST /api/pick alike: {ok, status, data}.
  function pickAnswered(result) {
    state.busy = false;
    state.sending = null;
    if (result.ok) {
      state.selected = [];
      app.receive(result.data);
      keepPlace();
    } else if (result.status === 409 && result.data.seat) {
      toast(errorText(result)); // the core's words: "that pack has moved on: …"
      app.receive(result.data.seat);
      keepPlace(); // the pack it moved on to is said at the heading, as after a pick
    } else if (result.status === 401) {
      app.toJoin(errorText(result)); // the server says why: opened elsewhere, or a new code
    } else {
      toast(errorText(result));
      updateConfirm();
    }
  }

  // The Confirm button that had the focus goes with the pack: the reader's place moves to the pack's heading (the
  // next pack, or what the seat waits for, is said there), not to the top of the page.
  function keepPlace() {
    var now = document.activeElement;
    if (now && now !== document.body && !now.disabled && now.offsetParent !== null) return;
    var heading = $("pack-pick");
    heading.setAttribute("tabindex", "-1"); // focusable from the script only, for as long as it has the focus
    heading.addEventListener("blur", function () { heading.removeAttribute("tabindex"); }, { once: true });
    heading.focus();
  }

  function pickLost() {
    state.busy = false;
    state.unsent = state.sending; // sent again when the server answers with the same pack (``sendAgain``)
    state.sending = null;
    toast("No answer from the server: your pick may not have arrived; it is sent again once the server answers.");
    updateConfirm();
    app.reconnect(); // the seat asked for again (the pick shows if it arrived), then a new stream
  }

  function tick() {
    var d = state.seat && state.seat.draft;
    var timer = $("timer");
    if (!d || d.deadline === null || d.deadline === undefined || !d.cards.length) {
      put(timer, "");
      timer.setAttribute("data-level", "none");
      return;
    }
    if (state.clockHeld) {
      // the connection was lost: the last deadline heard may be out of date, so none is counted down
      put(timer, "reconnecting…");
      timer.setAttribute("data-level", "held");
      return;
    }
    var left = Math.max(0, Math.ceil(d.deadline - serverNow()));
    var minutes = Math.floor(left / 60);
    var seconds = left % 60;
    put(timer, minutes + ":" + (seconds < 10 ? "0" : "") + seconds);
    timer.setAttribute("data-level", left <= 10 ? "low" : left <= 30 ? "warn" : "ok");
    if (left > 0 && left <= WARN_AT_S && state.warned !== state.packKey) {
      state.warned = state.packKey;
      say(left + " seconds left to pick");
    }
  }

  // The pool is drawn again on every seat state too: a tap on a card's name in it is held the same way.
  var renderPool = cmdraftPage.pressHold(function () { return $("pool-panel"); })(drawPool);

  function drawPool(pool) {
    $("pool-count").textContent = String(pool.length);
    var view = clear($("pool-view"));
    if (!pool.length) {
      view.appendChild(el("p", "hint", "No cards yet."));
      return;
    }
    if (state.poolView === "curve") {
      var buckets = {};
      pool.forEach(function (card) {
        if (/Land/.test(card.type || "") && !card.mana_value) return;
        var mv = Math.min(card.mana_value || 0, 7);
        (buckets[mv] = buckets[mv] || []).push(card);
      });
      var bars = app.curveBars([0, 1, 2, 3, 4, 5, 6, 7].map(function (mv) {
        return (buckets[mv] || []).length;
      }));
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

  // A card as a line of a list (pool, deck): its image small when there is one, name and cost as text; the
  // name is a button showing the card full size (with its rules text) when there is more to see.
  function lineNode(card, count) {
    var line = el("div", "line " + frameClass(card) + (card.image ? " has-image" : ""));
    if (card.image) {
      var img = el("img", "line-img");
      img.onerror = function () { // a kept image that can't be shown: the line keeps its name as text
        img.remove();
      };
      img.src = card.image;
      img.alt = "";
      img.loading = "lazy";
      line.appendChild(img);
    }
    if (count !== undefined) line.appendChild(el("span", "count", count + "×"));
    var more = card.image || (card.text && card.text.length);
    var name = el(more ? "button" : "span", "line-name", card.name);
    line.appendChild(name);
    var cost = pips(card.cost);
    if (card.cost) { // as pips, as the pack draws a cost; a screen reader hears it in words, as on the decklists
      cost.setAttribute("role", "img");
      cost.setAttribute("aria-label", "costs " + cmdraftPage.costWords(card.cost));
    }
    line.appendChild(cost);
    if (more) {
      name.type = "button";
      line.classList.add("has-text");
      name.addEventListener("click", function () {
        showCard(card);
      });
    }
    return line;
  }

  // for the other parts of the page
  app.confirmPick = confirmPick;
  app.displayOrder = displayOrder;
  app.togglePackOrder = togglePackOrder;
  app.pickAnswered = pickAnswered;
  app.pickLost = pickLost;
  app.sendAgain = sendAgain;
  app.sendMarks = sendMarks;
  app.lineNode = lineNode;
  app.renderDraft = renderDraft;
  app.renderPool = renderPool;
  app.tick = tick;
})(cmdraft);
