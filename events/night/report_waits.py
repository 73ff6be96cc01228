"""A table's result report and whom it still waits for: one rule for when it becomes the table's result.

A report waits for every other player at its table who is still in the event and has neither confirmed nor disputed
it (``still_to_confirm``: the one list every face shows as "still to confirm"; a disputed report waits for the desk
as well); its reporter neither confirms nor disputes it (``own_report_refusal``): they report again to change it.
Once nobody is left to confirm it and nobody disputes it, it is recorded as ``event result`` records one (``Rounds.record_order``), in the same
transaction as the change that ended the wait: the last confirmation (``TableReports.confirm``), or the drop of
the last player it waited for (``Registration.drop_player``: a player who left mid-game and was dropped).  A drop
taken back (``event undo``) takes back the results it recorded: their reports wait for that player again
(``wait_again``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from tinydb import TinyDB

from events.night.base import pending_report
from events.night.rounds import RecordedResult, Rounds
from events.storage.records import Player, Report, Result, Round
from events.storage.tables import records_of


def still_to_confirm(
    seats: list[int], confirmed: Iterable[int], disputed: Iterable[int], status: Mapping[int, str]
) -> list[int]:
    """Players at the table (``seats``) still in the event (``status``: each player's) who have neither reported,
    confirmed nor disputed the report, in seat order."""
    answered = {*confirmed, *disputed}
    return [pid for pid in seats if pid not in answered and status[pid] == "active"]


def waiting_for(
    db: TinyDB, rnd: Round, table_number: int, confirmed: list[int], disputed: Iterable[int] = ()
) -> list[int]:
    """``still_to_confirm`` for a table of ``rnd``, with the players' status read from ``db``."""
    status = {p.id: p.status for p in records_of(db, Player).find(event=rnd.event)}
    return still_to_confirm(rnd.tables[table_number - 1], confirmed, disputed, status)


def own_report_refusal(report: Report, player_id: int) -> str | None:
    """Why ``player_id`` may not confirm or dispute ``report`` (it is their own: they report again to change it),
    or None."""
    if report.by != player_id:
        return None
    return f"report {report.id} is your own: nothing to confirm or dispute; report again to change it"


def record_report(db: TinyDB, rounds: Rounds, event_id: int, report_id: int, order: list[list[int]]) -> RecordedResult:
    """A report nobody is left to confirm becomes the table's result, logged as its reporter's (``via NAME``)."""
    report = records_of(db, Report).get(report_id)
    assert report is not None  # saved before, in this transaction or an earlier one
    reporter = records_of(db, Player).get(report.by)
    who = f"{report.via} {reporter.name if reporter is not None else report.by}"
    done = rounds.record_order(db, event_id, report.round, report.table, order, who=who)
    records_of(db, Report).update(report_id, status="recorded")
    return done


def record_after_drop(db: TinyDB, rounds: Rounds, event_id: int, player_id: int) -> list[RecordedResult]:
    """After ``player_id`` dropped, in the drop's transaction: a report at their table of an open round that only
    waited for them (undisputed, confirmed by everyone still in) becomes the table's result; a table whose result
    the desk has recorded meanwhile (``event result``, over the waiting report) keeps it."""
    done = []
    for rnd in records_of(db, Round).find(event=event_id):
        if rnd.status == "closed":
            continue
        for number, seats in enumerate(rnd.tables, start=1):
            report = pending_report(db, event_id, rnd.number, number) if player_id in seats else None
            if report is None or report.status != "waiting" or report.disputes:
                continue
            if records_of(db, Result).first(event=event_id, round=rnd.number, table=number) is not None:
                continue
            if not waiting_for(db, rnd, number, report.confirmed):
                done.append(record_report(db, rounds, event_id, report.id, report.order))
    return done


def wait_again(db: TinyDB, event_id: int, player_id: int) -> list[tuple[int, int]]:
    """``player_id`` is back in the event (their drop undone, before a round was paired without them): each result
    recorded from a report they never confirmed (recorded while they were out: by their drop, or after it) and not
    corrected since is taken back, its report waiting for them again and its round open.  The (round, table) of each."""
    again = []
    for rnd in records_of(db, Round).find(event=event_id):
        for number, seats in enumerate(rnd.tables, start=1):
            if player_id not in seats:
                continue
            for report in records_of(db, Report).find(event=event_id, round=rnd.number, table=number):
                result = records_of(db, Result).first(event=event_id, round=rnd.number, table=number)
                if report.status != "recorded" or player_id in report.confirmed or result is None:
                    continue
                if result.order == report.order:
                    records_of(db, Result).remove(result.id)
                    records_of(db, Report).update(report.id, status="waiting")
                    records_of(db, Round).update(rnd.id, status="open")
                    again.append((rnd.number, number))
    return again
