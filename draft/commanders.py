"""Who may lead a deck: commanders, partner abilities that pair (CR 702.124), the commanders' color identity
(CR 903.4), and the commander choices a pool offers, ranked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product
from typing import Any, TypeVar

from draft.decks import MOST_COMMANDERS, is_piper
from draft.products import AddedOption, PartnerGrant, Product, added_names, product_of, products
from draft.traits import Kept
from sets.cards import Card, CommanderAbility, normalize_name
from sets.colors import Color, ColorIdentity, identity_from_mask
from sets.errors import InputError

_Chosen = TypeVar("_Chosen")  # a chosen color as a caller keeps it (a ``Color``, its word)

_COLOR_BITS = tuple(color.bit for color in Color)  # WUBRG
# Abilities that pair one card with another that has the other one (CR 702.124i, k, m).
_PAIRINGS = (
    (CommanderAbility.FRIENDS_FOREVER, CommanderAbility.FRIENDS_FOREVER),
    (CommanderAbility.CHOOSE_A_BACKGROUND, CommanderAbility.BACKGROUND),
    (CommanderAbility.DOCTORS_COMPANION, CommanderAbility.TIME_LORD_DOCTOR),
)


def _named(name: str | None, card: Card) -> bool:
    """Whether ``name`` (as a card's text writes it) names ``card``, by its full name or its front face."""
    return name is not None and normalize_name(name) in {normalize_name(card.name), normalize_name(card.front.name)}


def _plain_partner(card: Card) -> bool:
    return CommanderAbility.PARTNER in card.abilities and card.partner_group is None


def granted_partner(card: Card, product: Product | None = None) -> bool:
    """Whether the product's grant (Commander Masters: mono-colored legends) makes ``card`` a partner."""
    product = product if product is not None else product_of([card])
    return product.grant is not None and product.grant.applies(card)


def can_pair(first: Card, second: Card, product: Product | None = None) -> bool:
    """Whether two cards may be commanders together (CR 702.124), in ``product``'s draft (by default the product
    the two cards come from).

    Partner with partner (702.124h); Partner—GROUP with the same Partner—GROUP (702.124i); Partner with NAME
    when each names the other (702.124j); Friends forever with Friends forever, however printed (702.124i);
    Choose a Background with a legendary Background enchantment (702.124k); Doctor's companion with a
    legendary Time Lord Doctor creature with no other creature types (702.124m).  Different partner
    abilities never combine (702.124f).  A product's grant (Commander Masters) pairs the cards it names as
    though they had partner (702.124h), with each other and with cards that have partner.
    """
    # The answer for these two card objects in this product (all frozen, and the products are fixed), once: bots ask
    # it of every pack, and the deck builder of every pair of a pool's leaders.
    key = (id(first), id(second), id(product))
    found = _PAIRED.get(key)
    if found is None or found[0] is not first or found[1] is not second or found[2] is not product:
        if len(_PAIRED) >= _PAIRED_LIMIT:
            _PAIRED.clear()
        # the cards and product held: ids stay theirs
        found = _PAIRED[key] = (first, second, product, _can_pair(first, second, product))
    return found[3]


_PAIRED: dict[tuple[int, int, int], tuple[Card, Card, Product | None, bool]] = {}
_PAIRED_LIMIT = 1 << 16


# What a card needs for ``_can_pair`` to pair it with any card: one of these abilities, a "Partner with" name, or a
# product's grant that could apply to it.
_MAY_PAIR = frozenset({CommanderAbility.PARTNER, *(ability for pairing in _PAIRINGS for ability in pairing)})


def _may_ever_pair(card: Card) -> bool:
    return not card.abilities.isdisjoint(_MAY_PAIR) or card.partner_with is not None or PartnerGrant.may_apply(card)


may_ever_pair: Callable[[Card], bool] = Kept(_may_ever_pair).__getitem__
"""Whether some card may lead beside ``card`` in some product (False: ``can_pair`` is False beside every card, in
either order): a partner ability of any kind, or a product's grant that could make it a partner.  Worked out once a
card (a bot asks it of every legend in its packs)."""


def _can_pair(first: Card, second: Card, product: Product | None) -> bool:
    a, b = first.abilities, second.abilities
    if CommanderAbility.PARTNER in a and CommanderAbility.PARTNER in b:
        if (first.partner_group is None) == (second.partner_group is None) and (
            first.partner_group is None or normalize_name(first.partner_group) == normalize_name(second.partner_group)
        ):
            return True
    if _named(first.partner_with, second) and _named(second.partner_with, first):
        return True
    for x, y in _PAIRINGS:
        if (x in a and y in b) or (y in a and x in b):
            return True
    if not (PartnerGrant.may_apply(first) or PartnerGrant.may_apply(second)):
        return False  # no product's grant makes either a partner: no need to ask which product's rules apply
    product = product if product is not None else product_of([first, second])
    if product.grant is None:
        return False
    granted = [product.grant.applies(card) for card in (first, second)]
    return any(granted) and all(g or _plain_partner(card) for g, card in zip(granted, (first, second)))


def partner_ability(card: Card) -> str:
    """What a card's partner ability is and what it pairs with, in a judge's words, with its rule (CR 702.124)."""
    abilities = card.abilities
    if CommanderAbility.PARTNER_WITH in abilities and card.partner_with:
        return f'has "Partner with {card.partner_with}": it pairs only with {card.partner_with} (CR 702.124j)'
    if CommanderAbility.PARTNER in abilities and card.partner_group:
        return (
            f'has "Partner—{card.partner_group}": it pairs only with another "Partner—{card.partner_group}" card '
            "(CR 702.124i)"
        )
    if CommanderAbility.PARTNER in abilities:
        return "has partner: it pairs only with another card that has partner (CR 702.124h)"
    if CommanderAbility.FRIENDS_FOREVER in abilities:
        return 'has "Friends forever": it pairs only with another "Friends forever" card (CR 702.124i)'
    if CommanderAbility.CHOOSE_A_BACKGROUND in abilities and CommanderAbility.BACKGROUND in abilities:
        # Faceless One: a Background that chooses one, so it pairs from either side
        return (
            'has "Choose a Background" and is a Background: it pairs only with a legendary Background enchantment '
            'or a card that has "Choose a Background" (CR 702.124k)'
        )
    if CommanderAbility.CHOOSE_A_BACKGROUND in abilities:
        return 'has "Choose a Background": it pairs only with a legendary Background enchantment (CR 702.124k)'
    if CommanderAbility.BACKGROUND in abilities:
        return 'is a Background: it leads only beside a card with "Choose a Background" (CR 702.124k)'
    if CommanderAbility.DOCTORS_COMPANION in abilities:
        return (
            'has "Doctor\'s companion": it pairs only with a legendary Time Lord Doctor creature with no other '
            "creature types (CR 702.124m)"
        )
    if CommanderAbility.TIME_LORD_DOCTOR in abilities:
        return 'is a Time Lord Doctor: it pairs only with a card that has "Doctor\'s companion" (CR 702.124m)'
    return "has no partner ability"


def why_not_paired(first: Card, second: Card, product: Product | None = None, *, constructed: bool = False) -> str:
    """Why two cards can't be commanders together: each card's partner ability (and the product's grant, where
    there is one), then the reason.  ``constructed``: in constructed Commander, where no product's grant applies."""
    product = product if product is not None else product_of([first, second])
    kinds = [_pairing_kind(card) for card in (first, second)]
    if None in kinds:
        reason = "a card with no partner ability leads alone: two commanders need a partner ability that pairs them (CR 702.124a)"
    elif kinds[0] != kinds[1] and {kinds[0], kinds[1]} not in _PAIRED_KINDS:
        reason = "different partner abilities never combine (CR 702.124f)"
    elif kinds[0] == kinds[1] and kinds[0] in _ONE_SIDE:
        reason = f"two cards of the same side never pair: {_ONE_SIDE[kinds[0]]}"
    elif kinds[0] == "partner with":
        reason = "each must name the other (CR 702.124j)"
    elif kinds[0] == "partner group":
        reason = "their groups differ (CR 702.124i)"
    else:
        reason = "the pair doesn't meet what the ability asks (CR 702.124)"
    grant = None if constructed else product.grant
    if grant is not None:
        left_out = [card for card in (first, second) if not grant.applies(card) and not _plain_partner(card)]
        one = "one color or none" if grant.colorless else "exactly one color"
        reason += (
            f"; the {product.name} grant ({grant.words}) doesn't pair them: "
            + ", ".join(f"{card.name}'s color identity is {card.identity}, not {one}" for card in left_out)
            + " (CR 702.124h as the grant applies it)"
        )
    elif None in kinds and all(len(card.identity) == 1 and card.can_be_commander for card in (first, second)):
        # (said only where a card has no partner ability of its own: a printed one says what it pairs with)
        granting = " and ".join(p.name for p in products().values() if p.grant is not None)
        who = "constructed Commander" if constructed else f"{product.name} ({product.code})"
        reason += f"; {who} grants mono-colored legends no partner (that is the rule of a {granting} draft)"
    return f"{first.name} {partner_ability(first)}; {second.name} {partner_ability(second)}; {reason}"


def _pairing_kind(card: Card) -> str | None:
    abilities = card.abilities
    if CommanderAbility.PARTNER_WITH in abilities:
        return "partner with"
    if CommanderAbility.PARTNER in abilities:
        return "partner group" if card.partner_group else "partner"
    for ability, kind in (
        (CommanderAbility.FRIENDS_FOREVER, "friends forever"),
        (CommanderAbility.CHOOSE_A_BACKGROUND, "choose a background"),
        (CommanderAbility.BACKGROUND, "background"),
        (CommanderAbility.DOCTORS_COMPANION, "doctor's companion"),
        (CommanderAbility.TIME_LORD_DOCTOR, "time lord doctor"),
    ):
        if ability in abilities:
            return kind
    return None


# Kinds that pair with each other although they differ, and what each side pairs with.
_PAIRED_KINDS = [{"choose a background", "background"}, {"doctor's companion", "time lord doctor"}]
_ONE_SIDE = {
    "choose a background": 'a card with "Choose a Background" pairs with a Background (CR 702.124k)',
    "background": 'a Background pairs with a card that has "Choose a Background" (CR 702.124k)',
    "doctor's companion": "a card with Doctor's companion pairs with a Time Lord Doctor (CR 702.124m)",
    "time lord doctor": "a Time Lord Doctor pairs with a card that has Doctor's companion (CR 702.124m)",
}


def back_face_commander_text(card: Card) -> bool:
    """Whether only a double-faced card's back face says it can be your commander (which doesn't count: off the
    battlefield and stack a double-faced card has only its front face's characteristics, CR 712.8a)."""
    if not card.layout.double_faced or len(card.faces) < 2:
        return False
    says = ["can be your commander" in face.text.replace("’", "'").lower() for face in card.faces]
    return not says[0] and any(says[1:])


def may_lead(card: Card, partner: Card | None) -> bool:
    """Whether ``card`` may be a commander, beside ``partner`` when it has one (CR 903.3)."""
    if card.can_be_commander:
        return True
    # A Background is a commander only beside a creature that chooses a Background.
    return (
        partner is not None
        and CommanderAbility.BACKGROUND in card.abilities
        and CommanderAbility.CHOOSE_A_BACKGROUND in partner.abilities
    )


def room_beside(commanders: Sequence[Card]) -> bool:
    """Whether another commander may be chosen beside ``commanders`` (which may lead with them ``may_lead`` and
    ``can_pair`` say): what a deck builder offers to crown."""
    return len(commanders) < MOST_COMMANDERS


def may_ever_lead(card: Card) -> bool:
    """Whether ``card`` may be a commander at all: by itself, or (a Background) beside a creature that chooses one;
    what a deck builder offers to put in the command zone (``may_lead`` decides with the partner chosen)."""
    return card.can_be_commander or CommanderAbility.BACKGROUND in card.abilities


def crownable(
    pool: Sequence[Card], commanders: Sequence[Card], may_lead: Callable[[Sequence[Card]], bool]
) -> list[Card]:
    """The pool's cards a builder may crown now, beside ``commanders`` (with none: the cards that lead alone, never a
    Background by itself), as ``may_lead`` (the deck session's rule: ``DeckSession.can_choose_commanders``) answers."""
    if not room_beside(commanders):
        return []
    return [card for card in dict.fromkeys(pool) if may_ever_lead(card) and may_lead([*commanders, card])]


def commander_identity(commanders: Sequence[Card], colors: Sequence[Color | None]) -> ColorIdentity:
    """Combined identity; ``colors`` gives, in order, the chosen color of each choosing commander."""
    mask = 0
    choices = iter(colors)
    for card in commanders:
        mask |= card.identity.mask
        if CommanderAbility.CHOOSES_COLOR in card.abilities:  # ``chooses_color``
            color = next(choices, None)
            if color is not None:
                mask |= ColorIdentity.of((color,)).mask
    return identity_from_mask(mask)


def chosen_colors(chooses: Sequence[bool], colors: Sequence[_Chosen]) -> list[_Chosen | None]:
    """Which color each commander chose, in order (``chooses``: whether each chooses its color, CR 903.4b): the
    chosen ``colors`` go to the commanders that choose, one each, in order; the others (and a chooser past the last
    color given) have none."""
    choices = iter(colors)
    return [next(choices, None) if chooser else None for chooser in chooses]


def leaders_text(commanders: Sequence[Card], colors: Sequence[Color]) -> str:
    """The commanders by name, each that chooses its color (CR 903.4b) with its color: 'The Prismatic Piper (blue) +
    Kamahl, Heart of Krosa' (the colors are given in the order of those commanders)."""
    chosen = chosen_colors([card.chooses_color for card in commanders], colors)
    return " + ".join(
        card.name if color is None else f"{card.name} ({color.word})" for card, color in zip(commanders, chosen)
    )


def each_identity(commanders: Sequence[Card], colors: Sequence[Color | None]) -> list[ColorIdentity]:
    """Each commander's own identity, in order: one that chooses its color (CR 903.4b) with the color it chose."""
    chosen = chosen_colors([card.chooses_color for card in commanders], colors)
    return [commander_identity([card], [] if color is None else [color]) for card, color in zip(commanders, chosen)]


# --- commander advice ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Suggestion:
    commanders: tuple[str, ...]
    piper_colors: tuple[Color, ...]
    identity: ColorIdentity
    playable: int
    added_pipers: int

    def to_json(self) -> dict[str, Any]:
        """As ``deck suggest --json`` prints it: ``color_identity`` as every other command names a color identity
        (``card``, ``identity``, ``deck check``, ``event deck``); ``identity``, the same letters, kept for scripts."""
        return {
            "commanders": list(self.commanders),
            "piper_colors": [c.value for c in self.piper_colors],
            "color_identity": self.identity.letters,
            "identity": self.identity.letters,
            "playable": self.playable,
            "added_pipers": self.added_pipers,
        }


def commander_options(
    cards: Iterable[Card], piper: Card | None, product: Product | None = None
) -> list[tuple[tuple[Card, ...], tuple[Color, ...]]]:
    """Every way a pool can be led, with a color for each commander that chooses one.

    Single commanders, pairs that may lead together (partners, a Background beside a card that chooses one, the
    product's grant), and the added-card option (``piper``: the product's added card, The Prismatic Piper or
    Faceless One): beside any pool card it pairs with, alone, or two of them when two may pair.
    """
    cards = list(dict.fromkeys(cards))
    product = product if product is not None else product_of(cards)
    leaders = [card for card in cards if card.can_be_commander and not is_piper(card)]
    background = CommanderAbility.BACKGROUND  # read once, not at every card
    backgrounds = [card for card in cards if background in card.abilities and not card.can_be_commander]

    def colored(group: tuple[Card, ...]) -> list[tuple[tuple[Card, ...], tuple[Color, ...]]]:
        choosers = sum(1 for card in group if card.chooses_color)
        return [(group, choice) for choice in _color_choices(choosers)]

    options = [option for card in leaders for option in colored((card,))]
    pairing = [card for card in leaders if may_ever_pair(card)]  # the rest pair with nothing: no pair to ask
    pairs = [(a, b) for i, a in enumerate(pairing) for b in pairing[i + 1 :]] + [
        (a, b) for a in pairing for b in backgrounds
    ]
    options += [option for a, b in pairs if can_pair(a, b, product) for option in colored((a, b))]
    if piper is not None:
        for card in leaders + backgrounds:
            if card.chooses_color or not can_pair(card, piper, product):
                continue
            group = (card, piper)  # one tuple for all its colors: a caller may check the leaders once
            if piper.chooses_color:
                mask = card.identity.mask
                options += [(group, colors) for colors, bit in _ONE_COLOR if not mask & bit]
            else:
                options.append((group, ()))
        options += colored((piper,))
        if can_pair(piper, piper, product):
            group = (piper, piper)
            if piper.chooses_color:
                options += [(group, colors) for colors in _TWO_COLORS]
            else:
                options.append((group, ()))
    return options


# Each color alone with its bit, and each two colors, in WUBRG order: an added card's color choices, read once.
_ONE_COLOR = tuple(((color,), color.bit) for color in Color)
_TWO_COLORS = tuple(combinations(list(Color), 2))


def product_of_colors(choosers: int) -> list[tuple[Color, ...]]:
    """Every choice of colors for ``choosers`` color-choosing commanders."""
    return list(_color_choices(choosers))


@cache
def _color_choices(choosers: int) -> tuple[tuple[Color, ...], ...]:
    return tuple(product(list(Color), repeat=choosers))


def added_pipers(commanders: Sequence[Card], pool: Mapping[Card, int]) -> int:
    """Added cards (Pipers, Faceless Ones) among the commanders beyond those the pool holds."""
    held = sum(n for card, n in pool.items() if is_piper(card))
    return max(0, sum(1 for card in commanders if is_piper(card)) - held)


def verify_added(added: int, may_add: int | None, option: AddedOption) -> None:
    """Refuse commanders that add more of the product's added card (Pipers) beyond the pool than ``may_add`` (the
    store's stock for the deck; None: no limit but the product's)."""
    if may_add is not None and added > may_add:
        raise InputError(
            f"leading with these commanders adds {option.count_words(added)} beyond your pool, and the store's stock "
            f"holds {option.count_words(max(0, may_add))} for this deck: choose fewer, or ask the desk about its stock"
        )


def usable_options(
    pool: Mapping[Card, int], piper: Card | None, product: Product | None = None, may_add: int | None = None
) -> Iterator[tuple[tuple[Card, ...], tuple[Color, ...], int]]:
    """Commander options the pool can field: (commanders, colors, added cards).

    The one place that decides how many of the product's added card a deck may add beyond its pool: the
    product's most, and fewer when fewer are there to add (``may_add``: what the store's stock holds for it)."""
    product = product if product is not None else product_of(pool)
    added_cards = added_names()  # ``is_piper``, asked of every commander of every option
    held = sum(n for card, n in pool.items() if card.name in added_cards)
    most = product.added.most if may_add is None else min(product.added.most, max(0, may_add))
    checked: tuple[tuple[Card, ...], int | None] = ((), None)  # the last leaders and their added cards (None: unusable)
    for commanders, colors in commander_options(pool, piper, product):
        if commanders is not checked[0]:  # the colors of one group of leaders come together
            checked = (commanders, _usable(commanders, pool, added_cards, held, most))
        extra = checked[1]
        if extra is not None:
            yield commanders, colors, extra


def _usable(
    commanders: tuple[Card, ...], pool: Mapping[Card, int], added_cards: frozenset[str], held: int, most: int
) -> int | None:
    """The added cards these commanders take beyond the pool's ``held`` ones, or None when the pool can't field
    them: more added than ``most``, or a commander the pool lacks (two copies for a pair of the same card)."""
    added = [card.name in added_cards for card in commanders]
    extra = max(0, sum(added) - held)
    if extra > most:
        return None
    if len(commanders) == 2 and commanders[0] == commanders[1] and not added[0]:
        if pool.get(commanders[0], 0) < 2:
            return None
    else:
        for card, piper_card in zip(commanders, added, strict=True):
            if not piper_card and pool.get(card, 0) < 1:
                return None
    return extra


def added_card_options(
    options: Sequence[tuple[int, tuple[Card, ...]]],
    backgrounds: Sequence[Card],
    added: Card | None,
    pairs: Callable[[Card, Card], bool] | None = None,
) -> list[tuple[int, tuple[Card, ...]]]:
    """The (identity mask, leaders) the product's added card opens besides ``options``: each single leader it pairs
    with (a partner beside a Piper; a legend that chooses a Background, or a Background, beside Faceless One) leads
    with one of one more color, its chosen color.  ``pairs``: ``can_pair`` as the caller keeps it (by default
    ``can_pair`` itself)."""
    if added is None:
        return []
    pairs = pairs or can_pair
    alone: list[tuple[int, tuple[Card, ...]]] = [
        (card.identity.mask, (card,)) for card in backgrounds if pairs(card, added)
    ]
    return alone + [
        (mask | bit, leaders)
        for mask, leaders in [*options, *alone]
        if len(leaders) == 1 and pairs(leaders[0], added)
        for bit in _COLOR_BITS
        if not mask & bit
    ]
