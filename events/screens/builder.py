"""The deck builder at the terminal: commanders, Pipers, cards and lands from the pool, checked after every change.

``DeckBuilder`` is mixed into the practice screen and the event's pool builder;
they provide ``session``, ``console``, ``terminal``, ``seat``, ``piper``,
``pool_cards()`` and what happens after 'done'.
"""

from __future__ import annotations

import json
from collections import Counter

from rich.table import Table
from rich.text import Text

from draft.deckbuild import build_deck
from draft.decks import Deck, DeckLine, Zone, is_piper, suggest_commanders, validate
from draft.formats import write_json
from events.screens.render import deck_report, identity_text, suggestion_table
from events.screens.terminal import Quit
from sets.basics import basic_land
from sets.booster import Printing
from sets.cards import Card, normalize_name
from sets.colors import Color, ColorIdentity
from sets.errors import ColorError, InputError


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


def pool_order(printing: Printing):
    card = printing.card
    return (len(card.deck_colors) > 1, card.deck_colors.mask, card.is_land, card.mana_value, card.name)


class DeckBuilder:
    """Deck-building commands over ``pool_cards()``; 'done' saves a legal deck through the session."""

    def build(self) -> None:
        pool = self.pool_cards()
        self.pool_list = sorted(dict.fromkeys(pool), key=lambda c: pool_order(Printing(c)))
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
                        self.console.print(f"[bold green]Deck saved.[/] Export it any time with 'export' or resume draft {self.session.draft_id}.",
                                           markup=True)
                        self.after_done()
                        return
                    self.console.print(deck_report(report))
                    self.console.print("[red]The deck is not legal yet[/]: fix the problems, or 'save' to keep it as it is.", markup=True)
                    continue
                handler = getattr(self, f"cmd_{verb}", None)
                if handler is None:
                    raise InputError(f"unknown command {verb!r}: type 'help' for the list")
                handler(args)
            except InputError as error:
                self.console.print(Text(str(error), style="red"))

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
                self.console.print(Text(str(error), style="red"))

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
        self.console.print(f"Deck: {report.size} cards, identity {report.color_identity} · {state}", markup=True)
        for problem in report.problems:
            self.console.print(Text(f"  {problem.code}: {problem.message}", style="red"))
        for line in report.chosen_for_you:
            self.console.print(Text(f"  {line}", style="cyan"))

    def cmd_save(self, args: list[str]) -> None:
        report = self.report()
        self.session.save_deck(self.deck_json(), report.valid)
        self.console.print("Deck saved" + ("." if report.valid else " (not legal yet)."))
