"""Rich rendering of cards, packs, pools, decks and events.  Only this module and
the CLI print; the core returns values."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from rich import box
from rich.cells import cell_len
from rich.console import Console
from rich.table import Table
from rich.text import Text

from events.night.schema import number_text
from events.outputs.printables import standings_legend
from events.outputs.visible import visible
from events.storage.store import default_path
from sets.cards import Card, Rarity

if TYPE_CHECKING:
    from sets.booster import Printing

_SYMBOL_STYLE = {
    "W": "bold #f8f6d8 on #5a5a3a",
    "U": "bold #3b8ede",
    "B": "bold #a58fb8",
    "R": "bold #e8573a",
    "G": "bold #3aa856",
}
RARITY_STYLE = {
    Rarity.COMMON: "white",
    Rarity.UNCOMMON: "#b0c4de",
    Rarity.RARE: "#e6c35c",
    Rarity.MYTHIC: "#f07c28",
    Rarity.SPECIAL: "#c77dff",
    Rarity.BONUS: "#c77dff",
}
IDENTITY_STYLE = {"W": "#f3efc2", "U": "#3b8ede", "B": "#a58fb8", "R": "#e8573a", "G": "#3aa856"}


def db_option(path) -> str:
    """`` --db PATH`` for a command to type again, unless ``path`` is the default database (then nothing)."""
    if Path(path).resolve() == default_path().resolve():
        return ""
    return f" --db {shlex.quote(str(path))}"


def join_names(names: Iterable[str]) -> str:
    """Names in one line that stays readable when a name holds a comma ("Ann, the Great / Bo")."""
    return " / ".join(names)


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


_SHEET_WORDS = {
    "etched_foil": "foil-etched",
    "dedicated_foil": "foil",
    "rare_mythic": "rare or mythic",
    "nonlegendary": "non-legendary",
    "raremythic": "rare or mythic",
}


def sheet_label(name: str, cards: Iterable[Card] = ()) -> str:
    """A booster sheet as players say it: "foil-etched legend", "non-legendary rare or mythic"."""
    words = sheet_words(name)
    cards = list(cards)
    if cards and all(card.is_legendary for card in cards) and "legend" not in words:
        words += " legend"
    return words


def sheet_words(text: str, labels: dict[str, str] | None = None) -> str:
    """Booster sheet names in a text (``nonlegendary_rare_mythic``) as players say them;
    ``labels`` gives the words for known sheets (see ``sheet_label``)."""
    for key in sorted(labels or {}, key=len, reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", labels[key], text)
    for key, words in _SHEET_WORDS.items():
        text = text.replace(key, words) if "_" in key else text
    text = text.replace("_", " ")
    for key, words in _SHEET_WORDS.items():
        text = re.sub(rf"\b{key}\b", words, text) if "_" not in key else text
    return re.sub(r"\ba ([aeiou])", r"an \1", text)


_RARITY_ORDER = {rarity.value: i for i, rarity in enumerate(Rarity)}


def in_rarity_order(labels: list[str]) -> list[str]:
    """Rarity names common → mythic → special; other labels keep their order."""
    if labels and all(label in _RARITY_ORDER for label in labels):
        return sorted(labels, key=_RARITY_ORDER.__getitem__)
    return labels


def count_words(count: int, word: str) -> str:
    """ "1 card", "2 cards"."""
    return f"{count} {word if count == 1 else word + 's'}"


def passing(left: bool) -> str:
    """The passing direction as the pack screen and the big-screen timer both show it."""
    return "left ←" if left else "right →"


def mana_text(cost: str) -> Text:
    """A mana cost with each colored symbol in its color (also in the compact form, ``3WU``)."""
    text = Text()
    for symbol in re.findall(r"\{[^}]*\}|//|\s+|[0-9A-Z]", cost):
        colors = [ch for ch in symbol.upper() if ch in "WUBRG"] if symbol.startswith("{") or len(symbol) == 1 else []
        style = _SYMBOL_STYLE.get(colors[0], "") if len(colors) == 1 else ("bold magenta" if colors else "dim")
        text.append(visible(symbol), style=style)
    return text


def compact_cost(cost: str) -> str:
    """A mana cost without the braces of one-character symbols: ``{3}{W}{U}`` is ``3WU``, ``{W/U}`` stays."""
    return re.sub(r"\{([0-9A-Z]|1[0-9])\}", lambda m: m.group(1) if len(m.group(1)) == 1 else m.group(0), cost)


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
    """Card types without super- or subtypes (the notes say "legend")."""
    face = card.front
    return " ".join(face.types) or card.type_line


def _cell_width(cell) -> int:
    plain = cell.plain if isinstance(cell, Text) else str(cell)
    return max((cell_len(line) for line in plain.split("\n")), default=0)


def fit_table(
    headers: list[str],
    rows: list[list],
    *,
    essential: set[str],
    width: int | None,
    title: str | None = None,
    justify: dict[str, str] | None = None,
    plain: bool = False,
) -> Table:
    """A table that fits ``width`` without cutting an essential column (names, costs, identities).

    Essential columns keep their full width on one line; the others wrap, and when even
    wrapping leaves no room they are dropped, the last one first.
    """
    rows = [
        [shown(cell) if isinstance(cell, str) else cell for cell in row] for row in rows
    ]  # text is data, never markup
    columns = list(range(len(headers)))
    natural = [max([cell_len(headers[c])] + [_cell_width(row[c]) for row in rows]) for c in columns]
    gap = 2 if plain else 3

    def room(kept: list[int]) -> int:
        used = sum(natural[c] for c in kept if headers[c] in essential) + gap * (len(kept) - 1)
        return (width or 10**6) - used

    kept = list(columns)
    minimum = {c: min(natural[c], max(6, cell_len(headers[c]))) for c in columns}
    while True:
        loose = [c for c in kept if headers[c] not in essential]
        if room(kept) >= sum(minimum[c] for c in loose) or not loose:
            break
        kept.remove(loose[-1])
    table = Table(
        title=shown(title) if isinstance(title, str) else title,
        header_style="bold",
        box=None if plain else box.SIMPLE_HEAD,
        show_edge=False,
        pad_edge=False,
        padding=(0, 1),
        title_justify="left",
    )
    loose = [c for c in kept if headers[c] not in essential]
    # share the room left fairly: no column beyond its natural width, the rest to the others
    share = {c: minimum[c] for c in loose}
    spare = room(kept) - sum(share.values())
    while spare > 0:
        hungry = [c for c in loose if share[c] < natural[c]]
        if not hungry:
            break
        step = max(1, spare // len(hungry))
        for c in hungry:
            extra = min(step, natural[c] - share[c], spare)
            share[c] += extra
            spare -= extra
    for c in kept:
        options = {"justify": (justify or {}).get(headers[c], "left")}
        if headers[c] in essential:
            fits = room(kept) >= 0
            table.add_column(
                headers[c], no_wrap=fits, min_width=natural[c] if fits else None, overflow="fold", **options
            )
        else:
            table.add_column(headers[c], overflow="fold", width=share[c], **options)
    for row in rows:
        table.add_row(*[row[c] for c in kept])
    return table


def card_list_table(headers: list[str], rows: list[list], title: str | None = None, width: int | None = None) -> Table:
    """Cards with counts: the card name, identity and cost are never cut."""
    return fit_table(
        headers,
        rows,
        essential={"#", "Count", "Card", "Id", "Cost", "Commanders", "Identity"},
        width=width,
        title=title,
        justify={"#": "right", "Count": "right", "MV": "right", "In deck": "right", "In pool": "right"},
    )


def pack_table(
    printings: Iterable[Printing], title: str = "", numbered: bool = True, width: int | None = None, first: int = 1
) -> Table:
    """A pack or pool as a table: number, name, cost, rarity and identity always whole; on narrow
    terminals the type loses its subtypes, and type and notes wrap or go before anything else is cut."""
    narrow = width is not None and width < 110
    headers = (["#"] if numbered else []) + ["Card", "Cost", "R", "Id", "Type", "Notes"]
    rows = []
    for index, printing in enumerate(printings, start=first):
        card = printing.card
        notes = " ".join(filter(None, [finish_marks(printing.foil, printing.etched), commander_hint(card)]))
        rows.append(
            ([str(index)] if numbered else [])
            + [
                shown(card.name, style=RARITY_STYLE[card.rarity]),
                mana_text(card.mana_cost),
                shown(card.rarity.letter, style=RARITY_STYLE[card.rarity]),
                identity_text(card.deck_colors.code),
                shown(_short_type(card) if narrow else card.type_line),
                shown(notes),
            ]
        )
    return fit_table(
        headers,
        rows,
        essential={"#", "Card", "Cost", "R", "Id"},
        width=width,
        title=title or None,
        plain=True,
        justify={"#": "right", "R": "center", "Id": "center"},
    )


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
    table.add_row(
        "Deck colors",
        Text.assemble(identity_text(card.deck_colors.code), shown("  (identity + basic land types)", style="dim")),
    )
    table.add_row("Commander", shown(commander_hint(card) or ("yes" if card.can_be_commander else "no")))
    add_text_rows(table, card)
    return table


NO_TEXT_HINT = "not on this machine: 'cmdraft sets download CMR' or 'cmdraft sets import FILE' brings it"


def add_text_rows(table: Table, card: Card) -> None:
    """The card's rules text, face by face, or where to get it."""
    faces = [face for face in card.faces if face.text]
    if not faces:
        table.add_row("Text", shown(NO_TEXT_HINT, style="dim"))
    for face in faces:
        table.add_row(shown("Text" if len(card.faces) == 1 else face.name), shown(face.text))


def text_line(card: Card, width: int) -> Text:
    """One line about a card for under a pick: its rules text, or its type and stats when the text isn't here."""
    words = " · ".join(" ".join(face.text.split()) for face in card.faces if face.text)
    if not words:
        front = card.front
        stats = f" {front.power}/{front.toughness}" if front.power is not None else ""
        words = f"{card.type_line}{stats}"
    line = shown(f"  {card.name}: ", style="bold")
    line.append(visible(words))
    line.truncate(max(20, width), overflow="ellipsis")
    return line


def deck_report(report) -> Table:
    """A deck check: verdict, commanders, identity, size and every problem."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    verdict = (
        shown("LEGAL", style="bold green")
        if report.valid
        else shown(f"NOT LEGAL ({count_words(len(report.problems), 'problem')})", style="bold red")
    )
    table.add_row("Deck", verdict)
    table.add_row("Format", report.format.value)
    table.add_row("Commanders", shown(" + ".join(report.commanders) or "—"))
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


def suggestion_table(suggestions, width: int | None = None) -> Table:
    """Commander choices; each commander on its own line so no name is cut."""
    rows = [
        [
            str(rank),
            shown("\n".join(s.commanders)),
            shown(", ".join(c.word for c in s.piper_colors) or "—"),
            identity_text(s.identity.code),
            str(s.playable),
            str(s.added_pipers),
        ]
        for rank, s in enumerate(suggestions, start=1)
    ]
    return fit_table(
        ["#", "Commanders", "Identity", "Playable", "Chosen colors", "Added Pipers"],
        [[r[0], r[1], r[3], r[4], r[2], r[5]] for r in rows],
        essential={"#", "Commanders", "Identity"},
        width=width,
        title="Commander choices",
        justify={"#": "right", "Playable": "right", "Added Pipers": "right"},
    )


def pod_table(result) -> Table:
    table = Table(
        "Seat",
        "Player",
        "Bot",
        "Commanders",
        "Colors",
        "Deck",
        "Legal",
        title=shown(
            f"{result.draft.config.set_code} pod, seed {result.seed}: {count_words(result.pipers_opened, 'Prismatic Piper')} opened"
        ),
    )
    for seat in result.seats:
        report = seat.report
        commanders = []
        colors = iter(report.piper_colors)
        for card in seat.deck.commanders:
            commanders.append(f"{card.name} ({next(colors).word})" if card.chooses_color else card.name)
        legal = shown("yes", style="green") if report.valid else shown(", ".join(report.codes()), style="red")
        table.add_row(
            str(seat.seat + 1),
            shown(seat.name),
            seat.style.value,
            shown(" + ".join(commanders)) or "—",
            identity_text(report.color_identity.code),
            str(report.size),
            legal,
        )
    return table


def aggregate_table(seed: int, figures: dict) -> Table:
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Pods", f"{figures['pods']} (seed {seed})")
    table.add_row("Seats", str(figures["seats"]))
    table.add_row("Legal decks", f"{figures['legal_rate']:.1%}")
    table.add_row("Seats using Pipers", f"{figures['piper_seat_share']:.1%}")
    table.add_row(
        "Pipers opened per pod",
        f"{figures['pipers_opened_mean']:.2f} mean; "
        + ", ".join(f"{k}: {v}" for k, v in figures["pipers_opened_distribution"].items()),
    )
    table.add_row("Deck colors (count)", ", ".join(f"{k}-color: {v}" for k, v in figures["identity_sizes"].items()))
    table.add_row("Decks playing each color", ", ".join(f"{k} {v:.0%}" for k, v in figures["color_share"].items()))
    quality = figures.get("quality")
    if quality:

        def pick(value: float | None) -> str:
            return "none taken" if value is None else f"{value:.2f}"

        def share(value: float | None) -> str:
            return "none taken" if value is None else f"{value:.0%}"

        table.add_row(
            "Cheap removal: mean pick",
            f"{pick(quality['cheap_removal_mean_pick'])} (taken at pick 6+: "
            f"{share(quality['cheap_removal_pick6_share'])}; {quality['cheap_removal_taken']} taken)",
        )
        table.add_row(
            "Pipers drafted at picks 1-5", f"{share(quality['pipers_picks_1_5_share'])} of {quality['pipers_drafted']}"
        )
        table.add_row("Decks with a Piper in the main deck", str(quality["piper_main_decks"]))
        table.add_row("Decks short of sources for a color", f"{quality['under_sourced_share']:.1%}")
        table.add_row("On-color cheap removal benched", f"{quality['benched_removal_per_deck']:.2f} per deck")
        table.add_row(
            "Lands per deck",
            f"{quality['lands_min']}-{quality['lands_max']}; creatures {quality['creatures_mean']} "
            f"mean; removal {quality['removal_in_deck_mean']} mean",
        )
        for style, found in figures.get("quality_by_style", {}).items():
            table.add_row(
                f"Style {style}",
                shown(
                    f"{found['decks']} decks; cheap removal pick {pick(found['cheap_removal_mean_pick'])}; "
                    f"legends at picks 1-3 {found['legends_at_picks_1_3_per_deck']}; two commanders "
                    f"{found['two_commander_share']:.0%}; Piper commanders {found['piper_commander_share']:.0%}"
                ),
            )
    return table


def event_board(snap, ledger: dict | None = None) -> Table:
    """The status board of an event (with a Piper shortfall warning when there is one)."""
    event = snap.event
    names = {p.id: p.name for p in snap.players}
    outer = Table.grid(padding=(0, 0))
    header = Text.assemble(
        shown(event.name, style="bold"),
        f"  ·  {event.date}  ·  {event.set} {event.mode} ({event.style})  ·  status: ",
        (event.status, "bold cyan"),
    )
    outer.add_row(header)
    if ledger and ledger["shortfall"]:
        lenders = join_names(l["player"] for l in ledger["lenders"]) or "nobody in the event"
        outer.add_row(
            shown(
                f"Piper shortfall: registered decks add {ledger['needed']} Piper(s), {ledger['shortfall']} more than "
                f"players and the store can lend (could lend: {lenders})",
                style="bold red",
            )
        )
    elif ledger and ledger["forecast"]["shortfall"]:
        outer.add_row(
            shown(
                f"Piper forecast: the requests would be {ledger['forecast']['shortfall']} Piper(s) short "
                "(see 'cmdraft event pipers')",
                style="yellow",
            )
        )
    if ledger:
        for row in ledger["pods"]:
            if row["disagrees"]:
                outer.add_row(
                    shown(
                        f"Pod {row['pod']}: {row['typed']} Piper(s) typed as opened, but the recorded pools hold "
                        f"{row['opened']}",
                        style="yellow",
                    )
                )
    players = Table(
        "#", "Player", "Status", "Pod/seat", "Pool", "Pipers", "Deck", title="Players", title_justify="left"
    )
    for p in snap.players:
        deck = p.deck
        if deck is None:
            deck_text = shown("not registered", style="dim")
        elif deck.valid:
            deck_text = shown("legal: " + " + ".join(c["name"] for c in deck.commanders), style="green")
        else:
            deck_text = shown(", ".join(sorted({pr["code"] for pr in deck.problems})), style="red")
        seat = f"{p.pod}/{p.seat + 1}" if p.pod else "—"
        status = p.status + (" (late)" if p.late else "") + (" (bot)" if p.bot else "")
        if p.status == "dropped" and p.dropped_after is not None:
            status = (
                f"dropped after round {p.dropped_after}: not paired again"
                if p.dropped_after
                else "dropped before round 1: not paired"
            )
        elif p.status == "active" and p.checked_in:
            status += " (checked in)"
        pool = shown(f"{p.pool_size} !", style="bold yellow") if p.pool_warning else shown(str(p.pool_size or "—"))
        players.add_row(f"#{p.number}", shown(p.name), status, seat, pool, str(p.requested or ""), deck_text)
    outer.add_row(players)
    for p in snap.players:
        if p.pool_warning and p.status == "active":
            outer.add_row(shown(f"! {p.name}'s pool: {p.pool_warning}", style="yellow"))
        if p.wrong_codes:
            outer.add_row(
                shown(
                    f"! {p.name}: {p.wrong_codes} wrong seat code{'s' if p.wrong_codes != 1 else ''} typed "
                    f"(last at {p.wrong_code_last}); reset it with 'cmdraft event player code "
                    f"{event.id} #{p.id} --reset' if the player didn't type them",
                    style="bold red",
                )
            )
    if snap.pods:
        pods = Table("Pod", "Players", "Pipers opened", "Draft", title="Draft pods", title_justify="left")
        for pod in snap.pods:
            pods.add_row(
                str(pod.number),
                shown(join_names(names[i] for i in pod.players)),
                _opened(pod, ledger),
                snap.drafts.get(pod.number) or event.style,
            )
        outer.add_row(pods)
    results = {(r.round, r.table): r.order for r in snap.results}
    for rnd in snap.rounds:
        table = Table(
            "Table",
            "Players",
            "Finishing order",
            title=f"Round {rnd.number} ({rnd.status})",
            title_justify="left",
        )
        for number, ids in enumerate(rnd.tables, start=1):
            order = results.get((rnd.number, number))
            outcome = (
                shown(" > ".join(" = ".join(names[i] for i in group) for group in order))
                if order
                else shown("waiting", style="dim")
            )
            table.add_row(str(number), shown(join_names(names[i] for i in ids)), outcome)
        outer.add_row(table)
    return outer


def history_table(entries: list[dict]) -> Table:
    """The event's history, oldest first: when, who, what, old and new value (undos name the entry they take back)."""

    def value(v) -> str:
        if v is None:
            return "—"
        if isinstance(v, str):
            return v
        if isinstance(v, list) and all(isinstance(x, str) for x in v):
            return join_names(v)  # players: "Ann / Cy, the Great"
        if isinstance(v, list) and all(isinstance(x, list) for x in v):
            return "; ".join(value(x) for x in v)  # pods or tables, one after another
        return json.dumps(v, ensure_ascii=False)

    table = Table("#", "When (UTC)", "Who", "What", "Old", "New", title="History", title_justify="left")
    for entry in entries:
        what = entry["what"] + (f" (of #{entry['undoes']})" if entry.get("undoes") else "")
        table.add_row(
            str(entry["id"]),
            entry["at"].replace("T", " ").replace("+00:00", ""),
            shown(entry["who"]),
            shown(what),
            shown(value(entry["old"])),
            shown(value(entry["new"])),
        )
    if not entries:
        table.caption = "No change recorded yet."
    return table


def deck_board(snap) -> Table:
    table = Table(
        "Player", "Pool", "Deck", "Commanders", "Problems", title=shown(f"Deck registration: {snap.event.name}")
    )
    for p in snap.players:
        if p.status != "active" or p.bot:
            continue  # dropped players and bots (which only fill draft seats) register no deck
        deck = p.deck
        state = (
            shown("missing", style="yellow")
            if deck is None
            else (shown("legal", style="green") if deck.valid else shown("illegal", style="red"))
        )
        problems = "" if not deck else "; ".join(pr["message"] for pr in deck.problems)
        commanders = " + ".join(c["name"] for c in deck.commanders) if deck else ""
        table.add_row(shown(p.name), str(p.pool_size or "—"), state, shown(commanders or "—"), shown(problems))
    return table


def _opened(pod, ledger: dict | None) -> str:
    """Pipers opened in a pod for the board: counted in its recorded pools."""
    entry = next((p for p in (ledger or {}).get("pods", []) if p["pod"] == pod.number), None)
    if entry is None or entry["opened"] is None:
        return "—"
    partial = (
        "" if entry["pools_recorded"] == entry["seats"] else f" ({entry['pools_recorded']}/{entry['seats']} pools)"
    )
    return f"{entry['opened']}{partial}"


def piper_ledger(ledger: dict) -> Table:
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    for pod in ledger["pods"]:
        opened = (
            "no pool recorded yet"
            if pod["opened"] is None
            else f"{pod['opened']} in {pod['pools_recorded']} of {pod['seats']} recorded pools"
        )
        line = shown(opened)
        if pod["typed"] is not None:
            line.append(
                f"; typed {pod['typed']}" + (" — DISAGREES with the pools" if pod["disagrees"] else ""),
                style="bold yellow" if pod["disagrees"] else "",
            )
        grid.add_row(f"Opened, pod {pod['pod']}", line)
    if not ledger["pods"]:
        grid.add_row("Opened", f"{ledger['held_in_pools']} in the recorded pools")
    grid.add_row("Store stock", str(ledger["stock"]))
    grid.add_row(
        "Added by decks",
        shown(join_names(f"{d['player']} {d['added']}" for d in ledger["decks"] if d["added"]) or "none"),
    )
    grid.add_row("Needed", str(ledger["needed"]))
    grid.add_row("Unused in pools", str(ledger["unused"]))
    grid.add_row("Available", f"{ledger['available']} (unused + store stock)")
    if ledger["shortfall"]:
        grid.add_row(
            shown("SHORTFALL", style="bold red"),
            shown(f"{count_words(ledger['shortfall'], 'Piper')} short for the registered decks", style="red"),
        )
    lenders = join_names(
        f"{l['player']} ({l['spare']}{'' if l['deck_registered'] else ', no deck yet'}"
        f"{', dropped' if l['dropped'] else ''})"
        for l in ledger["lenders"]
    )
    grid.add_row("Could lend", shown(lenders or "nobody"))
    forecast = ledger["forecast"]
    grid.add_row("", "")
    grid.add_row(shown("Forecast", style="bold dim"), shown("from requests made before deck building", style="dim"))
    grid.add_row(
        "Requested", shown(join_names(f"{r['player']} {r['requested']}" for r in forecast["requests"]) or "none")
    )
    grid.add_row("Needed from others", str(forecast["needed_from_others"]))
    grid.add_row("Could be lent", str(forecast["available"]))
    if forecast["shortfall"]:
        grid.add_row(
            shown("forecast short", style="yellow"),
            shown(f"{forecast['shortfall']} Piper(s), if the requests hold", style="yellow"),
        )
    return grid


def standings_table(rows, points=None) -> Table:
    """Standings with shared ranks for exact ties, figures rounded for reading, and a legend for every column."""
    caption = "\n".join(standings_legend(points)) if points is not None else None
    table = Table(
        "Rank",
        "Player",
        "Points",
        "Opp. avg",
        "Avg place",
        "Rounds",
        title="Standings",
        caption=caption,
        caption_justify="left",
    )
    for row in rows:
        name = shown(row.name + (" (dropped)" if row.dropped else ""))
        table.add_row(
            str(row.rank),
            name,
            number_text(row.points),
            f"{float(row.opponents_average):.2f}",
            "" if row.average_place is None else f"{float(row.average_place):.2f}",
            str(row.rounds),
        )
    return table


def game_board(board: dict) -> Table:
    table = Table(
        "Player",
        "Life",
        "Commander damage taken",
        "Commander tax",
        "",
        title=shown(f"Round {board['round']}, table {board['table']}"),
    )
    for p in board["players"]:
        damage = join_names(f"{h['label']} {h['amount']}" for h in p["commander_damage"]) or "—"
        tax = join_names(f"{t['label']} +{{{t['tax']}}}" for t in p["tax"]) or "—"
        table.add_row(
            shown(p["player"]),
            str(p["life"]),
            shown(damage),
            shown(tax),
            shown("LOST", style="bold red") if p["lost"] else "",
        )
    return table


def stats_lines(stats) -> list[Text]:
    """A deck's figures in three lines: curve and roles; sources per color against the symbols to cast;
    a warning naming each commander color short of sources."""
    line = Text("Curve ")
    for mv, n in stats.curve.items():
        line.append(f"{mv if mv < 7 else '7+'}:", style="dim")
        line.append(f"{n} ")
    removal = str(stats.removal)
    line.append(f"· creatures {stats.creatures} · removal {removal} · ramp {stats.ramp}")
    colors = Text("Sources/symbols ")
    for color, made in stats.sources.items():
        if made or stats.symbols[color] or color in stats.identity:
            colors.append_text(identity_text(color.value))
            colors.append(
                f" {made}/{stats.symbols[color]}  ", style="bold red" if color in stats.identity and made < 8 else ""
            )
    lines = [line, colors]
    if stats.warnings:
        lines.append(shown("⚠ fewer than 8 sources of a commander color: " + "; ".join(stats.warnings), style="yellow"))
    return lines


def signals_table(rows, width: int | None = None) -> Table:
    """Each color's quality in the packs passed to you (``draft.advice.signals``), best first."""
    body = [
        [identity_text(row.color.value), row.color.word, f"{row.best:.1f}", f"{row.per_pack:.1f}", str(row.packs)]
        for row in rows
    ]
    return fit_table(
        ["", "Color", "Best card (avg rating)", "Cards per pack", "Packs seen"],
        body,
        essential={"", "Color", "Best card (avg rating)"},
        width=width,
        title="Signals: what the packs passed to you hold",
    )
