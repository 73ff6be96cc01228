"""The draft table's widgets: the pack list (a card's type cut to the room the names leave; a mark redraws its
own row only), the pick's timer, the highlighted card and the pool panel beside them."""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, Static
from textual.widgets.data_table import ColumnKey, RowKey

from draft.deckstats import type_group
from draft.products import lead_notes
from events.outputs.text import cell_width
from events.screens.render import RARITY_STYLE, identity_text, mana_text, shown
from sets.booster import Printing
from sets.cards import Card

_MEASURE = Console(width=200, color_system=None, file=io.StringIO())  # only measures how text wraps
_SHORT = {"Enchantment": "Enchant.", "Planeswalker": "Planesw."}


_SHORTER = {
    "Creature": "Creat.",
    "Artifact": "Artif.",
    "Enchant.": "Ench.",
    "Instant": "Inst.",
    "Sorcery": "Sorc.",
    "Planesw.": "PW",
    "Battle": "Bat.",
}


def short_type(card: Card, room: int = 8) -> str:
    """The one type a card is listed under, in at most eight letters (the card panel has the whole line),
    or in ``room`` letters when the pack's names leave fewer."""
    kind = type_group(card)
    kind = _SHORT.get(kind, kind)
    if len(kind) > room:
        kind = _SHORTER.get(kind, kind)
    return kind[: max(room, 0)]


def type_cell(card: Card, room: int, wide: bool) -> str:
    """A card's Type cell in ``room`` letters: its type (the whole line where ``wide`` and it fits), and for a card
    with a place among commanders the core's words for it (``lead_notes``: 'legend, choose a Background', as the
    line prompt and ``packs`` say them) after it where both fit, else instead of it, as many of them as fit (the
    highlighted card's side shows them all); the type where not even the first fits."""
    kind = card.type_line if wide and cell_width(card.type_line) <= room else short_type(card, room)
    notes = lead_notes(card)
    if not notes:
        return kind
    if cell_width(whole := f"{kind}; {', '.join(notes)}") <= room:
        return whole
    fitted = ""
    for note in notes:
        if cell_width(longer := f"{fitted}, {note}" if fitted else note) > room:
            break
        fitted = longer
    return fitted or kind


def type_room(width: int, padding: int, pack: Sequence[Printing], costs: list[str]) -> int:
    """The letters the Type column may take in a pack list ``width`` cells wide: what the number, the
    longest name, the cost, the rarity and the identity leave (each column has ``padding`` on both sides)."""
    names = max([cell_width(p.card.name) for p in pack] + [4])  # at least the header "Card"
    cost = max((cell_width(c) for c in costs), default=0)
    identity = max((len(p.card.deck_colors.code or "C") for p in pack), default=1)
    used = 3 + names + max(cost, 4) + 1 + max(identity, 2)
    return width - used - 6 * 2 * padding


def card_side(card: Card, width: int = 0, height: int = 0) -> Text:
    """The highlighted card in the side panel, ``width`` by ``height`` cells (0: not laid out yet): name and cost,
    its place among commanders in the core's words (``lead_notes``: the pack list's Type cell may hold only the
    first of them), type line, identity and power, then its rules text, or where none is here the command that
    brings it.  On a small screen the cost goes down to the type line, and if that is not enough the note goes
    before them (the pack list and 'i' show both), so the panel never cuts the one line that says what to do."""
    front = card.front
    head = shown(card.name, style="bold " + RARITY_STYLE[card.rarity])
    notes = lead_notes(card)
    lead = [shown(", ".join(notes), style="bold")] if notes else []
    kind = Text.assemble(shown(card.type_line), "  ", identity_text(card.deck_colors.code))
    if front.power is not None:
        kind.append(f"  {front.power}/{front.toughness}")
    words = "\n".join(face.text for face in card.faces if face.text)
    if words:
        return Text("\n").join([Text.assemble(head, "  ", mana_text(card.mana_cost)), *lead, kind, shown(words)])
    note = shown(f"(no rules text: cmdraft sets download {card.set_code or 'CMR'})", style="dim")
    cost_kind = Text.assemble(mana_text(card.mana_cost), "  ", kind)
    whole = Text("\n").join([Text.assemble(head, "  ", mana_text(card.mana_cost)), *lead, kind, note])
    if width <= 0 or height <= 0:
        return whole
    for text in (whole, Text("\n").join([head, *lead, cost_kind, note])):
        if _rows(text, width) <= height:
            return text
    return Text("\n").join([head, note, *lead, cost_kind])


def _rows(text: Text, width: int) -> int:
    """The lines ``text`` takes ``width`` cells wide, as a Static wraps it (at spaces, a long word cut)."""
    return sum(len(Text(line).wrap(_MEASURE, width)) for line in text.plain.split("\n"))


def pool_panel(pool: Sequence[Card], leaders: bool = True, names: bool = True) -> Text:
    """Your pool by color and curve, in lines short enough for the side of an 80-column screen; where
    assistance is allowed (``leaders``) the cards that can lead by name, or (``names`` off: the narrow side)
    how many, with the key that lists them."""
    colors = Counter("M" if len(card.deck_colors) > 1 else (card.deck_colors.code or "C") for card in pool)
    curve = Counter(min(int(card.mana_value), 6) for card in pool if not card.is_land)
    text = Text(f"Your pool: {len(pool)} cards\n", style="bold")
    for index, key in enumerate("WUBRGMC"):
        text.append_text(identity_text(key) if key != "M" else Text("M", style="magenta"))
        text.append(f"{colors[key]}" + (" " if index < 6 else ""))
    text.append("\nCurve ")
    text.append(" ".join(f"{'6+' if mv == 6 else mv}:{curve[mv]}" for mv in range(7)))
    can_lead = sorted({card.name for card in pool if card.can_be_commander}) if leaders else []
    if can_lead and not names:
        text.append(f"\nCan lead: {len(can_lead)} (p)", style="bold")
    elif can_lead:
        text.append("\nCan lead: ", style="bold")
        text.append_text(shown(" / ".join(can_lead)))
    return text


class Timer(Static):
    """The seconds left for this pick.  It only ever redraws itself: the typed line is never touched."""

    shown_seconds: int | None = -1

    def show(self, seconds: int | None) -> None:
        if seconds == self.shown_seconds:
            return  # nothing to draw
        self.shown_seconds = seconds
        if seconds is None:
            self.update(Text(""), layout=False)
            return
        # a fixed-size box (table.tcss): drawing it again never lays the screen out again
        self.update(Text(f"⏱ {seconds}s", style="bold red" if seconds <= 5 else "bold yellow"), layout=False)


class PackTable(DataTable):
    """The pack list.  Marking a card draws that card's row again and only it: DataTable's own
    ``update_cell`` throws away every cell it has drawn, and drawing twenty rows again was most of
    the time a keypress took.  Against a DataTable that doesn't keep these caches, its own way."""

    _CACHES = ("_cell_render_cache", "_row_render_cache", "_row_renderable_cache", "_line_cache")

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        """The columns measured for the new rows.  A screen drawn between the filling and this measure (a resize
        lays the pack out again and draws at once) kept its cells at the headers' widths, under a key the measure
        doesn't change: when a width changed, every cell is drawn again."""
        widths = [column.content_width for column in self.columns.values()]
        super()._update_dimensions(new_rows)
        if [column.content_width for column in self.columns.values()] != widths:
            self._update_count += 1
            self.refresh()

    def update_cell(
        self, row_key: RowKey | str, column_key: ColumnKey | str, value: object, *, update_width: bool = False
    ) -> None:
        count = getattr(self, "_update_count", None)
        super().update_cell(row_key, column_key, value, update_width=update_width)
        if (
            update_width
            or count is None
            or self._update_count != count + 1
            or not all(hasattr(self, c) for c in self._CACHES)
        ):
            return
        key = RowKey(row_key) if isinstance(row_key, str) else row_key
        row = self._row_locations.get(key)
        self._update_count = count  # the other rows' drawings stay good: forget this row's only
        for stale_cell in [k for k in self._cell_render_cache.keys() if k[0] == key]:
            self._cell_render_cache.discard(stale_cell)
        for stale_row in [k for k in self._row_render_cache.keys() if k[0] == key]:
            self._row_render_cache.discard(stale_row)
        if row is not None:  # (a row not drawn yet has nothing kept)
            self._row_renderable_cache.discard((count, row))
        self._line_cache.clear()  # lines are put together again from the kept cells
