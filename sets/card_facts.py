"""What a card's front type line and its rules text say about it as a commander (CR 903.3, CR 702.124),
and the copy limit its text sets (CR 100.2a, 903.5b)."""

from __future__ import annotations

import re

from sets.cards import CommanderAbility, Face, strip_reminder

# Facts decided by the type line alone: a stored card gets them again from its stored types.
TYPE_FACTS = frozenset(
    {
        CommanderAbility.LEGENDARY_CREATURE,
        CommanderAbility.LEGENDARY_VEHICLE,
        CommanderAbility.BACKGROUND,
        CommanderAbility.TIME_LORD_DOCTOR,
    }
)
# The artifact subtypes whose legendary cards may lead a deck when they have printed power and toughness (CR 903.3).
COMMANDER_VEHICLE_TYPES = frozenset({"Vehicle", "Spacecraft"})
# "A deck can have any number of cards named ..." (copy_limit).
ANY_NUMBER = 1_000_000


def _printed(value: str | None) -> bool:
    return value is not None and value.strip() != ""


def type_facts(face: Face) -> frozenset[CommanderAbility]:
    """Commander facts of a front face's type line (and printed power and toughness)."""
    facts = set()
    if face.is_legendary_creature:
        facts.add(CommanderAbility.LEGENDARY_CREATURE)
        # CR 702.124m: Doctor's companion pairs with a legendary Time Lord Doctor creature with no other creature types.
        if sorted(face.creature_types) == ["Doctor", "Time Lord"]:
            facts.add(CommanderAbility.TIME_LORD_DOCTOR)
    elif (
        "Legendary" in face.supertypes
        and COMMANDER_VEHICLE_TYPES & set(face.subtypes)
        and _printed(face.power)
        and _printed(face.toughness)
    ):
        facts.add(CommanderAbility.LEGENDARY_VEHICLE)
    # CR 702.124k: "Choose a Background" pairs with a *legendary* Background enchantment card.
    if "Background" in face.subtypes and "Enchantment" in face.types and "Legendary" in face.supertypes:
        facts.add(CommanderAbility.BACKGROUND)
    return frozenset(facts)


def _plain_text(text: str) -> str:
    return strip_reminder(text).replace("’", "'").replace("‘", "'").replace("–", "—")


_CREATURE_OFF_BATTLEFIELD = re.compile(
    r"\bas long as [^.]+? (?:isn't|is not) on the battlefield, it's an? [^.]*?\bcreature\b", re.IGNORECASE
)
_DASHED = re.compile(r"^partner\s*(?:—|-{1,2})\s*(?P<group>.+)$", re.IGNORECASE)
_FRIENDS_FOREVER = "friends forever"
# Keywords that may share a line with others ("Flying, partner"); the ones that take words stand alone.
_LIST_KEYWORDS = {
    "partner": CommanderAbility.PARTNER,
    _FRIENDS_FOREVER: CommanderAbility.FRIENDS_FOREVER,
    "doctor's companion": CommanderAbility.DOCTORS_COMPANION,
    "choose a background": CommanderAbility.CHOOSE_A_BACKGROUND,
}


def commander_facts(face: Face, *other_faces: Face) -> tuple[frozenset[CommanderAbility], str | None, str | None]:
    """Commander abilities of a card: (abilities, partner-with name, partner group).

    The front face's type line and keywords decide; the text "can be your commander" counts on
    ``other_faces`` too: the faces whose characteristics the card has where a deck is built (a split card's other
    half, ``sets.identity.commander_text_faces``; never a double-faced card's back face, CR 712.8a).
    Partner abilities follow CR 702.124: Partner, Partner—GROUP, Partner with NAME, Friends forever (also
    printed "Partner—Friends forever": the same ability), Choose a Background, Doctor's companion.
    """
    abilities: set[CommanderAbility] = set(type_facts(face))
    partner_with = partner_group = None
    text = _plain_text(face.text)
    if any("can be your commander" in _plain_text(f.text).lower() for f in (face, *other_faces)):
        abilities.add(CommanderAbility.CAN_BE_COMMANDER)
    if "Legendary" in face.supertypes and _CREATURE_OFF_BATTLEFIELD.search(text):
        # A legendary card that is a creature wherever it isn't on the battlefield (Grist's "As long as
        # NAME isn't on the battlefield, it's a 1/1 Insect creature") is a legendary creature card in the
        # command zone, which is what CR 903.3 asks of a commander.
        abilities.add(CommanderAbility.CAN_BE_COMMANDER)
    if "choose a color before the game begins" in text.lower():
        abilities.add(CommanderAbility.CHOOSES_COLOR)
    for raw_line in text.splitlines():
        line = " ".join(raw_line.split()).rstrip(".").strip()
        low = line.lower()
        dashed = _DASHED.match(line)
        if low.startswith("partner with "):
            abilities.add(CommanderAbility.PARTNER_WITH)
            partner_with = line[len("partner with ") :].strip()
        elif dashed:
            group = dashed.group("group").strip()
            if group.lower() == _FRIENDS_FOREVER:
                abilities.add(CommanderAbility.FRIENDS_FOREVER)
            else:
                abilities.add(CommanderAbility.PARTNER)
                partner_group = group
        else:
            for word in (part.strip() for part in low.split(",")):
                if word in _LIST_KEYWORDS:
                    abilities.add(_LIST_KEYWORDS[word])
    return frozenset(abilities), partner_with, partner_group


_NUMBER_WORDS = {
    word: n
    for n, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()
    )
}
_COPY_LIMIT = re.compile(r"a deck can have (?P<limit>any number of|up to (?P<n>\w+)) cards named ", re.IGNORECASE)


def text_copy_limit(faces: tuple[Face, ...] | list[Face]) -> int | None:
    """The copy limit a card's own text sets (CR 100.2a, 903.5b): ANY_NUMBER, N for "up to N", else None."""
    for face in faces:
        found = _COPY_LIMIT.search(_plain_text(face.text))
        if found:
            if found.group("n") is None:
                return ANY_NUMBER
            word = found.group("n").lower()
            if word.isdigit():
                return int(word)
            if word in _NUMBER_WORDS:
                return _NUMBER_WORDS[word]
    return None
