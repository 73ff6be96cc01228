"""Whole pods with bots: boosters to drafted pools to legal decks, reproducible from a seed."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from draft.bots import Bot, BotStyle
from draft.deck_rules import DeckReport, validate
from draft.deckbuild import build_deck
from draft.decks import Deck, Zone, is_piper
from draft.engine import Draft, DraftConfig
from draft.manabase import mana_sources
from draft.products import added_card, product
from draft.quality import figures, pod_figures
from sets.booster import BoosterSpec, Printing, booster_spec
from sets.errors import LimitError
from sets.userdata import one_reading


@dataclass
class SeatResult:
    seat: int
    name: str
    style: BotStyle
    pool: list[Printing]
    deck: Deck
    report: DeckReport


@dataclass
class PodResult:
    seed: int
    draft: Draft
    seats: list[SeatResult]

    @property
    def pipers_opened(self) -> int:
        return sum(1 for row in self.draft.boosters for booster in row for p in booster.printings if is_piper(p.card))

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "set": self.draft.config.set_code,
            "pipers_opened": self.pipers_opened,
            "players": [
                {
                    "seat": s.seat + 1,
                    "name": s.name,
                    "bot": s.style.value,
                    "picks": [pick.to_json() for pick in self.draft.picks_of(s.seat)],
                    "pool": [p.card.name for p in s.pool],
                    "deck": deck_json(s.deck, s.report),
                    "sources": mana_sources(s.deck, s.report.color_identity),
                    "valid": s.report.valid,
                    "problems": [p.to_json() for p in s.report.problems],
                }
                for s in self.seats
            ],
        }


def deck_json(deck: Deck, report: DeckReport | None = None) -> dict[str, Any]:
    main: Counter[str] = Counter()
    for line in deck.zone(Zone.MAIN):
        main[line.card.name] += line.count
    colors = report.piper_colors if report is not None else deck.piper_colors
    return {
        "commanders": [c.name for c in deck.commanders],
        "piper_colors": [c.value for c in colors],
        "main": dict(main),
    }


def piper_card(set_code: str = "CMR") -> Any:
    """The card a player of ``set_code``'s product may add after the draft (The Prismatic Piper, Faceless One), from
    that set or else the default product's (None when neither has it)."""
    return added_card(product(set_code))


def bot_styles(styles: Sequence[BotStyle] | BotStyle | None, seats: int) -> list[BotStyle]:
    """One style per seat: a single style for all, or a list repeated around the table."""
    if styles is None:
        return [BotStyle.STRONG] * seats
    if isinstance(styles, BotStyle):
        return [styles] * seats
    return [styles[seat % len(styles)] for seat in range(seats)]


def run_bots(draft: Draft, bots: dict[int, Bot]) -> None:
    """Let the bot seats pick until a human seat is to pick or the draft ends."""
    total = float(draft.config.boosters)
    per_pack = (-1, 1)  # (round, picks per pack in it): asked again only when a round opens
    with one_reading():  # the bots' sets and kept files looked at once, not at every card they weigh
        while not draft.finished:
            due = [seat for seat in draft.waiting() if seat in bots]
            if not due:
                return
            for seat in due:
                held, at, picks_due, _queued, _waiting_on = draft.view(seat)
                assert held is not None  # a seat waiting() lists holds a pack
                if per_pack[0] != draft.round:
                    per_pack = (draft.round, draft.picks_per_pack)
                progress = (draft.round + (at[1] - 1) / per_pack[1]) / total
                positions = bots[seat].choose(held.cards, picks_due, progress)  # (read, never changed)
                record = draft.pick(seat, positions)
                bots[seat].learn(record.offered, [p.card for p in record.taken], record.pick)


def run_pod(
    seed: int,
    config: DraftConfig = DraftConfig(),
    styles: Sequence[BotStyle] | BotStyle | None = None,
    spec: BoosterSpec | None = None,
    names: Sequence[str] | None = None,
    pipers: int | None = None,
) -> PodResult:
    """Draft a whole pod with bots and build every seat's deck.  ``pipers``: the Pipers each seat can count on and its
    deck may add (a store's share of its stock, ``AddedOption.sure_from``); None, the product's most (no store)."""
    with one_reading():
        return _run_pod(seed, config, styles, spec, names, pipers)


def _run_pod(
    seed: int,
    config: DraftConfig,
    styles: Sequence[BotStyle] | BotStyle | None,
    spec: BoosterSpec | None,
    names: Sequence[str] | None,
    pipers: int | None,
) -> PodResult:
    spec = spec or booster_spec(config.set_code, config.booster_kind)
    draft = Draft.new(config, seed, spec)
    seat_styles = bot_styles(styles, config.seats)
    bots = {seat: Bot(seat_styles[seat], seed * 1009 + seat, pipers=pipers) for seat in range(config.seats)}
    run_bots(draft, bots)
    piper = piper_card(config.set_code)
    seats = []
    for seat in range(config.seats):
        name = names[seat] if names else f"Bot {seat + 1}"
        pool = draft.pools[seat]
        deck = build_deck(pool, piper, name, pipers)
        seats.append(SeatResult(seat, name, seat_styles[seat], pool, deck, validate(deck, [p.card for p in pool])))
    return PodResult(seed, draft, seats)


def sure_pipers(config: DraftConfig, stock: int | None) -> int | None:
    """The Pipers each seat of a pod of ``config`` can count on from a store's ``stock`` of them
    (``AddedOption.sure_from``, for the set's product); None without a store (the product's most)."""
    return None if stock is None else product(config.set_code).added.sure_from(stock, config.seats)


def pod_summary(
    seed: int,
    config: DraftConfig = DraftConfig(),
    styles: Sequence[BotStyle] | BotStyle | None = None,
    pipers: int | None = None,
) -> dict[str, Any]:
    """The figures of one pod that aggregates need (small enough to send between processes); ``pipers`` as
    ``run_pod`` takes it."""
    result = run_pod(seed, config, styles, pipers=pipers)
    judged = pod_figures(result)
    return {
        "seed": seed,
        "pipers_opened": result.pipers_opened,
        "seats": [
            {
                "valid": s.report.valid,
                "pipers": sum(1 for c in s.deck.commanders if is_piper(c)),
                "identity": s.report.color_identity.code,
                "style": s.style.value,
                "figures": figures,
            }
            for s, figures in zip(result.seats, judged, strict=True)
        ],
    }


MAX_DRAFTS = 100_000  # pods one run simulates (README "Limits")
MAX_JOBS = 64  # worker processes for them


def check_runs(drafts: int, jobs: int = 1) -> None:
    """Pods to simulate, 1 to ``MAX_DRAFTS``, in 1 to ``MAX_JOBS`` worker processes (``LimitError`` otherwise)."""
    LimitError.check(drafts, "drafts", "pods to simulate", 1, MAX_DRAFTS)
    LimitError.check(jobs, "jobs", "worker processes", 1, MAX_JOBS)


def pod_seeds(seed: int, count: int) -> list[int]:
    """The seeds of ``count`` pods (1 to ``MAX_DRAFTS``) simulated from ``seed``."""
    check_runs(count)
    rng = random.Random(seed)
    return [rng.randrange(2**31) for _ in range(count)]


@dataclass(frozen=True)
class QualityFigures:
    """``draft.quality.figures`` over many seats, typed (the shares are None where nothing was taken to measure them by)."""

    decks: int
    early_filler_over_good_share: float | None
    premium_pick6_share: float | None
    weak_partner_over_strong_share: float | None
    strong_pick6_share: float | None
    pick_order_correlation: float | None
    mid_splash_share: float
    extra_legend_copy_decks: int
    benched_better_per_deck: float
    colorless_filler_per_deck: float
    filler_in_main_per_deck: float
    filler_over_better_per_deck: float
    thin_color_share: float
    grade_ratio_mean: float | None
    cheap_removal_taken: int
    cheap_removal_mean_pick: float | None
    cheap_removal_pick6_share: float | None
    pipers_drafted: int
    pipers_picks_1_5_share: float
    piper_main_decks: int
    under_sourced_share: float
    benched_removal_per_deck: float
    lands_min: int
    lands_max: int
    lands_out_of_range: int
    legal_share: float
    legends_at_picks_1_3_per_deck: float
    removal_in_deck_mean: float
    creatures_mean: float
    spell_mana_value_mean: float
    two_commander_share: float
    piper_commander_share: float
    identity_sizes: dict[str, int]

    @classmethod
    def over(cls, seats: Sequence[dict[str, Any]]) -> QualityFigures:
        """``figures(seats)``, typed."""
        return cls(**figures(seats))

    def to_json(self) -> dict[str, Any]:
        """The figures as ``figures`` gives them (``sim --drafts --json``)."""
        return asdict(self)


@dataclass(frozen=True)
class SimFigures:
    """Figures of many simulated pods (``aggregate``): legal decks, Piper use, Pipers opened per pod, deck colors,
    and the bot-quality figures over all seats and per bot style."""

    pods: int
    seats: int
    legal_rate: float
    piper_seat_share: float
    pipers_opened_mean: float
    pipers_opened_distribution: dict[str, int]  # Pipers opened in a pod -> pods
    identity_sizes: dict[str, int]  # colors in a deck's identity -> decks
    color_share: dict[str, float]  # WUBRG letter -> share of decks playing it
    quality: QualityFigures
    quality_by_style: dict[str, QualityFigures]

    def to_json(self) -> dict[str, Any]:
        """The figures as ``sim --drafts --json`` prints them (after the seed)."""
        return {
            "pods": self.pods,
            "seats": self.seats,
            "legal_rate": self.legal_rate,
            "piper_seat_share": self.piper_seat_share,
            "pipers_opened_mean": self.pipers_opened_mean,
            "pipers_opened_distribution": self.pipers_opened_distribution,
            "identity_sizes": self.identity_sizes,
            "color_share": self.color_share,
            "quality": self.quality.to_json(),
            "quality_by_style": {style: found.to_json() for style, found in self.quality_by_style.items()},
        }


def aggregate(summaries: Sequence[dict[str, Any]]) -> SimFigures:
    """Legal-deck rate, Piper use, Pipers opened per pod, deck colors, and the bot-quality figures
    (``draft.quality``: over all seats and per style) over many pods."""
    seats = [seat for pod in summaries for seat in pod["seats"]]
    opened = Counter(pod["pipers_opened"] for pod in summaries)
    widths = Counter(len(seat["identity"]) for seat in seats)
    colors = Counter(letter for seat in seats for letter in seat["identity"])
    pods = len(summaries) or 1
    count = len(seats) or 1
    return SimFigures(
        pods=len(summaries),
        seats=len(seats),
        legal_rate=sum(seat["valid"] for seat in seats) / count,
        piper_seat_share=sum(seat["pipers"] > 0 for seat in seats) / count,
        pipers_opened_mean=sum(pod["pipers_opened"] for pod in summaries) / pods,
        pipers_opened_distribution={str(k): opened[k] for k in sorted(opened)},
        identity_sizes={str(k): widths[k] for k in sorted(widths)},
        color_share={letter: colors[letter] / count for letter in "WUBRG"},
        quality=QualityFigures.over([seat["figures"] for seat in seats]),
        quality_by_style={
            style: QualityFigures.over([seat["figures"] for seat in seats if seat["style"] == style])
            for style in dict.fromkeys(seat["style"] for seat in seats)
        },
    )
