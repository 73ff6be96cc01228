"""Type lines: supertypes, card types and subtypes, and the subtypes that are not creature types."""

from __future__ import annotations

SUPERTYPES = frozenset({"Basic", "Legendary", "Snow", "World", "Ongoing", "Host", "Elite"})
_MULTIWORD_SUBTYPES = ("Time Lord",)
# The subtypes a creature card may carry beside its creature types, by the card type they belong to
# (CR 205.3g artifact types, 205.3h enchantment types, 205.3i land types).
NONCREATURE_SUBTYPES = {
    "Artifact": frozenset(
        {
            "Attraction",
            "Blood",
            "Bobblehead",
            "Clue",
            "Contraption",
            "Equipment",
            "Food",
            "Fortification",
            "Gold",
            "Incubator",
            "Junk",
            "Lander",
            "Map",
            "Powerstone",
            "Spacecraft",
            "Treasure",
            "Vehicle",
        }
    ),
    "Enchantment": frozenset(
        {"Aura", "Background", "Cartouche", "Case", "Class", "Curse", "Role", "Room", "Rune", "Saga", "Shard", "Shrine"}
    ),
    "Land": frozenset(
        {
            "Cave",
            "Desert",
            "Forest",
            "Gate",
            "Island",
            "Lair",
            "Locus",
            "Mine",
            "Mountain",
            "Plains",
            "Planet",
            "Power-Plant",
            "Sphere",
            "Swamp",
            "Tower",
            "Town",
            "Urza's",
        }
    ),
}


def parse_type_line(type_line: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Split ``Legendary Creature — Time Lord Doctor`` into supertypes, types, subtypes."""
    head, _, tail = type_line.replace(" - ", " — ").partition("—")
    words = head.split()
    supertypes = tuple(w for w in words if w in SUPERTYPES)
    types = tuple(w for w in words if w not in SUPERTYPES)
    tail = tail.strip()
    subtypes: list[str] = []
    for name in _MULTIWORD_SUBTYPES:
        if name in tail:
            subtypes.append(name)
            tail = tail.replace(name, " ")
    subtypes.extend(tail.split())
    return supertypes, types, tuple(subtypes)
