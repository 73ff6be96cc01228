"""Card ratings and role tags for a 4-player Commander draft deck.

Two sources, one scale (about 0 to 5; a playable common is about 1.5, premium
removal and card advantage 3-4, bombs 4.5 and up):

- **Committed evaluation** (``draft/data/cmr_ratings.json``): a rating and role
  tags for every Commander Legends card, figures and tags only.  It was made
  in two steps and is remade the same way:

  1. ``python -m draft.rating_build CARDS.json > draft/data/cmr_ratings.json``
     reads a card list *with rules text* (the reference list, or an MTGJSON /
     Scryfall file you import) and derives each card's roles with
     ``roles_from_text`` and its rating with ``rate``;
  2. a drafter's judgement on top: ``draft.rating_build.JUDGEMENT`` sets the figure of the
     cards the rules under- or over-rate (bombs, top creatures, traps), by name,
     and is applied by the same command.

- **Any other set** (an imported one, or a bundled card missing from the
  file): the same rules run on the rules text the user imported (``sets
  import``); a card with no text is rated from its facts alone (rarity, cost,
  type, power and toughness, the colors of a land).

The Prismatic Piper is worth almost nothing as a pick: any player may add two
after the draft (RULES.md section 2), so it rates 0.1 with no roles.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from draft.cardtext import cast_parts
from draft.decks import is_piper
from sets.cards import Card, CommanderAbility, Rarity, strip_reminder
from sets.identity import counted_faces

ROLES = (
    "removal",
    "disenchant",
    "wipe",
    "draw",
    "ramp",
    "fixing",
    "evasion",
    "protection",
    "monarch",
    "initiative",
    "drain",
    "counter",
    "tutor",
    "tokens",
    "recursion",
    "commander",
    "partner",
    "choose-a-background",
    "background",
    "bomb",
)
PIPER = "The Prismatic Piper"
PIPER_RATING = 0.1

_RARITY = {
    Rarity.COMMON: 1.0,
    Rarity.UNCOMMON: 1.2,
    Rarity.RARE: 1.45,
    Rarity.MYTHIC: 1.6,
    Rarity.SPECIAL: 1.0,
    Rarity.BONUS: 1.2,
}
_ROLE_VALUE = {
    "removal": 1.5,
    "disenchant": 0.6,
    "wipe": 1.7,
    "draw": 0.8,
    "ramp": 0.8,
    "fixing": 0.5,
    "evasion": 0.35,
    "protection": 0.25,
    "monarch": 1.5,
    "initiative": 1.5,
    "drain": 0.45,
    "counter": 0.4,
    "tutor": 0.3,
    "tokens": 0.3,
    "recursion": 0.3,
    "commander": 0.4,
    "partner": 0.3,
    "choose-a-background": 0.3,
    "background": 0.3,
    "bomb": 0.0,
}

_WEIGHTS = (
    1.0,
    0.6,
    0.35,
    0.2,
    0.1,
    0.1,
    0.1,
)  # the roles' values, the best first: one card does one or two things well
_LABELS = frozenset(
    {"commander", "partner", "choose-a-background"}
)  # roles that say a legend may lead, not what it does
LABEL_FROM, LABEL_FULL, LABEL_FLOOR = 1.8, 2.8, 1.9

_KILL = re.compile(
    r"\b(destroy|exile)s? (up to (one|two|x) )?(another |other )?target (?!card)[^.:]*?"
    r"\b(creature|permanent|planeswalker)s?\b(?! cards?)(?! you control)"
)
_DISENCHANT = re.compile(r"\b(destroy|exile)s? (up to (one|two|x) )?target (artifact|enchantment)s?\b(?! cards?)")
_BURN = re.compile(
    r"\bdeals? (\d+|x|that much|damage equal to [^.]*?|damage) (damage )?(to|divided [^.]*? among) "
    r"(any target|(up to (one|two) )?(another )?target (creature|planeswalker)|any number of target"
    r"|(one or two|one, two, or three|up to (two|three)) targets)"
)
_SHRINK = re.compile(
    r"\btarget creature[^.]*? gets -\d+/-\d+|\bfights? (up to one )?(another )?target creature"
    r"|\benchanted creature (can't attack or block|doesn't untap)|\bgain control of target (creature|artifact)(?![^.]*until end of turn)"
    r"|\b(each|target) (opponent|player) sacrifices an? (attacking )?creature"
    r"|\bput target [^.]*?creature on (the )?(top|bottom) of its owner's library"
    r"|\bowner of target [^.]*?(creature|permanent) shuffles it into"
)
# "Exile target creature, then return it to the battlefield" moves a creature and keeps it: a blink, not removal.
_BLINK = re.compile(r"[^\n]*?\breturns? (it|that card|them|those cards|the exiled cards?) to the battlefield")
_WIPE = re.compile(
    r"\b(destroy|exile) all (creatures|nonland permanents|artifacts|other creatures)"
    r"|\bdeals? \d+ damage to each (creature|other creature|non)"
    r"|\ball (other )?creatures get -(\d+|x)/-(\d+|x)|\beach (player|opponent) sacrifices (two|three|all)"
)
_DRAW = re.compile(r"\bdraws? (two|three|four|five|six|seven|x|that many|cards equal)\b|\bdraws? [^.]*? cards\b")
_DRAW_REPEAT = re.compile(r"(whenever|at the beginning|\{t\}[^:]*:)[^.]*\bdraws? a card")
_RAMP = re.compile(
    r"\badd (\{[wubrgc]\}|one mana|two mana|three mana|x mana|mana)|\bsearch your library for (up to \w+ )?"
    r"(a |an |two )?(basic )?lands? cards?[^.]*? onto the battlefield|\bcreate (a|two|three|x) treasure"
)
_FIX = re.compile(
    r"\badds? [^.]*?mana of any (color|type)|search your library for (up to \w+ )?(a |two )?basic land|\btreasure"
)
_EVASION = re.compile(
    r"^(flying|menace|trample|shadow|fear|intimidate|skulk|horsemanship)\b|can't be blocked"
    r"|\b(gains?|have|has) (flying|menace|trample)"
)
_PROTECT = re.compile(r"\bhexproof\b|\bindestructible\b|\bprotection from\b|\bward\b|\bshroud\b")
_MONARCH = re.compile(r"\bmonarch\b")
_INITIATIVE = re.compile(r"\btakes? the initiative\b")
_DRAIN = re.compile(
    r"\beach opponent (loses|discards|sacrifices)|\bdeals? \d+ damage to each opponent|\bfor each opponent"
)
_COUNTER = re.compile(r"\bcounter target (spell|activated|noncreature|creature)")
_TUTOR = re.compile(r"\bsearch your library for (a|an|up to \w+) (?!basic land)(?!land)[^.]*?card")
_TOKENS = re.compile(r"\bcreate (a|an|two|three|four|x|that many|a number of) [^.]*?tokens?")
_RECUR = re.compile(r"\breturn (up to \w+ )?(another )?target [^.]*?card[^.]*? from (your|a) graveyard")


def _plain(text: str) -> str:
    return strip_reminder(text).replace("’", "'").lower()


def _removes(line: str) -> re.Match[str] | None:
    """The first words of ``line`` that remove a creature or permanent (a blink's exile doesn't)."""
    for kill in _KILL.finditer(line):
        if not _BLINK.match(line, kill.end()):
            return kill
    return _BURN.search(line) or _SHRINK.search(line)


# What limits a removal spell, read on the line that removes: (pattern, share of "answers anything" left).
_LIMITS = (
    (re.compile(r"-1/-1"), 0.35),
    (re.compile(r"-2/-2"), 0.6),
    (re.compile(r"deals? 1 damage"), 0.35),
    (re.compile(r"deals? 2 damage"), 0.65),
    (re.compile(r"deals? 3 damage"), 0.8),
    (re.compile(r"whenever you sacrifice|\bsacrifice an? [^:.]*:"), 0.45),
    (re.compile(r"\bwhen [^.]*\bdies\b"), 0.55),
    (re.compile(r"with flying|flying creature"), 0.6),
    (re.compile(r"\b(power|toughness|mana value) \d+ or (less|greater)|\btapped creature|attacking or blocking"), 0.75),
    (re.compile(r"\bfights?\b|\bsacrifices an? (attacking )?creature"), 0.7),
)


def removal_reach(text: str) -> float:
    """How much a card's removal answers, 0 to 1: a kill spell for anything is 1, a ping, a -1/-1 or a flier-only
    answer much less (the best of its removing lines; 0 when it removes nothing)."""
    best = 0.0
    for line in _plain(text).splitlines():
        if _removes(line) is None:
            continue
        share = min((value for pattern, value in _LIMITS if pattern.search(line)), default=1.0)
        best = max(best, share)
    return best


def roles_from_text(card: Card, text: str) -> tuple[str, ...]:
    """Role tags from a card's rules text by this module's own rules."""
    plain = _plain(text)
    roles = []
    lines = [line.strip() for line in plain.splitlines()]
    if not card.is_land and any(_removes(line) for line in lines):
        roles.append("removal")
    elif not card.is_land and _DISENCHANT.search(plain):
        roles.append("disenchant")
    if _WIPE.search(plain):
        roles.append("wipe")
    if _DRAW.search(plain) or _DRAW_REPEAT.search(plain) or "investigate" in plain or "cascade" in plain:
        roles.append("draw")
    if not card.is_land and _RAMP.search(plain):
        roles.append("ramp")
    if _FIX.search(plain) or (card.is_land and len(card.deck_colors) >= 2):
        roles.append("fixing")
    creature = card.has_type("Creature")
    if any(_EVASION.search(line) for line in lines) and (creature or "equipped" in plain or "enchanted" in plain):
        roles.append("evasion")
    if _PROTECT.search(plain):
        roles.append("protection")
    for role, pattern in (
        ("monarch", _MONARCH),
        ("initiative", _INITIATIVE),
        ("drain", _DRAIN),
        ("counter", _COUNTER),
        ("tutor", _TUTOR),
        ("tokens", _TOKENS),
        ("recursion", _RECUR),
    ):
        if pattern.search(plain):
            roles.append(role)
    return tuple(dict.fromkeys(roles + list(_fact_roles(card))))


_ACTIVATION = re.compile(r"\{(\d+|[wubrgcx])\}")


def removal_mana(card: Card, text: str) -> float | None:
    """The least mana it takes to remove a creature with the card: its cost, or an activated ability's (None: it can't)."""
    best = None
    for value, part in cast_parts(card, text):
        for line in _plain(part).splitlines():
            match = _removes(line)
            if match is None:
                continue
            head, colon, _ = line.partition(":")
            cost = value
            if colon and len(head) < match.start():
                cost = max(cost, float(sum(int(s) if s.isdigit() else 1 for s in _ACTIVATION.findall(head))))
            best = cost if best is None else min(best, cost)
    return best


def rate_text(card: Card, text: str) -> tuple[float, tuple[str, ...]]:
    """(rating, roles) of a card from its rules text: removal that answers little, or behind a costly ability,
    is worth less."""
    roles = roles_from_text(card, text)
    if "removal" not in roles:
        return rate(card, roles), roles
    mana = removal_mana(card, text)
    rating = rate(card, roles, removal_reach(text), mana)
    if mana is not None and mana >= 6:
        rating = round(max(0.2, rating - 0.9), 2)
    return rating, roles


def _fact_roles(card: Card) -> tuple[str, ...]:
    roles = []
    if card.can_be_commander and not is_piper(card):
        roles.append("commander")
        if card.has_partner and CommanderAbility.CHOOSE_A_BACKGROUND not in card.abilities:
            roles.append("partner")
    # CR 702.124k: a legend that chooses a Background, and the legendary Background it may lead beside.
    if CommanderAbility.CHOOSE_A_BACKGROUND in card.abilities:
        roles.append("choose-a-background")
    if CommanderAbility.BACKGROUND in card.abilities:
        roles.append("background")
    return tuple(roles)


def roles_from_facts(card: Card) -> tuple[str, ...]:
    """What the facts alone tell: a land of two or more colors fixes, legends lead."""
    roles = list(_fact_roles(card))
    if card.is_land and len(card.deck_colors) >= 2:
        roles.append("fixing")
    return tuple(roles)


def _power_toughness(card: Card) -> tuple[float, float] | None:
    face = card.front
    try:
        return float(face.power or ""), float(face.toughness or "")
    except ValueError:
        return None


def rate(card: Card, roles: tuple[str, ...], reach: float = 1.0, removal_cost: float | None = None) -> float:
    """A rating from roles and facts (the rule behind the committed figures and imported sets).

    ``reach``: how much the card's removal answers (``removal_reach``); ``removal_cost``: the mana it takes to
    remove with it (``removal_mana``; a split card's half at its own cost), its mana value when not given.  Power first: a creature that
    pressures (power 4 or more, or 3 with evasion) is worth more; a mana rock beside 22 lands little."""
    if is_piper(card):
        return PIPER_RATING
    if card.is_basic_land:
        return 0.0
    # A body is what a Commander deck is made of: 14+ creatures, so a fair creature is a fair card.
    score = _RARITY.get(card.rarity, 1.0) + (0.6 if card.has_type("Creature") else 0.0)
    mana_value = float(card.mana_value)
    if card.is_land:
        return round(
            score
            + (0.6 if "fixing" in roles else 0.0)
            + (0.6 if "ramp" in roles or "draw" in roles else 0.0)
            - 0.6 * ("fixing" not in roles and not roles),
            2,
        )
    rock = card.has_type("Artifact") and not card.has_type("Creature")
    value_of = dict(_ROLE_VALUE, removal=_ROLE_VALUE["removal"] * reach)
    if rock:
        value_of.update(ramp=0.3, fixing=0.3)
    # Diminishing returns: one card does one or two things well, not six.
    values = sorted((value_of.get(role, 0.0) for role in roles), reverse=True)
    labelled = sum(value * weight for value, weight in zip(values, _WEIGHTS))
    values = sorted((value_of.get(role, 0.0) for role in roles if role not in _LABELS), reverse=True)
    unlabelled = sum(value * weight for value, weight in zip(values, _WEIGHTS))
    score += unlabelled
    if "removal" in roles and (mana_value if removal_cost is None else removal_cost) <= 3 and reach >= 0.65:
        score += 0.4
    if "ramp" in roles and mana_value <= 2 and not rock:
        score += 0.4
    if "removal" in roles and "wipe" in roles:
        score -= 0.5  # one card, not two effects
    stats = _power_toughness(card)
    if card.has_type("Creature") and stats is not None and mana_value > 0:
        power, toughness = stats
        efficiency = (power + toughness) / (2 * mana_value)
        score += 0.35 if efficiency >= 1.2 else (-0.3 if efficiency < 0.8 else 0.0)
        if power >= 4 or (power >= 3 and "evasion" in roles):
            score += 0.35  # a threat: it ends games
    elif not card.has_type("Creature") and not roles:
        # A colorless noncreature card that does none of the things a deck needs is filler; a colored spell whose
        # text the rules don't read (a trick, a fight, an odd sorcery) is a card made for its color's decks.
        score += 0.4 if card.deck_colors else -0.3
    score -= 0.2 * max(0.0, mana_value - 5) * (0.4 if "wipe" in roles or "bomb" in roles else 1.0)
    score -= 0.15 * max(0, len(card.deck_colors) - 1)
    # A legend's label (it may lead, pair, choose a Background) is worth what it leads by above the Pipers anyone may
    # add: nothing for a legend whose card is worth no more than ``LABEL_FROM`` (every pack holds two such legends),
    # in full from ``LABEL_FULL``, one a strong drafter is happy to lead; but a legend is a fair card for its colors'
    # decks, whose commander it may be: the label lifts a weaker one up to ``LABEL_FLOOR``.
    label = labelled - unlabelled
    if label:
        share = min(1.0, max(0.0, (score - LABEL_FROM) / (LABEL_FULL - LABEL_FROM)))
        score = max(score + label * share, min(score + label, LABEL_FLOOR))
    return round(max(0.2, score), 2)


@lru_cache(maxsize=4)
def committed(code: str) -> dict[str, tuple[float, tuple[str, ...]]]:
    """The committed evaluation of a set by card name (empty when there is none)."""
    try:
        text = resources.files("draft").joinpath("data", f"{code.lower()}_ratings.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data = json.loads(text)
    return {name: (float(entry["rating"]), tuple(entry["roles"])) for name, entry in data["cards"].items()}


@lru_cache(maxsize=16384)
def evaluate(card: Card) -> tuple[float, tuple[str, ...]]:
    """(rating, roles) of a card: the committed figures for its set, else the rules on its text or facts."""
    if is_piper(card):
        return PIPER_RATING, ()
    known = committed(card.set_code or "CMR").get(card.name) if card.set_code else None
    if known is None and card.set_code in ("", "CMR"):
        known = committed("CMR").get(card.name)
    if known is not None:
        return known
    # A meld card's back face is the melded result, no part of this card: its text isn't read.
    text = "\n".join(face.text for face in counted_faces(card.faces, card.layout) if face.text)
    if text:
        return rate_text(card, text)
    roles = roles_from_facts(card)
    return rate(card, roles), roles


# A mana ability of its own that doesn't sacrifice the card ("{T}: Add ...", "{T}: ... That player adds"), or a search for a basic land (the land
# found stays): a source a deck counts on turn after turn.  A Treasure it makes once, a Lotus sacrificed, is ramp.
_OWN_MANA = re.compile(r"^(?![^:\n]*\bsacrifice)[^:\n]*\{t\}[^:\n]*:[^\n]*?\badds?\b", re.MULTILINE)
_BASIC_SEARCH = re.compile(r"\bsearch your library for [^.]*?\bbasic lands? cards?")


def lasting_source(card: Card) -> bool | None:
    """Whether the card's rules text makes mana again and again (``_OWN_MANA``, ``_BASIC_SEARCH``); None for a card
    with no text (the bundled cards: their role tags alone say)."""
    text = "\n".join(face.text for face in counted_faces(card.faces, card.layout) if face.text)
    if not text:
        return None
    plain = _plain(text)
    return bool(_OWN_MANA.search(plain) or _BASIC_SEARCH.search(plain))
