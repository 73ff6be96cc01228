"""Rich rendering of cards, packs, pools, decks and events.  Only this module and
the CLI print; the core returns values."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from sets.cards import Card, Rarity

if TYPE_CHECKING:
    from sets.booster import Printing

_SYMBOL_STYLE = {"W": "bold #f8f6d8 on #5a5a3a", "U": "bold #3b8ede", "B": "bold #a58fb8", "R": "bold #e8573a", "G": "bold #3aa856"}
RARITY_STYLE = {
    Rarity.COMMON: "white",
    Rarity.UNCOMMON: "#b0c4de",
    Rarity.RARE: "#e6c35c",
    Rarity.MYTHIC: "#f07c28",
    Rarity.SPECIAL: "#c77dff",
    Rarity.BONUS: "#c77dff",
}
IDENTITY_STYLE = {"W": "#f3efc2", "U": "#3b8ede", "B": "#a58fb8", "R": "#e8573a", "G": "#3aa856"}


_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """``text`` with control characters written out (``\\x1b``), so no name can move the cursor or colour the screen."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def shown(text: object, style: str = "", **options) -> Text:
    """User or file text (a name, a path, a card) as a ``Text``: shown as typed, markup never read."""
    return Text(visible(str(text)), style=style, **options)


class SafeConsole(Console):
    """A console whose plain strings never carry control characters (markup is off by default too)."""

    def render_str(self, text: str, **options) -> Text:
        return super().render_str(visible(text), **options)


def console(stderr: bool = False) -> Console:
    """The console of every screen.  Markup is off: a plain string (a name, a path, a card) is shown as typed;
    styled output uses ``Text`` or passes ``markup=True`` with user text escaped."""
    return SafeConsole(stderr=stderr, highlight=False, soft_wrap=False, markup=False)


def mana_text(cost: str) -> Text:
    """A mana cost with each colored symbol in its color."""
    text = Text()
    for symbol in re.findall(r"\{[^}]*\}|//|\s+", cost):
        colors = [ch for ch in symbol.upper() if ch in "WUBRG"] if symbol.startswith("{") else []
        style = _SYMBOL_STYLE.get(colors[0], "") if len(colors) == 1 else ("bold magenta" if colors else "dim")
        text.append(visible(symbol), style=style)
    return text


def identity_text(code: str) -> Text:
    if not code or code == "C":
        return shown("C", style="dim")
    text = Text()
    for letter in code:
        text.append(letter, style=f"bold {IDENTITY_STYLE.get(letter, '')}")
    return text


def commander_hint(card: Card) -> str:
    """A few words on why a card matters for commanders."""
    hints = []
    if card.chooses_color:
        hints.append("Piper: any color")
    elif card.can_be_commander:
        hints.append("legend" if card.is_legendary else "commander")
    if card.partner_with:
        hints.append(f"partner with {card.partner_with}")
    elif card.has_partner:
        hints.append("partner")
    if card.has_type("Planeswalker") and card.is_legendary and not card.can_be_commander:
        hints.append("planeswalker")
    return ", ".join(hints)


def finish_marks(foil: bool, etched: bool) -> str:
    return "✦ etched" if etched else ("★ foil" if foil else "")


def _short_type(card: Card) -> str:
    face = card.front
    return " ".join(face.supertypes[:1] + face.types) or card.type_line


def pack_table(printings: Iterable[Printing], title: str = "", numbered: bool = True, width: int | None = None) -> Table:
    """A pack or pool as a table; on narrow terminals types lose their subtypes so every column fits."""
    narrow = width is not None and width < 110
    table = Table(title=shown(title) if title else None, show_lines=False, header_style="bold", expand=False, box=None if narrow else box.HEAVY_HEAD,
                  padding=(0, 1) if narrow else (0, 1))
    if numbered:
        table.add_column("#", justify="right", style="bold", no_wrap=True, min_width=2)
    table.add_column("Card", no_wrap=True, min_width=12, max_width=22 if narrow else 30, overflow="ellipsis")
    table.add_column("Cost", no_wrap=True, min_width=6, max_width=11 if narrow else 14)
    table.add_column("Type", no_wrap=True, overflow="ellipsis", max_width=12 if narrow else 26)
    table.add_column("R", justify="center", no_wrap=True, min_width=1)
    table.add_column("Id", justify="center", no_wrap=True, min_width=3 if narrow else 5)
    table.add_column("Notes", overflow="fold", min_width=15 if narrow else 6)
    for index, printing in enumerate(printings, start=1):
        card = printing.card
        notes = " ".join(filter(None, [finish_marks(printing.foil, printing.etched), commander_hint(card)]))
        row = [
            shown(card.name, style=RARITY_STYLE[card.rarity]),
            mana_text(card.mana_cost),
            shown(_short_type(card) if narrow else card.type_line),
            shown(card.rarity.letter, style=RARITY_STYLE[card.rarity]),
            identity_text(card.deck_colors.code),
            shown(notes),
        ]
        table.add_row(*([str(index)] if numbered else []), *row)
    return table


def card_panel(card: Card) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Name", shown(card.name, style=RARITY_STYLE[card.rarity]))
    table.add_row("Set", shown(f"{card.set_code} #{card.number}" + ("" if card.main_set else " (foil-etched only)")))
    table.add_row("Rarity", card.rarity.value)
    table.add_row("Layout", card.layout.value)
    for face in card.faces:
        label = face.name if len(card.faces) > 1 else "Cost"
        line = mana_text(face.mana_cost) if face.mana_cost else shown("—", style="dim")
        if len(card.faces) > 1:
            line = Text.assemble(line, "  ", shown(face.type_line))
        table.add_row(shown(label), line)
    table.add_row("Type", shown(card.type_line))
    stats = card.front
    if stats.power is not None:
        table.add_row("P/T", shown(f"{stats.power}/{stats.toughness}"))
    if stats.loyalty is not None:
        table.add_row("Loyalty", shown(str(stats.loyalty)))
    table.add_row("Mana value", str(card.mana_value))
    table.add_row("Colors", identity_text(card.colors.code))
    table.add_row("Color identity", identity_text(card.identity.code))
    table.add_row("Deck colors", Text.assemble(identity_text(card.deck_colors.code), shown("  (identity + basic land types)", style="dim")))
    table.add_row("Commander", shown(commander_hint(card) or ("yes" if card.can_be_commander else "no")))
    return table


def deck_report(report) -> Table:
    """A deck check: verdict, commanders, identity, size and every problem."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    verdict = shown("LEGAL", style="bold green") if report.valid else shown(f"NOT LEGAL ({len(report.problems)} problem(s))", style="bold red")
    table.add_row("Deck", verdict)
    table.add_row("Format", report.format.value)
    table.add_row("Commanders", shown(", ".join(report.commanders)) or "—")
    if report.piper_colors:
        table.add_row("Chosen colors", ", ".join(color.word for color in report.piper_colors))
    for line in report.chosen_for_you:
        table.add_row("Chosen for you", shown(line))
    table.add_row("Color identity", identity_text(report.color_identity.code))
    table.add_row("Size", str(report.size))
    for problem in report.problems:
        table.add_row(shown(problem.code, style="red"), shown(problem.message))
    for note in report.notes:
        table.add_row(shown("note", style="yellow"), shown(note))
    return table


def suggestion_table(suggestions) -> Table:
    table = Table("#", "Commanders", "Chosen colors", "Identity", "Playable", "Added Pipers", title="Commander choices")
    for rank, s in enumerate(suggestions, start=1):
        table.add_row(str(rank), shown(" + ".join(s.commanders)), ", ".join(c.word for c in s.piper_colors) or "—",
                      identity_text(s.identity.code), str(s.playable), str(s.added_pipers))
    return table


def pod_table(result) -> Table:
    table = Table("Seat", "Player", "Bot", "Commanders", "Colors", "Deck", "Legal", title=shown(
        f"{result.draft.config.set_code} pod, seed {result.seed}: {result.pipers_opened} Prismatic Piper(s) opened"))
    for seat in result.seats:
        report = seat.report
        commanders = []
        colors = iter(report.piper_colors)
        for card in seat.deck.commanders:
            commanders.append(f"{card.name} ({next(colors).word})" if card.chooses_color else card.name)
        legal = shown("yes", style="green") if report.valid else shown(", ".join(report.codes()), style="red")
        table.add_row(str(seat.seat + 1), shown(seat.name), seat.style.value, shown(" + ".join(commanders)) or "—",
                      identity_text(report.color_identity.code), str(report.size), legal)
    return table


def aggregate_table(seed: int, figures: dict) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Pods", f"{figures['pods']} (seed {seed})")
    table.add_row("Seats", str(figures["seats"]))
    table.add_row("Legal decks", f"{figures['legal_rate']:.1%}")
    table.add_row("Seats using Pipers", f"{figures['piper_seat_share']:.1%}")
    table.add_row("Pipers opened per pod", f"{figures['pipers_opened_mean']:.2f} mean; " + ", ".join(
        f"{k}: {v}" for k, v in figures["pipers_opened_distribution"].items()))
    table.add_row("Deck colors (count)", ", ".join(f"{k}-color: {v}" for k, v in figures["identity_sizes"].items()))
    table.add_row("Decks playing each color", ", ".join(f"{k} {v:.0%}" for k, v in figures["color_share"].items()))
    return table


def event_board(snap: dict, ledger: dict | None = None) -> Table:
    """The status board of an event (with a Piper shortfall warning when there is one)."""
    event = snap["event"]
    names = {p["id"]: p["name"] for p in snap["players"]}
    outer = Table.grid(padding=(0, 0))
    header = Text.assemble(shown(event["name"], style="bold"), f"  ·  {event['date']}  ·  {event['set']} {event['mode']} ({event['style']})"
                           f"  ·  status: ", (event["status"], "bold cyan"))
    outer.add_row(header)
    if ledger and ledger["shortfall"]:
        lenders = ", ".join(l["player"] for l in ledger["lenders"]) or "nobody in the event"
        outer.add_row(shown(f"Piper shortfall: {ledger['shortfall']} more needed than players and the store can lend "
                           f"(could lend: {lenders})", style="bold red"))
    players = Table("#", "Player", "Status", "Pod/seat", "Pool", "Pipers", "Deck", title="Players", title_justify="left")
    for p in snap["players"]:
        deck = p["deck"]
        if deck is None:
            deck_text = shown("not registered", style="dim")
        elif deck["valid"]:
            deck_text = shown("legal: " + " + ".join(c["name"] for c in deck["commanders"]), style="green")
        else:
            deck_text = shown(", ".join(sorted({pr["code"] for pr in deck["problems"]})), style="red")
        seat = f"{p['pod']}/{p['seat'] + 1}" if p["pod"] else "—"
        status = p["status"] + (" (late)" if p["late"] else "") + (" (bot)" if p.get("bot") else "")
        players.add_row(str(p["id"]), shown(p["name"]), status, seat, str(p["pool_size"] or "—"), str(p["requested"] or ""), deck_text)
    outer.add_row(players)
    if snap["pods"]:
        pods = Table("Pod", "Players", "Pipers opened", "Draft", title="Draft pods", title_justify="left")
        for pod in snap["pods"]:
            pods.add_row(str(pod["number"]), shown(", ".join(names[i] for i in pod["players"])),
                         "—" if pod.get("opened") is None else str(pod["opened"]), snap["drafts"].get(pod["number"]) or event["style"])
        outer.add_row(pods)
    results = {(r["round"], r["table"]) for r in snap["results"]}
    for rnd in snap["rounds"]:
        table = Table("Table", "Players", "Result", title=f"Round {rnd['number']} ({rnd['status']})", title_justify="left")
        for number, ids in enumerate(rnd["tables"], start=1):
            table.add_row(str(number), shown(", ".join(names[i] for i in ids)), "recorded" if (rnd["number"], number) in results else "waiting")
        outer.add_row(table)
    return outer


def deck_board(snap: dict) -> Table:
    table = Table("Player", "Pool", "Deck", "Problems", title=shown(f"Deck registration: {snap['event']['name']}"))
    for p in snap["players"]:
        if p["status"] != "active" or p.get("bot"):
            continue  # dropped players and bots (which only fill draft seats) register no deck
        deck = p["deck"]
        state = shown("missing", style="yellow") if deck is None else (shown("legal", style="green") if deck["valid"] else shown("illegal", style="red"))
        problems = "" if not deck else "; ".join(pr["message"] for pr in deck["problems"])
        table.add_row(shown(p["name"]), str(p["pool_size"] or "—"), state, shown(problems))
    return table


def piper_ledger(ledger: dict) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    grid.add_row("Opened per pod", ", ".join(f"pod {p['pod']}: {'?' if p['opened'] is None else p['opened']}" for p in ledger["pods"]) or "—")
    grid.add_row("Held in pools", str(ledger["held_in_pools"]))
    grid.add_row("Store stock", str(ledger["stock"]))
    grid.add_row("Requested", shown(", ".join(f"{r['player']} {r['requested']}" for r in ledger["requests"]) or "none"))
    grid.add_row("Needed from others", str(ledger["needed_from_others"]))
    grid.add_row("Available to lend", str(ledger["available"]))
    if ledger["shortfall"]:
        grid.add_row(shown("SHORTFALL", style="bold red"), shown(f"{ledger['shortfall']} Piper(s) short before deck building", style="red"))
    lenders = ", ".join(f"{l['player']} ({l['spare']})" for l in ledger["lenders"])
    grid.add_row("Could lend", shown(lenders or "nobody"))
    return grid


def standings_table(rows) -> Table:
    table = Table("Rank", "Player", "Points", "Opp. avg", "Avg place", "Rounds", title="Standings")
    for rank, row in enumerate(rows, start=1):
        name = shown(row.name + (" (dropped)" if row.dropped else ""))
        table.add_row(str(rank), name, f"{row.points:g}", f"{row.opponents_average:.3f}", f"{row.average_place:.2f}", str(row.rounds))
    return table


def game_board(board: dict) -> Table:
    table = Table("Player", "Life", "Commander damage taken", "Commander tax", "",
                  title=shown(f"Round {board['round']}, table {board['table']}"))
    for p in board["players"]:
        damage = ", ".join(f"{h['label']} {h['amount']}" for h in p["commander_damage"]) or "—"
        tax = ", ".join(f"{t['label']} +{{{t['tax']}}}" for t in p["tax"]) or "—"
        table.add_row(shown(p["player"]), str(p["life"]), shown(damage), shown(tax), shown("LOST", style="bold red") if p["lost"] else "")
    return table
