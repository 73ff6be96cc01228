"""Building a legal Commander draft deck from a pool, as a strong player would (bots, ``auto``, ``--auto``).

1. Commanders: every option the pool allows (a legend, a pair that may lead together, a partner with an added Piper
   of some color, one or two Pipers alone) is built into a deck and valued by that deck: the ratings of its spells
   and its commanders' worth leading (``leader_value``: a commander is there every game, so a bomb legend counts far
   more leading than in the main deck), less a cost for every mana source its colors would lack (a three-color
   commander needs sources of each color) and for each Piper added (far more when only added cards lead: no real
   commander, beside a pool legend worth leading). The best deck wins.
2. Spells (``draft.deck_spells``): the best cards inside the identity, with every good on-color removal spell and up
   to two board wipes in (more beside few creatures, or in place of filler), a Background or other card that reaches
   only commanders rarely (never beside a noncreature commander), a curve (at most five cards of six mana or more
   unless they are removal or bombs, or the rest would be filler) and at least 14 creatures when the pool has them. A
   Prismatic Piper never goes in the main deck, nor a third copy of a legend (commanders counted) unless its text
   allows it, nor a spell asking {C} of a deck without colorless sources: a basic land fills the deck instead (a
   colorless deck, which has no free basics, plays them last). A third color costs the deck's value: its mana is less
   steady, and a color of fewer than six spells doesn't pay for it, so the two-color build wins when about as strong.
3. Lands: 22-25 by the spells' average mana value, the ramp in the deck and a commander of mana value 6 or more, and
   up to 26 where filler makes way (the slowest first; fewer beside ramp, not filler itself, or a benched wipe); the
   pool's fixing lands first, then basics split by the colored symbols the spells and commanders need: a commander's
   colored symbols have their sources (``draft.manabase``: 10, 12, 14 for one, two, three), every identity color the
   spells use 6 (lands and mana rocks of mana value 3 or less count), and no color is far below its symbols' share.
4. The sideboard is the rest: off-color cards and cards worse than the ones played.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from draft.commanders import Suggestion, usable_options
from draft.deck_ceilings import Ceilings
from draft.deck_spells import (
    FILLER,
    LANDS,
    MAX_ROCKS,
    MIN_CREATURES,
    SPELLS,
    added_cost,
    benched_wipe,
    choose_spells,
    color_costs,
    filler_order,
    filler_ramp_cut,
    is_rock,
    land_count,
    leader_value,
    live_copies,
    pool_legend_masks,
    rank_key,
)
from draft.decks import DRAFT_MIN_SIZE, Deck, DeckLine, Zone, is_free_basic, is_piper
from draft.manabase import light_color_cost, mana, produced, with_lands
from draft.products import Product, added_card, added_names, product_of
from draft.traits import card_rating, card_traits
from sets.basics import basic_land
from sets.booster import Printing
from sets.cards import Card
from sets.colors import Color, ColorIdentity, identity_from_mask
from sets.errors import InputError, LimitError
from sets.userdata import one_reading
from sets.visible import quoted

MAX_NONBASIC_LANDS = 6
SHORT_SOURCE_COST = 1.5
FILLER_LANDS = 26  # filler spells make way for lands up to this many, fewer beside ramp (``ramp_cut``)
THIN_COLOR_COST = 10.0
EXTRA_LAND_COST = 2.0


@dataclass(frozen=True, slots=True)
class CommanderChoice:
    commanders: tuple[Card, ...]
    colors: tuple[Color, ...]
    identity: ColorIdentity
    value: float


@dataclass(frozen=True, slots=True)
class _Build:
    """A deck under construction for one commander option."""

    spells: tuple[Card, ...]
    lands: tuple[Card, ...]
    basics: Counter[Card]
    short: int  # mana sources missing to meet the per-color needs
    value: float


def _ranked(pool: Counter[Card]) -> list[Card]:
    """Pool cards that could be played, best first (every copy)."""
    keys = {card: key for card in pool if (key := rank_key(card)) is not None}
    cards = [card for card, n in pool.items() if card in keys for _ in range(n)]
    cards.sort(key=keys.__getitem__)
    return cards


def _pool_wastes(pool: Counter[Card]) -> Counter[Card]:
    """The pool's basic lands that make no colored mana (Wastes): the only basics a colorless identity allows."""
    return Counter({card: n for card, n in pool.items() if card.is_basic_land and not card.deck_colors and n > 0})


def _build(
    ranked: Sequence[Card], leaders: Sequence[Card], identity: ColorIdentity, wastes: Counter[Card] | None = None
) -> _Build:
    skip = dict(Counter(leaders))  # the leaders' own copies stay out of the deck
    names = {card.name for card in leaders}  # a copy of a leader has its name
    outside = ~identity.mask
    fitting_spells: list[Card] = []  # the fitting cards, in ranked order: the nonland ones, and the lands
    fitting_lands: list[Card] = []
    for card in ranked:
        traits = card_traits(card)
        if traits.mask & outside:
            continue
        if card.name in names and skip.get(card):
            skip[card] -= 1
            continue
        (fitting_lands if traits.land else fitting_spells).append(card)
    candidates, dead = live_copies(fitting_spells, leaders)
    # A colorless identity has no free basics: every land of the pool it may play is a land it needs.
    lands = [
        card for card in fitting_lands if produced(card, identity) or card_traits(card).rating > 1.8 or not identity
    ]
    lands = lands[:MAX_NONBASIC_LANDS]
    first = candidates[: DRAFT_MIN_SIZE - len(leaders) - LANDS[0]]
    land_total = land_count(first[:SPELLS], leaders)
    spell_total = DRAFT_MIN_SIZE - len(leaders) - land_total
    max_rocks = MAX_ROCKS + (len(identity) >= 3)
    spells = choose_spells(candidates, spell_total, max_rocks, leaders)
    # Filler spells make way for lands up to the 26th (fewer beside ramp, not filler itself, or a benched wipe), a
    # slow colorless artifact first: a good player runs an extra land before a card that does nothing in this deck.
    # Such a land counts as a spell of ``FILLER`` in the deck's value: a thin pool's deck is valued as it plays.
    filler_lands = 0
    most_lands = FILLER_LANDS - max(filler_ramp_cut(spells), benched_wipe(spells, candidates))
    if identity and DRAFT_MIN_SIZE - len(leaders) - len(spells) < most_lands:
        order = [filler_order(card) for card in spells]
        bodies = [card_traits(card).creature for card in spells]
        creatures = sum(bodies)
        while DRAFT_MIN_SIZE - len(leaders) - len(spells) < most_lands:
            # The weakest spell (the first of equals), a creature only while the deck has more than it needs.
            droppable = (
                range(len(spells)) if creatures > MIN_CREATURES else [i for i, body in enumerate(bodies) if not body]
            )
            weakest = min(droppable, key=order.__getitem__, default=None)
            if weakest is None or card_traits(spells[weakest]).rating >= FILLER:
                break
            creatures -= bodies[weakest]
            del spells[weakest], order[weakest], bodies[weakest]
            filler_lands += 1
    # Rocks past the cap that filled a small pool are mana too: a land does their job (up to 25 lands).
    rocks = [i for i, card in enumerate(spells) if is_rock(card)]
    extra = min(len(rocks) - max_rocks, LANDS[1] - (DRAFT_MIN_SIZE - len(leaders) - len(spells)))
    if identity and extra > 0:
        for i in sorted(sorted(rocks, key=lambda i: card_traits(spells[i]).rating)[:extra], reverse=True):
            del spells[i]
    land_total = DRAFT_MIN_SIZE - len(leaders) - len(spells)
    lands = lands[:land_total]
    if not identity:
        # No free basic land fills a colorless deck: a dead copy of a legend is better than a card short.
        return _colorless_build(candidates + dead, leaders, lands, wastes or Counter(), land_total)
    basics, short, wanting = mana(spells, lands, leaders, identity, land_total)
    if short and land_total < LANDS[1]:
        # Colors short of sources: play up to 25 lands before giving up on them (the last spells chosen go).
        land_total = min(LANDS[1], land_total + short)
        spells = spells[: DRAFT_MIN_SIZE - len(leaders) - land_total]
        basics, short, wanting = mana(spells, lands, leaders, identity, land_total)
    value = sum([card_traits(c).rating for c in spells]) + sum(leader_value(c) for c in leaders if not is_piper(c))
    # Every land past ``LANDS[0]`` (up to ``most_lands``) is worth a filler spell, whether the curve asked for it or
    # a filler spell made way for it: two builds of the same shape are worth the same, whatever their first count.
    value += FILLER * max(0, min(land_total, most_lands) - LANDS[0])
    thin, wide = color_costs(spells, identity)  # ``thin_colors`` and ``width_cost``, the spells counted once
    value -= SHORT_SOURCE_COST * short + THIN_COLOR_COST * thin + light_color_cost(leaders, spells, identity)
    value -= wide
    # A pool too thin in these colors for a deck, even with filler: more lands than any deck wants.
    value -= EXTRA_LAND_COST * max(0, land_total - max(LANDS[1], FILLER_LANDS if filler_lands else 0))
    if wanting and land_total < LANDS[1]:  # a color far below its symbols' share: up to 25 lands, at no cost
        land_total = min(LANDS[1], land_total + wanting)  # to the option (a lead is no worse for the land it wants)
        spells, basics, short = with_lands(spells, lands, leaders, identity, land_total, DRAFT_MIN_SIZE)
    return _Build(tuple(spells), tuple(lands), basics, short, value)


def _colorless_build(
    candidates: Sequence[Card], leaders: Sequence[Card], lands: Sequence[Card], wastes: Counter[Card], land_total: int
) -> _Build:
    """A colorless identity allows none of the free basic lands (each has a colored basic land type, CR 903.5d):
    the pool's own Wastes are its basics, and more spells fill the room they leave.  A pool without enough
    colorless cards makes a short deck, valued so low that any colored option wins."""
    size = DRAFT_MIN_SIZE - len(leaders)
    land_total = min(land_total, len(lands) + sum(wastes.values()))
    spells = choose_spells(candidates, size - land_total, leaders=leaders)
    land_total = min(size - len(spells), len(lands) + sum(wastes.values()))
    lands = list(lands[:land_total])
    basics: Counter[Card] = Counter()
    room = land_total - len(lands)
    for card, n in wastes.items():
        basics[card] = min(n, room - sum(basics.values()))
    basics = +basics
    missing = size - len(spells) - len(lands) - sum(basics.values())
    value = sum(card_rating(c) for c in spells) + sum(leader_value(c) for c in leaders if not is_piper(c))
    return _Build(tuple(spells), tuple(lands), basics, 0, value - 10.0 * missing)


MAX_SUGGESTIONS = 1_000  # commander choices one ranking lists (README "Limits")
Stock = int | None  # the most Pipers a deck may add beyond its pool: the store's stock (None: the product's most)


def _spell_rows(ranked: Sequence[Card]) -> list[tuple[int, float]]:
    """(color mask, rating) of the nonland cards of ``ranked``, in its order: what ``_spell_value`` reads."""
    return [(traits.mask, traits.rating) for traits in map(card_traits, ranked) if not traits.land]


def _spell_value(rows: Sequence[tuple[int, float]], mask: int) -> float:
    """The ratings of the best ``SPELLS`` nonland cards inside an identity (a leader among them counts too)."""
    total, outside = 0.0, ~mask
    for rating in [rating for card_mask, rating in rows if not card_mask & outside][:SPELLS]:
        total += rating  # one by one, best first: the same sum as ever
    return total


_Option = tuple[float, tuple[Card, ...], tuple[Color, ...], float, ColorIdentity]


def _options(
    pool: Counter[Card], piper: Card | None, product: Product | None, rows: Sequence[tuple[int, float]], may_add: Stock
) -> list[_Option]:
    """Every usable commander option with a quick estimate, best first: (estimate, leaders, colors, cost of its added
    leaders (``added_cost``), identity); ``rows``: the pool's ``_spell_rows``; ``may_add``: the most Pipers it may
    add (``usable_options``)."""
    options = []
    by_mask: dict[int, float] = {}
    added_cards = added_names()  # ``is_piper``, asked of every leader of every option
    legends = pool_legend_masks(pool, added_cards)
    # The last leaders seen: their identity before chosen colors, how many choose one, and their ratings (the
    # colors of one group of leaders come together, in one tuple), and whether a card of the pool is among them.
    group: tuple[tuple[Card, ...], int, int, float, bool] = ((), 0, 0, 0.0, False)
    for leaders, colors, added in usable_options(pool, piper, product, may_add):
        # A quick value of the option: its best spells' ratings, its leaders', and a cost for colors past two; its
        # identity is ``commander_identity(leaders, colors)``: the leaders' and the colors the choosers chose.
        if leaders is not group[0]:
            base, choosers = 0, 0
            leading = 0.0  # summed one by one, as ``sum`` would
            own = False
            for card in leaders:
                base |= card.identity.mask
                choosers += card.chooses_color
                if card.name not in added_cards:
                    leading += leader_value(card)
                    own = True
            group = (leaders, base, choosers, leading, own)
        _, mask, choosers, leading, own = group
        for color in colors[:choosers]:
            if color is not None:
                mask |= color.bit
        spells = by_mask.get(mask)
        if spells is None:
            spells = by_mask[mask] = _spell_value(rows, mask)
        cost = added_cost(added, own, mask, legends)
        estimate = spells + leading - 2.0 * max(0, mask.bit_count() - 2) - cost
        options.append((estimate, leaders, colors, cost, identity_from_mask(mask)))
    # A colorless identity allows no free basic land (Wastes come from the pool): lead with colors when possible.
    options.sort(key=lambda o: (o[4].mask != 0, o[0]), reverse=True)
    return options


def _to_build(options: list[_Option], count: int | None) -> list[_Option]:
    """The options worth a full build: the best ``count`` by estimate (None: every one), and the best two of two colors
    or fewer (a wider identity estimates high: its cost shows once built)."""
    chosen = options if count is None else options[:count]
    narrow = [o for o in options if o[4].mask.bit_count() <= 2][:2]
    return chosen + [o for o in narrow if o not in chosen]


def ranked_builds(
    pool: Counter[Card],
    piper: Card | None,
    count: int | None = None,
    product: Product | None = None,
    may_add: Stock = None,
) -> list[tuple[CommanderChoice, _Build]]:
    """Commander options ranked by the quality of the deck each allows (the deck built, its value), best first, adding
    at most ``may_add`` Pipers; ``count``: build only the best so many by estimate (a quick plan), None: every option.
    The one ranking of commanders: the bots' decks, ``auto``, ``suggest`` and the practice builder all read it."""
    ranked = _ranked(pool)
    wastes = _pool_wastes(pool)
    builds = []
    for _, leaders, colors, cost, identity in _to_build(
        _options(pool, piper, product, _spell_rows(ranked), may_add), count
    ):
        build = _build(ranked, leaders, identity, wastes)
        builds.append((CommanderChoice(leaders, colors, identity, build.value - cost), build))
    builds.sort(key=lambda found: (bool(found[0].identity), found[0].value), reverse=True)
    return builds


def quick_build(
    pool: Counter[Card], piper: Card | None, count: int, product: Product, may_add: Stock
) -> tuple[CommanderChoice, _Build] | None:
    """``ranked_builds(pool, piper, count, product, may_add)[0]`` (a quick plan's first), found as ``_best`` finds it."""
    return _best(pool, piper, may_add, product, count)


def best_product_build(pool: Counter[Card], product: Product, may_add: Stock) -> tuple[CommanderChoice, _Build] | None:
    """The first of ``ranked_builds`` as a seat's deck is built (the product's added card may lead: the hint's plan),
    found as ``_best`` finds it: an option that can't come first is left unbuilt (a timer's pick asks it)."""
    return _best(pool, added_card(product), may_add, product)


def _best(
    pool: Counter[Card],
    piper: Card | None,
    may_add: Stock = None,
    product: Product | None = None,
    count: int | None = None,
) -> tuple[CommanderChoice, _Build] | None:
    """``ranked_builds(pool, piper, count, ...)[0]``, leaving unbuilt an option whose ceiling (``Ceilings``) can't beat
    the best built (the ranking sorts stably: an option no better than an earlier one never comes first)."""
    ranked = _ranked(pool)
    rows, wastes = _spell_rows(ranked), _pool_wastes(pool)
    ceilings, best, best_key = Ceilings(rows), None, (False, float("-inf"))
    options = _options(pool, piper, product, rows, may_add)
    for _, leaders, colors, cost, identity in options if count is None else _to_build(options, count):
        colored = identity.mask != 0
        if best is not None and (
            colored < best_key[0]
            or colored == best_key[0]
            and not ceilings.beats(leaders, identity, FILLER_LANDS, best_key[1] + cost)
        ):
            continue
        build = _build(ranked, leaders, identity, wastes)
        choice = CommanderChoice(leaders, colors, identity, build.value - cost)
        if best is None or (colored, choice.value) > best_key:
            best, best_key = (choice, build), (colored, choice.value)
    return best


def check_suggestions(limit: int) -> int:
    """How many commander choices to list: 1 to ``MAX_SUGGESTIONS`` (``LimitError`` otherwise)."""
    return LimitError.check(limit, "top", "commander choices to list", 1, MAX_SUGGESTIONS)


def rank_commanders(
    pool: Iterable[Card] | Mapping[Card, int],
    limit: int = 10,
    piper: Card | None = None,
    product: Product | None = None,
    may_add: Stock = None,
) -> list[Suggestion]:
    """Commander choices, best deck first (``ranked_builds`` of every option: a list is the start of a longer one, its
    first what ``auto`` builds); ``playable`` counts the pool cards each identity allows; ``limit``: 1 to 1,000."""
    check_suggestions(limit)
    counts = Counter(dict(pool)) if isinstance(pool, Mapping) else Counter(pool)
    piper = piper or next((card for card in counts if is_piper(card)), None)
    held = sum(n for card, n in counts.items() if is_piper(card))
    suggestions = []
    for choice, _ in ranked_builds(counts, piper, None, product, may_add)[:limit]:
        used = Counter(c.name for c in choice.commanders)
        playable = sum(
            max(0, n - used.get(card.name, 0))
            for card, n in counts.items()
            if card.deck_colors <= choice.identity and not is_free_basic(card)
        )
        added = max(0, sum(1 for card in choice.commanders if is_piper(card)) - held)
        names = tuple(c.name for c in choice.commanders)
        suggestions.append(Suggestion(names, choice.colors, choice.identity, playable, added))
    return suggestions[:limit]


def choose_commanders(pool: Counter[Card], piper: Card | None) -> CommanderChoice | None:
    """The commander option whose deck is best (``None`` when nothing in the pool can lead)."""
    found = _best(pool, piper)
    return None if found is None else found[0]


ASK_THE_DESK = "ask the desk for one"  # what a player does when the store's stock holds no added card for them


def no_deck_reason(
    pool: Sequence[Card | Printing], piper: Card | None = None, may_add: Stock = None, short: str = ASK_THE_DESK
) -> str | None:
    """Why the pool can't make a legal deck, in one line that says what to do (None when ``build_deck`` makes one):
    nothing in it can lead and no added card (Piper) may join, or the only commanders it has lead a colorless deck
    that its pool can't fill (no free basic land has no color, CR 903.5d).  ``short``: what the one asking does
    when the store's stock holds no added card for the deck (a player asks the desk; the desk raises its stock)."""
    cards = Counter([item.card if isinstance(item, Printing) else item for item in pool])
    piper = piper or next((card for card in cards if is_piper(card)), None)
    profile = product_of(cards)
    size, words = profile.min_deck_size, profile.added.words
    with one_reading():
        found = _best(cards, piper, may_add)
    if found is None:
        if may_add is not None and may_add <= 0:
            added = f"and the store's stock holds no {words} for this deck: {short}"
        else:
            added = f"and {profile.added.card} isn't loaded to add: import the set that holds it"
        return (
            "no legal deck: the pool has no card that can be a commander (a legendary creature, or a card whose "
            f"text says it can be your commander) {added}"
        )
    choice, build = found
    built = len(choice.commanders) + len(build.spells) + len(build.lands) + sum(build.basics.values())
    if built < size:
        names = " and ".join(card.name for card in choice.commanders)
        return (
            f"no legal deck: {names} lead{'s' if len(choice.commanders) == 1 else ''} a colorless deck, which may "
            "play no free basic land (each has a colored basic land type, CR 903.5d), and the pool has cards for "
            f"{built} of its {size}: draft a legend with a color, or add {words} of a color"
        )
    return None


def auto_deck(
    pool: Sequence[Card | Printing], piper: Card | None, name: str, may_add: Stock, short: str = ASK_THE_DESK
) -> Deck:
    """``build_deck`` for a person who asked for the bot's deck (``auto``, ``--auto``): ``InputError`` with
    ``no_deck_reason`` (and the deck's name; ``short`` as it takes it) when the pool can make no legal deck."""
    reason = no_deck_reason(pool, piper, may_add, short)
    if reason is not None:
        raise InputError(f"the pool of {quoted(name)}: {reason}" if name else reason)
    return build_deck(pool, piper, name, may_add)


def build_deck(
    pool: Sequence[Card | Printing], piper: Card | None = None, name: str = "", may_add: Stock = None
) -> Deck:
    """A legal Commander draft deck from the pool adding at most ``may_add`` Pipers, the rest in the sideboard."""
    with one_reading():  # the basic lands and kept files looked at once per deck, not at every land
        return _build_deck(pool, piper, name, may_add)


def _build_deck(pool: Sequence[Card | Printing], piper: Card | None, name: str, may_add: Stock) -> Deck:
    cards = Counter([item.card if isinstance(item, Printing) else item for item in pool])
    piper = piper or next((card for card in cards if is_piper(card)), None)
    found = _best(cards, piper, may_add)
    if found is None:
        # No legend and no Piper known: nothing can lead, so no legal deck exists.
        return Deck.build((), {basic_land(""): DRAFT_MIN_SIZE}, cards, name=name)
    choice, build = found
    main = Counter(build.spells)
    main.update(build.lands)
    main.update(build.basics)
    side = Counter(cards)  # the pool less the commanders and the main deck (the pool's Wastes a colorless deck plays)
    for card in choice.commanders:
        if side.get(card, 0) > 0:
            side[card] -= 1
    side.subtract(main)
    commander, in_main, sideboard = Zone.COMMANDER, Zone.MAIN, Zone.SIDEBOARD  # each read once, not at every line
    lines = [DeckLine(card, 1, commander) for card in choice.commanders]
    lines += [DeckLine(card, n, in_main) for card, n in main.items() if n > 0]
    lines += [DeckLine(card, n, sideboard) for card, n in side.items() if n > 0]
    return Deck(tuple(lines), choice.colors, name)
