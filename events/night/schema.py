"""The records of a store event, shared by every phase and by the sheets and screens.

The event's statuses and limits, the query helper ``Q``, compact card references (``186``, ``514*e``,
``TST:12*f``), the size a pool should have, and points as exact fractions with their text for people
(``number_text``).  Nothing here opens a store: it is what every other module of an event agrees on.

Record shapes, one TinyDB table each (their names: ``events.storage.table_names``; ``e`` is the event's number,
``p`` a player's number):
- events: name, date, set, mode (draft/sealed), style, pod_size, game_size, one_v_one, timer,
  points, piper_stock, status, created, seed (seats and pairs), uid, secret (deals the packs;
  ``events.night.packs_secret``), codes (terminal drafts behind seat codes; ``events.night.seat_codes``)
- players: e, name, status (active/dropped), late, bot, pod, seat, requested, code (seat code),
  code_tries, code_tried_at and code_tried_from (wrong seat codes typed since the code was given, the last
  one's time and where it was typed: ``events.night.seat_codes``)
- code_sources: event, source, wrong, at, until (where wrong codes come from, and when it may try again)
- code_failures: e, p, at, pid (a wrong seat code typed, one row per try: releases before code_tries)
- pods: e, number, players, draft, opened (opened_typed when counted by hand)
- pools: e, p, cards (card references), source (sealed/draft/recorded)
- decks: e, p, deck (JSON deck), valid, problems, at
- rounds: e, number, tables, first, status (open/closed), clock
- results: e, round, table, order (groups of player numbers, best place first)
- games: e, round, table, life, hits, casts
- reports: e, round, table, by, order, confirmed, disputes, status, at, late (results from the table)
"""

from __future__ import annotations

import datetime as dt
from fractions import Fraction

from tinydb import Query

from events.storage.records import Event
from sets.basics import basic_lands
from sets.booster import Printing, booster_spec
from sets.cards import Card, CardSet
from sets.catalog import load_set

STATUSES = ("registration", "seated", "drafting", "building", "playing", "finished")
DRAFT_STYLES = ("physical", "terminal", "bots")
MAX_POD = 8
STARTING_LIFE = 40
COMMANDER_DAMAGE_LOSS = 21

Q = Query()


def card_ref(printing: Printing | Card, event_set: str) -> str:
    """A compact card reference: ``186``, ``514*e`` (etched), ``TST:12*f`` (foil, another set)."""
    card = printing.card if isinstance(printing, Printing) else printing
    ref = card.number if card.set_code == event_set else f"{card.set_code}:{card.number}"
    if getattr(printing, "etched", False):
        return ref + "*e"
    return ref + ("*f" if getattr(printing, "foil", False) else "")


def card_from_ref(ref: str, event_set: str) -> Printing:
    return cards_from_refs([ref], event_set)[0]


def card_set_of(code: str) -> CardSet:
    """The set a card reference's code names (``BASIC``: the basic lands); the same object while its files are
    unchanged."""
    return basic_lands() if code == "BASIC" else load_set(code)


def cards_from_refs(refs: list[str], event_set: str, sets: dict[str, CardSet] | None = None) -> list[Printing]:
    """The printings of card references, each set read once for the whole list (a pool of 60 cards from one set
    reads its set once, not 60 times); ``sets`` is given the sets they came from, by code."""
    sets = {} if sets is None else sets
    printings = []
    for whole_ref in refs:
        ref, _, finish = whole_ref.partition("*")
        code, _, number = ref.rpartition(":")
        code = code or event_set
        card_set = sets.get(code)
        if card_set is None:
            card_set = sets[code] = card_set_of(code)
        printings.append(Printing(card_set.card(number), "", finish in ("f", "e"), finish == "e"))
    return printings


DRAFT_BOOSTERS, SEALED_BOOSTERS = 3, 6


def expected_pool_size(event: Event) -> int:
    """Cards in a full pool: three boosters drafted, or six opened for sealed (60 and 120 in CMR)."""
    size = max(booster_spec(event.set).sizes)
    return size * (SEALED_BOOSTERS if event.mode == "sealed" else DRAFT_BOOSTERS)


def pool_warning(event: Event, cards: int) -> str | None:
    """A warning (not a refusal) when a pool is not the size the event's kind gives."""
    expected = expected_pool_size(event)
    if cards == expected:
        return None
    kind = "sealed" if event.mode == "sealed" else "draft"
    return f"{cards} cards, but a {kind} pool has {expected}: check it and record it again with --replace"


def exact(number: float | int | str | Fraction) -> Fraction:
    """A points value as an exact fraction: ``0.1`` is 1/10, not the nearest binary float."""
    return number if isinstance(number, Fraction) else Fraction(str(number))


def number_text(value: Fraction | int | None, places: int = 2) -> str:
    """A points figure for people: whole numbers bare, others to at most two decimals (7/3 is 2.33); None is blank."""
    if value is None:
        return ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    scaled = round(value * 10**places)  # exact half-to-even rounding on the fraction itself
    sign = "-" if scaled < 0 else ""
    whole, part = divmod(abs(scaled), 10**places)
    return f"{sign}{whole}.{part:0{places}d}".rstrip("0").rstrip(".")


def minute_text(at: str) -> str:
    """A stored time (ISO 8601) as the night's answers write it for people, to the minute in UTC: '2026-12-07 00:01 UTC'
    (a time stored without a zone is UTC)."""
    when = dt.datetime.fromisoformat(at)
    when = when.astimezone(dt.UTC) if when.tzinfo else when
    return f"{when:%Y-%m-%d %H:%M} UTC"
