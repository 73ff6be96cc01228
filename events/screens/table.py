"""The draft table at the line prompt: the pack (a page of it on a short terminal), where the draft is, the
timer above the prompt, and the pick typed by numbers or names.

``TablePrompt`` holds one ``SeatSession`` (``events.sessions.seat``): the pick, its clock and what runs out
of it live there, the same for the full-screen app; this module only shows them and reads the lines.
"""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from draft.deck_state import plural, pool_order
from events import timing
from events.night.refusals import WrongCount
from events.outputs.text import hanging, join_names
from events.screens.cards import card_request, show_card
from events.screens.deck_tables import signals_lines
from events.screens.picks import HELP_PICK, HELP_PICK_UNASSISTED, chosen_words, parse_selection
from events.screens.render import card_lines, identity_text, passing_words, shown, text_line
from events.screens.terminal import Quit, Terminal
from events.sessions.seat import NO_ASSISTANCE, Refused, SeatSession, Taken, where_words
from events.sessions.table import caught_up
from sets.booster import Printing
from sets.cards import Card
from sets.errors import InputError
from sets.visible import sentence


def pool_summary(pool: list[Card], leaders: bool = True, curve_apart: bool = False) -> Text:
    """Pool by color and curve, with the cards that can lead (``leaders``: where assistance is allowed);
    ``curve_apart``: the curve on a line of its own (the line prompt: no line longer than 80 columns)."""
    colors: Counter[str] = Counter()
    for card in pool:
        ident = card.deck_colors
        colors["multi" if len(ident) > 1 else (ident.code or "C")] += 1
    curve = Counter(min(int(card.mana_value), 6) for card in pool if not card.is_land)
    text = Text(f"Pool ({len(pool)}): ")
    for key in ("W", "U", "B", "R", "G", "multi", "C"):
        text.append_text(identity_text(key) if len(key) == 1 else Text(key, style="magenta"))
        text.append(f" {colors[key]}  ")
    text.append(
        ("\nCurve: " if curve_apart else "| curve ")
        + " ".join(f"{'6+' if mv == 6 else mv}:{curve[mv]}" for mv in range(7))
    )
    can_lead = sorted({card.name for card in pool if card.can_be_commander}) if leaders else []
    if can_lead:
        text.append("\nCan lead: " + join_names(can_lead), style="bold")
    return text


def meanwhile(outcome: Refused) -> Text:
    """Who took the pick a refused one was made on, and what they took."""
    pick = outcome.taken_meanwhile
    assert pick is not None  # a refusal because another took the pick says which pick that was
    names = " + ".join(p.card.name for p in pick.taken)
    at = f"pack {pick.pack} pick {pick.pick}"
    if outcome.by == "timer":
        return Text.assemble(("Time ran out", "yellow"), f" for {at}: {names} were taken for you.")
    if outcome.by == "desk":
        return Text.assemble(("The desk handed this seat to a bot", "yellow"), f": it took {names} at {at}.")
    return Text.assemble(("Another terminal picked for this seat", "yellow"), f" at {at}: it took {names}.")


class TablePrompt:
    """One seat's picks at the line prompt (``seat.confirm``: ask before taking each one)."""

    def __init__(
        self, seat: SeatSession, console: Console, terminal: Terminal | None, introduced: bool = False
    ) -> None:
        self.seat, self.console, self.terminal = seat, console, terminal
        # the seat sentence never changes: said as the prompt first shows a pack and on 'list', not before every
        # pick and page (a screen reader read it out 27 times a draft); ``introduced``: said by an earlier prompt
        self.introduced = introduced

    def _asking(self) -> Terminal:
        """The terminal a question goes to (a prompt made without one only shows: a benchmark, a report)."""
        assert self.terminal is not None, "this prompt was made without a terminal to ask at"
        return self.terminal

    def status_line(self, seconds: int | None = None) -> Text:
        """Where the draft is, kept just above the prompt so it never scrolls away (the timer ticks here)."""
        draft = self.seat.draft
        where = where_words(draft.round + 1, draft.config.boosters, self.seat.at[1], draft.picks_per_pack)
        text = Text(
            f"{where[:1].upper()}{where[1:]}, passing {passing_words(draft.direction > 0)}",  # the phones' words
            style="bold cyan",
        )
        if seconds is not None:
            text.append(f", {seconds}s left", style="bold yellow")
        return text

    def show_pack(self, pack: list[Printing], timed: bool = False, page: int = 0, listed: bool = False) -> int:
        """The pack on screen, a card a line (a page of them when the terminal is too short for all); returns the
        pages.  ``timed``: the status line is drawn by the timer above the prompt, not here.  Everything is words a
        screen reader can read: where the draft is as a sentence, no rule of dashes, no table's wrapped cells."""
        table, draft = self.seat.table, self.seat.draft
        # An event's packs are secret while it runs: only a practice draft shows the seed that replays it.
        seed = f" (seed {draft.seed})" if table.kind == "practice" else ""
        rules = "" if table.kind == "practice" else (", assistance allowed" if self.seat.assist else ", no assistance")
        # A practice draft's number is the one 'play --resume' takes; an event's draft record number means nothing
        # to a player at a store night (the line above names their pod and seat), so it is left out there.
        number = f", draft {table.draft_id}" if table.kind == "practice" else ""
        where = f"Seat {self.seat.seat + 1} of {draft.config.seats}{number}{seed}{rules}."
        if listed or not self.introduced:
            self.console.print(Text(where, style="dim"))
            self.introduced = True
        summary = pool_summary(self.seat.pool, self.seat.assist, curve_apart=True)
        width = max(1, self.console.width)
        lines = card_lines(pack, width=width)
        rows = [len(line.wrap(self.console, width)) for line in lines]  # a line wider than the terminal wraps
        # the sentence, the page note, the status line, the prompt, one line for an answer, and the pool summary; a
        # page only on a terminal: written to a pipe or a file (a script, a log), the whole pack is written out
        room = max(1, self.console.height - 5 - len(summary.wrap(self.console, width)))
        room = room if self.console.is_terminal else sum(rows)
        pages, first, used = [], 0, 0
        for index, height in enumerate(rows):
            if used + height > room and index > first:
                pages.append((first, index))
                first, used = index, 0
            used += height
        pages.append((first, len(lines)))
        page %= len(pages)
        first, end = pages[page]
        for line in lines[first:end]:
            self.console.print(line)
        if len(pages) > 1:
            self.console.print(
                Text(f"Cards {first + 1} to {end} of {len(pack)}. Enter or 'more': the other cards.", style="bold")
            )
        if page == 0:  # the same pick's later pages: the pool is as the first page said (room is kept for it)
            self.console.print(summary)
        if not timed:
            self.console.print(self.status_line())
        return len(pages)

    def pick_once(self) -> None:
        """Show the seat's pack and take one pick (or the last cards of the pack, which need no choosing)."""
        seat = self.seat
        if seat.last_cards_due:
            names = " + ".join(p.card.name for p in seat.pack)
            self.console.print(Text("Last pick of the pack: " + names + " (taken for you)."))
            self.report(seat.take_last_cards())
            return
        seat.show()
        pack, due = seat.pack, seat.due
        page = 0
        deadline = None if seat.deadline is None else timing.monotonic() + (seat.deadline - seat.clock())
        pages = self.show_pack(pack, deadline is not None)
        status = self.status_line if deadline else None
        while True:
            commands = "pool, hint, help, quit" if seat.assist else "pool, help, quit"
            cards = "card" if due == 1 else "cards"  # how many to take now, not which pick this is
            line = self._asking().ask(f"Take {due} {cards} (numbers or names; {commands})> ", deadline, status)
            if line is None:
                self.time_up()
                return
            command: str | None = line.lower()
            if command in ("quit", "q", "exit"):
                raise Quit()
            if command in ("", "more", "m"):
                if pages > 1:
                    page += 1
                    self.show_pack(pack, deadline is not None, page)
                continue
            if command in ("list", "l"):
                page = 0
                self.show_pack(pack, deadline is not None, page, listed=True)
                continue
            if command in ("help", "?"):
                self.console.print(
                    Text(hanging(HELP_PICK if seat.assist else HELP_PICK_UNASSISTED, self.console.width))
                )
            elif command in ("hint", "h", "signals", "s") and not seat.assist:
                self.console.print(Text(NO_ASSISTANCE[0].upper() + NO_ASSISTANCE[1:] + ".", style="yellow"))
                continue
            elif command in ("pool", "p"):
                self.show_pool()
            elif command in ("hint", "h"):
                for reason in seat.hint().reasons():
                    self.console.print(Text("Hint: " + reason, style="cyan"))
            elif command in ("signals", "s"):
                for said in signals_lines(seat.signals()):
                    self.console.print(shown(said), soft_wrap=True)  # one line a color, names written out
            else:
                command = None
            if command is not None:
                # what was asked stays on the screen until Enter
                back = self._asking().ask("Enter: back to the pack, or quit ", deadline, status)
                if back is None:
                    self.time_up()
                    return
                if back.lower() in ("quit", "q", "exit"):
                    raise Quit()
                if not (caught_up(seat.table) and seat.current):
                    # the pack moved on meanwhile (another terminal, the desk): the caller shows the one here now
                    waits = not seat.draft.finished and seat.seat not in seat.draft.waiting()
                    moved = seat.stale_words(seat.seen or seat.at, waits)
                    self.console.print(Text(sentence(moved), style="yellow"))
                    return
                self.remind(deadline is not None)
                continue
            asked = card_request(line)
            if asked is not None:
                show_card(self.console, asked, [p.card for p in pack], "this pack")
                continue
            try:
                positions = parse_selection(line, pack, due)
            except (InputError, WrongCount) as error:
                # one line however long: the terminal wraps it, a screen reader reads it whole
                self.console.print(Text.assemble((str(error), "red"), " — same pick again."), soft_wrap=True)
                continue
            chosen = chosen_words(pack, positions)
            for i in positions:
                self.console.print(text_line(pack[i].card, self.console.width, plain=True))
            if seat.confirm:
                seat.mark_only(positions)  # chosen, not yet confirmed: the timer takes them if time runs out first
                answer = self._asking().ask(f"Take {escape(chosen)}? [Y/n] ", deadline)
                if answer is None:
                    if seat.timed:
                        self.time_up()  # the draft's clock ran out: the cards chosen are the ones taken
                        return
                    self.console.print("[yellow]Time is up:[/] taking what you chose.", markup=True)
                elif answer.lower() not in ("", "y", "yes"):
                    seat.mark_only([])
                    continue
            outcome = seat.pick(positions)
            if isinstance(outcome, Taken) and not seat.confirm:
                self.console.print(
                    Text(f"Took {chosen}.", style="green")
                )  # only once it is taken: never before a refusal
            self.report(outcome)
            return

    def remind(self, timed: bool) -> None:
        """After an aside (the pool, the hint, the signals, the help): one line saying the pack is the same and how
        to have it listed again, not the whole pack read out again (``timed``: the timer draws the status line)."""
        seat = self.seat
        cards = plural(len(seat.pack), "card")
        self.console.print(Text(f"Back to the same pack: {cards}, take {seat.due} ('list' reads it again)."))
        if not timed:
            self.console.print(self.status_line())

    def report(self, outcome: Taken | Refused) -> None:
        """A refused pick says what happened to the pack on the screen (the caller shows the new pack)."""
        if isinstance(outcome, Taken):
            return
        self.console.print(Text.assemble(("Not taken: ", "bold red"), outcome.reason))
        if outcome.taken_meanwhile is not None:
            self.console.print(meanwhile(outcome))
        self.console.print(Text("Here is the pack in front of you now.", style="yellow"))

    def time_up(self) -> None:
        """The pick's time ran out: the draft's timeout (once, the same for every terminal) or a practice auto-pick."""
        taken = self.seat.time_up()
        if taken is None:
            timing.sleep(0.05)  # not quite due by the draft's clock yet: the pack is shown again
            return
        names = " + ".join(p.card.name for p in taken.pick.taken)
        self.console.print(Text.assemble(("Time is up:", "yellow"), f" took {names} for you ({taken.why})."))

    def show_pool(self) -> None:
        pool = sorted(self.seat.draft.pools[self.seat.seat], key=pool_order)
        self.console.print(Text(f"Your pool, {plural(len(pool), 'card')}:" if pool else "Your pool is empty."))
        for line in card_lines(pool, numbered=False, width=self.console.width):
            self.console.print(line)
        self.console.print(pool_summary(self.seat.pool, self.seat.assist, curve_apart=True))
