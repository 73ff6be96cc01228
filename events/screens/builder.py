"""The deck builder at the line prompt, and what both builders show of a deck session's answers.

``BuilderPrompt`` holds one deck activity (``events.sessions.activities``: the session and what its place
offers) and reads one command a line (``events.screens.deck_commands``); ``answer_lines`` turns the
session's typed results into the lines both faces show (the prompt prints them, the full-screen builder
keeps them in its log), so the two can't drift apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from draft import deck_actions as act
from draft.commanders import Suggestion, each_identity, leaders_text
from draft.deck_rules import Problem
from draft.deck_session import DeckSession
from draft.deck_state import plural
from draft.decks import Deck
from draft.deckstats import group_cards
from draft.products import added_names
from events.outputs.deck_problems import judge_order
from events.outputs.text import join_names, wrapped
from events.screens import deck_commands as words
from events.screens.cards import show_card
from events.screens.deck_tables import deck_report, stats_lines, suggestion_table
from events.screens.goldfish import goldfish_lines
from events.screens.render import card_list_table, identity_text, shown, unruled
from events.screens.review import bot_view, review
from events.screens.terminal import Quit, Terminal
from events.sessions.activities import DeckActivity, Exported
from sets.errors import InputError
from sets.visible import quoted

# the full-screen builder's help ('?'): its keys, then every command of the line prompt
PROBLEMS_WHOLE = "more than fits here: ': check' shows every problem whole"  # the app's box of figures, cut


def figure_lines(stats: list[Text], problems: Sequence[Problem], room: int, width: int) -> list[Text]:
    """The app's box of figures: the deck's figures, then its problems, ``room`` lines of ``width`` columns, one line
    each (cut with '…': a wrapped sentence's end would fall out of the box); when a problem is cut or left out, its
    last line says where every problem is shown whole (``PROBLEMS_WHOLE``)."""
    every = stats + [shown(f"{p.code}: {p.message}", style="red") for p in problems]
    lines = every[:room]
    if problems and (len(every) > room or any(line.cell_len > width for line in lines)):
        lines = [*lines[: room - 1], Text(PROBLEMS_WHOLE, style="italic")]
    for line in lines:
        line.no_wrap, line.overflow = True, "ellipsis"
    return lines


HELP_KEYS = (
    """Keys in the deck builder:
  ↑ ↓ or j k   move                Tab   pool ⇄ deck
  Enter or a   pool: add one copy · deck: take one out (d, Delete)
  c            make the highlighted pool card your commander (a
               second one that can pair with the first: both lead)
  u / U        undo / redo
  l            fill to 60 with basics by your colored symbols
  f            finish the deck keeping your cards ('auto'); the
               command line takes 'auto new'
  n            a sample opening hand and its goldfish: mulligan,
               draw, turns 1-6
  i            the highlighted card in full
  x            export every file
  r            the draft review (practice drafts)
  :            the command line: every command of the line prompt
  ?            this help
  q, Ctrl-C    leave (every change is already saved)

"""
    + words.HELP_BUILD
)


# --- what a deck session's answers look like -----------------------------------------------------------


def opening_lines(session: DeckSession, width: int) -> list[RenderableType]:
    """The commander advice, then the deck as saved (or how to start)."""
    choices = session.suggestions(5)
    lines: list[RenderableType] = [
        suggestion_table(choices, width=width, product=session.product),
        *how_to_lead(choices),
    ]
    if session.started:
        lines += [Text("Your saved deck, as you left it:", style="bold"), summary_line(session)]
        lines.append(Text("Go on building: 'help' lists the commands; 'show deck' lists it."))
    else:
        lines.append(Text("Build your deck: 'help' lists the commands; 'auto' gives you a ready-made deck."))
    return lines


def choice_commands(choice: Suggestion) -> list[str]:
    """What to type to lead as ``choice``: 'commander' with the cards it names, then 'piper' with the colors of
    the product's added cards it leads with (a Piper, a Faceless One; drafted or added)."""
    named = [name for name in choice.commanders if name not in added_names()]
    # a Background leads only beside its pair, so the commander line names both; 'piper' then sets the color
    commands = ["commander " + " + ".join(choice.commanders)] if named else []
    if len(named) < len(choice.commanders):
        commands.append("piper " + " ".join(color.word for color in choice.piper_colors))
    return commands


def how_to_lead(choices: Sequence[Suggestion]) -> list[Text]:
    """Under the commander choices: the commands that lead as the first, and whose numbers 'commander' takes (a
    player read the list's '1' and typed 'commander 1': pool card 1 was refused)."""
    if not choices:
        return []
    typed = ", then ".join(f"'{command}'" for command in choice_commands(choices[0]))
    return [
        Text(
            f"To lead as choice 1, type {typed}. 'commander N' takes your pool's numbers ('show pool'), not this list's."
        )
    ]


def app_opening_lines(session: DeckSession, width: int) -> list[RenderableType]:
    """The full-screen builder's first words, for its log's two lines: the best commanders for the pool (or the deck
    as saved), then the keys that start, where both fit (the key bar says them too). Never the line prompt's
    commander table, whose last row's tail was all the log showed."""
    best = session.suggestions(1)
    if session.started:
        first = "Your saved deck, as you left it (': check' checks it)."
    elif best:
        leaders = " + ".join(best[0].commanders) + f" ({best[0].identity.code or 'C'})"
        first = f"Best commanders for this pool: {leaders}; ': suggest' ranks more."
    else:
        first = "No card of this pool can lead: ': suggest' says what can."
    keys = "c on a card makes it your commander, f finishes the deck, ? lists every key."
    return [Text(first), Text(keys)] if max(len(first), len(keys)) <= width else [Text(first)]


def summary_line(session: DeckSession) -> Text:
    report = session.report()
    commanders = leaders_text(session.commanders, report.piper_colors) or "none yet"
    problems = judge_order(report.problems, report.color_identity)
    state = "legal" if report.valid else f"not legal yet ({plural(len(problems), 'thing')} to fix)"
    return Text(f"Commanders: {commanders}; {plural(report.size, 'card')}; {state}")


def status_lines(session: DeckSession) -> list[RenderableType]:
    """The deck checked after every change: size, identity and every problem."""
    report = session.report()
    problems = judge_order(report.problems, report.color_identity)  # causes first, identity folded
    state = (
        Text("legal", style="green") if report.valid else Text(f"{plural(len(problems), 'thing')} to fix", style="red")
    )
    lines: list[RenderableType] = [
        Text.assemble(f"Deck: {plural(report.size, 'card')}, identity {report.color_identity}; ", state)
    ]
    lines += [Text(f"  {problem.code}: {problem.message}", style="red") for problem in problems]
    lines += [Text(f"  {line}", style="cyan") for line in report.chosen_for_you]
    return lines


def deck_table(deck: Deck, width: int) -> Table:
    # a commander's count says "commander" ("C" reads as colorless, the identity column's letter)
    leading = zip(deck.commanders, each_identity(deck.commanders, deck.piper_colors), strict=True)
    rows = [["commander", card.name, identity_text(led.code), str(card.mana_value)] for card, led in leading]
    for kind, cards in group_cards(deck.main):
        rows.append(["", Text(f"{kind} ({sum(n for _, n in cards)})", style="bold"), "", ""])
        rows += [[str(n), card.name, identity_text(card.deck_colors.code), str(card.mana_value)] for card, n in cards]
    return card_list_table(
        ["Count", "Card", "Id", "MV"], rows, title=f"Deck ({plural(deck.size, 'card')})", width=width
    )


def pool_table(rows: tuple[act.PoolRow, ...], width: int) -> Table:
    body = [
        [
            str(row.number),
            row.card.name,
            identity_text(row.card.deck_colors.code),
            str(row.card.mana_value),
            str(row.in_deck),
            str(row.in_pool),
        ]
        for row in rows
    ]
    return card_list_table(["#", "Card", "Id", "MV", "In deck", "In pool"], body, title="Your pool", width=width)


def commanders_line(chosen: act.CommandersChosen) -> Text:
    return Text("Commanders: " + (leaders_text(chosen.commanders, chosen.colors) or "none yet"))


def answer_lines(result: act.Result, activity: DeckActivity, width: int) -> list[RenderableType]:
    """What a face shows for one of the session's results (``draft.deck_actions``)."""
    session = activity.session
    match result:
        case act.CommandersChosen():
            lines: list[RenderableType] = [commanders_line(result)]
            if result.moved:
                lines.append(
                    Text("Moved from the main deck to the command zone: " + join_names(result.moved), style="cyan")
                )
            if result.returned_words:
                lines.append(shown(result.returned_words, style="dim"))
            if result.removed:
                lines.append(Text("Removed (added, not drafted): " + join_names(result.removed), style="dim"))
            return lines + status_lines(session)
        case act.Added():
            return [*[Text(f"+{count} {card.name}") for card, count in result.cards], *status_lines(session)]
        case act.Removed():
            lines = [
                Text(f"-{taken} {card.name}" + (f" (the deck had only {taken})" if asked > taken else ""))
                for card, taken, asked in result.cards
            ]
            return lines + status_lines(session)
        case act.BasicsSet():
            return [*[Text(f"{result.land.name}: {result.count} (was {result.was})")], *status_lines(session)]
        case act.LandsAdded(lands=()):
            return ["The deck already has 60 cards or more: no lands added."]
        case act.LandsAdded():
            added = join_names([f"{n} {land.name}" for land, n in result.lands])
            return [*[Text("Added " + added + " (by the colored symbols of your cards)")], *status_lines(session)]
        case act.Completed():
            kept, added = plural(result.kept, "card"), plural(result.added, "card")
            choosers = [card.name for card in session.commanders if card.chooses_color]
            choosers = choosers[len(choosers) - len(result.colors) :]  # the last ones: those given no color
            chose = "".join(f"; chose {c.word} for {name}" for c, name in zip(result.colors, choosers, strict=True))
            lines = [Text(f"Finished your deck: kept your {kept}, added {added}{chose}.")]
            if warning := session.stats().lands_warning:  # a pool short of spells in these colors: basics fill it
                lines.append(Text("⚠ " + warning, style="yellow"))
            return [*lines, *status_lines(session)]
        case act.Replaced():
            lines = ["The bot built a deck from your pool:", deck_table(session.deck(), width)]
            if result.sources:
                lines.append("Mana sources: " + ", ".join(f"{color} {count}" for color, count in result.sources))
            return [*lines, deck_report(session.report())]
        case act.KeptDeck():
            return ["Kept your deck."]
        case act.Undone():
            return [Text("Undone."), *status_lines(session)]
        case act.Redone():
            return [Text("Redone."), *status_lines(session)]
        case act.Hand(fish=None):
            return [Text(f"Sample hand {result.number}: " + join_names([c.name for c in result.cards]))]
        case act.Hand(fish=fish) if fish is not None:
            return goldfish_lines(fish, width)
        case act.Saved():
            return [] if activity.registers else ["Saved (every change is saved as you make it)."]
        case act.Finished(saved=True):
            message = f" Export it any time with 'export'; '{activity.resume}' opens it again."
            return [deck_report(result.report), Text.assemble(("Deck saved.", "bold green"), message)]
        case act.Finished():
            why = ": fix what is listed (your deck is saved as it is)."
            return [deck_report(result.report), Text.assemble(("The deck is not legal yet", "red"), why)]
        case act.PoolShown():
            return [pool_table(result.rows, width)]
        case act.DeckShown():
            return [deck_table(result.deck, width)]
        case act.Figures():
            return list(stats_lines(result.stats))
        case act.Checked():
            return [deck_report(result.report)]
        case act.Suggestions():
            choices = list(result.suggestions)
            return [suggestion_table(choices, width=width, product=session.product), *how_to_lead(choices)]
    raise TypeError(f"no lines for {result!r}")


def export_lines(exported: Exported) -> list[RenderableType]:
    names = f" ({exported.names})" if exported.names else ""
    return [
        Text(f"Wrote {len(exported.written)} files to {exported.folder}{names}"),
        *(Text(note) for note in exported.notes),
        *not_legal_lines(exported.problems),
    ]


def not_legal_lines(problems: Sequence[Problem]) -> list[RenderableType]:
    """The deck an export wrote isn't legal: said with every problem, as 'check' says them (another tool won't)."""
    if not problems:
        return []
    head = Text.assemble(
        ("The deck written is not legal", "red"), f" ({plural(len(problems), 'thing')} to fix; 'check' lists them too):"
    )
    return [head, *(Text(f"  {problem.code}: {problem.message}", style="red") for problem in problems)]


def help_text(activity: DeckActivity, width: int | None = None) -> str:
    """The builder's commands, each with what it does, fitted to ``width`` columns (None: as written, 70 wide)."""
    text = words.HELP_REGISTER if activity.registers else words.HELP_BUILD
    return text if width is None else fitted_help(text, width)


HELP_COLUMN = 20  # where the help's words on what a command does begin


def fitted_help(text: str, width: int) -> str:
    """A help of commands (a heading, then a line per command: two spaces, the command, two or more spaces, what it
    does, the rest of that on lines indented to ``HELP_COLUMN``) wrapped again at ``width`` columns: what a command
    does stays in its column, or goes under the command, indented, where the column would leave it too narrow."""
    width = max(width, 30)  # (a screen narrower than that wraps the lines itself)
    if all(len(line) <= width for line in text.splitlines()):
        return text
    entries: list[list[str]] = []  # [command, what it does], or [a line that is neither]
    for line in text.splitlines():
        command = re.match(r"  (\S.*?)\s{2,}(\S.*)$", line)
        if line.startswith(" " * HELP_COLUMN) and entries and len(entries[-1]) == 2:
            entries[-1][1] += " " + line.strip()
        elif command:
            entries.append([command[1], command[2]])
        else:
            entries.append([line])
    lines: list[str] = []
    beside = width - HELP_COLUMN >= 30  # room for the words beside the commands
    for entry in entries:
        if len(entry) == 1:
            lines += wrapped(entry[0], width, "", "") or [""]
        elif beside:
            first = f"  {entry[0]}".ljust(HELP_COLUMN - 2) + "  "
            lines += wrapped(entry[1], width, first, " " * HELP_COLUMN)
        else:
            lines += wrapped(f"  {entry[0]}", width, "", "    ") + wrapped(entry[1], width, "      ", "      ")
    return "\n".join(lines)


def pool_farewell(activity: DeckActivity) -> str:
    return f"Saved. The same command opens this deck again: {activity.resume}"


# --- the line prompt -----------------------------------------------------------------------------------


class BuilderPrompt:
    """One builder command a line until 'done' (then review, export or quit, where the place offers them);
    'quit', end of input or Ctrl-C raise ``Quit`` with every change already kept."""

    def __init__(self, activity: DeckActivity, console: Console, terminal: Terminal) -> None:
        self.activity, self.console, self.terminal = activity, console, terminal

    @property
    def session(self) -> DeckSession:
        return self.activity.session

    def say(self, lines: Sequence[RenderableType]) -> None:
        for line in lines:
            self.console.print(unruled(line))

    def run(self) -> None:
        self.say(opening_lines(self.session, self.console.width))
        while not self.handle(self.next_line("deck> ")):
            pass
        if not self.activity.registers:
            self.after_done()

    def next_line(self, prompt: str) -> str:
        """The next non-empty line typed."""
        while True:
            line = (self.terminal.ask(prompt) or "").strip()
            if line:
                return line

    def handle(self, line: str) -> bool:
        """One command; True when 'done' finished a legal deck.  A change is kept at once and can be undone."""
        try:
            command = words.parse(line, self.session)
            if isinstance(command, words.FaceCommand):
                self.face_command(command)
                return False
            result = self.session.apply(command)
            if isinstance(result, act.Question):
                result = self.session.apply(act.Replace(self.confirm(result.text)))
        except InputError as error:
            self.console.print(
                Text(str(error) + words.typed_way(error), style="red"), soft_wrap=True
            )  # one line, the terminal wraps it
            return False
        self.say([*self.activity.notices, *answer_lines(result, self.activity, self.console.width)])
        self.activity.notices.clear()
        return isinstance(result, act.Finished) and result.saved

    def face_command(self, command: words.FaceCommand) -> None:
        match command:
            case words.Quit():
                raise Quit()
            case words.Help():
                self.say([Text(help_text(self.activity, self.console.width))])
            case words.ReadCard():
                show_card(self.console, command.text, list(self.session.pool_list), "your pool list")
            case words.Review():
                review(self.console, self.activity.drafted())
            case words.ShowBot():
                bot_view(self.console, self.activity.bot(command.seat))
            case words.Export():
                self.say(export_lines(self.activity.export(command.folder, command.force)))

    def confirm(self, question: str) -> bool:
        """A yes/no question, no unless answered yes."""
        answer = self.terminal.ask(escape(question) + " \\[y/N] ") or ""
        return answer.strip().lower() in ("y", "yes")

    def after_done(self) -> None:
        """What is left once the deck is done: the review (of a pool drafted here), an export, or leaving."""
        offered = "review, export" if self.activity.reviews else "export"
        while True:
            line = self.next_line(f"{offered} [FOLDER], or quit> ")
            parts = words.split_command(line)
            assert parts is not None  # next_line gives a line with a word in it
            verb = parts[0]
            if verb in (*words.QUIT_WORDS, "done"):
                raise Quit()
            if verb not in words.AFTER_DONE:
                self.console.print(
                    Text(f"unknown command {quoted(verb)}: {offered} or quit", style="red"), soft_wrap=True
                )
                continue
            self.handle(line)
