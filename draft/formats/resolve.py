"""From what a file said to a deck: names looked up, commanders found where files keep them."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from draft.commanders import can_pair, may_lead
from draft.deck_rules import Problem
from draft.deck_state import plural
from draft.decks import Deck, DeckLine, Zone
from draft.formats.model import SET_CODE, DeckFile, Entry, FileFormat, set_code_read
from draft.formats.mtgo import MOST_COMMANDERS
from draft.products import product_printing
from sets.card_index import CardIndex
from sets.cards import Card, names_of, normalize_name
from sets.colors import Color
from sets.errors import meld_result_message, quoted_list
from sets.visible import quoted

# "Did you mean" is asked for the first few unknown names only: each asks every name the index knows, and a file of
# thousands of unknown lines would take minutes; the rest are named without a guess.
SUGGESTED_NAMES = 5
# The problems of a line that names no card a deck can hold: the file is bad input (its card unknown), not an
# illegal deck; checking, converting and registering answer it alike.
UNREADABLE = ("unknown-card", "unreadable-line", "meld-result")


def resolve(deck_file: DeckFile, index: CardIndex, *, pool: bool = False) -> tuple[Deck, list[Problem]]:
    """Look the entries up; unknown names and unreadable lines become problems (the first ``SUGGESTED_NAMES``
    unknown names with the names they may mean).  A ``pool`` is only cards: no commanders are looked for where
    files keep them (a .dek pool's long sideboard is the rest of the pool, not an unclear command zone)."""
    # every line that names no card, with its line: said in the file's order, whatever is wrong with each
    bad_lines = [(error.line, Problem("unreadable-line", str(error), ())) for error in deck_file.errors]
    lines: list[DeckLine] = []
    blocks: list[int] = []
    loaded = {card_set.code for card_set in index.sets}
    entries = [
        _number_read(replace(entry, set_code=set_code_read(entry.set_code, loaded)), index) if entry.set_code else entry
        for entry in deck_file.entries
    ]
    found = [_named_whole(entry, index) for entry in entries]
    home = _home_set(found, index)
    unknown = 0
    for entry, card in found:
        if card is not None and home is not None and not entry.set_code:
            card = index.printings(card.name).get(home, card)  # a reprint named alone: as the deck's set has it
        meld = index.meld_result(entry.name) if card is None else None
        if meld is not None:
            bad_lines.append(
                (
                    entry.line,
                    Problem(
                        "meld-result", f"line {entry.line}: {meld_result_message(entry.name, *meld)}", (entry.name,)
                    ),
                )
            )
            continue
        if card is None:
            unknown += 1
            code = (entry.set_code or "").upper()
            printing = None if code else product_printing(entry.name, loaded)
            if SET_CODE.fullmatch(code) and code not in loaded:  # the line says the card's set: that is missing
                hint = f" (from {code}, a set not loaded: 'cmdraft sets download {code}' adds it)"
            elif printing is not None:  # a card of a Commander-draft product not imported here
                hint = f" (a {printing.name} card: {printing.code} isn't imported; 'cmdraft sets download {printing.code}' adds it)"
            else:
                suggestions = index.suggest(entry.name) if unknown <= SUGGESTED_NAMES else []
                hint = f" (did you mean {quoted_list(suggestions)}?)" if suggestions else ""
            bad_lines.append(
                (
                    entry.line,
                    Problem(
                        "unknown-card", f"line {entry.line}: unknown card {quoted(entry.name)}{hint}", (entry.name,)
                    ),
                )
            )
            continue
        foil = entry.foil or (entry.catalog_id is not None and entry.catalog_id == card.mtgo_foil_id)
        lines.append(DeckLine(card, entry.count, entry.zone, foil, entry.etched, _printed(entry, card, index)))
        blocks.append(entry.block)
    problems = [problem for _, problem in sorted(bad_lines, key=lambda bad: bad[0])]
    if deck_file.format is FileFormat.MTGO and not pool:
        lines, unclear = _mtgo_commanders(lines)
        problems += unclear
    elif not pool:
        lines = _place_commanders(lines, deck_file, blocks)
    colors = list(deck_file.piper_colors) or [
        e.color for e in deck_file.entries if e.zone is Zone.COMMANDER and e.color
    ]
    if deck_file.colors_line and not pool:
        colors, refused = _note_colors(colors, lines, deck_file.colors_line)
        problems += refused
    return Deck(tuple(_expand_commanders(lines)), tuple(c for c in colors if c is not None), deck_file.name), problems


def _note_colors(colors: list[Color], lines: list[DeckLine], line: int) -> tuple[list[Color], list[Problem]]:
    """The colors a comment names for the commanders that choose one (a Piper, CR 903.4b: each chooses one color):
    more colors than those commanders can't be told apart, so the note is refused (its line named) and none kept.
    Leaders that choose none say nothing here: the deck's check reports the colors given for no one."""
    choosers = sum(l.count for l in lines if l.zone is Zone.COMMANDER and l.card.chooses_color)
    if not 0 < choosers < len(colors):
        return colors, []
    said = " ".join(color.value for color in colors)
    return [], [
        Problem(
            "unreadable-line",
            f"line {line}: {plural(len(colors), 'color')} ({said}) for {plural(choosers, 'commander')} that "
            f"{'chooses' if choosers == 1 else 'choose'} one: each chooses one color (CR 903.4b); "
            "give one color for each",
            (),
        )
    ]


def _named_whole(entry: Entry, index: CardIndex) -> tuple[Entry, Card | None]:
    """The entry and the card it names.  A name that starts with a number (``1996 World Champion``) written bare is
    read as a count and the rest: when the rest names no card but the whole line does, the line is one of that card."""
    card = _lookup(entry, index)
    if card is None:
        whole = index.get(f"{entry.count} {entry.name}")
        if whole is not None:
            return replace(entry, name=whole.name, count=1), whole
    return entry, card


def _lookup(entry: Entry, index: CardIndex) -> Card | None:
    """The card a line names, as printed in the line's set when it names one (by its collector number, or, as
    Forge writes ``NAME|SET``, by name alone): the same deck reads the same in every format."""
    card = index.get(entry.name)
    if card is None or not entry.set_code:
        return card
    code = entry.set_code.upper()
    for card_set in index.sets:
        if card_set.code == code:
            printed = card_set.by_number.get(entry.number) if entry.number else None
            if printed is not None and printed.name == card.name:
                return printed
            same = index.printings(card.name).get(code)  # the set's first printing of the name
            return same if same is not None and same.name == card.name else card
    return card


def _number_read(entry: Entry, index: CardIndex) -> Entry:
    """The entry with its collector number as its set here writes it: a number given with leading zeros (``071``, as
    some collection tools pad them) is the set's ``71`` when the set has no ``071``."""
    number = entry.number or ""
    if not (number[:1] == "0" and number.isascii() and number.isdigit()):
        return entry
    card_set = next((s for s in index.sets if s.code == (entry.set_code or "").upper()), None)
    plain = number.lstrip("0") or "0"
    if card_set is None or number in card_set.by_number or plain not in card_set.by_number:
        return entry
    return replace(entry, number=plain)


def _printed(entry: Entry, card: Card, index: CardIndex) -> tuple[str, str] | None:
    """The printing a line names (set code and collector number) when the card read isn't it: a set not loaded
    here (``(C21) 263``), or a number the set's data here doesn't hold (a bundled set's booster cards lack the
    extended-art numbers).  It is kept for writing, so that a deck read and written again names the printing the
    player chose.  A number the set here gives another card is a mistake in the file, and is not kept."""
    if not entry.set_code or not entry.number:
        return None
    code = entry.set_code.upper()
    if (code, entry.number) == (card.set_code, card.number) or not SET_CODE.fullmatch(code):
        return None  # its own printing, or a set's name (a .dck's |Ixalan Block), not a code a file can name
    card_set = next((s for s in index.sets if s.code == code), None)
    if card_set is not None and entry.number in card_set.by_number:
        return None
    return code, entry.number


def _home_set(found: list[tuple[Entry, Card | None]], index: CardIndex) -> str | None:
    """The set the deck's cards come from: the one most of its lines name, or that alone prints the card a line
    names (a reprint named without its set says nothing; basic lands neither); None when no line tells.  A reprint
    named alone is read as that set's printing, so a Commander Masters deck written as names is one (its product's
    rules apply, ``product_of``), though the same names are Commander Legends cards too."""
    known = {card_set.code for card_set in index.sets}
    votes: dict[str, int] = {}
    for entry, card in found:
        if card is None or card.is_basic_land:
            continue
        code = entry.set_code.upper() if entry.set_code else None
        if code is None:
            sets = index.printings(card.name)
            code = next(iter(sets)) if len(sets) == 1 else None
        if code in known:
            votes[code] = votes.get(code, 0) + entry.count
    return max(votes, key=votes.__getitem__) if votes else None


def _expand_commanders(lines: list[DeckLine]) -> list[DeckLine]:
    """Commander lines one copy each, so that two Pipers read as two commanders."""
    out = []
    for line in lines:
        if line.zone is Zone.COMMANDER and line.count > 1:
            out += [replace(line, count=1, zone=Zone.COMMANDER)] * line.count
        else:
            out.append(line)
    return out


def _leads(cards: list[Card]) -> bool:
    """Whether ``cards`` may lead as they stand: one commander, or two that pair (CR 702.124), a Background
    beside a legend that chooses one included (CR 702.124k: the Background can't lead alone)."""
    if len(cards) == 1:
        return cards[0].can_be_commander
    return (
        len(cards) == 2
        and can_pair(cards[0], cards[1])
        and may_lead(cards[0], cards[1])
        and may_lead(cards[1], cards[0])
    )


def _place_commanders(lines: list[DeckLine], deck_file: DeckFile, blocks: list[int] | None = None) -> list[DeckLine]:
    """Find commanders that a file keeps outside a command zone.

    Cockatrice keeps them in the side zone (written first there); plain lists
    without sections often set them apart by a blank line, first or last.
    """
    if any(l.zone is Zone.COMMANDER for l in lines):
        return lines
    if deck_file.commanders_in_sideboard:
        sided = [line.card for line in lines if line.zone is Zone.SIDEBOARD for _ in range(line.count)]
        if len(sided) > MOST_COMMANDERS or not _leads(sided):
            return lines  # a limited deck's sideboard
        return [replace(l, zone=Zone.COMMANDER) if l.zone is Zone.SIDEBOARD else l for l in lines]
    if deck_file.format is FileFormat.TEXT and blocks is not None and len(set(blocks)) > 1:
        for edge in (min(blocks), max(blocks)):
            group = [line for line, block in zip(lines, blocks, strict=True) if block == edge]
            cards = [line.card for line in group for _ in range(line.count)]
            if _leads(cards):
                return [replace(l, zone=Zone.COMMANDER) if any(l is g for g in group) else l for l in lines]
        return lines
    if deck_file.format is not FileFormat.COCKATRICE:
        return lines
    if deck_file.commander_names:
        return _named_commanders(lines, deck_file.commander_names)
    # Without the comments' names: commanders are written first in the side zone; take the leading one or two
    # that can lead.
    side = [line for line in lines if line.zone is Zone.SIDEBOARD]
    chosen = []
    for size in (2, 1):
        leading = side[:size]
        if _leads([line.card for line in leading for _ in range(line.count)]):
            chosen = leading
            break
    return [replace(l, zone=Zone.COMMANDER) if l in chosen else l for l in lines]


def _named_commanders(lines: list[DeckLine], names: list[str]) -> list[DeckLine]:
    """The copies the comments name as commanders, one copy for each time a name is given, from the side zone
    (where cmdraft writes them) and else from the main zone (where many Cockatrice players keep them): the writer
    keeps a card's copies on one line, so "2 Hans Eriksson" in the side zone under "Commanders: Hans Eriksson" is
    the commander and one sideboard copy."""
    wanted = Counter(normalize_name(name) for name in names)
    taken: dict[int, int] = {}
    for zone in (Zone.SIDEBOARD, Zone.MAIN):
        for position, line in enumerate(lines):
            keys = [normalize_name(name) for name in names_of(line.card)]
            key = next((k for k in keys if wanted[k] > 0), None)
            if line.zone is zone and key is not None:
                taken[position] = min(wanted[key], line.count)
                wanted[key] -= taken[position]
    out = []
    for position, line in enumerate(lines):
        count = taken.get(position, 0)
        if count:
            out.append(replace(line, count=count, zone=Zone.COMMANDER))
        if line.count > count:
            out.append(replace(line, count=line.count - count))
    return out


def _mtgo_commanders(lines: list[DeckLine]) -> tuple[list[DeckLine], list[Problem]]:
    """MTGO's sideboard is the command zone: its cards are the commanders, whatever they are.

    A sideboard with more cards than a deck can have commanders doesn't say which
    of them lead: that is reported, and nothing is guessed.
    """
    side = [line for line in lines if line.zone is Zone.SIDEBOARD]
    copies = sum(line.count for line in side)
    if copies <= MOST_COMMANDERS:
        return [replace(l, zone=Zone.COMMANDER) if l.zone is Zone.SIDEBOARD else l for l in lines], []
    names = tuple(dict.fromkeys(line.card.name for line in side))
    shown = " + ".join(names[:4]) + (" + …" if len(names) > 4 else "")
    return lines, [
        Problem(
            "unclear-commander",
            f"the .dek sideboard holds {copies} cards ({shown}); MTGO keeps only the commanders there, "
            f"so which cards lead can't be told: keep only the commander or commanders in the sideboard, or use a format with a command zone",
            names,
        )
    ]
