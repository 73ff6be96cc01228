"""The hint for a player: the pick a bot style would make for their pool, card by card, and why.

``explain_pick`` is the one door from the learning aids (``draft.advice``), the pick timer and the stores to the
bots (``draft.bots``): the hint and the timer's pick are exactly the pick a bot of the style would make.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from draft.bot_plans import Plan
from draft.bots import SET_FROM, Bot, BotStyle
from draft.commanders import can_pair
from draft.deck_spells import COLORLESS_SOURCES, MAKES_COLORLESS
from draft.deckbuild import best_product_build
from draft.decks import is_piper
from draft.engine import Draft
from draft.products import lead_notes, product_of
from draft.traits import card_rating, card_roles, card_traits
from sets.booster import Printing
from sets.cards import Card
from sets.colors import ColorIdentity, identity_from_mask


@dataclass(frozen=True, slots=True)
class CardAdvice:
    """One card of the advised pick: where it is in the pack, its rating, its roles and why it was chosen."""

    position: int
    card: Card
    rating: float
    roles: tuple[str, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "name": self.card.name,
            "rating": self.rating,
            "roles": list(self.roles),
            "reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class PickAdvice:
    """The pick a bot style would make, card by card, and the plan it read from the pool."""

    style: BotStyle
    cards: tuple[CardAdvice, ...]
    identity: ColorIdentity
    commanders: tuple[Card, ...]

    @property
    def positions(self) -> list[int]:
        return [advice.position for advice in self.cards]

    def to_json(self) -> dict[str, Any]:
        return {
            "style": self.style.value,
            "cards": [c.to_json() for c in self.cards],
            "identity": self.identity.letters,
            "commanders": [c.name for c in self.commanders],
        }


LAST_PACK, PACK_END = 2.0, 3.0  # ``_reason``'s stages past a settled 1: the last pack, a pick of the pack's last cards


def _ranked_plan(pool: Sequence[Card], plan: Plan, committed: bool, pipers: int | None = None) -> Plan:
    """The plan a hint names: the commanders of the pool's best deck by ``deckbuild.best_product_build`` (the first
    of the one ranking the bots' decks, ``auto`` and ``suggest`` use, adding at most ``pipers`` Pipers), and once the
    seat has committed, that deck's identity.  Added Pipers are not named; a pool nothing can lead keeps the drafting
    plan's colors."""
    counts = Counter(pool)
    found = best_product_build(counts, product_of(counts), pipers)  # the first of every option; added cards may lead
    if found is None:
        return Plan(plan.mask, (), plan.strength, plan.depth, plan.leaderless)
    best = found[0]
    leaders = tuple(card for card in best.commanders if not is_piper(card))
    mask = best.identity.mask if committed and best.identity else plan.mask
    return Plan(mask, leaders, plan.strength, plan.depth, plan.leaderless)


def _reason(
    card: Card,
    roles: tuple[str, ...],
    plan: Plan,
    committed: bool,
    pipers: int | None = None,
    drafting: int = 31,
    stage: float = 1.0,
    colorless: int = COLORLESS_SOURCES,
) -> str:
    """Why the card is taken: its roles, what it leads, and its fit with the colors the pick was made for
    (``drafting``, the bot's plan).  The deck the pool builds now (``plan``) names them where the two agree on the
    card; early in a draft a small pool's best deck can be another (a mono-red Piper deck of a pool heading for three
    colors), and a fit judged by it would contradict the pick.  ``stage``: how set the colors are, 0 to 1 (``Bot.commitment``),
    ``LAST_PACK`` in the last pack, where the deck is set and a card of another color is a hate pick
    (``bots.SET_FROM``), ``PACK_END`` when the pick takes every card left.  ``colorless``: the sources of colorless
    mana the pool holds, which a card whose cost asks {C} is worth a share of (as the bots weigh it: nothing as a
    lead)."""
    parts = []
    shown = [role for role in roles if role not in ("commander", "partner", "choose-a-background")]  # (said below)
    if is_piper(card):
        option = product_of([card]).added
        if plan.leaderless:
            return (
                f"a {option.word}: your pool has no commander yet and the store's stock can't promise you a "
                f"{option.word}, so this one can lead a deck of one color"
            )
        if pipers is not None and pipers < option.most:
            return (
                f"a {option.word}: the store's stock promises you {option.count_words(pipers)}, and one drafted "
                "leads a deck of one color"
            )
        return f"a {option.word}: anyone may add {option.most} after the draft, so it is worth almost nothing as a pick"
    if shown:
        parts.append(", ".join(shown))
    partner = next((c for c in plan.commanders if card is not c and can_pair(card, c)), None)  # the one it pairs with
    asks_colorless = card_traits(card).colorless_cost
    if asks_colorless:
        parts.append(
            f"its cost asks {{C}}: your pool holds {colorless} of the {COLORLESS_SOURCES} colorless sources a deck "
            "needs to cast it"
        )
    elif card.can_be_commander or partner is not None:  # (a Background leads only beside the legend it pairs with)
        if plan.leaderless and card.identity and card.can_be_commander:
            parts.append(
                "can lead a deck: your pool has no commander yet and the store's stock can't promise you "
                + product_of([card]).added.words
            )
        elif partner is not None:
            parts.append(f"partners with {partner.name}")
        else:
            pairs = lead_notes(card)[1:]  # how it pairs, in the packs' words: partner, choose a Background, a grant
            parts.append("can lead a deck" + (f" ({', '.join(pairs)})" if pairs else ""))
    colors = card.deck_colors
    identity = identity_from_mask(plan.mask)
    if not colors:
        parts.append("colorless" if asks_colorless else "colorless: fits any deck")
    elif not committed:
        parts.append(f"{colors}: still open, no colors chosen yet")
    elif (colors.mask & ~drafting == 0) != (colors <= identity):  # the deck the pool builds now is not where the
        # pick heads, and the two judge the card's fit apart
        heading = identity_from_mask(drafting)
        if colors.mask & ~drafting == 0:
            parts.append(f"in the colors you are drafting, {heading}")
        else:
            parts.append(f"off the colors you are drafting, {heading} ({colors}): {_off_color(stage)}")
    elif colors <= identity:
        lead = f" under {' + '.join(c.name for c in plan.commanders)}" if plan.commanders else ""
        parts.append(f"in your colors {identity}{lead}")
    else:
        parts.append(f"off your colors {identity} ({colors}): {_off_color(stage)}")
    return "; ".join(parts) if parts else "the best of what is left"


def _off_color(stage: float) -> str:
    """Why a card of another color is taken, by how set the colors are (``_reason``'s ``stage``): while they settle
    it loses only part of what fitting is worth, so a stronger card wins; once set, only a much stronger one; in the
    last pack it is worth a hate pick at most, taken when nothing left would make the deck."""
    if stage >= PACK_END:
        return "the pack's last cards are taken whatever they are"
    if stage >= LAST_PACK:
        return "a hate pick: nothing left here would make your deck"
    if stage < 1.0:
        return "the stronger card while your colors settle"
    return "worth it only for its power"


def explain_pick(
    pack: Sequence[Printing | Card],
    pool: Sequence[Printing | Card],
    *,
    style: BotStyle | str = BotStyle.STRONG,
    rng: random.Random | None = None,
    progress: float | None = None,
    count: int = 2,
    picks: Sequence[tuple[Sequence[Printing | Card], int]] = (),
    pipers: int | None = None,
) -> PickAdvice:
    """The cards the given bot style would take from ``pack`` for a player holding ``pool``, and why.

    ``pack``: the cards in front of the player (printings or cards); ``pool``: the
    player's picks so far.  Returns a ``PickAdvice`` whose ``cards`` are the
    ``count`` chosen cards (two in CMR, fewer at the end of a pack), each a
    ``CardAdvice`` with its pack ``position`` (0-based), ``rating`` (float,
    about 0-5), ``roles`` (tuple of role tags such as ``removal``, ``ramp``,
    ``commander``) and a short ``reason`` (roles, fit with the colors and
    commander the pool points to).  ``identity`` and ``commanders`` tell the
    plan read from the pool.

    ``progress`` (0 to 1) is how far the draft is; by default it is read from
    the pool's size (60 cards in a CMR draft).  ``picks``, the packs passed
    to the player so far with their pick numbers, lets the strong style read
    signals.  ``pipers``: the Pipers the player can count on after the draft
    (``draft.bots.Bot.pipers``: None, the product's most, at a draft without a
    store).  Near-ties are broken as a bot seat would break them, or by
    ``rng`` when one is given; either way the same inputs give the same advice.
    """
    chosen_style = style if isinstance(style, BotStyle) else BotStyle.parse(style)
    printings = [item if isinstance(item, Printing) else Printing(item) for item in pack]
    cards = [item.card if isinstance(item, Printing) else item for item in pool]
    plan, positions = _chosen(
        chosen_style, printings, cards, rng, progress=progress, count=count, picks=picks, pipers=pipers
    )
    committed = plan.mask != 31
    drafting = plan.mask
    plan = _ranked_plan(cards, plan, committed, pipers)
    at = min(1.0, len(cards) / 60) if progress is None else progress  # as ``_chosen`` reads it
    strong = chosen_style is BotStyle.STRONG  # the style that weighs off-color cards by stage (the others: 1)
    stage = (LAST_PACK if at >= SET_FROM else Bot(chosen_style).commitment(at)) if strong else 1.0
    if len(positions) >= len(printings):
        stage = PACK_END
    colorless = sum(map(MAKES_COLORLESS.__getitem__, cards))
    advice = tuple(
        CardAdvice(
            i,
            printings[i].card,
            card_rating(printings[i].card),
            card_roles(printings[i].card),
            _reason(
                printings[i].card, card_roles(printings[i].card), plan, committed, pipers, drafting, stage, colorless
            ),
        )
        for i in positions
    )
    return PickAdvice(chosen_style, advice, identity_from_mask(plan.mask), plan.commanders)


def seat_advice(draft: Draft, seat: int, style: BotStyle = BotStyle.STRONG, pipers: int | None = None) -> PickAdvice:
    """``explain_pick`` for a seat of ``draft``: its pack and pool, the draft's progress, the cards due and the packs
    passed to it so far."""
    return explain_pick(draft.pack(seat), draft.pools[seat], style=style, pipers=pipers, **_asked(draft, seat))


def seat_pick(draft: Draft, seat: int, pipers: int | None = None) -> list[int]:
    """The pack positions of the cards ``seat_advice`` takes (the strong style), without its reasons and the deck
    they name: a seat whose time ran out takes these, at a bot's cost."""
    cards = [printing.card for printing in draft.pools[seat]]
    return _chosen(BotStyle.STRONG, draft.pack(seat), cards, None, pipers=pipers, **_asked(draft, seat))[1]


def _asked(draft: Draft, seat: int) -> dict[str, Any]:
    progress = (draft.round + (draft.at(seat)[1] - 1) / draft.picks_per_pack) / draft.config.boosters
    return {
        "progress": progress,
        "count": draft.picks_due(seat),
        "picks": [(p.offered, p.pick) for p in draft.picks_of(seat)],
    }


def _chosen(
    style: BotStyle,
    printings: list[Printing],
    cards: list[Card],
    rng: random.Random | None,
    *,
    progress: float | None,
    count: int,
    picks: Sequence[tuple[Sequence[Printing | Card], int]],
    pipers: int | None,
) -> tuple[Plan, list[int]]:
    """The bot's drafting plan and the positions it takes (``explain_pick``)."""
    bot = Bot(style, 0, pipers=pipers)
    for offered, number in picks:
        bot.observe(offered, number)
    bot.remember(cards)
    if progress is None:
        progress = min(1.0, len(cards) / 60)
    if rng is None:
        plan, scored = bot._ranked(printings, progress)  # exactly the pick a bot of this style would make
    else:
        plan = bot.plan(progress)
        scored = sorted(
            ((bot.score(p.card, plan, progress) + rng.random() * 0.05, i) for i, p in enumerate(printings)),
            reverse=True,
        )
    due = min(count, len(printings))
    if due >= len(printings):
        positions = list(range(len(printings)))
    elif due == 2:
        positions = list(bot._pair(printings, plan, scored, progress))
    else:
        positions = [i for _, i in scored[:due]]
    return plan, positions
