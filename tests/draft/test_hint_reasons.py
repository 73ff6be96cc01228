"""The hint's reason says why the pick was made: a card called "in your colors" is in the colors the pick was made for,
one called off them is not, and what an off-color card is taken for depends on how far the draft is (a stronger
card while the colors settle, only a much stronger one once they are set, a hate pick in the last pack, and the
pack's last cards whatever they are)."""

from __future__ import annotations

from draft.bots import Bot, BotStyle
from draft.engine import Draft, DraftConfig
from draft.hint import explain_pick, seat_advice
from draft.sim import run_bots
from sets.booster import Printing
from sets.catalog import load_set
from sets.colors import Color
from tests.helpers.products import chooses_background, import_products, is_background

IN_WORDS = ("in your colors", "in the colors you are drafting")
OFF_WORDS = ("off your colors", "off the colors you are drafting")


def _drafting_mask(draft: Draft, seat: int) -> int:
    """The colors a strong bot holding the seat's pool drafts toward now (public bot calls: what the hint's pick is)."""
    bot = Bot(BotStyle.STRONG, 0)
    for pick in draft.picks_of(seat):
        bot.observe(pick.offered, pick.pick)
    bot.remember([p.card for p in draft.pools[seat]])
    progress = (draft.round + (draft.at(seat)[1] - 1) / draft.picks_per_pack) / draft.config.boosters
    return bot.plan(progress).mask


def test_the_hint_never_calls_a_card_off_the_colors_its_pick_was_made_for():
    # A seat following the hint in seeded CMR pods.  Before, the fit was judged by the deck a small pool builds now
    # (a mono-red Piper deck at pick 5 of a pool heading for three colors): 21 reasons of 52 picks contradicted the
    # pick in these two drafts ("off your colors R (U)" for a blue card taken for a deck with blue).
    contradictions, judged = [], 0
    for seed in (0, 1):
        draft = Draft.new(DraftConfig(seats=8), seed)
        bots = {seat: Bot(BotStyle.STRONG, seed * 1009 + seat) for seat in range(1, 8)}
        while True:
            run_bots(draft, bots)
            if draft.finished:
                break
            advice = seat_advice(draft, 0)
            mask = _drafting_mask(draft, 0)
            for item in advice.cards:
                colors = item.card.deck_colors.mask
                if mask == 31 or not colors:
                    continue
                judged += 1
                inside = colors & ~mask == 0
                if any(words in item.reason for words in (OFF_WORDS if inside else IN_WORDS)):
                    contradictions.append((seed, draft.at(0), item.card.name, mask, item.reason))
            draft.pick(0, advice.positions)
    assert judged > 40
    assert contradictions == []


def _black_pool(cmr) -> list:
    return [c for c in cmr if c.deck_colors.code == "B" and not c.is_legendary][:30]


def _white(cmr, count: int) -> list[Printing]:
    return [Printing(c) for c in cmr if c.deck_colors.code == "W" and not c.is_legendary][:count]


def _off_reason(cmr, pack: list[Printing], progress: float) -> str:
    advice = explain_pick(pack, _black_pool(cmr), progress=progress)
    return advice.cards[0].reason


def test_an_off_color_card_is_explained_by_how_far_the_draft_is(cmr):
    pack = _white(cmr, 5)
    assert "while your colors settle" in _off_reason(cmr, pack, 0.3)  # the colors not yet set
    assert "worth it only for its power" in _off_reason(cmr, pack, 0.6)  # set, before the last pack
    assert "hate pick" in _off_reason(cmr, pack, 0.9)  # the last pack: the deck is set
    assert "last cards" in _off_reason(cmr, _white(cmr, 2), 0.9)  # the pick takes what is left


def test_the_hint_names_the_commander_a_card_pairs_with(cli):
    # A plan led by a legend that chooses a Background and a Background: a second such legend pairs with the
    # Background, not with the legend (two legends that choose one never lead together); a Background of the plan's
    # colors pairs with the legend.  Before, the reason named the plan's first commander whatever the card paired with,
    # and said nothing of a Background.
    import_products(cli)
    from draft.bot_plans import Plan
    from draft.hint import _reason
    from draft.traits import card_roles

    clb = load_set("CLB").cards
    choosers = sorted((c for c in clb if chooses_background(c) and c.deck_colors.code == "W"), key=lambda c: c.name)
    backgrounds = sorted((c for c in clb if is_background(c) and c.deck_colors.code == "W"), key=lambda c: c.name)
    plan = Plan(Color.W.bit, (choosers[0], backgrounds[0]))
    legend, background = choosers[1], backgrounds[1]
    assert f"partners with {backgrounds[0].name}" in _reason(legend, card_roles(legend), plan, True)
    assert f"partners with {choosers[0].name}" in _reason(background, card_roles(background), plan, True)


def test_the_hint_says_how_a_legend_pairs_in_its_products_words(cli):
    # With no commander yet, a CLB legend that chooses a Background was said to "lead a deck (partner)": it has no
    # partner (CR 702.124k, a Background pairs with it); and a one-color CMM legend, a partner by the Commander Masters
    # grant, was said to lead with nothing of its pairing.  The reason now says each in the words of the packs' notes.
    import_products(cli)
    from draft.bot_plans import Plan
    from draft.hint import _reason
    from draft.traits import card_roles

    clb, cmm, cmr = (load_set(code).cards for code in ("CLB", "CMM", "CMR"))
    chooser = next(c for c in clb if chooses_background(c))
    said = _reason(chooser, card_roles(chooser), Plan(chooser.deck_colors.mask, ()), True)
    assert "can lead a deck (choose a Background)" in said and "partner" not in said, said
    mono = next(c for c in cmm if c.can_be_commander and len(c.identity) == 1 and not c.has_partner)
    said = _reason(mono, card_roles(mono), Plan(mono.deck_colors.mask, ()), True)
    assert "can lead a deck (partner in a Commander Masters draft)" in said, said
    partner = next(c for c in cmr if c.main_set and c.is_legendary and c.has_partner and not c.chooses_color)
    said = _reason(partner, card_roles(partner), Plan(partner.deck_colors.mask, ()), True)
    assert "can lead a deck (partner" in said, said
