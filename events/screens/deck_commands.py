"""The deck builder's command language, the one both text faces read (the line prompt, and the command line
of the full-screen app): a typed line becomes an intent for the ``DeckSession`` (``draft.deck_actions``)
or a command of the face itself (help, reading a card, the review, a bot's deck, an export, quitting).

Cards are named by their number in the pool list or by name, several at once (``add 16 2, 18 4``, ``add
Kamahl, Heart of Krosa + murder``): the same reading as the pick prompt's (``events.screens.picks``).
Nothing here prints or draws; a line that can't be read raises ``InputError`` saying what to type.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from pathlib import Path

from draft import deck_actions as act
from draft.deck_session import DeckSession
from draft.goldfish import BottomFirst
from events.screens.picks import read_choices
from sets.cards import Card
from sets.colors import Color
from sets.errors import ColorError, InputError
from sets.numbers import is_number
from sets.visible import quoted

HELP_BUILD = """Deck building commands (N: the pool list's numbers, 'show pool'):
  commander N [M]   one or two commanders from your pool, by numbers
                    or names; a commander leaves the main deck (it
                    moves to the command zone); the card the product
                    lets you add leads by its name, drafted or not
                    ('commander 8 + piper'; in CLB '8 + faceless')
  piper COLOR [COLOR]  lead with one or two of the card the product
                    lets you add (The Prismatic Piper; Faceless One
                    in CLB), of these colors; added ones allowed
  add N [COUNT]     put cards into the deck: 'add 3, 7, murder',
                    'add 16 2, 18 4'; separate names with ',' ';' or
                    '+' ('add Kamahl, Heart of Krosa + murder')
  remove N [COUNT]  take them out
  lands             fill up to 60 cards with basics, shared by your
                    cards' colored symbols
  lands COLOR COUNT  set how many basics of a color ('lands U 9');
                    'remove plains 3' works too
  auto              finish your deck, keeping every card you chose
                    ('auto new': the bot's whole deck)
  stats             curve, creatures/removal/ramp, color sources
                    against the symbols you need
  hand              a sample opening hand and its lands ('hand' again:
                    another), then play it on alone:
  mulligan          the first is free, then one card to the bottom
                    each ('bottom N [M]': the hand's numbers)
  draw, turn, turns  the next card, the next turn, every turn to 6
  undo, redo        take back the last change, or bring it back
  show [pool|deck]  list the pool or the deck
  suggest           commander advice
  ? N, show N, card NAME  a card's full facts and rules text
  check             check the deck
  review            your draft, pick by pick
  export [FOLDER] [--force]  write pool, deck and draft log in every
                    format (--force: into a folder that has files;
                    by default ./cmdraft-practice-ID where you started)
  done              finish (only when the deck is legal)
  quit              leave; every change is saved as you make it"""

HELP_REGISTER = HELP_BUILD.split("  export [FOLDER]")[0] + (
    "  done              register the deck (only when it is legal)\n"
    "  save              register the deck as it is, legal or not\n"
    "  quit              leave; changes since the last 'save' or 'done'\n"
    "                    are not registered"
)

COMMANDER_USAGE = "commander N [M]: 'commander 4', 'commander 4 9' or 'commander Kamahl, Heart of Krosa'"
USAGE = {
    "add": "add N [COUNT]: 'add 16', 'add 16 2', 'add 16 2, 18 4' or 'add murder'",
    "remove": "remove N [COUNT]: 'remove 16', 'remove 16 2' or 'remove murder'",
    "commander": COMMANDER_USAGE,
}
PIPER_USAGE = "piper COLOR [COLOR]: 'piper blue' or 'piper U R'"

QUIT_WORDS = ("quit", "q", "exit")
GOLDFISH = ("hand", "mulligan", "bottom", "draw", "turn", "turns")
AFTER_DONE = ("review", "bot", "export", "show", "card", "check", "stats", "help", *GOLDFISH)  # once the deck is done


# --- the face's own commands -----------------------------------------------------------------------


@dataclass(frozen=True)
class Help:
    pass


@dataclass(frozen=True)
class Quit:
    pass


@dataclass(frozen=True)
class ReadCard:
    """A card's full facts: ``text`` a number of the pool list or a name."""

    text: str


@dataclass(frozen=True)
class Review:
    pass


@dataclass(frozen=True)
class ShowBot:
    seat: int  # from 0


@dataclass(frozen=True)
class Export:
    folder: Path | None
    force: bool


FaceCommand = Help | Quit | ReadCard | Review | ShowBot | Export


def split_command(line: str) -> tuple[str, list[str], str] | None:
    """(verb, arguments, the text after the verb as typed) of a line; None for an empty one.  '? 3' and '?3'
    read a card."""
    line = line.strip()
    if line.startswith("?"):
        line = "card " + line[1:].strip()
    words = line.split()
    if not words:
        return None
    return words[0].lower(), words[1:], line[len(words[0]) :].strip()


def parse(line: str, session: DeckSession) -> object:
    """The intent (``draft.deck_actions``) or face command a typed line asks for (None: an empty line)."""
    parts = split_command(line)
    if parts is None:
        return None
    verb, args, text = parts
    reader = _READERS.get(verb)
    if reader is None:
        raise InputError(f"unknown command {quoted(verb)}: type 'help' for the list")
    return reader(args, text, session)


def named_cards(
    text: str, session: DeckSession, *, counts: bool = False, added: bool = False
) -> list[tuple[Card, int | None]]:
    """Cards of the pool list by numbers or names (whole names first, so names with commas work); the free
    basics are reached by name too ('remove plains 3'), after the pool's numbered cards, and with ``added`` the
    product's added card (a Piper, Faceless One) the pool doesn't hold, which may lead when not drafted."""
    listed = session.reachable()
    if added and session.piper is not None and session.piper not in listed:
        listed.append(session.piper)
    chosen = read_choices(
        text,
        [card.name for card in listed],
        counts=counts,
        what="in your pool ('show pool' lists it)",
        numbered=len(session.pool_list),
    )
    return [(listed[position], count) for position, count in chosen]


def _commander(args: list[str], text: str, session: DeckSession) -> act.ChooseCommanders:
    if not args:
        raise InputError(COMMANDER_USAGE)
    cards = [card for card, _ in named_cards(text, session, added=True)]
    if not cards:  # more than two: the deck rules refuse them, in the words every face gives (DeckSession)
        raise InputError(COMMANDER_USAGE)
    return act.ChooseCommanders(tuple(cards))


def _piper(args: list[str], text: str, session: DeckSession) -> act.ChoosePipers:
    """The colors a 'piper' line names (how many may lead, and whether the product has the card at all, the deck
    session says, in the words every face gives)."""
    if not args:
        raise InputError("usage: " + PIPER_USAGE)
    try:
        return act.ChoosePipers(tuple(Color.parse(arg) for arg in args))
    except ColorError as error:
        raise InputError(str(error)) from None


def _wanted(verb: str, args: list[str], text: str, session: DeckSession, hint: str = "") -> tuple:
    """The cards and counts an 'add' or 'remove' line asks for (1 copy when no count is given)."""
    if not args:
        raise InputError("usage: " + USAGE[verb])
    wanted = []
    for card, count in named_cards(text, session, counts=True):
        count = 1 if count is None else count
        if count < 1:
            raise InputError(f"{verb} {card.name} {count}: a count is 1 or more{hint}")
        wanted.append((card, count))
    return tuple(wanted)


def _lands(args: list[str], text: str, session: DeckSession) -> act.FillLands | act.SetBasics:
    if len(args) == 2:
        try:
            color = args[0].upper() if args[0].upper() in ("C", "WASTES") else Color.parse(args[0]).value
        except ColorError as error:
            raise InputError(str(error)) from None
        if not (args[1].isascii() and args[1].isdigit()):  # digits of any length: the core says the range
            raise InputError(f"{quoted(args[1])} is not a count: give the number of basics, 0 or more ('lands U 9')")
        return act.SetBasics("" if color in ("C", "WASTES") else color, int(args[1]))
    if args:
        raise InputError("'lands' fills to 60 with basics; 'lands U 9' sets one color")
    return act.FillLands()


def _auto(args: list[str], text: str, session: DeckSession) -> act.Complete | act.Replace:
    fresh = bool(args) and args[0].lower() in ("new", "replace", "bot")
    if args and not fresh:
        raise InputError("'auto' finishes your deck, keeping what you chose; 'auto new' replaces it with the bot's")
    return act.Replace() if fresh else act.Complete()


def _card(args: list[str], text: str, session: DeckSession) -> ReadCard:
    if not args:
        raise InputError("give a card: 'card 12' or 'card murder' ('show pool' lists the numbers)")
    return ReadCard(" ".join(args))


def _show(args: list[str], text: str, session: DeckSession) -> ReadCard | act.ShowPool | act.ShowDeck:
    """'show' or 'show deck': the deck; 'show pool': the pool; 'show 12' or 'show sol ring': that card (a name was
    read as 'show deck')."""
    if not args or (len(args) == 1 and args[0].lower() == "deck"):
        return act.ShowDeck()
    if len(args) == 1 and args[0].lower() == "pool":
        return act.ShowPool()
    return _card(args, text, session)


def _bot(args: list[str], text: str, session: DeckSession) -> ShowBot:
    if len(args) != 1 or not is_number(args[0]):
        raise InputError("bot N: a bot's pool and deck, N its seat ('review' lists them)")
    return ShowBot(int(args[0]) - 1)


def _bottom(args: list[str], text: str, session: DeckSession) -> act.Bottom:
    if not args or not all(is_number(arg) for arg in args):
        raise InputError("bottom N [M ...]: the hand's numbers of the cards to put on the bottom ('bottom 2 5')")
    return act.Bottom(tuple(int(arg) for arg in args))


def _export(args: list[str], text: str, session: DeckSession) -> Export:
    """'export [FOLDER] [--force]': a folder whose name has spaces is quoted as at a shell ('export "My Decks"');
    a second folder, an empty name or an unclosed quote is refused, never a folder made of part of it."""
    try:
        words = shlex.split(text)
    except ValueError:
        raise InputError(
            "export: a quote is not closed: quote the folder's whole name, as 'export \"My Decks\"'"
        ) from None
    force = "--force" in words  # files of an earlier run are replaced only when asked (events.outputs.guard)
    folders = [word for word in words if word != "--force"]
    if len(folders) > 1:
        raise InputError(
            f"export takes one folder, not {len(folders)}: quote a name with spaces, as 'export \"My Decks\"'"
        )
    if folders and not folders[0].strip():
        raise InputError("export: the folder's name is empty: name a folder, or none for the default one")
    return Export(Path(folders[0]).expanduser() if folders else None, force)


_READERS = {
    "commander": _commander,
    "c": _commander,
    "piper": _piper,
    "add": lambda args, text, s: act.Add(_wanted("add", args, text, s, " (to take cards out, use 'remove')")),
    "remove": lambda args, text, s: act.Remove(_wanted("remove", args, text, s)),
    "rm": lambda args, text, s: act.Remove(_wanted("remove", args, text, s)),
    "lands": _lands,
    "auto": _auto,
    "card": _card,
    "show": _show,
    "stats": lambda args, text, s: act.ShowStats(),
    "hand": lambda args, text, s: act.DealHand(),
    "mulligan": lambda args, text, s: act.Mulligan(),
    "bottom": _bottom,
    "draw": lambda args, text, s: act.Draw(),
    "turn": lambda args, text, s: act.NextTurn(),
    "turns": lambda args, text, s: act.PlayOut(),
    "suggest": lambda args, text, s: act.Suggest(8),
    "check": lambda args, text, s: act.CheckDeck(),
    "undo": lambda args, text, s: act.Undo(),
    "redo": lambda args, text, s: act.Redo(),
    "save": lambda args, text, s: act.SaveDeck(),
    "done": lambda args, text, s: act.FinishDeck(),
    "help": lambda args, text, s: Help(),
    "review": lambda args, text, s: Review(),
    "bot": _bot,
    "export": _export,
    **{word: (lambda args, text, s: Quit()) for word in QUIT_WORDS},
}


# the builder app's commands asked for what they show: their answer opens whole in a panel when the log's lines can't
# hold it (a change to the deck answers in the log: its figures are on the screen already)
READING = (
    act.ShowPool,
    act.ShowDeck,
    act.ShowStats,
    act.CheckDeck,
    act.Suggest,
    act.FinishDeck,
    Help,
    ShowBot,
    Export,
)

# the goldfish's steps, which the command line plays on the hand dealt last
GOLDFISH_STEPS = (act.Mulligan, act.Bottom, act.Draw, act.NextTurn, act.PlayOut)


def typed_way(error: InputError) -> str:
    """What to type to do first what a refusal says is owed, on a line reading these commands (the line prompt, the
    app's command line): the hand's bottom ('bottom N'); nothing for any other refusal."""
    return " ('bottom N')" if isinstance(error, BottomFirst) else ""
