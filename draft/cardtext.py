"""The parts of a card one casts on their own, with what each costs (shared by the bots' rating and the judge)."""

from __future__ import annotations

from sets.cards import Card, Layout

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
