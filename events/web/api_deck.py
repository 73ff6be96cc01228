"""The deck after the draft, built in the browser over the player's recorded pool, and the player's own files.

The deck is built in the same ``DeckSession`` the terminal builder holds, opened by ``EventDeck`` (the event's
place for a deck): registering it is ``event deck``'s own registration — the same checks against the recorded
pool, the same transaction, the same legality report — with the history saying ``browser NAME``.  Until it is
registered, every change the server answered is kept on disk as the player's build in progress
(``events.storage.building_files``, asked by ``EventDeck``): a browser coming back to a restarted (or killed)
server finds the deck as it left it, unless a deck was registered for the player since or registration closed,
when it starts from the deck registered last.

Card ids in the deck API are positions in ``pool`` of the deck state: the pool's different cards in the
builder's order, then the free basic lands; the product's added card (a Piper added after the draft, not in the
pool) comes after them, so a commander the deck added has an id the page can send back like any other.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from draft.commanders import chosen_colors, crownable, room_beside
from draft.deck_actions import MAX_BASICS, CommandersChosen
from draft.deck_session import DeckSession
from draft.decks import Deck
from draft.formats import EXPORT_FORMATS, EXTENSIONS, FileFormat, pool_as_deck, write
from draft.formats.mtgo import MissingMtgoIdError
from events.night.decks import closed_words, registered_words
from events.night.history import browser
from events.night.refusals import not_building
from events.outputs.deck_problems import judge_order
from events.sessions.activities import EventDeck
from events.web.answers import Added, DeckLine, DeckState, PoolLine, Problem, Registered, typed
from events.web.api_common import ApiError, Served, core_error, whole
from events.web.bodies import Basics, Commanders, Counted, DeckAction, Pipers
from events.web.cards_shown import card_json
from events.web.settings import WebSettings
from sets.basics import basic_land, basic_land_color
from sets.cards import Card
from sets.colors import Color
from sets.errors import InputError

BASIC_KEYS = ("W", "U", "B", "R", "G", "C")


def deck_of(served: Served, player_id: int) -> EventDeck:
    """The deck this player builds in the browser (opened from their registered deck, if any)."""
    snap = served.snapshot()
    refused = not_building(snap.event.status)  # the core's gate, on the snapshot the page was answered from
    if refused is not None:
        raise core_error(refused)
    deck = served.building.get(player_id)
    if deck is None:
        player = snap.player(player_id)
        deck = served.building[player_id] = EventDeck(
            served.decks, served.event_id, player_id, by=browser(player.name), resume=True, via="browser"
        )
    return deck


def deck_state(served: Served, player_id: int, deck: EventDeck | None = None, said: str | None = None) -> DeckState:
    deck = deck or deck_of(served, player_id)
    session = deck.session
    cards = session.reachable()
    ids = {card: i for i, card in enumerate(named(session))}
    built = session.deck()
    report = session.report()
    stats = session.stats()
    basics = {key: session.main.get(basic_land("" if key == "C" else key), 0) for key in BASIC_KEYS}
    registered = served.decks.deck_of(served.event_id, player_id)
    same = registered is not None and same_deck(registered, built)
    closed = served.decks.decks_closed(served.event_id, served.wall(), player_id)
    return DeckState(
        # registration closed: the registered deck, read-only, and who can change it (the core's words)
        closed=None if closed is None else closed_words(closed),
        correction=served.decks.correction_of(served.event_id, player_id),
        commanders=[card_json(card, ids.get(card, -1)) for card in session.commanders],
        # each commander's chosen color beside it, wherever it stands among them (the core's pairing of the two)
        chosen=[
            None if color is None else color.value
            for color in chosen_colors([card.chooses_color for card in session.commanders], session.colors)
        ],
        commander_room=room_beside(session.commanders),
        crownable=[
            ids[card] for card in crownable(session.pool_list, session.commanders, session.can_choose_commanders)
        ],
        pipers=[color.value for color in session.colors],
        added=Added(session.product.added.card, session.product.added.word, session.product.added.words),
        main=[DeckLine(card_json(c, ids.get(c, -1)), n) for c, n in sorted(built.main.items(), key=_order)],
        sideboard=[DeckLine(card_json(c, ids.get(c, -1)), n) for c, n in sorted(built.sideboard.items(), key=_order)],
        pool=[
            PoolLine(card_json(card, i), session.pool_counts[card], session.in_deck(card))
            for i, card in enumerate(cards)
        ],
        basics=basics,
        size=built.size,
        curve={str(k): v for k, v in stats.curve.items()},
        sources={color.value: n for color, n in stats.sources.items()},
        symbols={color.value: n for color, n in stats.symbols.items()},
        legal=report.valid,
        # in the order and words every face shows them (``judge_order``: causes first, the identity's cards folded)
        problems=[
            Problem(problem.code, problem.message, list(problem.cards))
            for problem in judge_order(report.problems, report.color_identity)
        ],
        cautions=stats.cautions,
        can_undo=bool(session.undo_stack),
        can_redo=bool(session.redo_stack),
        registered=same,
        registered_words=registered_words(same, report.valid),
        # the store's stock limits the Pipers this deck may add (None: it doesn't, or the deck is closed: read-only)
        pipers_note=None if closed is not None else deck.pipers_note,
        pipers_most=deck.pipers_most,  # 0: the page offers no Piper to lead with
        said=said,
    )


def same_deck(a: Deck, b: Deck) -> bool:
    """Whether two decks hold the same commanders and main deck (card names and counts)."""

    def key(deck: Deck) -> tuple[list[str], list[tuple[str, int]]]:
        return sorted(c.name for c in deck.commanders), sorted((c.name, n) for c, n in deck.main.items())

    return key(a) == key(b)


def _order(item: tuple[Card, int]) -> tuple[bool, float, str]:
    card = item[0]
    return (card.is_land, card.mana_value, card.name)


def named(session: DeckSession) -> list[Card]:
    """The cards a deck action may name, by their ids: the pool's and the free basics (the deck state's ``pool``),
    then the product's added card when the pool doesn't hold it (a Piper added after the draft leads by its id)."""
    cards = session.reachable()
    return cards if session.piper is None or session.piper in cards else [*cards, session.piper]


def _cards(deck: EventDeck, ids: list[int], settings: WebSettings) -> list[Card]:
    """The cards these ids name (places in the deck state's ``pool``, then the added card)."""
    cards = named(deck.session)
    if len(ids) > settings.max_deck_cards:
        raise ApiError(400, "bad-field", f"at most {settings.max_deck_cards} cards at once")
    return [cards[whole(item, "a card id", 0, len(cards) - 1)] for item in ids]


def _counted(deck: EventDeck, pairs: list[tuple[int, int]], settings: WebSettings) -> list[tuple[Card, int]]:
    """The cards and counts these [id, count] pairs name."""
    cards = deck.session.reachable()
    if len(pairs) > settings.max_deck_cards:
        raise ApiError(400, "bad-field", f"at most {settings.max_deck_cards} cards at once")
    most = settings.max_card_count
    return [(cards[whole(i, "a card id", 0, len(cards) - 1)], whole(n, "a count", 1, most)) for i, n in pairs]


def act(served: Served, player_id: int, action: DeckAction) -> DeckState:
    """One action on the deck being built; the new deck state (a refused action changes nothing: 400)."""
    fields = action.fields
    deck = deck_of(served, player_id)
    served.decks.check_deck_change(
        served.event_id, deck.player_id, deck.actor
    )  # closed registration: PhaseOver, as at a terminal
    session = deck.session
    step: Callable[[], object]
    match fields:
        case Commanders(cards=ids):
            step = functools.partial(session.choose_commanders, _cards(deck, ids, served.settings))
        case Pipers(colors=colors):
            step = functools.partial(session.choose_pipers, [_color(c) for c in colors])
        case Counted(cards=pairs):
            step = functools.partial(
                session.add if action.action == "add" else session.remove, _counted(deck, pairs, served.settings)
            )
        case Basics(color=color, count=count):
            step = functools.partial(session.set_basics, _basic(color), whole(count, "count", 0, MAX_BASICS))
        case _ if action.action == "auto":
            step = session.complete if session.commanders else functools.partial(session.replace, True)
        case _ if action.action == "undo":
            step = session.undo
        case _ if action.action == "redo":
            step = session.redo
        case _:
            step = session.fill_lands  # "lands"
    try:
        answer = step()
    except InputError as error:
        raise ApiError(400, "deck-refused", str(error), deck=deck_state(served, player_id, deck)) from None
    said = answer.returned_words if isinstance(answer, CommandersChosen) else None  # the terminal's words
    return deck_state(served, player_id, deck, said)


def _color(value: Any) -> Color:
    if not isinstance(value, str) or value.upper() not in "WUBRG" or len(value) != 1:
        raise ApiError(400, "bad-field", "a color is one of W, U, B, R, G")
    return Color(value.upper())


def _basic(value: str) -> str:
    try:
        return basic_land_color(value)
    except InputError as error:
        raise ApiError(400, "bad-field", str(error)) from None


def register(served: Served, player_id: int) -> Registered:
    """Register the deck as it is (legal or not): ``event deck``'s registration, its report with it."""
    deck = deck_of(served, player_id)
    deck.session.save()
    registered = deck.report
    valid = registered is not None and registered.valid
    problems = (
        []
        if registered is None
        else [
            problem.to_json() for problem in judge_order(registered.report.problems, registered.report.color_identity)
        ]
    )
    return Registered(True, valid, typed(problems, list[Problem]), deck_state(served, player_id, deck))


def export(served: Served, player_id: int, kind: str, name: str) -> tuple[str, str]:
    """The player's own pool or deck as a file: (file name, text)."""
    try:
        fmt = FileFormat.parse(name)
    except (InputError, ValueError):
        fmt = None
    if fmt is None or fmt not in (*EXPORT_FORMATS, FileFormat.TEXT):
        raise ApiError(400, "bad-format", "format must be one of arena, txt, json, csv, cod, dck, dek")
    player = served.snapshot().player(player_id)
    if player.pool_size is None:
        raise ApiError(409, "no-pool", "your pool is recorded when your pod's draft is over")
    content: Deck | None
    if kind == "pool":
        content = pool_as_deck(served.decks.pool(served.event_id, player_id), f"{player.name} pool")
    else:
        building = served.building.get(player_id)
        content = building.session.deck() if building is not None else served.decks.deck_of(served.event_id, player_id)
    if content is None:
        raise ApiError(409, "no-deck", "build your deck first")
    try:
        text = write(content, fmt)
    except MissingMtgoIdError:
        raise ApiError(
            409, "no-mtgo-ids", "an MTGO file needs every card's MTGO id: ask the desk to import them"
        ) from None
    return f"cmdraft-event{served.event_id}-{player.number}-{kind}.{EXTENSIONS[fmt]}", text
