"""Which spells a deck plays and how many lands beside them (the deck builder's spell choice, ``draft.deckbuild``).

The best spells inside the identity, with every good on-color removal spell
and up to two board wipes in (more beside few creatures, or in place of filler), a curve,
enough creatures and no more mana rocks than the curve needs; a card that
reaches only commanders (a Background) rarely; the lands by the spells' mana values; filler that makes way for
a land (a slow colorless artifact first); the copies of a legend the legend
rule leaves dead; and what a color past two costs a deck.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from draft.cardtext import colorless_symbols, commander_only, makes_colorless
from draft.decks import is_piper
from draft.traits import COLOR_INDEXES, Kept, card_traits
from sets.cards import Card
from sets.colors import Color, ColorIdentity

SPELLS = 36
LANDS = (22, 25)
MIN_CREATURES = 14
MAX_HEAVY = 5
FILLER = 1.4  # a spell rated below this is no better than a 25th-27th land
CLEARLY_BETTER = 0.8  # a spell this much better than a filler spell in the deck takes its place, curve or not
MUST_PLAY = 1.8  # removal rated this or more goes in before anything else; a ping on a 1/1 competes like any card
MAX_WIPES = 2  # board wipes a creature deck plays (its own creatures die too)
WIPE_DECK_CREATURES = 10  # a pool with fewer creatures in the deck's colors than this may play more wipes
MAX_ROCKS = 2  # beside 22+ lands; one more in a deck of three colors or more, where rocks fix
THIN_COLOR_SPELLS = 3  # an identity color this few main-deck spells show doesn't pay for its mana
LEGEND_COPIES = 2  # copies of a legend a deck plays, its commanders counted, unless the card allows more
WIDTH_COST = 3.0  # each color past two: less consistent mana
SPLASH_SPELLS = 6  # spells of each color a deck of three colors or more wants
SPLASH_SHORT_COST = 5.0  # for each spell a color of such a deck has fewer than that
COLORLESS_SOURCES = 6  # sources of colorless mana a spell with {C} in its cost needs, as a color the spells show does
_COLORS = tuple(Color)  # WUBRG
# A commander is in the command zone every game, a main-deck card in some: each rating point above ``FILLER`` is
# worth ``COMMAND_ZONE`` more leading, each above ``LEAD_BAR`` (a legend worth building around) ``BOMB_LEAD`` more.
# At 1.5 a legend a full point better than another gains more from leading than the other, plus the main-deck slot
# a Piper beside it takes (``tests/draft/test_commander_leads.py``); at 1.0 a weak gold legend led alone.
COMMAND_ZONE = 1.5
LEAD_BAR = 2.5
BOMB_LEAD = 1.0


COSTLY_COMMANDER = 6  # a commander of this mana value or more, cast every game, wants a land more per mana above 5


def land_count(spells: Sequence[Card], leaders: Sequence[Card] = ()) -> int:
    """Lands for these spells: 22-25 by their average mana value, one fewer for three cheap ramp spells (Treasure
    makers among them) and two fewer for six (``ramp_cut``); beside a commander of ``COSTLY_COMMANDER`` mana value or
    more, one land for each mana above 5 past 23 (24 for a 6-drop, 25 for a 7-drop or more), less the same cut."""
    if not spells:
        return LANDS[1]
    costly = max([card_traits(card).mana_value for card in leaders], default=0)
    if costly >= COSTLY_COMMANDER:
        floor = min(LANDS[1], round(23 + costly - 5)) - ramp_cut(spells)
        return max(floor, _spell_lands(spells))
    return _spell_lands(spells)


def _spell_lands(spells: Sequence[Card]) -> int:
    """``land_count`` by the spells alone."""
    total = 0.0
    for card in spells:
        total += card_traits(card).mana_value  # in order, as ``sum`` adds
    average = total / len(spells)
    lands = round(23 + (average - 3.2) * 2.0 - ramp_cut(spells))
    return max(LANDS[0], min(LANDS[1], lands))


def ramp_cut(spells: Sequence[Card]) -> int:
    """Lands the spells' cheap ramp (mana value 3 or less) replaces: one for three of them, two for six."""
    ramp = sum(map(cheap_ramp, spells))
    return (ramp >= 3) + (ramp >= 6)


def _cheap_ramp(card: Card) -> bool:
    traits = card_traits(card)
    return "ramp" in traits.roles and traits.mana_value <= 3


cheap_ramp: Callable[[Card], bool] = Kept(_cheap_ramp).__getitem__
"""A ramp spell of mana value 3 or less (``ramp_cut`` counts them, twice a build).  Worked out once a card."""


def filler_ramp_cut(spells: Sequence[Card]) -> int:
    """``ramp_cut`` by the cheap ramp rated ``FILLER`` or more, where filler makes way for lands: a ramp spell that is
    filler itself (a 1/1 that leaves a Treasure) replaces no land, a land does its job better."""
    ramp = sum(1 for card in spells if cheap_ramp(card) and card_traits(card).rating >= FILLER)
    return (ramp >= 3) + (ramp >= 6)


def benched_wipe(spells: Sequence[Card], candidates: Sequence[Card]) -> int:
    """1 while a board wipe past the cap (``MAX_WIPES``; a real card, rated ``FILLER`` or more) of the ``candidates``
    sits out of ``spells``, else 0: a land the filler makes way for past ``LANDS[1]`` waits for it (the deck plays
    more than 25 lands only when nothing worth playing is left; more than two wipes only beside filler)."""
    wipes = list(filter(real_wipe, candidates))
    return int(bool(wipes) and not set(wipes) <= set(spells))


def _real_wipe(card: Card) -> bool:
    traits = card_traits(card)
    return "wipe" in traits.roles and traits.rating >= FILLER


real_wipe: Callable[[Card], bool] = Kept(_real_wipe).__getitem__
"""A board wipe rated ``FILLER`` or more (``benched_wipe`` looks for them among every build's candidates).  Worked out
once a card."""


def _leader_value(card: Card) -> float:
    rating = card_traits(card).rating
    return rating + COMMAND_ZONE * max(0.0, rating - FILLER) + BOMB_LEAD * max(0.0, rating - LEAD_BAR)


leader_value: Callable[[Card], float] = Kept(_leader_value).__getitem__
"""A card's worth as a commander, beside the spells' ratings in a deck's value: a main-deck card is drawn in some
games, a commander is there in every one, so a bomb legend counts far more leading than in the deck (and leads), while
a near-vanilla legend counts no more than the main-deck card it displaces.  Worked out once a card."""


# An added Piper leads worse than a legend of the pool: a little (a tie-break; the main-deck slot it takes is counted
# by the build), never what leading with a stronger legend is worth.
ADDED_PIPER_COST = 0.25
# A deck led only by added cards (Pipers, Faceless Ones) has no real commander: it loses to a legend of the pool
# worth leading (rated ``LEAD_BAR`` or more) that shares a color with it, even one whose third color no spell shows
# (``THIN_COLOR_COST`` 10 + ``WIDTH_COST`` + ``SPLASH_SHORT_COST`` * ``SPLASH_SPELLS`` = 43 at most).
NO_LEGEND_COST = 45.0


def pool_legend_masks(pool: Iterable[Card], added_cards: frozenset[str]) -> list[int]:
    """The identities of the pool's own commanders worth leading (rated ``LEAD_BAR`` or more, added cards aside)."""
    return [
        card.identity.mask
        for card in pool
        if card.can_be_commander and card.name not in added_cards and card_traits(card).rating >= LEAD_BAR
    ]


def added_cost(added: int, own_leader: bool, mask: int, legends: Sequence[int]) -> float:
    """What the added leaders cost an option (``ADDED_PIPER_COST`` each), and ``NO_LEGEND_COST`` more when no card
    of the pool leads while a legend of the pool worth leading shares a color with it (``pool_legend_masks``)."""
    cost = ADDED_PIPER_COST * added
    if not own_leader and any(legend & mask for legend in legends):
        cost += NO_LEGEND_COST
    return cost


SLOW_ARTIFACT_COST = 0.3  # below ``FILLER``, what a colorless noncreature spell does less than a body of the colors


def _filler_value(card: Card) -> float:
    traits = card_traits(card)
    if traits.rating < FILLER and not traits.mask and not traits.creature and not traits.land:
        return traits.rating - SLOW_ARTIFACT_COST
    return traits.rating


filler_value: Callable[[Card], float] = Kept(_filler_value).__getitem__
"""A card's rating as the deck's last slots see it: below ``FILLER`` a colorless noncreature spell (a slow rock, a
situational draw artifact, equipment with nothing to carry) does less than a body of the deck's colors.  Worked out
once a card."""


def _rank_key(card: Card) -> tuple[float, float, int, str] | None:
    """Where a card ranks among a pool's playable cards, best first (``draft.deckbuild``), or None for one never
    played from the pool as a spell or a land (a basic land, an added card); of two as good, the cheaper, then the one
    of fewer colored symbols (the easier to cast)."""
    if card.is_basic_land or is_piper(card):
        return None
    return (-filler_value(card), card.mana_value, sum(card_traits(card).symbols), card.name)


# ``_rank_key`` of each card, worked out once (every seat's deck ranks its whole pool).
rank_key: Callable[[Card], tuple[float, float, int, str] | None] = Kept(_rank_key).__getitem__


def filler_order(card: Card) -> float:
    """Which filler spell goes first for a land: the one that does least (``filler_value``)."""
    return filler_value(card)


def _is_rock(card: Card) -> bool:
    traits = card_traits(card)
    return traits.source and not traits.land


is_rock: Callable[[Card], bool] = Kept(_is_rock).__getitem__
"""A mana rock: a cheap noncreature artifact that makes mana.  Worked out once a card (asked of every build's spells)."""


def commander_cards_allowed(leaders: Sequence[Card]) -> int:
    """Main-deck cards whose effect reaches only commanders (``commander_only``: a Background) a deck may play: none
    beside no creature commander (a planeswalker) or one that already has such a card leading beside it, else at most
    one, and that only when clearly better than the card it displaces."""
    creature = any(card_traits(card).creature for card in leaders)
    return 1 if creature and not any(commander_only(card) for card in leaders) else 0


def choose_spells(
    candidates: Sequence[Card], count: int, max_rocks: int = MAX_ROCKS, leaders: Sequence[Card] = ()
) -> list[Card]:
    """The best ``count`` spells (``candidates`` best first) with removal in, a curve, enough creatures and no more
    mana rocks than the curve needs (the rest only when nothing else fills the deck); a card that reaches only
    ``leaders`` (``commander_cards_allowed``) only in place of a card it is ``CLEARLY_BETTER`` than."""
    blank = [card for card in candidates if commander_only(card)]
    if not blank:
        return _choose(candidates, count, max_rocks)
    spells = _choose([card for card in candidates if not commander_only(card)], count, max_rocks)
    if not commander_cards_allowed(leaders):
        return spells
    best, rating = blank[0], card_traits(blank[0]).rating
    if len(spells) < count:  # a land would take the slot
        return spells + [best] if rating - FILLER >= CLEARLY_BETTER else spells
    creatures = sum(card_traits(card).creature for card in spells)
    droppable = [i for i, card in enumerate(spells) if creatures > MIN_CREATURES or not card_traits(card).creature]
    weakest = min(droppable, key=lambda i: filler_value(spells[i]), default=None)
    if weakest is not None and rating - filler_value(spells[weakest]) >= CLEARLY_BETTER:
        spells[weakest] = best
    return spells


def _choose(candidates: Sequence[Card], count: int, max_rocks: int) -> list[Card]:
    traits = list(map(card_traits, candidates))
    # Board wipes past ``MAX_WIPES`` (the best kept) go only where nothing else fills the deck, unless the pool has
    # too few creatures for a creature deck: a deck of few bodies may be the one that wipes the board again.
    wipes = [i for i, t in enumerate(traits) if "wipe" in t.roles]
    few_bodies = sum(t.creature for t in traits) < WIPE_DECK_CREATURES
    over = set() if few_bodies else set(wipes[MAX_WIPES:])
    must = [i for i, t in enumerate(traits) if t.interaction and t.rating >= MUST_PLAY and i not in over][:count]
    taken = set(must)
    chosen = list(must)
    left = [i for i in range(len(candidates)) if i not in taken]
    rocks = sum(1 for i in chosen if traits[i].source and not traits[i].land)
    heavy = sum(1 for i in chosen if traits[i].mana_value >= 6)
    creatures_left = sum(1 for i in left if traits[i].creature)
    creatures = sum(1 for i in chosen if traits[i].creature)
    spare: list[int] = []
    for i in left:
        if len(chosen) >= count:
            break
        t = traits[i]
        room = count - len(chosen)
        rock = t.source and not t.land
        if i in over:
            continue
        if t.mana_value >= 6 and heavy >= MAX_HEAVY and "bomb" not in t.roles:
            spare.append(i)
            continue
        if rock and rocks >= max_rocks:
            spare.append(i)  # beside 22+ lands a third rock is a spell the deck goes without
            continue
        if not t.creature and MIN_CREATURES - creatures >= room and creatures_left > 0:
            spare.append(i)
            continue
        chosen.append(i)
        rocks += rock
        heavy += t.mana_value >= 6
        if t.creature:
            creatures += 1
            creatures_left -= 1
    # A small pool: fill with what was passed over, the wipes past the cap last.
    chosen += (spare + sorted(over))[: max(0, count - len(chosen))]
    # A real card set aside for the curve still beats filler, a card no better than a land (rated ``FILLER`` or less:
    # the deck's value counts a land at ``FILLER``, so a spell rated so is worth just a land): a seventh big spell over
    # a card that does nothing.  A rock past the cap (mana beside enough lands) and then a board wipe past the cap (it
    # kills the deck's own creatures too) do less than their rating here: only in place of filler rated under the line,
    # and only when clearly better than it.
    for i in sorted((set(spare) | over) - set(chosen), key=lambda i: (i in over, -traits[i].rating)):
        weakest = min(
            (j for j in chosen if creatures > MIN_CREATURES or not traits[j].creature or traits[i].creature),
            key=lambda j: filler_value(candidates[j]),
            default=None,
        )
        if weakest is None or traits[weakest].rating > FILLER:
            break
        if i in over or (traits[i].source and not traits[i].land):
            line = traits[weakest].rating >= FILLER
            worse = line or traits[i].rating - filler_value(candidates[weakest]) < CLEARLY_BETTER
        else:  # filler too, or no better than the filler chosen: no reason to play it over that
            worse = traits[i].rating < FILLER or traits[i].rating <= filler_value(candidates[weakest])
        if worse:
            continue
        creatures += traits[i].creature - traits[weakest].creature
        chosen[chosen.index(weakest)] = i
    return [candidates[i] for i in chosen]


COLORLESS_SYMBOLS, MAKES_COLORLESS = Kept(colorless_symbols), Kept(makes_colorless)


def live_copies(cards: Sequence[Card], leaders: Sequence[Card]) -> tuple[list[Card], list[Card]]:
    """``cards`` (best first) split into the playable and the dead: the copies of a legend past ``LEGEND_COPIES`` in
    the deck, its commanders counted (the legend rule, CR 704.5j, leaves a third copy nearly dead, and a free basic
    land does as much; a card whose own text allows more copies, ``copy_limit``, keeps them all), and a spell whose
    cost holds {C} where fewer than ``COLORLESS_SOURCES`` of the cards make colorless mana (a basic land of a color
    never does: Kozilek, the Great Distortion is no card of a deck of Plains and Mountains)."""
    counts: dict[str, int] = {}  # copies by name so far (a plain dict: no ``__missing__`` call at each new name)
    for card in leaders:
        counts[card.name] = counts.get(card.name, 0) + 1
    live, dead = [], []
    needing = [card for card in cards if COLORLESS_SYMBOLS[card]]
    if needing and sum(map(MAKES_COLORLESS.__getitem__, cards)) < COLORLESS_SOURCES:
        dead = needing
        cards = [card for card in cards if not COLORLESS_SYMBOLS[card]]
    for card in cards:
        name = card.name
        if (
            card_traits(card).legendary
            and (card.copy_limit or 0) <= LEGEND_COPIES
            and counts.get(name, 0) >= LEGEND_COPIES
        ):
            dead.append(card)
            continue
        counts[name] = counts.get(name, 0) + 1
        live.append(card)
    return live, dead


def width_cost(spells: Sequence[Card], identity: ColorIdentity) -> float:
    """What a color past two costs a deck: its mana is less consistent, and a color shown by few spells (a splash)
    doesn't pay for that.  A deck of three colors needs ``SPLASH_SPELLS`` spells of each to be worth it over the
    two-color build of the same pool."""
    if len(identity) < 3:
        return 0.0
    return _width_cost(_shown(spells, identity), len(identity))


def _width_cost(shown: list[tuple[Color, int]], width: int) -> float:
    short = sum(max(0, SPLASH_SPELLS - n) for _, n in shown)
    return WIDTH_COST * (width - 2) + SPLASH_SHORT_COST * short


def thin_colors(spells: Sequence[Card], identity: ColorIdentity) -> list[Color]:
    """Colors of an identity of two or more that ``THIN_COLOR_SPELLS`` or fewer spells show: a color that
    doesn't bring enough cards to pay for its mana."""
    if len(identity) < 2:
        return []
    return [color for color, n in _shown(spells, identity) if n <= THIN_COLOR_SPELLS]


def color_costs(spells: Sequence[Card], identity: ColorIdentity) -> tuple[int, float]:
    """How many ``thin_colors`` the spells leave and their ``width_cost``, the spells' colors counted once."""
    width = len(identity)
    if width < 2:
        return 0, 0.0
    shown = _shown(spells, identity)
    thin = sum(1 for _, n in shown if n <= THIN_COLOR_SPELLS)
    return thin, (_width_cost(shown, width) if width >= 3 else 0.0)


def _shown(spells: Sequence[Card], identity: ColorIdentity) -> list[tuple[Color, int]]:
    """Each color of the identity (WUBRG) with the number of spells of that color."""
    counts = [0] * 5  # spells of each color, WUBRG
    for card in spells:
        for index in card_traits(card).color_indexes:
            counts[index] += 1
    return [(_COLORS[index], counts[index]) for index in COLOR_INDEXES[identity.mask]]
