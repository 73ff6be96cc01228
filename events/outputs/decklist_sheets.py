"""Decklists: one registration sheet per player, the list by type and the sideboard."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from draft.deck_state import plural
from draft.decks import Deck, Zone
from draft.products import product
from events.night.base import EventBase
from events.night.decks import Decks, unread_deck_words
from events.night.snapshot import DeckSummary, PlayerRow
from events.outputs.deck_problems import problem_lines
from events.outputs.sheets import Blanks, Block, Note, Page, Sheet, Table, subtitle
from sets.booster import Printing
from sets.cards import Card
from sets.errors import StateError
from sets.names import name_order

TYPE_GROUPS = ("Creature", "Planeswalker", "Instant", "Sorcery", "Artifact", "Enchantment", "Battle", "Land")


def type_group(card: Card) -> str:
    """The heading a card is listed under: its first type in ``TYPE_GROUPS`` (an artifact creature is a creature)."""
    for group in TYPE_GROUPS:
        if card.has_type(group):
            return group
    return "Other"


def _sideboard(pool: Sequence[Printing], deck: Deck) -> list[tuple[int, str]]:
    """Pool cards the deck doesn't use (by name), as (count, name); basics the store provides aren't in a pool."""
    left = Counter(p.card.name for p in pool)
    used = Counter({card.name: 1 for card in deck.commanders})
    for line in deck.lines:
        if line.zone is Zone.MAIN:
            used[line.card.name] += line.count
    left.subtract(used)
    return sorted(((n, name) for name, n in left.items() if n > 0), key=lambda item: (item[1].casefold(), item[1]))


def _dropped_with_a_deck(decks: Decks, event_id: int, player: PlayerRow) -> bool:
    """A player who dropped after registering a deck: their list is printed too, marked dropped (a no-show, or a
    player who dropped before registering, has no list to print)."""
    return player.status == "dropped" and decks.deck_read(event_id, player.id)[0] is not None


def decklists(events: EventBase, event_id: int) -> Sheet:
    """One registration sheet per player still in the event, and one per player who dropped after registering
    (marked dropped): who (number, pod, seat), commanders, the list by type, the sideboard."""
    snap = events.snapshot(event_id)
    event = snap.event
    if event.status not in ("building", "playing", "finished"):
        raise StateError(f"decks are registered after the draft; the event is {event.status}")
    decks = Decks(events.store)
    pages = []
    for player in sorted(
        (p for p in snap.players if not p.bot and (p.status == "active" or _dropped_with_a_deck(decks, event_id, p))),
        key=lambda p: (*name_order(p.name), p.id),
    ):
        dropped = player.status == "dropped"
        title = f"{player.name} (dropped)" if dropped else player.name
        who = Table(
            ("Player", "Player no.", "Pod", "Seat"),
            (
                (
                    player.name,
                    f"#{player.number}",
                    str(player.pod or "—"),
                    "—" if player.seat is None else str(player.seat + 1),
                ),
            ),
            right=(1, 2, 3),
        )
        deck, unread = decks.deck_read(event_id, player.id)
        if deck is None:
            pages.append(
                Page(
                    "Decklist",
                    (who, Note("No deck registered yet.", strong=True), Blanks(("Player signature", "Checked by"))),
                    name=title,
                )
            )
            continue
        colors = iter(deck.piper_colors)
        commanders = []
        for card in deck.commanders:
            commanders.append(
                f"{card.name} (chosen color: {next(colors).word})"
                if card.chooses_color and deck.piper_colors
                else card.name
            )
        blocks: list[Block] = [who]
        if unread:  # printed without that card, and said so
            blocks.append(Note(unread_deck_words(unread), strong=True))
        if dropped:
            after = f" after round {player.dropped_after}" if player.dropped_after else ""
            blocks.append(
                Note(f"DROPPED{after}: this deck was registered and played; kept for the record.", strong=True)
            )
        blocks.append(Table(("Commander",), tuple((c,) for c in commanders) or (("none",),)))
        if deck.piper_colors:
            # the product's added card (a Piper, or Faceless One at a CLB night), as its commanders line names it
            word = product(event.set).added.word
            blocks.append(Note(f"{word} colors: " + ", ".join(color.word for color in deck.piper_colors)))
        groups: dict[str, list[tuple[int, str]]] = {}
        for line in deck.zone(Zone.MAIN):
            groups.setdefault(type_group(line.card), []).append((line.count, line.card.name))
        for group in (*TYPE_GROUPS, "Other"):
            if group in groups:
                cards = sorted(groups[group], key=lambda item: (item[1].casefold(), item[1]))
                count = sum(n for n, _ in cards)
                blocks.append(
                    Table(
                        ("Qty", "Card"),
                        tuple((str(n), name) for n, name in cards),
                        title=f"{group} ({count})",
                        right=(0,),
                    )
                )
        blocks.append(
            Note(
                f"Total: {plural(deck.size, 'card')} ({plural(len(deck.commanders), 'commander')} + "
                f"{deck.size - len(deck.commanders)} in the deck)",
                strong=True,
            )
        )
        try:
            pool = decks.pool(event_id, player.id)
        except StateError:
            pool = []
        # The sideboard (the rest of the pool) as one paragraph, so a sealed pool's 80 cards still fit the sheet.
        sideboard = _sideboard(pool, deck)
        blocks.append(
            Note(
                f"Sideboard ({sum(n for n, _ in sideboard)}, the rest of the pool): "
                + (" / ".join(f"{n} {name}" for n, name in sideboard) or "none")
            )
        )
        registered = player.deck or DeckSummary(False, [], [])
        if registered.valid:
            blocks.append(Note("Legal for Commander draft.", strong=True))
        else:
            blocks.append(Note("NOT legal:", strong=True))
            blocks.extend(Note(f"- {line}") for line in problem_lines(registered.problems))
        blocks.append(Blanks(("Player signature", "Checked by")))
        pages.append(Page("Decklist", tuple(blocks), name=title))
    if not pages:
        pages.append(Page("Decklists", (Note("No active player."),)))
    return Sheet("decklists", event.name, subtitle(event), tuple(pages))
