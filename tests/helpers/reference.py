"""What the reference-grades files (draft/data/<set>_reference.json) may say of a card, written down from their
format here, not read from the judge: the tests of every set's grades check against it."""

REFERENCE_ROLES = frozenset(
    {
        "threat",
        "creature",
        "removal",
        "wipe",
        "advantage",
        "ramp",
        "fixing",
        "support",
        "trick",
        "interaction",
        "commander",
        "land",
        "filler",
    }
)
