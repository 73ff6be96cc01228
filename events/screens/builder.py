"""The deck builder at the terminal: commanders, Pipers, cards and lands from the pool, checked after every change.

``DeckBuilder`` is mixed into the practice screen and the event's pool builder;
they provide ``session``, ``console``, ``terminal``, ``seat``, ``piper``,
``pool_cards()`` and what happens after 'done'.
"""

from __future__ import annotations

import json
from collections import Counter

from rich.markup import escape
from rich.text import Text

from draft.deckbuild import build_deck, mana_sources
from draft.decks import FREE_BASICS, Deck, DeckLine, Zone, is_free_basic, is_piper, suggest_commanders, validate
from draft.deckstats import basic_split, complete_deck, deck_stats, group_cards, sample_hand
from draft.formats import write_json
from events.screens.cards import show_card
from events.screens.picks import read_choices
from events.screens.render import card_list_table, deck_report, identity_text, join_names, stats_lines, suggestion_table
from events.screens.terminal import Quit
from sets.basics import basic_land
from sets.booster import Printing
from sets.cards import Card, normalize_name
from sets.colors import Color, ColorIdentity
from sets.errors import ColorError, InputError
from sets.numbers import is_number

HELP_BUILD = """Deck building commands (numbers refer to the pool list; 'show pool' lists it):
  commander N [M]       choose one or two commanders from your pool, by numbers or names;
                        a commander leaves the main deck (it moves to the command zone)
  piper COLOR [COLOR]   lead with one or two Prismatic Pipers of these colors (added Pipers allowed)
  add N [COUNT]         put cards into the deck      remove N [COUNT]   take them out
                        several cards: 'add 3, 7, murder' or 'add 16 2, 18 4';
                        separate names with ',' ';' or '+' ('add Kamahl, Heart of Krosa + murder')
  lands                 fill up to 60 cards with basics, shared by your cards' colored symbols
  lands COLOR COUNT     set how many basics of a color (e.g. 'lands U 9'); 'remove plains 3' works too
  auto                  finish your deck, keeping every card you chose ('auto new': the bot's whole deck)
  stats                 curve, creatures/removal/ramp, color sources against the symbols you need
  hand                  a sample opening hand ('hand' again for another)
  undo, redo            take back the last change, or bring it back
  show [pool|deck]      list the pool or the deck     suggest  commander advice
  ? N, show N, card NAME   a card's full facts and rules text (N: the pool list)
  check                 check the deck                review   your draft, pick by pick
  export [FOLDER] [--force]  write pool, deck and draft log in every format (--force: into a folder that has files)
                        (default folder: ./cmdraft-practice-ID in the folder you started from)
  done                  finish (only when the deck is legal)
  quit                  leave; every change is saved as you make it"""


USAGE = {
    "add": "add N [COUNT]: 'add 16', 'add 16 2', 'add 16 2, 18 4' or 'add murder'",
    "remove": "remove N [COUNT]: 'remove 16', 'remove 16 2' or 'remove murder'",
    "commander": "commander N [M]: 'commander 4', 'commander 4 9' or 'commander Kamahl, Heart of Krosa'",
}


def free_basics() -> list[Card]:
    """The basic lands an organizer provides, in WUBRG order."""
    return [basic_land(letter) for letter in "WUBRG" if basic_land(letter).name in FREE_BASICS]


def plural(count: int, word: str) -> str:
    return f"{count} {word if count == 1 else word + 's'}"


def pool_order(printing: Printing):
    card = printing.card
    return (len(card.deck_colors) > 1, card.deck_colors.mask, card.is_land, card.mana_value, card.name)


class DeckBuilder:
    """Deck-building commands over ``pool_cards()``; every change is saved through ``save_progress``,
    'done' saves a legal deck as finished."""

    def build(self) -> None:
        """The builder at the line prompt: one command a line until 'done' (or quit)."""
        self.start_build()
        while True:
            verb, args, text = self._read_command("deck> ")
            if self.run_command(verb, args, text):
                self.after_done()
                return

    def start_build(self) -> None:
        """The deck as saved (or empty), with the commander advice on screen."""
        pool = self.pool_cards()
        self.pool_list = sorted(dict.fromkeys(pool), key=lambda c: pool_order(Printing(c)))
        self.commanders: list[Card] = []
        self.colors: list[Color] = []
        self.main: Counter = Counter()
        self.hand_built = False
        self.undo_stack: list[tuple] = []
        self.redo_stack: list[tuple] = []
        self.hands_dealt = 0
        saved = self.session.doc.get("deck")
        if saved:
            self._load_saved(saved)
            self.hand_built = bool(self.commanders or self.main)
        self.say(suggestion_table(suggest_commanders(Counter(pool), 5, piper=self.piper), width=self.width))
        if saved and (self.commanders or self.main):
            self.say(Text("Your saved deck, as you left it:", style="bold"))
            self._summary()
            self.say(Text("Go on building: 'help' lists the commands; 'show deck' lists it."))
        else:
            self.say(Text("Build your deck: 'help' lists the commands; 'auto' gives you a ready-made deck."))

    def run_command(self, verb: str, args: list[str], text: str) -> bool:
        """One builder command; True when 'done' finished a legal deck.  A change is saved at once
        and can be undone."""
        before = self._snapshot()
        try:
            if verb in ("quit", "q", "exit"):
                raise Quit()
            if verb == "done":
                report = self.report()
                if report.valid:
                    self.session.save_deck(self.deck_json(), True)
                    self.say(deck_report(report))
                    self.say(
                        Text.assemble(
                            ("Deck saved.", "bold green"),
                            f" Export it any time with 'export' or resume draft {self.session.draft_id}.",
                        )
                    )
                    return True
                self.say(deck_report(report))
                self.say(
                    Text.assemble(
                        ("The deck is not legal yet", "red"), ": fix what is listed (your deck is saved as it is)."
                    )
                )
                return False
            handler = getattr(self, f"cmd_{verb}", None)
            if handler is None:
                raise InputError(f"unknown command {verb!r}: type 'help' for the list")
            self.command_text = text
            handler(args)
        except InputError as error:
            self.say(Text(str(error), style="red"))
        finally:
            if verb not in ("undo", "redo") and self._snapshot()[:3] != before[:3]:
                self.undo_stack.append(before)
                self.redo_stack.clear()
            if self._snapshot()[:3] != before[:3]:
                self.save_progress()
        return False

    listener = None  # the full-screen app's message log; None: print at the line prompt
    answer: bool | None = None  # the app asks its questions before the command and sets the answer here

    def say(self, renderable) -> None:
        """Show a message (the line prompt prints it; the full-screen builder keeps it in its log)."""
        if self.listener is not None:
            self.listener(renderable)
            return
        self.console.print(renderable)

    def confirm(self, question: str) -> bool:
        """A yes/no question, no unless answered yes."""
        if self.answer is not None:
            return self.answer
        answer = self.terminal.ask(escape(question) + " \\[y/N] ") or ""
        return answer.strip().lower() in ("y", "yes")

    @property
    def width(self) -> int:
        return self.console.width

    def _snapshot(self) -> tuple:
        return (
            tuple(self.commanders),
            tuple(self.colors),
            tuple(sorted(((c.name, c.set_code, c.number), n) for c, n in self.main.items() if n > 0)),
            list(self.commanders),
            list(self.colors),
            Counter(self.main),
            self.hand_built,
        )

    def _restore(self, snapshot: tuple) -> None:
        self.commanders, self.colors, self.main, self.hand_built = (
            list(snapshot[3]),
            list(snapshot[4]),
            Counter(snapshot[5]),
            snapshot[6],
        )

    def cmd_undo(self, args: list[str]) -> None:
        if not self.undo_stack:
            raise InputError("nothing to undo")
        self.redo_stack.append(self._snapshot())
        self._restore(self.undo_stack.pop())
        self.say(Text("Undone."))
        self._status()

    def cmd_redo(self, args: list[str]) -> None:
        if not self.redo_stack:
            raise InputError("nothing to redo")
        self.undo_stack.append(self._snapshot())
        self._restore(self.redo_stack.pop())
        self.say(Text("Redone."))
        self._status()

    def save_progress(self) -> None:
        """Keep the deck as it is now: quitting, end of input or Ctrl-C resume exactly here."""
        self.session.save_deck(self.deck_json(), self.report().valid, final=False)

    def _read_command(self, prompt: str) -> tuple[str, list[str], str]:
        """The next non-empty command line: (verb, arguments, the text after the verb)."""
        while True:
            line = (self.terminal.ask(prompt) or "").strip()
            if line.startswith("?"):  # '? 3' and '?3' read a card
                line = "card " + line[1:].strip()
            words = line.split()
            if words:
                return words[0].lower(), words[1:], line[len(words[0]) :].strip()

    def after_done(self) -> None:
        while True:
            verb, args, text = self._read_command("review, export [FOLDER], or quit> ")
            if verb in ("quit", "q", "exit", "done"):
                raise Quit()
            try:
                if verb not in ("review", "bot", "export", "show", "card", "check", "stats", "hand", "help"):
                    raise InputError(f"unknown command {verb!r}: review, export or quit")
                self.command_text = text
                getattr(self, f"cmd_{verb}")(args)
            except InputError as error:
                self.say(Text(str(error), style="red"))

    def _load_saved(self, saved: dict) -> None:
        from draft.formats import parse_json, resolve
        from sets.catalog import card_index

        deck, _ = resolve(parse_json(json.dumps(saved)), card_index())
        # the pool's own card objects, so counts line up with the pool
        own = {normalize_name(card.name): card for card in self.pool_cards()}
        same = lambda card: own.get(normalize_name(card.name), card)  # noqa: E731
        self.commanders = [same(card) for card in deck.commanders]
        self.colors = list(deck.piper_colors)
        self.main = Counter({same(card): n for card, n in deck.main.items()})

    def deck(self) -> Deck:
        pool = Counter(self.pool_cards())
        for card in self.commanders:
            pool[card] -= 1
        side = Counter({card: n - self.main.get(card, 0) for card, n in pool.items()})
        lines = [DeckLine(card, 1, Zone.COMMANDER) for card in self.commanders]
        lines += [DeckLine(card, n, Zone.MAIN) for card, n in self.main.items() if n > 0]
        lines += [DeckLine(card, n, Zone.SIDEBOARD) for card, n in side.items() if n > 0]
        return Deck(tuple(lines), tuple(self.colors), self.deck_name())

    def deck_name(self) -> str:
        """The name other tools list the deck by."""
        return f"Practice draft {self.session.draft_id}"

    def deck_json(self) -> dict:
        return json.loads(write_json(self.deck()))

    def report(self):
        return validate(self.deck(), self.pool_cards(), piper_colors=self.colors if self.colors else None)

    def _text(self, args: list[str]) -> str:
        """The text after the verb as typed (separators and spacing kept)."""
        text = getattr(self, "command_text", None)
        return text if text is not None and text.split() == args else " ".join(args)

    def _choices(self, args: list[str], counts: bool = False) -> list[tuple[Card, int | None]]:
        """Cards of the pool list by numbers or names (whole names first, so names with commas work)."""
        # the free basics are reached by name too ('remove plains 3'), after the pool's numbered cards
        listed = self.pool_list + [land for land in free_basics() if land not in self.pool_list]
        chosen = read_choices(
            self._text(args),
            [card.name for card in listed],
            counts=counts,
            what="in your pool ('show pool' lists it)",
            numbered=len(self.pool_list),
        )
        return [(listed[position], count) for position, count in chosen]

    def _cards(self, args: list[str]) -> list[Card]:
        return [card for card, _ in self._choices(args)]

    def _available(self, card: Card) -> int:
        """Copies of a card in the pool that are neither in the deck nor commanders (free basics: any number)."""
        if is_free_basic(card):
            return 10**6
        return Counter(self.pool_cards())[card] - self.main.get(card, 0) - self.commanders.count(card)

    def cmd_help(self, args: list[str]) -> None:
        self.say(Text(HELP_BUILD))

    def cmd_commander(self, args: list[str]) -> None:
        if not args:
            raise InputError(USAGE["commander"])
        cards = self._cards(args)
        if not 1 <= len(cards) <= 2:
            raise InputError(f"choose one or two commanders, not {len(cards)}: " + USAGE["commander"])
        trial = Deck(tuple(DeckLine(card, 1, Zone.COMMANDER) for card in cards), (), "trial")
        refused = [p for p in validate(trial).problems if p.code in ("not-a-commander", "illegal-pair")]
        if refused:
            raise InputError(" ".join(p.message for p in refused) + " — the commanders are unchanged")
        pool = Counter(self.pool_cards())
        for card in set(cards):
            if cards.count(card) > pool[card]:
                raise InputError(f"your pool has only {pool[card]} {card.name} — the commanders are unchanged")
        old = [card for card in self.commanders if card not in cards]
        self.commanders = cards
        self.colors = []
        moved = []
        for card in cards:
            if self.main.get(card, 0) > pool[card] - cards.count(card):
                self.main[card] -= 1
                moved.append(card.name)
        self.main = +self.main
        self.hand_built = True
        self.say(Text("Commanders: " + " + ".join(card.name for card in cards)))
        if moved:
            self.say(Text("Moved from the main deck to the command zone: " + join_names(moved), style="cyan"))
        if old:
            self.say(Text("Back to your pool: " + join_names([c.name for c in old]), style="dim"))
        self._status()

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
        in_pool = Counter(self.pool_cards())[self.piper]
        if self.main.get(self.piper, 0) > in_pool - len(colors):
            self.main[self.piper] = max(0, in_pool - len(colors))
            self.main = +self.main
        self.hand_built = True
        self.say(
            Text(
                "Commanders: "
                + " + ".join(
                    f"{c.name} ({colors[i - len(others)].word})" if is_piper(c) else c.name
                    for i, c in enumerate(self.commanders)
                )
            )
        )
        self._status()

    def _wanted(self, verb: str, args: list[str], hint: str = "") -> Counter:
        """The cards and counts an 'add' or 'remove' line asks for (1 copy when no count is given)."""
        if not args:
            raise InputError("usage: " + USAGE[verb])
        wanted: Counter = Counter()
        for card, count in self._choices(args, counts=True):
            count = 1 if count is None else count
            if count < 1:
                raise InputError(f"{verb} {card.name} {count}: a count is 1 or more{hint}")
            wanted[card] += count
        return wanted

    def cmd_add(self, args: list[str]) -> None:
        wanted = self._wanted("add", args, " (to take cards out, use 'remove')")
        for card, count in wanted.items():
            free = self._available(card)
            if count > free:
                have = Counter(self.pool_cards())[card]
                where = []
                if self.main.get(card):
                    where.append(f"{self.main[card]} already in the deck")
                if card in self.commanders:
                    where.append("1 is your commander")
                raise InputError(
                    f"can't add {count} {card.name}: your pool has {have}"
                    + (f" ({', '.join(where)})" if where else "")
                    + f", so {free} more at most — nothing added"
                )
        for card, count in wanted.items():
            self.main[card] += count
            self.say(Text(f"+{count} {card.name}"))
        self.hand_built = True
        self._status()

    def cmd_remove(self, args: list[str]) -> None:
        wanted = self._wanted("remove", args)
        for card in wanted:
            if not self.main.get(card):
                raise InputError(
                    f"{card.name} is not in the main deck"
                    + (" (it is your commander)" if card in self.commanders else "")
                    + " — nothing removed"
                )
        for card, count in wanted.items():
            had = self.main[card]
            taken = min(had, count)
            self.main[card] = had - taken
            note = f" (the deck had only {had})" if count > had else ""
            self.say(Text(f"-{taken} {card.name}{note}"))
        self.main = +self.main
        self.hand_built = True
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
            if not is_number(args[1]):
                raise InputError("give a count: 'lands U 9'")
            land = basic_land("" if color in ("C", "WASTES") else color)
            was = self.main.get(land, 0)
            self.main[land] = int(args[1])
            self.main = +self.main
            self.say(Text(f"{land.name}: {args[1]} (was {was})"))
        elif args:
            raise InputError("'lands' fills to 60 with basics; 'lands U 9' sets one color")
        else:
            identity = self._identity()
            missing = 60 - self.deck().size
            if missing <= 0:
                self.say("The deck already has 60 cards or more: no lands added.")
                return
            # shared by the colored symbols of the spells (and commanders) already in the deck
            added = basic_split(list(self.main.elements()) + list(self.commanders), identity, missing)
            self.main.update(added)
            self.say(
                Text(
                    "Added "
                    + join_names([f"{n} {land.name}" for land, n in added.items()])
                    + " (by the colored symbols of your cards)"
                )
            )
        self.hand_built = True
        self._status()

    def cmd_auto(self, args: list[str]) -> None:
        """'auto' finishes the deck you started (your commanders and cards stay); 'auto new' replaces it
        with the bot's deck, after asking."""
        fresh = bool(args) and args[0].lower() in ("new", "replace", "bot")
        if args and not fresh:
            raise InputError("'auto' finishes your deck, keeping what you chose; 'auto new' replaces it with the bot's")
        if not fresh and (self.commanders or self.main):
            commanders = self.commanders
            if not commanders:
                raise InputError(
                    "choose your commanders first ('commander N' or 'piper COLOR'), or 'auto new' for the bot's whole deck"
                )
            before = Counter(self.main)
            self.main = complete_deck(self.pool_cards(), commanders, self.colors, self.main)
            added = self.main - before
            self.say(
                Text(
                    f"Finished your deck: kept your {plural(sum(before.values()), 'card')}, added {plural(sum(added.values()), 'card')}."
                )
            )
            self.hand_built = True
            self._status()
            return
        if fresh and self.hand_built and (self.commanders or self.main):
            if not self.confirm(f"Replace your deck ({plural(self.deck().size, 'card')}) with the bot's?"):
                self.say("Kept your deck.")
                return
        deck = build_deck(self.pool_cards(), self.piper, "")
        self.commanders = deck.commanders
        self.colors = list(deck.piper_colors)
        self.main = deck.main
        self.hand_built = False
        self.say("The bot built a deck from your pool:")
        self.cmd_show(["deck"])
        sources = mana_sources(deck)
        if sources:
            self.say("Mana sources: " + ", ".join(f"{color} {count}" for color, count in sources.items()))
        self.cmd_check([])

    def cmd_card(self, args: list[str]) -> None:
        if not args:
            raise InputError("give a card: 'card 12' or 'card murder' ('show pool' lists the numbers)")
        show_card(self.console, " ".join(args), self.pool_list, "your pool list")

    def cmd_show(self, args: list[str]) -> None:
        if len(args) == 1 and is_number(args[0]):
            self.cmd_card(args)
            return
        what = args[0].lower() if args else "deck"
        width = self.width
        if what == "pool":
            pool = Counter(self.pool_cards())
            rows = [
                [
                    str(number),
                    card.name,
                    identity_text(card.deck_colors.code),
                    str(card.mana_value),
                    str(self.main.get(card, 0) + self.commanders.count(card)),
                    str(pool[card]),
                ]
                for number, card in enumerate(self.pool_list, start=1)
            ]
            self.say(
                card_list_table(["#", "Card", "Id", "MV", "In deck", "In pool"], rows, title="Your pool", width=width)
            )
        else:
            deck = self.deck()
            rows = [
                ["C", card.name, identity_text(card.identity.code), str(card.mana_value)] for card in deck.commanders
            ]
            for kind, cards in group_cards(deck.main):
                rows.append(["", Text(f"{kind} ({sum(n for _, n in cards)})", style="bold"), "", ""])
                rows += [
                    [str(n), card.name, identity_text(card.deck_colors.code), str(card.mana_value)] for card, n in cards
                ]
            self.say(
                card_list_table(
                    ["Count", "Card", "Id", "MV"], rows, title=f"Deck ({plural(deck.size, 'card')})", width=width
                )
            )

    def stats(self):
        return deck_stats(self.deck(), self._identity())

    def cmd_stats(self, args: list[str]) -> None:
        for line in stats_lines(self.stats()):
            self.say(line)

    def cmd_hand(self, args: list[str]) -> None:
        """A sample opening hand; 'hand' again deals another (seeded: the same hands every time)."""
        hand = sample_hand(self.deck(), self.hand_seed(), self.hands_dealt)
        self.hands_dealt += 1
        self.say(Text(f"Sample hand {self.hands_dealt}: " + join_names([c.name for c in hand])))

    def hand_seed(self) -> int:
        seed = getattr(getattr(self.session, "draft", None), "seed", None)
        return int(seed or 0)

    def cmd_suggest(self, args: list[str]) -> None:
        self.say(
            suggestion_table(suggest_commanders(Counter(self.pool_cards()), 8, piper=self.piper), width=self.width)
        )

    def cmd_check(self, args: list[str]) -> None:
        self.say(deck_report(self.report()))

    def _summary(self) -> None:
        report = self.report()
        commanders = " + ".join(report.commanders) or "none yet"
        if report.piper_colors:
            commanders += f" (chosen: {', '.join(c.word for c in report.piper_colors)})"
        state = "legal" if report.valid else f"not legal yet ({plural(len(report.problems), 'thing')} to fix)"
        self.say(Text(f"Commanders: {commanders} · {plural(report.size, 'card')} · {state}"))

    def _status(self) -> None:
        """The deck checked after every change: size, identity and every problem."""
        report = self.report()
        state = (
            Text("legal", style="green")
            if report.valid
            else Text(f"{plural(len(report.problems), 'thing')} to fix", style="red")
        )
        self.say(Text.assemble(f"Deck: {plural(report.size, 'card')}, identity {report.color_identity} · ", state))
        for problem in report.problems:
            self.say(Text(f"  {problem.code}: {problem.message}", style="red"))
        for line in report.chosen_for_you:
            self.say(Text(f"  {line}", style="cyan"))

    def cmd_save(self, args: list[str]) -> None:
        self.save_progress()
        self.say("Saved (every change is saved as you make it).")
