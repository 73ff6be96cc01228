"""The room's screen as the core shows it, typed (``TableViews.room_view``): the event, its seatings, each pod's
draft progress, the newest round's pairings and clock, the standings, and which of them the screen cycles through;
public facts only, and every word on it the core's (the page only lays them out)."""

from __future__ import annotations

from events.night.shown import Answer, Clock, StandingRow


class RoomEvent(Answer):
    id: int
    name: str
    status: str
    decklists: bool


class Seating(Answer):
    """A pod's seats before the draft, by name."""

    pod: int
    players: list[str]


class DraftProgress(Answer):
    """How far a pod's draft is: picks made of all picks, the pack being passed (no cards), and that in words
    (``draft_words``, made with the rest)."""

    pod: int
    status: str
    picks_made: int
    picks_total: int
    pack: int
    packs: int
    words: str = ""

    def __post_init__(self) -> None:
        self.words = draft_words(self.status, self.pack, self.packs)


def draft_words(status: str, pack: int, packs: int) -> str:
    """A pod's draft on the room's screen: the pack being passed while it drafts ("pack 2 of 3"), then "done"."""
    return f"pack {pack} of {packs}" if status == "drafting" else "done"


def drafts_title(status: str, registered: str) -> str:
    """The heading of the drafts' progress: "Drafting", then, once the drafts are over and the decks are being
    built, how many decks are registered (``registered``: the desk's words, ``decks.registered_count``)."""
    return f"Deck building · {registered}" if status == "building" else "Drafting"


class Pairing(Answer):
    """A player's table in the round's pairings, and whether they go first."""

    name: str
    table: int
    first: bool


class RoomTable(Answer):
    table: int
    players: list[str]
    done: bool


class RoomRound(Answer):
    """The newest round on the room's screen: pairings by name, the clock, which tables are done."""

    number: int
    final: bool
    open: bool
    clock: Clock | None
    pairings: list[Pairing]
    tables: list[RoomTable]


def room_views(status: str, round_open: bool | None, seatings: bool, drafts: bool, standings: bool) -> list[str]:
    """Which views the room's screen cycles through, in order, for an event in ``status`` (``round_open``: whether
    its newest round is open, None before any; the rest: whether there are seatings, drafts, standings to show):
    before the draft the join code and the seatings, during it the drafts first, while decks are built the drafts,
    the join code and the standings, then the open round's pairings before the standings (a closed round's after,
    and none once the event is finished).  Empty: the screen waits for the event."""
    if status in ("registration", "seated"):
        return ["join"] + (["seatings"] if seatings else [])
    if status == "drafting":
        return ["drafts", "join", "seatings"]
    if status == "building":
        return (["drafts"] if drafts else []) + ["join"] + (["standings"] if standings else [])
    return (
        (["pairings"] if round_open else [])
        + (["standings"] if standings else [])
        + (["pairings"] if round_open is False and status != "finished" else [])
    )


EVENT_OVER = "The event is over"  # the room's heading once the event is finished


def room_heading(status: str, players: int, number: int | None, final: bool) -> str:
    """The room's heading beside the event's name: the event over once it is finished, else its newest round
    (``number``; ``final``: the final table), or how many players before any round."""
    if status == "finished":
        return EVENT_OVER
    if number is None:
        return f"{players} player{'' if players == 1 else 's'}"
    return "Final table" if final else f"Round {number}"


class RoomView(Answer, kw_only=True):
    """The room's screen: seatings, the drafts' progress, pairings by name, the clock, standings; no secrets;
    ``views``: which of them the screen cycles through, in order (``room_views``)."""

    server_time: float
    event: RoomEvent
    players: int
    seatings: list[Seating]
    drafts: list[DraftProgress]
    drafts_title: str  # the drafts' heading (``drafts_title``)
    decks_registered: int
    round: RoomRound | None
    standings: list[StandingRow]
    standings_title: str  # what the standings are called (``standings.standings_title``)
    winner: str | None
    heading: str  # beside the event's name (``room_heading``): the round, the final table, the event over
    views: list[str]  # "join", "seatings", "drafts", "pairings", "standings": the screen's cycle (``room_views``)
