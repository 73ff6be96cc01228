"""The pick prompt: which cards of the pack the player means, by numbers or names.

Card names may hold commas ("Kamahl, Heart of Krosa"), so a line is never split
on commas first: whole card names are matched first, the longest first, and
only then is the rest read up to the next separator (``,`` ``;`` or ``+``).
The deck builder reads its card lists the same way (``read_choices``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from events.outputs.text import join_names
from events.sessions.seat import check_positions
from sets.booster import Printing
from sets.cards import normalize_name
from sets.errors import InputError
from sets.numbers import is_number
from sets.visible import quoted


def chosen_words(pack: Sequence[Printing], positions: Sequence[int]) -> str:
    """The cards a pick chose, as its question and its answer name them ("#3 Sol Ring + #7 Murder"): each by its place
    in the pack, marked as a place ("Took 1 Iona's Judgment + 7 Sisay's Ring" read as copies), then its name."""
    return " + ".join(f"#{i + 1} {pack[i].card.name}" for i in positions)


PICK_TYPED = (
    "Pick cards by their numbers ('3 7') or names ('murder + sol ring';\n"
    "  a unique start of a name is enough).\n"
    "Several names: separate them with ',' ';' or '+'; names with commas\n"
    "  work as they are ('Kamahl, Heart of Krosa, Murder').\n"
)
READ_A_CARD = "Read a card: ? N, show N or card NAME (its full facts and rules text)."

# the line prompt's help: the pick's language, its own commands (the full-screen app has keys for them instead), a card
HELP_PICK = (
    PICK_TYPED + "Commands: pool (your pool), hint (what a strong drafter takes here,\n"
    "  and why), signals (the colors flowing to you), more or Enter (the\n"
    "  rest of a long pack), list (the pack again), help (this text),\n"
    "  quit (save and leave; resume with 'cmdraft play --resume').\n" + READ_A_CARD
)

HELP_PICK_UNASSISTED = (
    "Pick cards by their numbers ('3 7') or names ('murder + sol ring'; a unique start of a name is enough).\n"
    "Several names: separate them with ',' ';' or '+' — names with commas work as they are\n"
    "  ('Kamahl, Heart of Krosa, Murder').\n"
    "Commands: pool (your pool), more or Enter (the rest of a long pack), list (the pack again),\n"
    "  help (this text), quit (save and leave). This event's drafts have no assistance: no hint, signals or 'Can lead'.\n"
    "Read a card: ? N, show N or card NAME (its full facts and rules text)."
)

SEPARATORS = ",;+"
_NUMBER = re.compile(r"\d+(?=\s|[,;+]|$)", re.ASCII)
_COUNT = re.compile(r"\s+(\d+)\s*(?=[,;+]|$)", re.ASCII)


def did_you_mean(text: str, names: Sequence[str], limit: int = 3) -> list[str]:
    """The names closest to ``text``: names it starts a word run of first, then spelling neighbours: of the whole
    name, of its part before a comma, and of its first words as many as typed ('aruami': Araumi of the Dead Tide)."""
    key = normalize_name(text)
    if not key:
        return []
    by_key = {normalize_name(name): name for name in names}
    found = [name for k, name in by_key.items() if k.startswith(key)]
    typed_words = len(key.split())
    neighbours: dict[str, list[str]] = {}
    for name in names:
        for near in (normalize_name(name), normalize_name(name.split(",")[0])):
            for k in (near, " ".join(near.split()[:typed_words])):
                if name not in neighbours.setdefault(k, []):
                    neighbours[k].append(name)
    for k in difflib.get_close_matches(key, list(neighbours), n=limit, cutoff=0.6):
        found.extend(name for name in neighbours[k] if name not in found)
    return found[:limit]


def read_choices(
    text: str,
    names: Sequence[str],
    *,
    counts: bool = False,
    what: str = "in this pack",
    free: Sequence[int] | None = None,
    numbered: int | None = None,
) -> list[tuple[int, int | None]]:
    """Positions (0-based) into ``names`` chosen by ``text``, each with its count when ``counts`` is on.

    Numbers are 1-based positions. A name is matched whole first, then by its start,
    then anywhere in it; the longest stretch of text that names one card wins. With
    ``counts``, a number after a card (``16 2``, ``murder 2``) is how many.
    ``free`` limits names to these positions (a name chosen twice takes the next copy);
    ``numbered`` limits numbers to the first positions (names after them are reached by name only).
    """
    numbered = len(names) if numbered is None else numbered
    keys = [normalize_name(name) for name in names]
    pool = list(range(len(names))) if free is None else list(free)
    chosen: list[tuple[int, int | None]] = []
    i, n = 0, len(text)
    last_name, name_end = -1, -1  # where the last card read by name began and ended (-1: a number, a count)
    while True:
        while i < n and (text[i].isspace() or text[i] in SEPARATORS):
            # a name may itself start with a separator ("+2 Mace"): a whole name from here wins
            if text[i] in SEPARATORS and _match_name(text, i, keys, _free(pool, chosen), whole_only=True):
                break
            i += 1
        if i >= n:
            return chosen
        available = _free(pool, chosen)
        match = _match_name(text, i, keys, available)
        if match is None:
            number = _NUMBER.match(text, i)
            if number:
                position = int(number.group()) - 1
                if not 0 <= position < numbered:
                    raise InputError(f"there is no card {number.group()} {what}: choose 1 to {numbered}")
                match = (position, number.end())
        if match is None and free is None and chosen:
            # a card named again (a pick, not the builder's copies): read as itself, so the core refuses the pick
            # in its own words ("card 18 is chosen twice"), as it does the number typed twice
            match = _match_name(text, i, keys, sorted({c for c, _ in chosen}))
        if match is None:
            stop = min([text.find(s, i) for s in SEPARATORS if text.find(s, i) >= 0] or [n])
            if last_name >= 0 and not any(s in text[name_end:i] for s in SEPARATORS):
                # 'fiery canonade': 'fiery' started a name, yet the words after it are a typo of the same name
                i, available = last_name, _free(pool, chosen[:-1])
            fragment = text[i:stop].strip()
            ambiguous = _ambiguous(normalize_name(fragment), keys, available)
            if len(ambiguous) > 1:
                raise InputError(
                    f"{quoted(fragment)} matches {join_names(sorted({names[p] for p in ambiguous}))}: "
                    "type more of the name or use numbers"
                )
            hint = did_you_mean(fragment, [names[p] for p in available])
            maybe = f" Did you mean {join_names(hint)}?" if hint else ""
            raise InputError(f"{quoted(fragment)} is not {what}.{maybe} Use the card's number or the start of its name")
        number = _NUMBER.match(text, i)
        last_name, name_end = (-1, -1) if number and number.end() == match[1] else (i, match[1])
        position, i = match
        count = None
        if counts:
            extra = _COUNT.match(text, i)
            if extra:
                count, i = int(extra.group(1)), extra.end()
                last_name, name_end = -1, -1
        chosen.append((position, count))


def _free(pool: list[int], chosen: list[tuple[int, int | None]]) -> list[int]:
    taken = {c for c, _ in chosen}
    return [p for p in pool if p not in taken]


def _boundaries(text: str, start: int) -> list[int]:
    """Where a name starting at ``start`` may end: before a separator, a count or the end, longest first."""
    ends = {len(text)}
    for j in range(start + 1, len(text)):
        if text[j] in SEPARATORS or text[j].isspace():
            ends.add(j)
    return sorted(ends, reverse=True)


def _match_name(
    text: str, start: int, keys: list[str], available: list[int], whole_only: bool = False
) -> tuple[int, int] | None:
    """(position, end) of the card named by the longest stretch of text from ``start``.

    Whole names are tried first over every stretch, then unique starts, then unique
    parts; stretches ending at a separator or the end are preferred to ones ending
    at a space (two names typed with only a space between them).
    """
    ends = _boundaries(text, start)
    strong = [j for j in ends if j == len(text) or text[j] in SEPARATORS or _COUNT.match(text, j)]
    weak = [j for j in ends if j not in strong]
    tests = [lambda key, k: k == key] + (
        [] if whole_only else [lambda key, k: k.startswith(key), lambda key, k: key in k]
    )
    for tier in (strong, weak):
        for test in tests:
            for end in tier:
                key = normalize_name(text[start:end])
                if not key or is_number(key):
                    continue
                found = [p for p in available if test(key, keys[p])]
                if len({keys[p] for p in found}) == 1:
                    return found[0], end
    return None


def _ambiguous(key: str, keys: list[str], available: list[int]) -> list[int]:
    if not key:
        return []
    for test in (lambda k: k.startswith(key), lambda k: key in k):
        found = [p for p in available if test(keys[p])]
        if found:
            return list({keys[p]: p for p in found}.values())
    return []


def parse_selection(text: str, pack: list[Printing], due: int) -> list[int]:
    """Positions chosen by numbers or names; ``InputError`` says what can't be read, the seat's rule
    (``check_positions``: ``WrongCount``, the web's words too) what is not a whole pick."""
    positions = [p for p, _ in read_choices(text.strip(), [p.card.name for p in pack])]
    check_positions(positions, due, len(pack))
    return positions


def plural(count: int, word: str) -> str:
    return word if count == 1 else word + "s"
