"""Solo draft practice at the terminal: pick screen, deck building, review and export.

Everything is saved after every pick (see ``events.drafts``); quitting, closing
the terminal or a crash loses nothing, and ``cmdraft play --resume`` goes on at
the same pick with the same boosters.
"""

from __future__ import annotations

import json
import select
import sys
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from draft.deckbuild import build_deck
from draft.decks import Deck, DeckLine, Zone, is_piper, suggest_commanders, validate
from draft.formats import write_json
from draft.sim import piper_card
from events.drafts import TableSession
from events.render import deck_report, identity_text, pack_table, suggestion_table
from sets.booster import Printing
from sets.basics import basic_land
from sets.cards import Card, normalize_name
from sets.colors import Color, ColorIdentity
from sets.errors import ColorError, InputError

HELP_PICK = (
    "Pick cards by their numbers ('3 7') or names ('murder, sol ring'; a unique start of a name is enough).\n"
    "Commands: pool (your pool), help (this text), quit (save and leave; resume with 'cmdraft play --resume')."
)
HELP_BUILD = """Deck building commands (numbers refer to the pool list; 'show pool' lists it):
  commander N [M]       choose one or two commanders from your pool (or names)
  piper COLOR [COLOR]   lead with one or two Prismatic Pipers of these colors (added Pipers allowed)
  add N [COUNT]         put cards into the deck      remove N [COUNT]   take them out
                        (several cards: 'add 3, 7, murder')
  lands                 fill up to 60 cards with basic lands of your colors
  lands COLOR COUNT     set how many basics of a color (e.g. 'lands U 9')
  auto                  let the bot build a deck from your pool
  show [pool|deck]      list the pool or the deck     suggest  commander advice
  check                 check the deck                review   your draft, pick by pick
  export [FOLDER]       write pool, deck and draft log in every format
  done                  finish (only when the deck is legal)   save  keep an illegal deck for later
  quit                  leave (everything is saved)"""


class Quit(Exception):
    """The player asked to leave; everything is already saved."""


class Terminal:
    """Reads lines from the player, with an optional deadline (the pick timer)."""

    def __init__(self, console: Console, stream=None):
        self.console = console
        self.stream = stream or sys.stdin

    def ask(self, prompt: str, deadline: float | None = None) -> str | None:
        """A line, or None when the deadline passed; EOF counts as quit."""
        self.console.print(prompt, end="", markup=True, highlight=False)
        self.console.file.flush()
        if deadline is not None:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    self.console.print()
                    return None
                try:
                    ready, _, _ = select.select([self.stream], [], [], min(left, 0.5))
                except (ValueError, OSError):
                    break
                if ready:
                    break
        line = self.stream.readline()
        if line == "":
            raise Quit()
        return line.strip()


# --- picking -----------------------------------------------------------------------------------


def match_name(text: str, pack: list[Printing], taken: list[int]) -> int:
    """The position of the one card in the pack whose name starts with (or contains) ``text``."""
    key = normalize_name(text)
    if not key:
        raise InputError("an empty name")
    free = [i for i in range(len(pack)) if i not in taken]
    for test in (lambda name: name == key, lambda name: name.startswith(key), lambda name: key in name):
        found = [i for i in free if test(normalize_name(pack[i].card.name))]
        names = {pack[i].card.name for i in found}
        if len(names) == 1:
            return found[0]
        if len(names) > 1:
            raise InputError(f"{text!r} matches {', '.join(sorted(names))}: type more of the name or use numbers")
    raise InputError(f"{text!r} is not in this pack: use the card's number or the start of its name")


def parse_selection(text: str, pack: list[Printing], due: int) -> list[int]:
    """Positions chosen by numbers or names; ``InputError`` says what is wrong."""
    text = text.strip()
    tokens = text.replace(",", " ").split()
    positions: list[int] = []
    if tokens and all(token.isdigit() for token in tokens):
        for token in tokens:
            number = int(token)
            if not 1 <= number <= len(pack):
                raise InputError(f"there is no card {number} in this pack: choose 1 to {len(pack)}")
            if number - 1 in positions:
                raise InputError(f"card {number} is chosen twice: choose {due} different cards")
            positions.append(number - 1)
    elif "," in text or ";" in text:
        for part in text.replace(";", ",").split(","):
            if part.strip():
                positions.append(_one(part, pack, positions))
    else:
        positions = _split_names(tokens, pack, due)
    if len(positions) != due:
        raise InputError(f"take exactly {due} card{'s' if due != 1 else ''}; you chose {len(positions)}")
    return positions


def _one(part: str, pack: list[Printing], taken: list[int]) -> int:
    part = part.strip()
    if part.isdigit():
        number = int(part)
        if not 1 <= number <= len(pack) or number - 1 in taken:
            raise InputError(f"there is no card {number} left to choose: choose 1 to {len(pack)}")
        return number - 1
    return match_name(part, pack, taken)


def _split_names(tokens: list[str], pack: list[Printing], due: int) -> list[int]:
    """Names typed without commas: the whole text as one card, or two parts that each match one card."""
    whole = " ".join(tokens)
    try:
        return [match_name(whole, pack, [])]
    except InputError as error:
        first_error = error
    if due >= 2:
        for cut in range(1, len(tokens)):
            try:
                first = _one(" ".join(tokens[:cut]), pack, [])
                second = _one(" ".join(tokens[cut:]), pack, [first])
                return [first, second]
            except InputError:
                continue
    raise first_error


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
        text.append("\nCan lead: " + ", ".join(leaders), style="bold")
    return text


class PracticeUI:
    def __init__(self, session: TableSession, console: Console, terminal: Terminal, export_root: Path | None = None):
        self.session = session
        self.console = console
        self.terminal = terminal
        self.seat = session.humans[0]
        self.export_root = export_root or Path.cwd()
        self.piper = piper_card(session.draft.config.set_code)

    # --- the draft ---------------------------------------------------------------------------

    def run(self) -> None:
        try:
            while not self.session.draft.finished:
                self.pick_once()
            self.console.print(f"[bold green]The draft is over.[/] You drafted {len(self.pool_cards())} cards.")
            self.build()
        except Quit:
            self.console.print(f"Saved. Resume with: cmdraft play --resume {self.session.draft_id}")

    def pool_cards(self) -> list[Card]:
        return [p.card for p in self.session.draft.pools[self.seat]]

    def timer_seconds(self, pack_size: int) -> float | None:
        base = self.session.doc.get("timer")
        if not base:
            return None
        return max(5.0, base * pack_size / max(1, self.session.draft.pack_size))

    def show_pack(self, pack: list[Printing]) -> None:
        draft = self.session.draft
        per_pack = draft.picks_per_pack
        arrow = "left →" if draft.direction > 0 else "← right"
        self.console.rule(style="dim")
        self.console.print(Text(
            f"Pack {draft.round + 1} of {draft.config.boosters}, pick {draft.pick_number} of {per_pack} · passing {arrow} · "
            f"seat {self.seat + 1} of {draft.config.seats} · draft {self.session.draft_id} (seed {draft.seed})", style="bold cyan"))
        self.console.print(pack_table(pack, width=self.console.width))
        self.console.print(pool_summary(self.pool_cards()))

    def pick_once(self) -> None:
        draft = self.session.draft
        pack = draft.pack(self.seat)
        due = draft.picks_due(self.seat)
        self.show_pack(pack)
        seconds = self.timer_seconds(len(pack))
        deadline = time.monotonic() + seconds if seconds else None
        while True:
            timer = f" [{int(deadline - time.monotonic())}s]" if deadline else ""
            line = self.terminal.ask(f"Pick {due} (numbers or names; pool, help, quit){timer}> ", deadline)
            if line is None:
                positions = self.session.suggested_pick(self.seat)
                names = " and ".join(pack[i].card.name for i in positions)
                self.console.print(f"[yellow]Time is up:[/] took {names} for you (the bot rating's best).")
                self.session.pick(self.seat, positions)
                return
            command = line.lower()
            if command in ("quit", "q", "exit"):
                raise Quit()
            if command in ("help", "?", "h"):
                self.console.print(HELP_PICK)
                continue
            if command in ("pool", "p"):
                self.show_pool()
                continue
            if not line:
                continue
            try:
                positions = parse_selection(line, pack, due)
            except InputError as error:
                self.console.print(f"[red]{error}[/] — same pick again.")
                continue
            chosen = " and ".join(f"{i + 1} {pack[i].card.name}" for i in positions)
            answer = self.terminal.ask(f"Take {chosen}? [Y/n] ", deadline)
            if answer is None:
                self.console.print("[yellow]Time is up:[/] taking what you chose.")
            elif answer.lower() not in ("", "y", "yes"):
                continue
            started = time.perf_counter()
            self.session.pick(self.seat, positions)
            self.last_pick_seconds = time.perf_counter() - started
            return

    def show_pool(self) -> None:
        self.console.print(pack_table(sorted(self.session.draft.pools[self.seat], key=_pool_order), title="Your pool", numbered=False))
        self.console.print(pool_summary(self.pool_cards()))

    # --- deck building --------------------------------------------------------------------------

    def build(self) -> None:
        pool = self.pool_cards()
        self.pool_list = sorted(dict.fromkeys(pool), key=lambda c: _pool_order(Printing(c)))
        self.commanders: list[Card] = []
        self.colors: list[Color] = []
        self.main: Counter = Counter()
        saved = self.session.doc.get("deck")
        if saved:
            self._load_saved(saved)
        self.console.print(suggestion_table(suggest_commanders(Counter(pool), 5, piper=self.piper)))
        self.console.print("Build your deck: 'help' lists the commands; 'auto' gives you a ready-made deck.")
        while True:
            verb, args = self._read_command("deck> ")
            try:
                if verb in ("quit", "q", "exit"):
                    raise Quit()
                if verb == "done":
                    report = self.report()
                    if report.valid:
                        self.session.save_deck(self.deck_json(), True)
                        self.console.print(deck_report(report))
                        self.console.print(f"[bold green]Deck saved.[/] Export it any time with 'export' or resume draft {self.session.draft_id}.")
                        self.after_done()
                        return
                    self.console.print(deck_report(report))
                    self.console.print("[red]The deck is not legal yet[/]: fix the problems, or 'save' to keep it as it is.")
                    continue
                handler = getattr(self, f"cmd_{verb}", None)
                if handler is None:
                    raise InputError(f"unknown command {verb!r}: type 'help' for the list")
                handler(args)
            except InputError as error:
                self.console.print(f"[red]{error}[/]")

    def _read_command(self, prompt: str) -> tuple[str, list[str]]:
        """The next non-empty command line: (verb, arguments)."""
        while True:
            line = self.terminal.ask(prompt)
            words = (line or "").split()
            if words:
                return words[0].lower(), words[1:]

    def after_done(self) -> None:
        while True:
            verb, args = self._read_command("review, export [FOLDER], or quit> ")
            if verb in ("quit", "q", "exit", "done"):
                raise Quit()
            try:
                if verb not in ("review", "export", "show", "check", "help"):
                    raise InputError(f"unknown command {verb!r}: review, export or quit")
                getattr(self, f"cmd_{verb}")(args)
            except InputError as error:
                self.console.print(f"[red]{error}[/]")

    def _load_saved(self, saved: dict) -> None:
        from draft.formats import parse_json, resolve
        from sets.catalog import card_index

        deck, _ = resolve(parse_json(json.dumps(saved)), card_index())
        self.commanders = deck.commanders
        self.colors = list(deck.piper_colors)
        self.main = deck.main

    def deck(self) -> Deck:
        pool = Counter(self.pool_cards())
        for card in self.commanders:
            pool[card] -= 1
        side = Counter({card: n - self.main.get(card, 0) for card, n in pool.items()})
        lines = [DeckLine(card, 1, Zone.COMMANDER) for card in self.commanders]
        lines += [DeckLine(card, n, Zone.MAIN) for card, n in self.main.items() if n > 0]
        lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in side.items() if n > 0]
        return Deck(tuple(lines), tuple(self.colors), f"Practice draft {self.session.draft_id}")

    def deck_json(self) -> dict:
        return json.loads(write_json(self.deck()))

    def report(self):
        return validate(self.deck(), self.pool_cards(), piper_colors=self.colors if self.colors else None)

    def _card(self, token: str) -> Card:
        if token.isdigit():
            number = int(token)
            if not 1 <= number <= len(self.pool_list):
                raise InputError(f"no card {number} in your pool list: 'show pool' lists 1 to {len(self.pool_list)}")
            return self.pool_list[number - 1]
        key = normalize_name(token)
        found = [card for card in self.pool_list if normalize_name(card.name).startswith(key)]
        if len({c.name for c in found}) != 1:
            raise InputError(f"{token!r} names {'no card' if not found else 'several cards'} in your pool: use its number")
        return found[0]

    def _cards(self, args: list[str]) -> list[Card]:
        """Cards by numbers or names; several are separated by commas (or given as numbers: '4 9')."""
        text = " ".join(args)
        parts = text.split(",") if "," in text else args if all(a.isdigit() for a in args) else [text]
        return [self._card(part.strip()) for part in parts if part.strip()]

    def cmd_help(self, args: list[str]) -> None:
        self.console.print(HELP_BUILD)

    def cmd_commander(self, args: list[str]) -> None:
        cards = self._cards(args)
        if not 1 <= len(cards) <= 2:
            raise InputError("choose one or two commanders: 'commander 4' or 'commander 4 9'")
        self.commanders = cards
        self.colors = []
        self.console.print("Commanders: " + " + ".join(card.name for card in cards))
        self.cmd_check([])

    cmd_c = cmd_commander

    def cmd_piper(self, args: list[str]) -> None:
        if self.piper is None:
            raise InputError("this set has no Prismatic Piper")
        if not 1 <= len(args) <= 2:
            raise InputError("give one or two colors: 'piper blue' or 'piper U R'")
        try:
            colors = [Color.parse(arg) for arg in args]
        except ColorError as error:
            raise InputError(str(error)) from None
        others = [card for card in self.commanders if not is_piper(card)][: 2 - len(colors)]
        self.commanders = others + [self.piper] * len(colors)
        self.colors = colors
        self.console.print("Commanders: " + " + ".join(
            f"{c.name} ({colors[i - len(others)].word})" if is_piper(c) else c.name for i, c in enumerate(self.commanders)))
        self.cmd_check([])

    @staticmethod
    def _count(args: list[str]) -> tuple[list[str], int]:
        """Split ``N COUNT`` / ``NAME COUNT`` into the card part and the count (1 when none is given).
        Several cards are separated by commas: ``add 3, 5``."""
        if len(args) >= 2 and args[-1].isdigit() and "," not in " ".join(args):
            return args[:-1], int(args[-1])
        return args, 1

    def cmd_add(self, args: list[str]) -> None:
        args, count = self._count(args)
        for card in self._cards(args):
            self.main[card] += count
            self.console.print(f"+{count} {card.name}")
        self._status()

    def cmd_remove(self, args: list[str]) -> None:
        args, count = self._count(args)
        for card in self._cards(args):
            self.main[card] = max(0, self.main.get(card, 0) - count)
            self.console.print(f"-{count} {card.name}")
        self.main = +self.main
        self._status()

    cmd_rm = cmd_remove

    def _identity(self) -> ColorIdentity:
        report = self.report()
        return report.color_identity

    def cmd_lands(self, args: list[str]) -> None:
        if len(args) == 2:
            try:
                color = args[0].upper() if args[0].upper() in ("C", "WASTES") else Color.parse(args[0]).value
            except ColorError as error:
                raise InputError(str(error)) from None
            if not args[1].isdigit():
                raise InputError("give a count: 'lands U 9'")
            land = basic_land("" if color in ("C", "WASTES") else color)
            self.main[land] = int(args[1])
            self.main = +self.main
        elif args:
            raise InputError("'lands' fills to 60 with basics; 'lands U 9' sets one color")
        else:
            identity = self._identity()
            missing = 60 - self.deck().size
            if missing <= 0:
                self.console.print("The deck already has 60 cards or more.")
                return
            letters = [c.value for c in identity] or [""]
            for i in range(missing):
                self.main[basic_land(letters[i % len(letters)])] += 1
        self._status()

    def cmd_auto(self, args: list[str]) -> None:
        deck = build_deck(self.session.draft.pools[self.seat], self.piper, "")
        self.commanders = deck.commanders
        self.colors = list(deck.piper_colors)
        self.main = deck.main
        self.console.print("The bot built a deck from your pool:")
        self.cmd_show(["deck"])
        self.cmd_check([])

    def cmd_show(self, args: list[str]) -> None:
        what = (args[0].lower() if args else "deck")
        if what == "pool":
            table = Table("#", "Card", "Id", "MV", "In deck", "In pool", title="Your pool")
            pool = Counter(self.pool_cards())
            for number, card in enumerate(self.pool_list, start=1):
                table.add_row(str(number), card.name, identity_text(card.deck_colors.code), str(card.mana_value),
                              str(self.main.get(card, 0) + self.commanders.count(card)), str(pool[card]))
            self.console.print(table)
        else:
            deck = self.deck()
            table = Table("Count", "Card", "Id", "MV", title=f"Deck ({deck.size} cards)")
            for card in deck.commanders:
                table.add_row("C", card.name, identity_text(card.identity.code), str(card.mana_value))
            for card, n in sorted(deck.main.items(), key=lambda kv: (kv[0].is_land, kv[0].mana_value, kv[0].name)):
                table.add_row(str(n), card.name, identity_text(card.deck_colors.code), str(card.mana_value))
            self.console.print(table)

    def cmd_suggest(self, args: list[str]) -> None:
        self.console.print(suggestion_table(suggest_commanders(Counter(self.pool_cards()), 8, piper=self.piper)))

    def cmd_check(self, args: list[str]) -> None:
        self.console.print(deck_report(self.report()))

    def _status(self) -> None:
        """The deck checked after every change: size, identity and every problem."""
        report = self.report()
        state = "[green]legal[/]" if report.valid else f"[red]{len(report.problems)} problem(s)[/]"
        self.console.print(f"Deck: {report.size} cards, identity {report.color_identity} · {state}")
        for problem in report.problems:
            self.console.print(Text(f"  {problem.code}: {problem.message}", style="red"))
        for line in report.chosen_for_you:
            self.console.print(Text(f"  {line}", style="cyan"))

    def cmd_save(self, args: list[str]) -> None:
        report = self.report()
        self.session.save_deck(self.deck_json(), report.valid)
        self.console.print("Deck saved" + ("." if report.valid else " (not legal yet)."))

    def cmd_review(self, args: list[str]) -> None:
        review(self.console, self.session)

    def cmd_export(self, args: list[str]) -> None:
        folder = Path(args[0]).expanduser() if args else self.export_root / f"cmdraft-practice-{self.session.draft_id}"
        written = export_practice(self.session, self.deck(), folder)
        self.console.print(f"Wrote {len(written)} files to {folder}")


def _pool_order(printing: Printing):
    card = printing.card
    return (len(card.deck_colors) > 1, card.deck_colors.mask, card.is_land, card.mana_value, card.name)


def review(console: Console, session: TableSession) -> None:
    """Every pick of the human seats (what was offered, what was taken) and the bots' decks."""
    draft = session.draft
    names = session.names
    for seat in session.humans:
        for pick in draft.picks_of(seat):
            taken = " + ".join(p.card.name for p in pick.taken)
            left = ", ".join(p.card.name for i, p in enumerate(pick.offered) if i not in pick.positions)
            console.print(Text.assemble((f"P{pick.pack}p{pick.pick} ", "bold"), (taken, "green"), (f"   passed: {left}", "dim")))
            later = [p for p in draft.pack_trail(pick) if p.pick > pick.pick]
            if later:
                console.print(Text("      then " + " · ".join(
                    f"{names[p.seat]}: {' + '.join(t.card.name for t in p.taken)}" for p in later), style="dim"))
    table = Table("Seat", "Bot", "Commanders", "Colors", "Legal", title="The bots' decks")
    piper = piper_card(draft.config.set_code)
    for seat, style in enumerate(session.doc["styles"]):
        if seat in session.humans:
            continue
        deck = build_deck(draft.pools[seat], piper)
        report = validate(deck, [p.card for p in draft.pools[seat]])
        table.add_row(str(seat + 1), style, " + ".join(c.name for c in deck.commanders), identity_text(report.color_identity.code),
                      "yes" if report.valid else "no")
    console.print(table)


def export_practice(session: TableSession, deck: Deck, folder: Path) -> list[Path]:
    from draft.log import mtgo_log
    from events.exports import export_seat, write_file

    seat = session.humans[0]
    stem = "practice"
    written = export_seat(folder, stem, session.draft.pools[seat], deck if deck.lines else None,
                          mtgo_log(session.draft, seat, session.names))
    path = folder / f"{stem}-draft.json"
    write_file(path, json.dumps(session.draft.to_json(), separators=(",", ":")))
    return [*written, path]


def run_event_draft(events, event_id: int, players: list[str] | None, console: Console, terminal: Terminal,
                    poll: float = 0.5) -> None:
    """Pick for the chosen players (all humans when none are named) until their drafts are done.

    Several terminals may run this on the same database, each for its own players.
    """
    snap = events.snapshot(event_id)
    names = {p["id"]: p["name"] for p in snap["players"]}
    wanted: set[int] | None = None
    if players:
        wanted = {events._player_id(event_id, name) for name in players}
    # Seats don't move during a draft: who sits where is read once.
    seating = {pod["number"]: pod["players"] for pod in snap["pods"]
               if pod.get("draft") and (wanted is None or wanted & set(pod["players"]))}
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    waiting_shown = False
    try:
        while True:
            progressed = False
            for number, session in sessions.items():
                session.refresh()
                for seat in session.waiting_humans():
                    player_id = seating[number][seat]
                    if wanted is not None and player_id not in wanted:
                        continue
                    console.print(Text(f"{names[player_id]}, your pick (pod {number}, seat {seat + 1})", style="bold magenta"))
                    ui = PracticeUI(session, console, terminal)
                    ui.seat = seat
                    ui.pick_once()
                    events.after_picks(event_id, number, session)
                    progressed = True
                    waiting_shown = False
            if all(session.draft.finished for session in sessions.values()):
                # Pools are recorded here if no terminal did it (say a crash after the last pick).
                recorded = all(events.after_picks(event_id, number, session) for number, session in sessions.items())
                if recorded:
                    console.print("[bold green]Draft over for these players.[/] Pools are recorded; register decks next.")
                else:
                    console.print("[bold green]Draft over for these players.[/] Their pools are not recorded yet: "
                                  f"run 'cmdraft event show {event_id}'.")
                return
            if not progressed:
                if not waiting_shown:
                    late = sorted({names[seating[number][seat]] for number, s in sessions.items() for seat in s.waiting_humans()})
                    console.print(Text("Waiting for: " + ", ".join(late), style="yellow"))
                    waiting_shown = True
                time.sleep(poll)
    except Quit:
        console.print(f"Saved. Continue with: cmdraft event draft {event_id}" + "".join(f" --player {n!r}" for n in players or []))


class PoolBuilder(PracticeUI):
    """The deck builder of the play screen, over an event player's recorded pool; 'done' registers the deck."""

    def __init__(self, events, event_id: int, who: str, console: Console, terminal: Terminal):
        from types import SimpleNamespace

        snap = events.snapshot(event_id)
        player_id = events._player_id(event_id, who)
        player = next(p for p in snap["players"] if p["id"] == player_id)
        self.events, self.event_id, self.player_name = events, event_id, player["name"]
        self.registered = False
        pool = events.pool(event_id, str(player_id))
        session = SimpleNamespace(
            draft=SimpleNamespace(pools=[pool], config=SimpleNamespace(set_code=snap["event"]["set"])),
            doc={"deck": None}, draft_id=f"{event_id}/{player_id}", humans=[0], names=[player["name"]],
            save_deck=self._register,
        )
        super().__init__(session, console, terminal)

    def _register(self, deck_json: dict, legal: bool) -> None:
        from draft.formats import parse_json

        report = self.events.register_deck(self.event_id, self.player_name, parse_json(json.dumps(deck_json)))
        self.registered = True
        state = "legal" if report["valid"] else "not legal yet"
        self.console.print(Text(f"{self.player_name}: deck registered ({state})"))

    def after_done(self) -> None:
        return None

    def cmd_review(self, args: list[str]) -> None:
        raise InputError("the draft review is in 'cmdraft event export'; here you build and register the deck")

    def cmd_export(self, args: list[str]) -> None:
        raise InputError("export the event's files with 'cmdraft event export'")
