"""Rich rendering shared by every screen: user text as ``Text`` (``shown``), the console, mana costs and
identities in color, tables that fit the terminal, packs and pools, a card's details.  Decks and advice
are drawn in ``deck_tables``, the desk's boards in ``boards``; the core returns values, only the screens
and the CLI print."""

from __future__ import annotations

import copy
import os
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from rich import box
from rich.console import Console, ConsoleOptions, Group
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from draft.cardtext import lines_that_matter
from draft.products import lead_notes
from events.outputs.text import cell_width, fit_columns
from events.portable import stdout_gone
from sets.cards import Card, Rarity
from sets.catalog import with_kept_text
from sets.visible import visible

if TYPE_CHECKING:
    from rich.console import JustifyMethod

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


def shown(text: object, style: str = "", **options: Any) -> Text:
    """User or file text (a name, a path, a card) as a ``Text``: shown as typed, markup never read (control
    and format characters written out; line breaks kept, as in a card's rules text)."""
    return Text(visible(str(text), line_breaks=True), style=style, **options)


class SafeConsole(Console):
    """A console that writes no control character but its own: strings and ``Text`` as ``visible`` writes them."""

    def render_str(self, text: str, **options: Any) -> Text:
        return super().render_str(visible(text, line_breaks=True), **options)

    def render(self, renderable: Any, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        for segment in super().render(renderable, options):  # a ``Text`` holding a downloaded card's name, too
            clean = segment.control or segment.text.isprintable()
            yield segment if clean else Segment(visible(segment.text, line_breaks=True), segment.style)

    def on_broken_pipe(self) -> None:
        """Standard output's reader went away: the rest goes nowhere and the command ends with its own exit code
        (rich's own ends the process with exit 1, the code of an illegal deck)."""
        self.quiet = True
        stdout_gone()


def no_color() -> bool:
    """Whether the player asked for no colour (``NO_COLOR`` set and not empty, https://no-color.org)."""
    return bool(os.getenv("NO_COLOR"))


def console(stderr: bool = False) -> Console:
    """The console of every screen.  Markup is off: a plain string (a name, a path, a card) is shown as typed;
    styled output uses ``Text`` or passes ``markup=True`` with user text escaped.  With ``NO_COLOR`` no style is
    written at all, bold and dim included (rich alone drops only the colours): a screen reader or a braille line
    gets the words and nothing between them."""
    return SafeConsole(
        stderr=stderr,
        highlight=False,
        soft_wrap=False,
        markup=False,
        color_system=None if no_color() else "auto",
    )


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
    for key, words in sorted((labels or {}).items(), key=lambda item: len(item[0]), reverse=True):
        text = re.sub(rf"(?<![\w-]){re.escape(key)}(?![\w-])", words, text)
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


def passing(left: bool) -> str:
    """The passing direction as the pack screen and the big-screen timer both show it."""
    return f"{passing_words(left)} {'←' if left else '→'}"


def passing_words(left: bool) -> str:
    """The passing direction in words alone, for the line prompt (a screen reader reads an arrow aloud)."""
    return "left" if left else "right"


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


def finish_marks(foil: bool, etched: bool) -> str:
    return "✦ etched" if etched else ("★ foil" if foil else "")


def _short_type(card: Card) -> str:
    """Card types without super- or subtypes (the notes say "legend")."""
    face = card.front
    return " ".join(face.types) or card.type_line


def _cell_width(cell: object) -> int:
    plain = cell.plain if isinstance(cell, Text) else str(cell)
    return max((cell_width(line) for line in plain.split("\n")), default=0)


def two_line_width(header: str) -> int:
    """The fewest columns that hold ``header`` on at most two lines, broken between its words."""
    words = header.split()
    return min(
        (max(cell_width(" ".join(words[:cut])), cell_width(" ".join(words[cut:]))) for cut in range(1, len(words))),
        default=cell_width(header),
    )


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
    natural = [max([cell_width(headers[c])] + [_cell_width(row[c]) for row in rows]) for c in columns]
    gap = 2 if plain else 3

    def room(kept: list[int]) -> int:
        used = sum(natural[c] for c in kept if headers[c] in essential) + gap * (len(kept) - 1)
        return (width or 10**6) - used

    kept = list(columns)
    # a loose column's header wraps onto a second line between its words ("Added\nFaceless Ones") before the column
    # is dropped; never onto a third, where a reader going line by line hears two headers' words mixed
    minimum = {c: min(natural[c], max(6, two_line_width(headers[c]))) for c in columns}
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
    share = dict(
        zip(loose, fit_columns([natural[c] for c in loose], [minimum[c] for c in loose], room(kept)), strict=True)
    )
    for c in kept:
        side = cast("JustifyMethod", (justify or {}).get(headers[c], "left"))  # left, center or right
        if headers[c] in essential:
            fits = room(kept) >= 0
            table.add_column(
                headers[c], no_wrap=fits, min_width=natural[c] if fits else None, overflow="fold", justify=side
            )
        else:
            table.add_column(headers[c], overflow="fold", width=share[c], justify=side)
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
    printings: Iterable[Printing],
    title: str = "",
    numbered: bool = True,
    width: int | None = None,
    first: int = 1,
    grouped: bool = False,
) -> Table:
    """A pack or pool as a table: number, name, cost, rarity and identity always whole; on narrow
    terminals the type loses its subtypes, and type and notes wrap or go before anything else is cut.
    ``grouped`` (a pool): copies of one printing are one row with their count ("2  Sol Ring")."""
    narrow = width is not None and width < 110
    numbered = numbered and not grouped
    headers = (
        (["#"] if numbered else []) + (["Count"] if grouped else []) + ["Card", "Cost", "R", "Id", "Type", "Notes"]
    )
    listed = list(printings)
    counts = Counter((p.card, p.foil, p.etched) for p in listed)  # the sheet a copy came from doesn't show
    if grouped:
        firsts = {(p.card, p.foil, p.etched): p for p in reversed(listed)}
        listed = [firsts[key] for key in counts]  # first-seen order: the order the caller sorted the pool in
    rows = []
    for index, printing in enumerate(listed, start=first):
        card = printing.card
        notes = " ".join(filter(None, [finish_marks(printing.foil, printing.etched), ", ".join(lead_notes(card))]))
        rows.append(
            ([str(index)] if numbered else [])
            + ([str(counts[printing.card, printing.foil, printing.etched])] if grouped else [])
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
        essential={"#", "Count", "Card", "Cost", "R", "Id"},
        width=width,
        title=title or None,
        plain=True,
        justify={"#": "right", "Count": "right", "R": "center", "Id": "center"},
    )


def unruled(renderable: Any) -> Any:
    """A table as the line prompt prints it: no rule of box-drawing characters under its header (read aloud, a
    rule is a row of dashes), its title a line of its own (wrapped at the terminal's width, not the table's),
    its header and columns kept; anything else as it is."""
    if not isinstance(renderable, Table):
        return renderable
    table = copy.copy(renderable)
    table.box, title, table.title = None, table.title, None
    if title is None:
        return table
    return Group(shown(title) if isinstance(title, str) else title, table)


# Between a card's facts on a line of the line prompt: a pause a screen reader makes without reading a mark aloud
# (a middle dot is read as one), and not a comma, which many legends' names hold ("Najeela, the Blade-Blossom").
FACTS = "; "


def card_line(printing: Printing, label: str = "", width: int | None = None) -> Text:
    """A card for the line prompt (read aloud by a screen reader, or by a script): ``label`` (its number, its
    count), name, cost, rarity, identity, type and notes, never a table's wrapped cell.  A line wider than
    ``width`` gives up the type's subtypes first; still wider, the facts that don't fit go on lines of their own
    under the name, indented: whole fields on each line, never one word left alone (the field before goes with it,
    where the two fit; at 40 columns an identity 'U' was left alone at the left edge), the finish ('foil') beside
    the type, before the lead notes."""
    card = printing.card
    finish = "foil-etched" if printing.etched else ("foil" if printing.foil else "")  # words: no mark read aloud
    notes = FACTS.join(filter(None, [", ".join(lead_notes(card)), finish]))
    named = Text(f"{label}  " if label else "")
    named.append_text(shown(card.name, style=RARITY_STYLE[card.rarity]))
    cost = mana_text(card.mana_cost) if card.mana_cost else shown("no cost", style="dim")
    facts = [named, cost, Text(card.rarity.value), identity_text(card.deck_colors.code)]
    for kind in (card.type_line, _short_type(card)):
        whole = Text(FACTS).join([*facts, *(shown(field) for field in (kind, notes) if field)])
        if width is None or whole.cell_len <= width:
            return whole
    assert width is not None  # a line without a width is whole above
    lines: list[list[Text]] = [[]]
    leads = ", ".join(lead_notes(card))  # the notes' parts apart, the one-word finish beside the type
    for field in [*facts, *(shown(field) for field in (_short_type(card), finish, leads) if field)]:
        if lines[-1] and (len(label) + 2) * (len(lines) > 1) + Text(FACTS).join([*lines[-1], field]).cell_len > width:
            lines.append([])
        lines[-1].append(field)
    room = width - len(label) - 2  # a line under the first, after its indent
    for at in range(len(lines) - 1, 0, -1):  # the last first: a line it takes from is looked at after it
        line, before = lines[at], lines[at - 1]
        if len(line) == 1 and " " not in line[0].plain and len(before) > 1 + (at == 1):
            if Text(FACTS).join([before[-1], *line]).cell_len <= room:
                line.insert(0, before.pop())  # one word alone reads as a stray cell: the field before goes with it
    indent = " " * (len(label) + 2 if label else 2)
    return Text("\n").join(
        [Text.assemble(indent if at else "", Text(FACTS).join(line)) for at, line in enumerate(lines)]
    )


def card_lines(
    printings: Iterable[Printing], numbered: bool = True, first: int = 1, width: int | None = None
) -> list[Text]:
    """A pack or a pool, a card a line (``card_line``), numbered from ``first`` (the pack's numbers, right-aligned)."""
    listed = list(printings)
    digits = len(str(first + len(listed) - 1))
    return [
        card_line(printing, f"{index:>{digits}}" if numbered else "", width)
        for index, printing in enumerate(listed, start=first)
    ]


def card_panel(card: Card) -> Table:
    """A card in full, what it does first (cost, type, stats, rules text: they fit a 24-line terminal), then its
    colors and where it comes from."""
    card = with_kept_text(card)
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Name", shown(card.name, style=RARITY_STYLE[card.rarity]))
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
    add_text_rows(table, card)
    table.add_row("Commander", shown(", ".join(lead_notes(card)) or ("yes" if card.can_be_commander else "no")))
    table.add_row("Mana value", str(card.mana_value))
    table.add_row("Colors", identity_text(card.colors.code))
    table.add_row("Color identity", identity_text(card.identity.code))
    table.add_row(
        "Deck colors",
        Text.assemble(identity_text(card.deck_colors.code), shown("  (identity + basic land types)", style="dim")),
    )
    table.add_row("Set", shown(f"{card.set_code} #{card.number}" + ("" if card.main_set else " (foil-etched only)")))
    table.add_row("Rarity", card.rarity.value)
    table.add_row("Layout", card.layout.value)
    return table


def no_text_hint(set_code: str) -> str:
    """Where a card's rules text comes from: its own set's download, or any set file imported."""
    return f"not on this machine: 'cmdraft sets download {set_code}' or 'cmdraft sets import FILE' brings it"


def add_text_rows(table: Table, card: Card) -> None:
    """The card's rules text, face by face, or where to get it."""
    faces = [face for face in card.faces if face.text]
    if not faces:
        table.add_row("Text", shown(no_text_hint(card.set_code), style="dim"))
    for face in faces:
        table.add_row(shown("Text" if len(card.faces) == 1 else face.name), shown(face.text))


def text_line(card: Card, width: int, plain: bool = False) -> Text:
    """One line about a card for under a pick: its rules text, the line that matters first (the monarchy, the removal)
    and no reminder text, or its type and stats when the text isn't here.  ``plain`` (the line prompt, read aloud): its
    lines are sentences ('Choose a color before the game begins. Choose a Background.'), never set apart by dots."""
    card = with_kept_text(card)
    parts = [line for face in card.faces if face.text for line in lines_that_matter(face.text)]
    words = ". ".join(part.rstrip(".") for part in parts) + "." if plain and parts else " · ".join(parts)
    if not words:
        front = card.front
        words = card.type_line + (f" {front.power}/{front.toughness}" if front.power is not None else "")
    line = shown(f"  {card.name}: ", style="bold")
    line.append(visible(words))
    line.truncate(max(20, width), overflow="ellipsis")
    return line
