"""``cmdraft event table``: a player's own table from their terminal: see it, report its result, confirm or
dispute the report, as a phone does (the same use cases, logged as ``terminal NAME``), behind the seat code."""

from __future__ import annotations

from typing import Annotated

import typer

from events.cli.common import DbOption, JsonOption, emit_json, out
from events.cli.event.shared import EventArg, core
from events.night.seat_codes import terminal_token, uses_codes
from events.night.table_reports import TableReports
from events.night.table_shown import TableState
from events.night.table_views import TableViews
from events.outputs.text import join_names
from events.screens.event_draft import ask_code
from events.screens.render import shown
from events.screens.terminal import Terminal
from sets.errors import InputError, StateError
from sets.visible import quoted


def event_table(
    event_id: EventArg,
    player: Annotated[str, typer.Option("--player", help="You: your name (or #N), as on your seating slip.")],
    report: Annotated[
        str | None, typer.Option("--report", help="Report your table's finishing order: 'Ann > Bo = Cy > Di'.")
    ] = None,
    confirm: Annotated[bool, typer.Option("--confirm", help="Confirm the order reported at your table.")] = False,
    dispute: Annotated[
        bool, typer.Option("--dispute", help="Dispute the reported order (your own version with --report).")
    ] = False,
    db: DbOption = None,
    as_json: JsonOption = False,
) -> None:
    """Your own table, from your terminal: who sits there, the reported result and who still has to confirm it;
    report the result (--report), confirm it (--confirm) or dispute it (--dispute).  The seat code is asked once
    per terminal session (in an event with codes)."""
    if confirm and dispute:
        raise InputError("--confirm and --dispute can't go together: confirm the reported order, or dispute it")
    if confirm and report is not None:
        raise InputError(
            "--confirm and --report can't go together: confirm the order reported, or report it (--dispute --report "
            "for your own version of one reported)"
        )
    reports = core(db, TableReports)
    player_id = reports.player_id(event_id, player)
    if report is not None or confirm or dispute:
        event = reports.event(event_id)
        if uses_codes(event) and terminal_token(event, player_id) is None:
            console = out()
            ask_code(
                reports,
                event,
                event_id,
                player_id,
                reports.player(event_id, player_id).name,
                console,
                Terminal(console),
                "nothing was "
                + ("reported" if report is not None and not dispute else "confirmed" if confirm else "disputed"),
            )
        if confirm or dispute:
            pending = reports.phase(TableViews).table_view(event_id, player_id).round
            found = None if pending is None else pending.report
            if pending is not None and pending.result is not None:  # (a report would be refused as well)
                order = " > ".join(" = ".join(group) for group in pending.result.order)
                raise StateError(
                    f"table {pending.table} of round {pending.number} already has its result ({order}): nothing to "
                    "confirm or dispute; the desk corrects it"
                )
            if found is None:
                raise InputError("nothing is reported at your table yet: report it with --report 'ORDER'")
            taken = reports.confirm(event_id, player_id, found.id, confirm, report if dispute else None, via="terminal")
            if not as_json:
                out().print(shown(taken.words), soft_wrap=True)  # the core's words: what was taken
        else:
            reports.report(event_id, player_id, report or "", via="terminal")
    view = reports.phase(TableViews).table_view(event_id, player_id)
    if as_json:
        emit_json(view.to_json())
        return
    for line in table_lines(view):
        out().print(shown(line), soft_wrap=True)


def table_lines(view: TableState) -> list[str]:
    """A player's table as lines of text: the table, the result or the report and who still has to confirm it, and
    the core's words for the table's status (what happens next, as the phones say it)."""
    rnd = view.round
    if rnd is None:
        return [f"{quoted(view.player.name)} has no table yet: the desk pairs the round"]
    lines = [f"Round {rnd.number}, table {rnd.table}: {join_names([player.name for player in rnd.players])}"]
    if rnd.result is not None:
        lines.append("Result recorded: " + " > ".join(" = ".join(group) for group in rnd.result.order))
    found = rnd.report
    if found is not None:
        order = " > ".join(" = ".join(p.name for p in group) for group in found.order)
        lines.append(f"{found.by_words}: {order}")  # the core's words, as the phones say them
        if found.waiting_words is not None:
            lines.append(found.waiting_words)
        for disputed in found.disputes:  # the core's words, then the version given
            version = " > ".join(" = ".join(p.name for p in group) for group in disputed.order)
            lines.append(disputed.words + (f" {version}" if version else ""))
    lines.append(rnd.status_words)
    return lines
