"""The parts of a card one casts on their own, with what each costs (shared by the bots' rating and the judge),
the lines of its text that matter most for a one-line view, whether its effect reaches only commanders, and the
colorless mana ({C}) it asks for or makes."""

from __future__ import annotations

import re
from functools import lru_cache

from sets.basics import basic_land
from sets.cards import Card, CommanderAbility, Layout, strip_reminder

# Layouts whose faces are cast on their own: a split card's halves, an adventure and its creature, a modal DFC's faces.
CAST_APART = (Layout.SPLIT, Layout.ADVENTURE, Layout.MODAL_DFC)


def cast_parts(card: Card, text: str) -> list[tuple[float, str]]:
    """(mana to cast, text) of each part of the card one casts.

    ``text`` is the card's rules text as the caller read it.  When it is the
    faces' own texts joined and the card's faces are cast apart, each face is
    a part at its own mana cost (Fire // Ice's Fire for {1}{R}, not the card's
    mana value 4); any other card is one part at its mana value.
    """
    faces = [face for face in card.faces if face.text]
    if card.layout in CAST_APART and len(faces) > 1 and text == "\n".join(face.text for face in faces):
        parts = []
        for face in faces:
            try:
                parts.append((float(face.cost.mana_value), face.text))
            except ValueError:
                parts.append((float(card.mana_value), face.text))
        return parts
    return [(float(card.mana_value), text)]


_KEYWORDS_ONLY = re.compile(r"^[a-z][a-z' -]*(?:\s*\{[^}]*\}|\s+\d+)?(?:,\s*[a-z][a-z' -]*(?:\s*\{[^}]*\}|\s+\d+)?)*$")
_WHAT_MATTERS = re.compile(
    r"\bmonarch\b|\b(destroy|exile)s? [^.]*?\btarget\b|\bdeals? [^.]*?damage to\b|\bgets -\d+/-\d+"
    r"|\bsacrifices? an? [^.]*?creature\b|\bcounter target\b|\bdraws? (two|three|x|cards?)\b"
)


def lines_that_matter(text: str) -> list[str]:
    """A card's rules text as lines for a one-line view, the line that matters first: reminder text dropped (CR
    903.4c ignores it too), then the lines that take the monarchy, remove, counter or draw, then the rest, and
    keyword lines ("Flying", "Trample") last."""
    lines = [" ".join(strip_reminder(line).split()) for line in text.splitlines()]
    lines = [line for line in lines if line]

    def rank(line: str) -> int:
        plain = line.replace("’", "'").lower()
        if _WHAT_MATTERS.search(plain):
            return 0
        return 2 if _KEYWORDS_ONLY.match(plain) else 1

    return sorted(lines, key=rank)


_QUOTED = re.compile(r'"[^"]*"')  # an ability a card grants, whatever it says
_FOR_COMMANDERS = re.compile(
    r"^(commander creatures you (own|control)|(your|each) commanders?|commanders you (own|control))\b"
)


@lru_cache(maxsize=16384)
def commander_only(card: Card) -> bool:
    """Whether all a card does reaches only commanders: a noncreature, nonland card each of whose sentences (the
    abilities it grants set aside) is about "commander creatures you own" or "your commander", as a Background's
    "Commander creatures you own have ..." is.  Near-blank in a main deck: nothing at all beside a commander that
    isn't a creature.  A Background whose text wasn't imported is judged by what a Background is (CR 702.124k: it
    leads beside a commander and grants to commander creatures)."""
    if card.has_type("Creature") or card.is_land:
        return False
    text = "\n".join(face.text for face in card.faces if face.text)
    if not text:
        return CommanderAbility.BACKGROUND in card.abilities
    plain = _QUOTED.sub("", strip_reminder(text).replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"'))
    sentences = [part.strip() for part in re.split(r"[.\n]", plain.lower()) if part.strip()]
    return bool(sentences) and all(_FOR_COMMANDERS.match(sentence) for sentence in sentences)


def colorless_symbols(card: Card) -> int:
    """The {C} symbols of the card's front-face cost: mana only a colorless source makes (Wastes, a land or a mana
    rock whose own ability adds {C}), never a basic land of a color."""
    try:
        cost = card.faces[0].cost
    except (IndexError, ValueError):
        return 0
    return sum(1 for symbol in cost.symbols if symbol.inner == "C")


def makes_colorless(card: Card) -> bool:
    """Wastes, or a card whose own mana ability adds {C} (by its rules text: none for a card with no text)."""
    if card.is_land and card.name == basic_land("").name:
        return True
    text = "\n".join(face.text for face in card.faces if face.text).lower()
    return bool(text) and _ADDS_COLORLESS.search(text) is not None


_ADDS_COLORLESS = re.compile(r"\{t\}[^:\n]*:[^\n]*\badds? [^\n.]*\{c\}")
