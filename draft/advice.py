"""What a strong drafter would take, which colors are flowing, and how a player's picks compare.

The learning aids of the practice draft, pure (no screen): ``advise`` is the one
door to the bot layer for a hint (the practice screens and the pick timer ask it
and nothing else), ``signals`` reads the packs passed to a seat, ``review``
goes back over a seat's picks with the hint's choice beside each.

Role tags and ratings are the bot layer's (``draft.bots.card_roles``, ``card_rating``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from draft import hint as bot_layer
from draft.bots import Bot, BotStyle
from draft.engine import Draft
from draft.picks import Pick
from draft.traits import card_rating, card_roles
from sets.booster import Printing
from sets.cards import Card
from sets.colors import Color, ColorIdentity, identity_from_mask


def roles(card: Card) -> tuple[str, ...]:
    """What a card does in a deck (the bot layer's role tags: commander, removal, ramp, fixing, draw ...)."""
    return card_roles(card)


def is_ramp(card: Card) -> bool:
    return "ramp" in card_roles(card)


def is_removal(card: Card) -> bool:
    """Removal of one thing or of many (a wipe)."""
    return bool({"removal", "wipe"} & set(card_roles(card)))


@dataclass(frozen=True)
class CardAdvice:
    position: int
    card: Card
    rating: float
    roles: tuple[str, ...]
    fits: bool  # inside the colors the seat is heading for
    reason: str = ""  # the bot layer's own words, when it gives them


@dataclass(frozen=True)
class Advice:
    """The cards a strong drafter would take from a pack, and why."""

    picks: tuple[CardAdvice, ...]
    colors: ColorIdentity  # where the pool points (all five early in the draft)
    commanders: tuple[Card, ...]  # the pool's likely commanders
    style: str

    @property
    def positions(self) -> list[int]:
        return [pick.position for pick in self.picks]

    @property
    def rating(self) -> float:
        return sum(pick.rating for pick in self.picks)

    def reasons(self) -> list[str]:
        """One line per card: its rating, roles and fit with the pool."""
        lines = []
        for pick in self.picks:
            fit = (
                ("inside your colors " + (self.colors.code or "C"))
                if len(self.colors) < 5
                else "the draft is young: colors still open"
            )
            if not pick.fits:
                fit = f"outside your colors {self.colors.code or 'C'}"
            lead = [c.name for c in self.commanders if c is not pick.card]
            if pick.card.can_be_commander and pick.card.has_partner and lead:
                fit += "; could lead beside " + " / ".join(lead)
            elif self.commanders and len(self.colors) < 5:
                fit += " (heading for " + " + ".join(c.name for c in self.commanders) + ")"
            tags = ", ".join(pick.roles) or pick.card.type_line
            lines.append(f"{pick.card.name}: rating {pick.rating:.1f}, " + (pick.reason or f"{tags}; {fit}"))
        return lines


def progress_of(draft: Draft, pack: int, pick: int) -> float:
    """How far a draft is at a pick (0 at the first pick, 1 at the end), as the bots measure it."""
    return (pack - 1 + (pick - 1) / draft.picks_per_pack) / float(draft.config.boosters)


def advise(
    pack: Sequence[Printing],
    pool: Sequence[Card],
    count: int,
    progress: float,
    passed: Sequence[tuple[Sequence[Printing], int]] = (),
    pipers: int | None = None,
) -> Advice:
    """The ``count`` cards of ``pack`` the strongest bot style takes for a seat holding ``pool``
    (``passed``: the packs seen before, with their pick numbers, for a style that reads signals; ``pipers``: the
    Pipers the seat can count on after the draft, None for the product's most: a draft without a store).

    This is the one adapter between the learning aids and the bot layer: when the bot layer
    offers ``explain_pick`` it is used, otherwise a commander-first bot holding the pool chooses.
    """
    explain = getattr(bot_layer, "explain_pick", None)
    if explain is not None:
        return _from_explained(
            explain(list(pack), list(pool), count=count, progress=progress, picks=list(passed), pipers=pipers)
        )
    bot = Bot(BotStyle.COMMANDER_FIRST, 0, pipers=pipers)
    bot.remember(list(pool))
    positions = bot.choose(pack, count, progress)
    plan = bot.plan(progress)
    colors = identity_from_mask(plan.mask)
    picks = tuple(
        CardAdvice(
            i,
            pack[i].card,
            card_rating(pack[i].card),
            roles(pack[i].card),
            pack[i].card.deck_colors.mask & ~plan.mask == 0,
        )
        for i in positions
    )
    return Advice(picks, colors, tuple(plan.commanders), BotStyle.COMMANDER_FIRST.value)


def _from_explained(explained: bot_layer.PickAdvice) -> Advice:
    """The bot layer's ``PickAdvice`` (cards with position, rating, roles, reason; the plan's identity and commanders)."""
    colors = explained.identity
    picks = tuple(
        CardAdvice(
            item.position,
            item.card,
            float(item.rating),
            tuple(item.roles),
            item.card.deck_colors <= colors,
            item.reason,
        )
        for item in explained.cards
    )
    style = explained.style
    return Advice(picks, colors, tuple(explained.commanders), getattr(style, "value", str(style)))


def seat_advice(draft: Draft, seat: int, pipers: int | None = None) -> Advice:
    """The hint for the pack in front of a seat now (``pipers``: what the seat can count on, as ``advise``)."""
    pool = [p.card for p in draft.pools[seat]]
    passed = [(pick.offered, pick.pick) for pick in draft.picks_of(seat)]
    return advise(draft.pack(seat), pool, draft.picks_due(seat), progress_of(draft, *draft.at(seat)), passed, pipers)


# --- signals -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ColorSignal:
    color: Color
    packs: int  # packs passed to the seat so far
    cards: int  # cards of this color in them
    best: float  # the best card of the color per pack, on average (0 for a pack without one)
    top: Card | None = None  # the best card of the color in those packs (None: none seen)

    @property
    def per_pack(self) -> float:
        return self.cards / self.packs if self.packs else 0.0


def signals(draft: Draft, seat: int) -> list[ColorSignal]:
    """Each color's quality in the packs passed to the seat (never the ones it opened), best first, by the rating
    the hint and the bots use.

    A spell counts for every color of its identity; a land or a colorless card says nothing about which colors the
    seats upstream take, so it is never a color's best card.  A pack in front of the seat now counts too.
    """
    packs = [pick.offered for pick in draft.picks_of(seat) if pick.pick > 1]
    if not draft.finished and draft.at(seat)[1] > 1 and draft.pack(seat):
        packs.append(tuple(draft.pack(seat)))
    rows = []
    for color in Color:
        cards, best, top = 0, 0.0, None
        for pack in packs:
            spells = [p.card for p in pack if color in p.card.deck_colors and not p.card.is_land]
            cards += len(spells)
            best += max((card_rating(card) for card in spells), default=0.0)
            for card in spells:
                if top is None or card_rating(card) > card_rating(top):
                    top = card
        rows.append(ColorSignal(color, len(packs), cards, best / len(packs) if packs else 0.0, top))
    return sorted(rows, key=lambda row: (-row.best, -row.cards, row.color.value))


# --- the review after the draft ------------------------------------------------------------------


@dataclass(frozen=True)
class ReviewRow:
    pack: int
    pick: int
    taken: tuple[Card, ...]
    hint: tuple[Card, ...]
    difference: float  # the hint's rating minus the taken cards' rating
    wheeled: tuple[Card, ...]  # cards of this pack that came back to the seat later in the round


def review(draft: Draft, seat: int, pipers: int | None = None) -> list[ReviewRow]:
    """Every pick of a seat: what it took, what the hint would have taken from the same pool (counting on ``pipers``
    Pipers, as ``advise``), and what wheeled."""
    rows = []
    pool: list[Card] = []
    passed: list[tuple[Sequence[Printing], int]] = []
    for pick in draft.picks_of(seat):
        advice = advise(pick.offered, pool, len(pick.taken), progress_of(draft, pick.pack, pick.pick), passed, pipers)
        passed.append((pick.offered, pick.pick))
        taken = tuple(p.card for p in pick.taken)
        rows.append(
            ReviewRow(
                pick.pack,
                pick.pick,
                taken,
                tuple(a.card for a in advice.picks),
                advice.rating - sum(card_rating(c) for c in taken),
                _wheeled(draft, pick),
            )
        )
        pool.extend(taken)
    return rows


def _wheeled(draft: Draft, pick: Pick) -> tuple[Card, ...]:
    passed = Counter(id(p) for i, p in enumerate(pick.offered) if i not in pick.positions)
    back = [q for q in draft.pack_trail(pick) if q.seat == pick.seat and q.pick > pick.pick]
    if not back:
        return ()
    return tuple(p.card for p in back[0].offered if passed[id(p)])
