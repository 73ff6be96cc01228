"""A legend's rating as a strong drafter sees it: its card, and its label (it may lead, it has partner) only as far as
it leads better than the commanders every pack holds and the Pipers anyone may add.  The bots add their own bonus for
a legend their pool wants as a leader; a rating that counted the label again made weak legends early picks."""

from __future__ import annotations

from collections.abc import Callable

from draft.ratings import rate_text
from draft.reference import grade
from draft.traits import card_rating
from sets.cards import Card, Face, Rarity
from sets.catalog import load_set
from sets.identity import make_card
from sets.mana import ManaCost
from sets.type_line import parse_type_line

WEAK = 2.5  # reference grade: a legend no better than the commanders every pack holds
BETTER = 0.5  # a card graded this much higher is the pick


def preferred_share(rating: Callable[[Card], float], legends: bool) -> float:
    """Of the pairs (a weak card, a CMR nonlegendary card graded ``BETTER`` higher), by our reference grades: the
    share in which ``rating`` puts the weak card first.  The weak cards are the legends, or else the other cards."""
    cards = [c for c in load_set("CMR") if grade(c) is not None and not c.is_land and c.name != "The Prismatic Piper"]
    others = [c for c in cards if not c.can_be_commander]
    weak = [c for c in (cards if legends else others) if c.can_be_commander == legends and (grade(c) or 0) <= WEAK]
    pairs = preferred = 0
    for card in weak:
        worth = rating(card)
        for other in others:
            if (grade(other) or 0) >= (grade(card) or 0) + BETTER:
                pairs += 1
                preferred += worth >= rating(other)
    return preferred / pairs


def test_the_ratings_prefer_a_weak_legend_to_a_better_card_no_more_often_than_any_weak_card():
    """Ratings and grades disagree now and then; a weak legend must not get the benefit of the doubt more often than
    a weak card of any other kind (before: 10.4% of such pairs against 3.2%)."""
    legends, others = preferred_share(card_rating, True), preferred_share(card_rating, False)
    assert legends <= 1.5 * others, (legends, others)


def test_the_legend_audit_catches_ratings_that_count_the_label_in_full():
    """The planted fault: every legend gains what the old rules gave its labels (0.58 for a partner legend)."""
    labelled = preferred_share(lambda card: card_rating(card) + 0.58 * card.can_be_commander, True)
    assert labelled > 1.5 * preferred_share(card_rating, False)


def _creature(name: str, cost: str, legend: bool, text: str, size: int, rarity: Rarity) -> Card:
    type_line = ("Legendary " if legend else "") + "Creature — Human Warrior"
    text = "\n".join(part for part in (text, "Partner" if legend else "") if part)
    face = Face(name, cost, type_line, *parse_type_line(type_line), text, ManaCost.parse(cost).colors,
                power=size, toughness=size)  # fmt: skip
    return make_card([face], name=name, set_code="TST", number=name, rarity=rarity)


def test_the_rules_count_a_legends_label_only_as_far_as_it_leads_better_than_the_pipers():
    """An imported set's legends, rated by the rules: a vanilla 2/2 partner for three leads no better than two Pipers
    and is filler in the main deck, so it is a marginal playable at most (under 2.0, the playable tier); a legend
    that removes a creature and flies keeps its label's worth over its nonlegendary twin."""
    weak = _creature("Plain Partner", "{2}{R}", True, "", 2, Rarity.UNCOMMON)
    kill = "Flying\nWhen this creature enters the battlefield, destroy target creature an opponent controls."
    strong, twin = (
        _creature(f"Killer {legend}", "{3}{B}{B}", legend, kill, 4, Rarity.RARE) for legend in (True, False)
    )
    rate = {card: rate_text(card, card.faces[0].text)[0] for card in (weak, strong, twin)}
    assert rate[weak] < 2.0, rate[weak]
    assert rate[strong] >= rate[twin] + 0.2, (rate[strong], rate[twin])
