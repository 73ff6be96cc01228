"""The pick prompt: which cards of the pack the player means, by numbers or names."""

from __future__ import annotations

from sets.booster import Printing
from sets.cards import normalize_name
from sets.errors import InputError


HELP_PICK = (
    "Pick cards by their numbers ('3 7') or names ('murder, sol ring'; a unique start of a name is enough).\n"
    "Commands: pool (your pool), help (this text), quit (save and leave; resume with 'cmdraft play --resume').\n"
    "Read a card: ? N, show N or card NAME (its full facts and rules text)."
)


def match_name(text: str, pack: list[Printing], taken: list[int]) -> int:
    """The position of the one card in the pack whose name starts with (or contains) ``text``."""
    key = normalize_name(text)
    if not key:
        raise InputError("an empty name")
    free = [i for i in range(len(pack)) if i not in taken]
    for test in (lambda name: name == key, lambda name: name.startswith(key), lambda name: key in name):
        found = [i for i in free if test(normalize_name(pack[i].card.name))]
        names = {pack[i].card.name for i in found}
        if len(names) == 1:
            return found[0]
        if len(names) > 1:
            raise InputError(f"{text!r} matches {', '.join(sorted(names))}: type more of the name or use numbers")
    raise InputError(f"{text!r} is not in this pack: use the card's number or the start of its name")


def parse_selection(text: str, pack: list[Printing], due: int) -> list[int]:
    """Positions chosen by numbers or names; ``InputError`` says what is wrong."""
    text = text.strip()
    tokens = text.replace(",", " ").split()
    positions: list[int] = []
    if tokens and all(token.isdigit() for token in tokens):
        for token in tokens:
            number = int(token)
            if not 1 <= number <= len(pack):
                raise InputError(f"there is no card {number} in this pack: choose 1 to {len(pack)}")
            if number - 1 in positions:
                raise InputError(f"card {number} is chosen twice: choose {due} different cards")
            positions.append(number - 1)
    elif "," in text or ";" in text:
        for part in text.replace(";", ",").split(","):
            if part.strip():
                positions.append(_one(part, pack, positions))
    else:
        positions = _split_names(tokens, pack, due)
    if len(positions) != due:
        raise InputError(f"take exactly {due} card{'s' if due != 1 else ''}; you chose {len(positions)}")
    return positions


def _one(part: str, pack: list[Printing], taken: list[int]) -> int:
    part = part.strip()
    if part.isdigit():
        number = int(part)
        if not 1 <= number <= len(pack) or number - 1 in taken:
            raise InputError(f"there is no card {number} left to choose: choose 1 to {len(pack)}")
        return number - 1
    return match_name(part, pack, taken)


def _split_names(tokens: list[str], pack: list[Printing], due: int) -> list[int]:
    """Names typed without commas: the whole text as one card, or two parts that each match one card."""
    whole = " ".join(tokens)
    try:
        return [match_name(whole, pack, [])]
    except InputError as error:
        first_error = error
    if due >= 2:
        for cut in range(1, len(tokens)):
            try:
                first = _one(" ".join(tokens[:cut]), pack, [])
                second = _one(" ".join(tokens[cut:]), pack, [first])
                return [first, second]
            except InputError:
                continue
    raise first_error
