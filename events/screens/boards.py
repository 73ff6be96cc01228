"""The desk's boards: an event's status, its history, deck registration, the Piper ledger, standings and the
life and commander tracker of a table."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Column, Table
from rich.text import Text

from draft.products import product
from events.night import Pod
from events.night.decks import registrations, registrations_words
from events.night.games import GameBoard
from events.night.history import Entry, value_text
from events.night.pipers import Ledger
from events.night.schema import number_text
from events.night.snapshot import Snapshot
from events.night.standings import AVERAGE_PLACE, OPPONENTS_AVERAGE, Standing, tie_breaker_figure, winner_line
from events.outputs.deck_problems import problem_lines
from events.outputs.standings_sheets import (
    FINAL_TABLE_LEGEND,
    did_not_play_lines,
    final_place_text,
    standings_legend,
)
from events.outputs.text import join_names
from events.screens.render import shown
from sets.visible import quoted


def name_column(header: str) -> Column:
    """A column of names: a name too long for it folds onto the next line, whole, never cut short with an ellipsis."""
    return Column(header, overflow="fold")


def event_board(snap: Snapshot, ledger: Ledger | None = None) -> Table:
    """The status board of an event (with a Piper shortfall warning when there is one)."""
    event = snap.event
    words = product(event.set).added.words
    names = {p.id: p.name for p in snap.players}
    outer = Table.grid(padding=(0, 0))
    header = Text.assemble(
        shown(event.name, style="bold"),
        f"  ·  {event.date}  ·  {event.set} {event.mode} ({event.style})  ·  status: ",
        (event.status, "bold cyan"),
    )
    outer.add_row(header)
    if event.mode == "draft" and event.style == "terminal":
        outer.add_row(
            Text("Drafters' assistance allowed: hint, signals and 'Can lead' (event new --assist)", style="yellow")
            if event.assist
            else Text("No assistance: no hint, signals or 'Can lead' at the pick screen (competitive rules)")
        )
    if ledger and ledger.shortfall:
        lenders = join_names(lender.player for lender in ledger.lenders) or "nobody in the event"
        outer.add_row(
            shown(
                f"{ledger.word} shortfall: registered decks add {ledger.counted(ledger.needed)}, "
                f"{ledger.shortfall} more than "
                f"players and the store can lend (could lend: {lenders})",
                style="bold red",
            )
        )
    elif ledger and ledger.forecast.shortfall:
        outer.add_row(
            shown(
                f"{ledger.word} forecast: the requests would be "
                f"{ledger.counted(ledger.forecast.shortfall)} short "
                "(see 'cmdraft event pipers')",
                style="yellow",
            )
        )
    if ledger:
        for row in ledger.pods:
            if row.disagrees and row.typed is not None:
                outer.add_row(
                    shown(
                        f"Pod {row.pod}: {ledger.counted(row.typed)} typed as opened, but the recorded "
                        "pools hold "
                        f"{row.opened}",
                        style="yellow",
                    )
                )
    players = Table(
        "#", name_column("Player"), "Status", "Pod/seat", "Pool", words, "Deck", title="Players", title_justify="left"
    )
    adds = {need.player: need.added for need in ledger.decks} if ledger else {}
    for p in snap.players:
        deck = p.deck
        if deck is None:
            deck_text = shown("not registered", style="dim")
        elif deck.valid:
            deck_text = shown("legal: " + " + ".join(deck.commanders_shown()), style="green")
        else:
            deck_text = shown(", ".join(sorted(deck.problem_codes())), style="red")
        seat = f"{p.pod}/{(p.seat or 0) + 1}" if p.pod else "—"
        status = p.status + (" (late)" if p.late else "") + (" (bot)" if p.bot else "")
        if p.status == "dropped" and p.dropped_after is not None:
            status = (
                f"dropped after round {p.dropped_after}: not paired again"
                if p.dropped_after
                else "dropped before round 1: not paired"
            )
        elif p.status == "active" and p.checked_in:
            status += " (checked in)"
        pool = shown(f"{p.pool_size} !", style="bold yellow") if p.pool_warning else shown(str(p.pool_size or "—"))
        players.add_row(
            f"#{p.number}", shown(p.name), status, seat, pool, _added(adds.get(p.name), p.requested), deck_text
        )
    outer.add_row(players)
    for p in snap.players:
        if p.pool_warning and p.status == "active":
            outer.add_row(shown(f"! the pool of {quoted(p.name)} has {p.pool_warning}", style="yellow"))
        if p.wrong_codes:
            where = f" from {p.wrong_code_from}" if p.wrong_code_from else ""
            typed = (
                f"! {quoted(p.name)}: {p.wrong_codes} wrong seat code{'s' if p.wrong_codes != 1 else ''} typed "
                f"(last at {p.wrong_code_last}{where})"
            )
            reset = f"'cmdraft event player code {event.id} #{p.number} --reset'"
            outer.add_row(
                shown(
                    f"{typed}; the right code still works; give a new one with {reset} if the player didn't type them",
                    style="bold red",
                )
            )
    if snap.pods:
        pods = Table(
            "Pod", name_column("Players"), f"{words} opened", "Draft", title="Draft pods", title_justify="left"
        )
        for pod in snap.pods:
            pods.add_row(
                str(pod.number),
                shown(join_names(names[i] for i in pod.players)),
                _opened(pod, ledger),
                _draft_word(snap.drafts.get(pod.number), event.style),
            )
        outer.add_row(pods)
    results = {(r.round, r.table): r.order for r in snap.results}
    for rnd in snap.rounds:
        table = Table(
            "Table",
            name_column("Players"),
            "Finishing order",
            # the final table ('event top') is named as the results sheet and the room name it
            title=f"Final table (round {rnd.number}, {rnd.status})"
            if rnd.final
            else f"Round {rnd.number} ({rnd.status})",
            title_justify="left",
        )
        for number, ids in enumerate(rnd.tables, start=1):
            order = results.get((rnd.number, number))
            outcome = (
                shown(" > ".join(" = ".join(names[i] for i in group) for group in order))
                if order
                else shown("waiting", style="dim")
            )
            table.add_row(str(number), shown(join_names(names[i] for i in ids)), outcome)
        outer.add_row(table)
    return outer


def _draft_word(status: str | None, style: str) -> str:
    """A pod's draft as the room display says it: "drafting", then "done" once its pools are recorded (its draft
    record's later states, "building" or "done", are the draft file's own, not the night's: "building" at round 3
    read as if decks were still being built); a pod with no draft record (a physical draft) by the event's style."""
    if status is None:
        return style
    return "drafting" if status == "drafting" else "done"


def history_table(entries: Sequence[Entry]) -> Table:
    """The event's history, oldest first: when, who, what, old and new value (undos name the entry they take back),
    every value in words."""
    table = Table("#", "When (UTC)", "Who", "What", "Old", "New", title="History", title_justify="left")
    kinds = {entry.id: entry.what for entry in entries}
    for entry in entries:
        # an undo's values are those of the entry it undoes
        kind = kinds.get(entry.undoes, entry.what) if entry.undoes is not None else entry.what
        table.add_row(
            str(entry.id),
            entry.at.replace("T", " ").replace("+00:00", ""),
            shown(entry.who),
            shown(entry.what_text),
            shown(value_text(entry.old, kind)),
            shown(value_text(entry.new, kind)),
        )
    if not entries:
        table.caption = "No change recorded yet."
    return table


def deck_board(snap: Snapshot) -> Table:
    table = Table(
        name_column("Player"),
        "Pool",
        "Deck",
        "Commanders",
        "Problems",
        title=shown(f"Deck registration: {snap.event.name}"),
    )
    styles = {"missing": "yellow", "legal": "green", "illegal": "red"}
    rows = registrations(snap)  # (dropped players and bots register no deck)
    table.caption = shown(registrations_words(rows))
    for p, registered in rows:
        deck = p.deck
        state = shown(registered, style=styles[registered])
        problems = "" if not deck else "; ".join(problem_lines(deck.problems))
        commanders = " + ".join(deck.commanders_shown()) if deck else ""
        table.add_row(shown(p.name), str(p.pool_size or "—"), state, shown(commanders or "—"), shown(problems))
    return table


def _opened(pod: Pod, ledger: Ledger | None) -> str:
    """Pipers opened in a pod for the board: counted in its recorded pools."""
    row = ledger.pod(pod.number) if ledger else None
    if row is None or row.opened is None:
        return "—"
    partial = "" if row.pools_recorded == row.seats else f" ({row.pools_recorded}/{row.seats} pools)"
    return f"{row.opened}{partial}"


def piper_ledger(ledger: Ledger) -> Table:
    """The ledger of the product's added card, titled in its words ("Faceless One stock" for CLB)."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold")
    grid.add_column()
    for pod in ledger.pods:
        opened = (
            "no pool recorded yet"
            if pod.opened is None
            else f"{pod.opened} in {pod.pools_recorded} of {pod.seats} recorded pools"
        )
        line = shown(opened)
        if pod.typed is not None:
            line.append(
                f"; typed {pod.typed}" + (" — DISAGREES with the pools" if pod.disagrees else ""),
                style="bold yellow" if pod.disagrees else "",
            )
        grid.add_row(f"Opened, pod {pod.pod}", line)
    if not ledger.pods:
        grid.add_row("Opened", f"{ledger.held_in_pools} in the recorded pools")
    grid.add_row(f"{ledger.word} stock", str(ledger.stock))
    grid.add_row(
        "Added by decks",
        shown(join_names(f"{d.player} {d.added}" for d in ledger.decks if d.added) or "none"),
    )
    grid.add_row("Needed", str(ledger.needed))
    grid.add_row("Unused in pools", str(ledger.unused))
    grid.add_row("Available", f"{ledger.available} (unused + store stock)")
    if ledger.shortfall:
        grid.add_row(
            shown("SHORTFALL", style="bold red"),
            shown(f"{ledger.counted(ledger.shortfall)} short for the registered decks", style="red"),
        )
    lenders = join_names(
        f"{lender.player} ({lender.spare}{'' if lender.deck_registered else ', no deck yet'}"
        f"{', dropped' if lender.dropped else ''})"
        for lender in ledger.lenders
    )
    grid.add_row("Could lend", shown(lenders or "nobody"))
    forecast = ledger.forecast
    if forecast.spent:
        return grid  # every deck is registered: the requests made before deck building no longer tell anything
    grid.add_row("", "")
    grid.add_row(shown("Forecast", style="bold dim"), shown("from requests made before deck building", style="dim"))
    grid.add_row("Requested", shown(join_names(f"{r.player} {r.requested}" for r in forecast.requests) or "none"))
    grid.add_row("Needed from others", str(forecast.needed_from_others))
    grid.add_row("Could be lent", str(forecast.available))
    if forecast.shortfall > ledger.shortfall:  # the requests add to what the decks already lack
        grid.add_row(
            shown("forecast short", style="yellow"),
            shown(f"{ledger.counted(forecast.shortfall)}, if the requests hold", style="yellow"),
        )
    return grid


def standings_table(
    rows: Sequence[Standing],
    points: Sequence[float] | None = None,
    title: str = "Standings",
    absent: Sequence[str] = (),
) -> Table:
    """Standings with shared ranks for exact ties, figures rounded for reading, a legend for every column, and the
    players who did not play (``absent``) listed apart under it; once the final table has its result, the winner
    named in the title and each finalist's place there in a column of its own."""
    final = any(row.final_place is not None for row in rows)
    lines = [
        *(standings_legend(points) if points is not None else ()),
        *((FINAL_TABLE_LEGEND,) if final else ()),
        *did_not_play_lines(absent),
    ]
    caption = "\n".join(lines) if lines else None
    won = winner_line(rows)
    table = Table(
        "Rank",
        name_column("Player"),
        "Points",
        OPPONENTS_AVERAGE,
        AVERAGE_PLACE,
        "Rounds",
        *(("Final table",) if final else ()),
        title=shown(title + (f"\n{won}" if won else "")),
        caption=shown(caption) if caption else None,
        caption_justify="left",
    )
    for row in rows:
        name = shown(row.name + (" (dropped)" if row.dropped else ""))
        table.add_row(
            row.rank_text,
            name,
            number_text(row.points),
            tie_breaker_figure(row.opponents_shown),
            tie_breaker_figure(row.average_place),
            str(row.rounds),
            *((final_place_text(row.final_place),) if final else ()),
        )
    return table


def game_board(board: GameBoard) -> Table:
    table = Table(
        name_column("Player"),
        "Life",
        "Commander damage taken",
        "Commander tax",
        "",
        title=shown(f"Round {board.round}, table {board.table}"),
    )
    for p in board.players:
        damage = join_names(f"{h.label} {h.amount}" for h in p.commander_damage) or "—"
        tax = join_names(f"{t.label} +{{{t.tax}}}" for t in p.tax) or "—"
        table.add_row(
            shown(p.player),
            str(p.life),
            shown(damage),
            shown(tax),
            shown("LOST", style="bold red") if p.lost else "",
        )
    return table


def _added(added: int | None, requested: int) -> str:
    """A player's added cards (Pipers): what their registered deck adds, else what they asked for before it was."""
    if added:
        return f"{added} added"
    return f"{requested} requested" if requested else ""
