"""The goldfish as both builder faces show it (``draft.goldfish``): the hand with its lands, the mulligans and
what is owed to the bottom, and the turns played with the mana available and what could be cast."""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text

from draft.deck_state import plural
from draft.goldfish import TURNS, FishView
from events.outputs.text import join_names
from events.screens.render import fit_table, mana_text, shown

KEYS_PLAIN = "hand: a new hand; mulligan; bottom N; draw; turn; turns (up to 6)"
KEYS_APP = "n new hand · m mulligan · 1-7 then b: to the bottom · d draw · t turn · T turns to 6 · Esc close · q quit"


def hand_heading(fish: FishView) -> Text:
    """'Hand 2 · 7 cards, 3 lands · 1 mulligan (free) · library 52'."""
    parts = [f"Hand {fish.number}", f"{plural(len(fish.hand), 'card')}, {plural(fish.lands_in_hand, 'land')}"]
    if fish.mulligans:
        free = " (the first is free)" if fish.multiplayer else ""
        parts.append(plural(fish.mulligans, "mulligan") + free)
    if fish.turns:
        parts.append(f"turn {len(fish.turns)}")
    parts.append(f"library {fish.library}")
    return Text(" · ".join(parts), style="bold")


def goldfish_lines(fish: FishView, width: int, keys: str = KEYS_PLAIN) -> list[RenderableType]:
    lines: list[RenderableType] = [hand_heading(fish)]
    for number, card in enumerate(fish.hand, start=1):
        lines.append(
            Text.assemble(
                f"{number:>2} ",
                mana_text(card.mana_cost) if card.mana_cost else Text("", style="dim"),
                " ",
                shown(card.name),
                "  ",
                shown(card.type_line, style="dim"),
            )
        )
    if fish.bottom_due:
        lines.append(
            Text(
                f"Put {plural(fish.bottom_due, 'card')} on the bottom to keep this hand (London mulligan).",
                style="yellow",
            )
        )
    if fish.bottomed:
        lines.append(Text("On the bottom: " + join_names([c.name for c in fish.bottomed]), style="dim"))
    if fish.drawn:
        lines.append(Text("Drawn: " + join_names([c.name for c in fish.drawn]), style="dim"))
    if fish.turns:
        rows = [
            [
                str(turn.turn),
                shown(turn.drawn.name if turn.drawn else "-"),
                shown(turn.land.name if turn.land else "no land"),
                Text(f"{turn.mana} {turn.colors.code or 'C'}"),
                shown(join_names([c.name for c in turn.castable]) or "-"),
            ]
            for turn in fish.turns
        ]
        lines.append(
            fit_table(
                ["Turn", "Drew", "Land played", "Mana", "Castable"],
                rows,
                essential={"Turn", "Land played", "Mana"},
                width=width,
                title=f"Turns 1-{TURNS}: a land a turn, nothing cast",
            )
        )
    lines.append(Text(keys, style="dim"))
    return lines
