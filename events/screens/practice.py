"""Solo draft practice at the terminal: pick screen, deck building, review and export.

Everything is saved after every pick (see ``events.drafts``); quitting, closing
the terminal or a crash loses nothing, and ``cmdraft play --resume`` goes on at
the same pick with the same boosters.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.text import Text

from draft.deckbuild import build_deck
from draft.decks import Deck, validate
from draft.sim import piper_card
from events.drafts import TableSession
from events.screens.builder import DeckBuilder, pool_order
from events.screens.cards import card_request, show_card
from events.screens.picks import HELP_PICK, join_names, parse_selection
from events.screens.render import fit_table, identity_text, pack_table, passing, text_line
from events.screens.terminal import Quit, Terminal
from sets.booster import Printing
from sets.cards import Card
from sets.errors import InputError


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

    def __init__(self, session: TableSession, console: Console, terminal: Terminal, export_root: Path | None = None):
        self.session = session
        self.console = console
        self.terminal = terminal
        self.seat = session.humans[0]
        self.export_root = export_root or Path.cwd()
        self.piper = piper_card(session.draft.config.set_code)

    def run(self) -> None:
        try:
            while not self.session.draft.finished:
                self.pick_once()
            self.console.print(f"[bold green]The draft is over.[/] You drafted {len(self.pool_cards())} cards.", markup=True)
            self.build()
        except (Quit, KeyboardInterrupt):
            # every pick and every deck change is already on disk
            # written straight to the terminal: an interrupt may have caught rich halfway through a print
            self.console.file.write(f"\nSaved. Resume with: cmdraft play --resume {self.session.draft_id}\n")
            self.console.file.flush()

    def pool_cards(self) -> list[Card]:
        return [p.card for p in self.session.draft.pools[self.seat]]

    def timer_seconds(self, pack_size: int) -> float | None:
        base = self.session.doc.get("timer")
        if not base:
            return None
        return max(5.0, base * pack_size / max(1, self.session.draft.pack_size))

    def status_line(self, seconds: int | None = None) -> Text:
        """Where the draft is, kept just above the prompt so it never scrolls away (the timer ticks here)."""
        draft = self.session.draft
        text = Text(f"Pack {draft.round + 1} of {draft.config.boosters}, pick {draft.pick_number} of {draft.picks_per_pack}"
                    f" · passing {passing(draft.direction > 0)}", style="bold cyan")
        if seconds is not None:
            text.append(f" · {seconds}s left", style="bold yellow")
        return text

    def show_pack(self, pack: list[Printing], deadline: float | None = None) -> None:
        draft = self.session.draft
        self.console.rule(Text(f"seat {self.seat + 1} of {draft.config.seats} · draft {self.session.draft_id} (seed {draft.seed})"),
                          style="dim")
        self.console.print(pack_table(pack, width=self.console.width))
        self.console.print(pool_summary(self.pool_cards()))
        if deadline is None:
            self.console.print(self.status_line())

    def pick_once(self) -> None:
        draft = self.session.draft
        pack = draft.pack(self.seat)
        due = draft.picks_due(self.seat)
        seconds = self.timer_seconds(len(pack))
        self.show_pack(pack, seconds)
        # the clock starts once the pack is on the screen: the first pick shows the full time
        deadline = time.monotonic() + seconds if seconds else None
        status = self.status_line if deadline else None
        while True:
            line = self.terminal.ask(f"Pick {due} (numbers or names; pool, help, quit)> ", deadline, status)
            if line is None:
                positions = self.session.suggested_pick(self.seat)
                names = " + ".join(pack[i].card.name for i in positions)
                self.console.print(Text.assemble(("Time is up:", "yellow"), f" took {names} for you (the strong bot's pick)."))
                self.session.pick(self.seat, positions)
                return
            command = line.lower()
            if command in ("quit", "q", "exit"):
                raise Quit()
            if command in ("help", "?", "h"):
                self.console.print(Text(HELP_PICK))
                self.show_pack(pack, deadline)
                continue
            if command in ("pool", "p"):
                self.show_pool()
                self.show_pack(pack, deadline)
                continue
            if not line:
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
            answer = self.terminal.ask(f"Take {escape(chosen)}? [Y/n] ", deadline)
            if answer is None:
                self.console.print("[yellow]Time is up:[/] taking what you chose.", markup=True)
            elif answer.lower() not in ("", "y", "yes"):
                continue
            started = time.perf_counter()
            self.session.pick(self.seat, positions)
            self.last_pick_seconds = time.perf_counter() - started
            return

    def show_pool(self) -> None:
        self.console.print(pack_table(sorted(self.session.draft.pools[self.seat], key=pool_order), title="Your pool", numbered=False,
                                      width=self.console.width))
        self.console.print(pool_summary(self.pool_cards()))

    def cmd_review(self, args: list[str]) -> None:
        review(self.console, self.session)

    def cmd_export(self, args: list[str]) -> None:
        force = "--force" in args
        args = [arg for arg in args if arg != "--force"]
        folder = Path(args[0]).expanduser() if args else self.export_root / f"cmdraft-practice-{self.session.draft_id}"
        notes: list[str] = []
        written = export_practice(self.session, self.deck(), folder, notes, force=force)
        self.console.print(Text(f"Wrote {len(written)} files to {folder}"))
        for note in notes:
            self.console.print(Text(note))


def review(console: Console, session: TableSession) -> None:
    """Every pick of the human seats (what was offered, what was taken) and the bots' decks."""
    draft = session.draft
    names = session.names
    for seat in session.humans:
        for pick in draft.picks_of(seat):
            taken = " + ".join(p.card.name for p in pick.taken)
            left = join_names([p.card.name for i, p in enumerate(pick.offered) if i not in pick.positions])
            console.print(Text.assemble((f"P{pick.pack}p{pick.pick} ", "bold"), (taken, "green"), (f"   passed: {left}", "dim")))
            later = [p for p in draft.pack_trail(pick) if p.pick > pick.pick]
            if later:
                console.print(Text("      then " + " · ".join(
                    f"{names[p.seat]}: {' + '.join(t.card.name for t in p.taken)}" for p in later), style="dim"))
    rows = []
    piper = piper_card(draft.config.set_code)
    for seat, style in enumerate(session.doc["styles"]):
        if seat in session.humans:
            continue
        deck = build_deck(draft.pools[seat], piper)
        report = validate(deck, [p.card for p in draft.pools[seat]])
        rows.append([str(seat + 1), Text("\n".join(c.name for c in deck.commanders)), identity_text(report.color_identity.code),
                     "yes" if report.valid else "no", style])
    console.print(fit_table(["Seat", "Commanders", "Colors", "Legal", "Bot"], rows, essential={"Seat", "Commanders", "Colors", "Legal"},
                            width=console.width, title="The bots' decks"))


def export_practice(session: TableSession, deck: Deck, folder: Path, notes: list[str] | None = None, *,
                    force: bool = False) -> list[Path]:
    from draft.log import mtgo_log
    from events.exports import export_seat, write_file
    from events.outputs import check_folder

    folder = check_folder(folder, force)
    seat = session.humans[0]
    stem = "practice"
    written = export_seat(folder, stem, session.draft.pools[seat], deck if deck.lines else None,
                          mtgo_log(session.draft, seat, session.names), notes, force=force)
    path = folder / f"{stem}-draft.json"
    write_file(path, json.dumps(session.draft.to_json(), separators=(",", ":")), force)
    return [*written, path]
