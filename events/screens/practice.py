"""Solo draft practice at the terminal: pick screen, deck building, review and export.

Everything is saved after every pick (see ``events.storage.draft_files``); quitting, closing
the terminal or a crash loses nothing, and ``cmdraft play --resume`` goes on at
the same pick with the same boosters.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.segment import Segment, Segments
from rich.text import Text

from draft.advice import review as advice_review
from draft.advice import seat_advice, signals
from draft.deckbuild import build_deck
from draft.decks import Deck, validate
from draft.engine import PickRequest, StalePickError
from draft.sim import piper_card
from events import timing
from events.screens.builder import DeckBuilder, pool_order
from events.screens.cards import card_request, show_card
from events.screens.picks import HELP_PICK, parse_selection
from events.screens.render import (
    card_list_table,
    db_option,
    fit_table,
    identity_text,
    join_names,
    pack_table,
    passing,
    shown,
    signals_table,
    text_line,
)
from events.screens.terminal import Quit, Terminal
from events.storage.draft_files import TableSession
from sets.booster import Printing
from sets.cards import Card
from sets.errors import InputError
from sets.numbers import is_number

_ROW = re.compile(r"^\s*\d+\s")  # a pack table line that starts a card's row (its number)


def pool_summary(pool: list[Card]) -> Text:
    """Pool by color and curve, with the cards that can lead."""
    colors = Counter()
    for card in pool:
        ident = card.deck_colors
        colors["multi" if len(ident) > 1 else (ident.code or "C")] += 1
    curve = Counter(min(int(card.mana_value), 6) for card in pool if not card.is_land)
    text = Text(f"Pool ({len(pool)}): ")
    for key in ("W", "U", "B", "R", "G", "multi", "C"):
        text.append_text(identity_text(key) if len(key) == 1 else Text(key, style="magenta"))
        text.append(f" {colors[key]}  ")
    text.append("| curve " + " ".join(f"{'6+' if mv == 6 else mv}:{curve[mv]}" for mv in range(7)))
    leaders = sorted({card.name for card in pool if card.can_be_commander})
    if leaders:
        text.append("\nCan lead: " + join_names(leaders), style="bold")
    return text


class PracticeUI(DeckBuilder):
    def __init__(
        self,
        session: TableSession,
        console: Console,
        terminal: Terminal,
        export_root: Path | None = None,
        confirm: bool = False,
    ):
        self.session = session
        self.confirm_picks = confirm
        self.console = console
        self.terminal = terminal
        self.seat = session.humans[0]
        self.export_root = export_root or Path.cwd()
        self.piper = piper_card(session.draft.config.set_code)

    def run(self) -> None:
        try:
            while not self.session.draft.finished:
                self.pick_once()
            self.console.print(
                f"[bold green]The draft is over.[/] You drafted {len(self.pool_cards())} cards.", markup=True
            )
            self.build()
        except (Quit, KeyboardInterrupt):
            # every pick and every deck change is already on disk
            # written straight to the terminal: an interrupt may have caught rich halfway through a print
            self.console.file.write(
                f"\nSaved. Resume with: cmdraft play --resume {self.session.draft_id}"
                f"{db_option(self.session.store.path)}\n"
            )
            self.console.file.flush()

    def pool_cards(self) -> list[Card]:
        return [p.card for p in self.session.draft.pools[self.seat]]

    token: str | None = None  # this terminal's binding of the seat (seat codes), if any

    def timer_seconds(self, pack_size: int) -> float | None:
        return self.session.pick_seconds(pack_size)

    def status_line(self, seconds: int | None = None) -> Text:
        """Where the draft is, kept just above the prompt so it never scrolls away (the timer ticks here)."""
        draft = self.session.draft
        text = Text(
            f"Pack {draft.round + 1} of {draft.config.boosters}, pick {draft.pick_number} of {draft.picks_per_pack}"
            f" · passing {passing(draft.direction > 0)}",
            style="bold cyan",
        )
        if seconds is not None:
            text.append(f" · {seconds}s left", style="bold yellow")
        return text

    def show_pack(self, pack: list[Printing], deadline: float | None = None, page: int = 0) -> int:
        """The pack on screen, a page of it when the terminal is too short for all of it; returns the pages."""
        draft = self.session.draft
        # An event's packs are secret while it runs: only a practice draft shows the seed that replays it.
        seed = f" (seed {draft.seed})" if self.session.doc.get("kind") == "practice" else ""
        self.console.rule(
            Text(f"seat {self.seat + 1} of {draft.config.seats} · draft {self.session.draft_id}{seed}"), style="dim"
        )
        summary = pool_summary(self.pool_cards())
        # rule, the page note, the status line, the prompt, one line for an answer, and the pool summary
        room = self.console.height - 5 - len(summary.plain.splitlines())
        # the table is laid out once, whole; a page is a run of its rows (a row may wrap onto more lines)
        lines = self.console.render_lines(pack_table(pack, width=self.console.width), self.console.options, pad=False)
        starts = [i for i, line in enumerate(lines) if _ROW.match("".join(segment.text for segment in line))]
        bounds = starts + [len(lines)]
        pages, first = [], 0
        for index in range(len(starts)):
            if bounds[index + 1] - bounds[first] > room - starts[0] and index > first:
                pages.append((first, index))
                first = index
        pages.append((first, len(starts)))
        page %= len(pages)
        first, end = pages[page]
        shown_lines = lines[: starts[0]] + lines[bounds[first] : bounds[end]]
        self.console.print(Segments([segment for line in shown_lines for segment in [*line, Segment.line()]]), end="")
        if len(pages) > 1:
            self.console.print(
                Text(f"cards {first + 1}-{end} of {len(pack)} · Enter or 'more': the other cards", style="bold")
            )
        self.console.print(summary)
        if deadline is None:
            self.console.print(self.status_line())
        return len(pages)

    def _shown_with_deadline(self, pack: list[Printing]) -> tuple[float | None, int]:
        """Show the pack; returns its pages and when this pick ends on this process's monotonic clock: the draft's own
        deadline for an event draft (kept in the draft file, the same at every terminal and after a
        restart), else a practice timer that starts once the pack is on the screen."""
        if getattr(self.session, "timed", False):
            at = self.session.deadline()
            deadline = None if at is None else timing.monotonic() + (at - timing.now())
            return deadline, self.show_pack(pack, deadline)
        seconds = self.timer_seconds(len(pack))
        pages = self.show_pack(pack, seconds)
        # the clock starts once the pack is on the screen: the first pick shows the full time
        return (timing.monotonic() + seconds if seconds else None), pages

    def pick_once(self) -> None:
        draft = self.session.draft
        pack = draft.pack(self.seat)
        due = draft.picks_due(self.seat)
        seen = (draft.round + 1, draft.pick_number)  # the pack state on the screen: the pick names it
        if len(pack) <= due:  # nothing to choose: the last cards of the pack
            self.console.print(
                Text("Last pick of the pack: " + " + ".join(p.card.name for p in pack) + " (taken for you).")
            )
            self.submit(PickRequest(self.seat, *seen, tuple(pack)), seen)
            return
        page = 0
        deadline, pages = self._shown_with_deadline(pack)
        status = self.status_line if deadline else None
        while True:
            line = self.terminal.ask(f"Pick {due} (numbers or names; pool, hint, help, quit)> ", deadline, status)
            if line is None:
                self.time_up(seen, pack)
                return
            command = line.lower()
            if command in ("quit", "q", "exit"):
                raise Quit()
            if command in ("", "more", "m"):
                if pages > 1:
                    page += 1
                    self.show_pack(pack, deadline, page)
                continue
            if command in ("help", "?"):
                self.console.print(Text(HELP_PICK))
            elif command in ("pool", "p"):
                self.show_pool()
            elif command in ("hint", "h"):
                for reason in seat_advice(draft, self.seat).reasons():
                    self.console.print(Text("Hint: " + reason, style="cyan"))
            elif command in ("signals", "s"):
                self.console.print(signals_table(signals(draft, self.seat), width=self.console.width))
            else:
                command = None
            if command is not None:
                # what was asked stays on the screen until Enter
                if self.terminal.ask("Enter: back to the pack ", deadline, status) is None:
                    self.time_up(seen, pack)
                    return
                self.show_pack(pack, deadline, page)
                continue
            asked = card_request(line)
            if asked is not None:
                show_card(self.console, asked, [p.card for p in pack], "this pack")
                continue
            try:
                positions = parse_selection(line, pack, due)
            except InputError as error:
                self.console.print(Text.assemble((str(error), "red"), " — same pick again."))
                continue
            chosen = " + ".join(f"{i + 1} {pack[i].card.name}" for i in positions)
            for i in positions:
                self.console.print(text_line(pack[i].card, self.console.width))
            if self.confirm_picks:
                answer = self.terminal.ask(f"Take {escape(chosen)}? [Y/n] ", deadline)
                if answer is None:
                    if getattr(self.session, "timed", False):
                        self.time_up(seen, pack)  # the draft's clock ran out: its pick is the one everybody gets
                        return
                    self.console.print("[yellow]Time is up:[/] taking what you chose.", markup=True)
                elif answer.lower() not in ("", "y", "yes"):
                    continue
            else:
                self.console.print(Text(f"Took {chosen}.", style="green"))
            started = time.perf_counter()
            self.submit(PickRequest(self.seat, *seen, tuple(pack[i] for i in positions)), seen)
            self.last_pick_seconds = time.perf_counter() - started
            return

    def submit(self, request: PickRequest, seen: tuple[int, int]) -> None:
        """Send the pick; one refused because the pack moved on says so (the caller shows the new pack)."""
        try:
            self.session.pick(request, self.token)
        except StalePickError as error:
            self.moved_on(seen, error)

    def _taken_at(self, seen: tuple[int, int]):
        return next(
            (p for p in reversed(self.session.draft.log) if p.seat == self.seat and (p.pack, p.pick) == seen), None
        )

    def time_up(self, seen: tuple[int, int], pack: list[Printing]) -> None:
        """The pick's time ran out: the draft's timeout (once, the same for every terminal) or a practice auto-pick."""
        if getattr(self.session, "timed", False):
            self.session.apply_timeout()
            if self._taken_at(seen) is None:
                timing.sleep(0.05)  # not quite due by the draft's clock yet: the pack is shown again
                return
            why = "the strong bot's pick, the same at every terminal"
        else:
            self.session.pick(self.session.suggested_pick(self.seat), self.token)
            why = "the best pick for your colors"
        taken = self._taken_at(seen)
        names = " + ".join(p.card.name for p in taken.taken)
        self.console.print(Text.assemble(("Time is up:", "yellow"), f" took {names} for you ({why})."))

    def moved_on(self, seen: tuple[int, int], error: StalePickError) -> None:
        """The pick was refused: the pack on the screen is no longer the seat's (say what happened to it)."""
        taken = self._taken_at(seen)
        self.console.print(Text.assemble(("Not taken: ", "bold red"), str(error)))
        if taken is not None:
            names = " + ".join(p.card.name for p in taken.taken)
            self.console.print(
                Text.assemble(
                    ("Time ran out", "yellow"), f" for pack {seen[0]} pick {seen[1]}: {names} were taken for you."
                )
            )
        self.console.print(Text("Here is the pack in front of you now.", style="yellow"))

    def show_pool(self) -> None:
        self.console.print(
            pack_table(
                sorted(self.session.draft.pools[self.seat], key=pool_order),
                title="Your pool",
                numbered=False,
                width=self.console.width,
            )
        )
        self.console.print(pool_summary(self.pool_cards()))

    def cmd_review(self, args: list[str]) -> None:
        review(self.console, self.session)

    def cmd_bot(self, args: list[str]) -> None:
        if len(args) != 1 or not is_number(args[0]):
            raise InputError("bot N: a bot's pool and deck, N its seat ('review' lists them)")
        bot_view(self.console, self.session, int(args[0]) - 1)

    def cmd_export(self, args: list[str]) -> None:
        force = "--force" in args
        args = [arg for arg in args if arg != "--force"]
        folder = Path(args[0]).expanduser() if args else self.export_root / f"cmdraft-practice-{self.session.draft_id}"
        notes: list[str] = []
        written = export_practice(self.session, self.deck(), folder, notes, force=force)
        self.say(Text(f"Wrote {len(written)} files to {folder}"))
        for note in notes:
            self.say(Text(note))


def bot_decks(session: TableSession) -> list[tuple[int, Deck, object]]:
    """Every bot seat's deck from its pool (built the bots' way) with its check: (seat, deck, report)."""
    draft = session.draft
    piper = piper_card(draft.config.set_code)
    out = []
    for seat in range(draft.config.seats):
        if seat in session.humans:
            continue
        deck = build_deck(draft.pools[seat], piper, f"{session.names[seat]} (practice draft {session.draft_id})")
        out.append((seat, deck, validate(deck, [p.card for p in draft.pools[seat]])))
    return out


def review_table(session: TableSession, seat: int, width: int | None = None):
    """Every pick of a seat: what it took, what the hint would have taken, the rating difference, what wheeled."""
    rows = []
    for row in advice_review(session.draft, seat):
        same = {c.name for c in row.taken} == {c.name for c in row.hint}
        rows.append(
            [
                f"P{row.pack}p{row.pick}",
                shown(" + ".join(c.name for c in row.taken), style="green"),
                shown("same" if same else " + ".join(c.name for c in row.hint), style="dim" if same else "cyan"),
                f"{row.difference:+.1f}" if not same else "0.0",
                shown(join_names([c.name for c in row.wheeled])),
            ]
        )
    return fit_table(
        ["Pick", "You took", "Hint took", "Rating ±", "Wheeled"],
        rows,
        essential={"Pick", "You took", "Rating ±"},
        width=width,
        title="Your picks (Rating ±: how much more the hint's pair is rated)",
        justify={"Rating ±": "right"},
    )


def bots_table(session: TableSession, width: int | None = None):
    rows = []
    for seat, deck, report in bot_decks(session):
        rows.append(
            [
                str(seat + 1),
                shown("\n".join(c.name for c in deck.commanders)),
                identity_text(report.color_identity.code),
                "yes" if report.valid else "no",
                session.doc["styles"][seat],
            ]
        )
    return fit_table(
        ["Seat", "Commanders", "Colors", "Legal", "Bot"],
        rows,
        essential={"Seat", "Commanders", "Colors", "Legal"},
        width=width,
        title="The bots' decks ('bot N' shows one; export writes practice-bot-N-deck.*)",
    )


def review(console: Console, session: TableSession) -> None:
    """Every pick of the human seats (what was taken, what the hint would have taken, what wheeled) and the bots' decks."""
    for seat in session.humans:
        console.print(review_table(session, seat, console.width))
    console.print(bots_table(session, console.width))


def bot_view(console: Console, session: TableSession, seat: int) -> None:
    """One bot's pool and deck."""
    for bot_seat, deck, _report in bot_decks(session):
        if bot_seat == seat:
            console.print(
                pack_table(
                    sorted(session.draft.pools[seat], key=pool_order),
                    title=f"Seat {seat + 1}: pool",
                    numbered=False,
                    width=console.width,
                )
            )
            rows = [["C", c.name, identity_text(c.identity.code), str(c.mana_value)] for c in deck.commanders]
            rows += [
                [str(n), c.name, identity_text(c.deck_colors.code), str(c.mana_value)]
                for c, n in sorted(deck.main.items(), key=lambda kv: (kv[0].is_land, kv[0].mana_value, kv[0].name))
            ]
            console.print(
                card_list_table(
                    ["Count", "Card", "Id", "MV"],
                    rows,
                    title=f"Seat {seat + 1}: deck ({deck.size} cards)",
                    width=console.width,
                )
            )
            return
    raise InputError(
        f"seat {seat + 1} is not a bot seat: bots sit at "
        + ", ".join(str(s + 1) for s in range(session.draft.config.seats) if s not in session.humans)
    )


def export_practice(
    session: TableSession, deck: Deck, folder: Path, notes: list[str] | None = None, *, force: bool = False
) -> list[Path]:
    """Your pool, deck, draft log and the draft; every bot's pool and deck beside them (``practice-bot-N-*``)."""
    from draft.log import mtgo_log
    from events.outputs.exports import export_seat, write_file
    from events.outputs.guard import check_folder

    folder = check_folder(folder, force)
    seat = session.humans[0]
    stem = "practice"
    written = export_seat(
        folder,
        stem,
        session.draft.pools[seat],
        deck if deck.lines else None,
        mtgo_log(session.draft, seat, session.names),
        notes,
        force=force,
    )
    if session.draft.finished:
        for bot_seat, bot_deck, _ in bot_decks(session):
            written += export_seat(
                folder, f"{stem}-bot-{bot_seat + 1}", session.draft.pools[bot_seat], bot_deck, None, notes, force=force
            )
    path = folder / f"{stem}-draft.json"
    write_file(path, json.dumps(session.draft.to_json(), separators=(",", ":")), force)
    return [*written, path]


class PoolBuildUI(PracticeUI):
    """The deck builder over a pool that wasn't drafted here (``cmdraft build POOL``, ``sealed --build``)."""

    def __init__(self, session, console: Console, terminal: Terminal, stem: str, export_root: Path | None = None):
        super().__init__(session, console, terminal, export_root=export_root)
        self.stem = stem

    def run(self) -> None:
        try:
            self.build()
        except (Quit, KeyboardInterrupt):
            self.console.file.write("\n" + self.farewell() + "\n")
            self.console.file.flush()

    def farewell(self) -> str:
        return f"Saved. The same command opens this deck again (build {self.session.draft_id})."

    def deck_name(self) -> str:
        return self.stem  # the pool's own name, as its exported files have it: it was never drafted here

    def cmd_review(self, args: list[str]) -> None:
        raise InputError("this pool wasn't drafted here: there are no picks to review")

    def cmd_bot(self, args: list[str]) -> None:
        raise InputError("this pool wasn't drafted here: there are no bots")

    def cmd_export(self, args: list[str]) -> None:
        from events.outputs.exports import export_seat

        force = "--force" in args  # files of an earlier run are replaced only when asked (events.outputs.guard)
        args = [arg for arg in args if arg != "--force"]
        folder = Path(args[0]).expanduser() if args else self.export_root
        deck = self.deck()
        notes: list[str] = []
        written = export_seat(
            folder, self.stem, self.session.draft.pools[0], deck if deck.lines else None, None, notes, force=force
        )
        self.say(Text(f"Wrote {len(written)} files to {folder} ({self.stem}-deck.*, {self.stem}-pool.*)"))
        for note in notes:
            self.say(Text(note))
