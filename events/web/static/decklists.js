/* cmdraft decklists page (/decklists, no token): after the event, where the desk published them, everyone's
   registered decklist by standing, from GET /api/decklists.  Nothing is shown before that (the server refuses).
   Every name goes in with textContent. */
(function () {
  "use strict";

  var REFRESH_MS = 15000;

  var el = cmdraftPage.el;

  function part(title, lines) {
    var box = el("div", "decklist-part");
    var total = lines.reduce(function (sum, line) { return sum + line.count; }, 0);
    box.appendChild(el("h4", null, title + " (" + total + ")"));
    var list = el("ul", "decklist-lines");
    lines.forEach(function (line) {
      // the card's kept image small beside it (the name, count and cost stay as text, read by screen readers)
      var item = el("li", line.image ? "has-image" : null);
      if (line.image) {
        var img = el("img", "decklist-image");
        img.onerror = function () { // a kept image that can't be shown: the line keeps its name as text
          img.remove();
        };
        img.src = line.image;
        img.alt = "";
        img.loading = "lazy";
        item.appendChild(img);
      }
      var chosen = line.chosen_color ? " (chosen color: " + line.chosen_color + ")" : ""; // a Piper's color
      item.appendChild(el("span", "decklist-line", line.count + " " + line.name + chosen));
      if (line.cost) { // as pips, as the player's page draws a cost; a screen reader hears it in words
        var cost = cmdraftPage.pips(line.cost);
        cost.className += " decklist-cost";
        cost.setAttribute("role", "img");
        cost.setAttribute("aria-label", "costs " + cmdraftPage.costWords(line.cost));
        item.appendChild(cost);
      }
      list.appendChild(item);
    });
    box.appendChild(list);
    return box;
  }

  function show(lists) {
    var box = document.getElementById("decklists");
    while (box.firstChild) box.removeChild(box.firstChild);
    lists.forEach(function (deck) {
      var panel = el("article", "panel decklist");
      panel.appendChild(el("h3", "decklist-name", deck.rank_text + " " + deck.name));
      panel.appendChild(part("Commanders", deck.commanders));
      panel.appendChild(part("Main deck", deck.main));
      if (deck.sideboard.length) panel.appendChild(part("Sideboard", deck.sideboard));
      box.appendChild(panel);
    });
    // Scryfall's guidelines: say where the images are from, wherever one is shown
    var credit = document.getElementById("image-credit");
    credit.hidden = !lists.some(function (deck) {
      return [deck.commanders, deck.main, deck.sideboard].some(function (part) {
        return part.some(function (line) { return line.image; });
      });
    });
  }

  function load() {
    var note = document.getElementById("decklists-note");
    fetch("/api/decklists", { credentials: "same-origin", headers: { accept: "application/json" } })
      .then(function (answer) {
        return answer.json().then(function (data) { return { ok: answer.ok, data: data }; });
      })
      .then(function (result) {
        if (result.ok && result.data && Array.isArray(result.data.decklists)) {
          note.hidden = true;
          show(result.data.decklists);
          return;
        }
        show([]);
        note.hidden = false;
        note.textContent = "Decklists are shown here after the event, where the desk publishes them.";
      })
      .catch(function () {
        note.hidden = false;
        note.textContent = "No answer from the server: check the Wi-Fi.";
      });
  }

  load();
  setInterval(function () {
    if (!document.hidden) load();
  }, REFRESH_MS);
})();
