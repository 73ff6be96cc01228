"""The review after a practice draft at the line prompt: every pick beside the hint's, what wheeled, and the
bots' decks ('bot N' shows one)."""

from __future__ import annotations

import textwrap
from collections import Counter

from rich.console import Console
from rich.text import Text

from draft.advice import ReviewRow
from draft.advice import review as advice_review
from draft.deck_state import plural, pool_order
from events.screens.render import (
    card_line,
    card_list_table,
    identity_text,
    pack_table,
    shown,
    unruled,
)
from events.sessions.activities import BotDeck, bot_decks
from events.sessions.table import DraftTable

REVIEW_TITLE = "Your picks beside the hint's (the hint also weighs your colors and commander, so yours is often right):"


def rated_higher(row: ReviewRow, short: bool = False) -> str:
    """Whose pick is rated more, in words that read right either way: 'hint +0.4', 'you +0.4', 'same' (the same
    cards) or 'even' (other cards rated the same); ``short``: without the figure ('hint', 'you': a narrow list,
    whose line below says it).  A bare '-0.4' under "how much more the hint's pair is rated" read as a riddle."""
    if {c.name for c in row.taken} == {c.name for c in row.hint}:
        return "same"
    gap = round(row.difference, 1)
    if gap == 0:
        return "even"
    who = "hint" if gap > 0 else "you"
    return who if short else f"{who} +{abs(gap):.1f}"


def rated_sentence(row: ReviewRow) -> str:
    """The same as a sentence, for the line under the review's list."""
    said = rated_higher(row)
    if said in ("same", "even"):
        return "both rated the same"
    who, gap = said.split(" +")
    if who == "hint":
        return f"the hint's cards are rated {gap} higher"
    return f"your cards are rated {gap} higher (the hint also weighs your colors and commander)"


def pick_sentence(row: ReviewRow) -> str:
    """One pick of the review in words (the line prompt, read aloud): what you took, what the hint would have taken,
    whose cards are rated more, and what of the pack wheeled; every name whole, never a table's cut cell."""
    taken = " + ".join(c.name for c in row.taken)
    if {c.name for c in row.taken} == {c.name for c in row.hint}:
        said = f"Pack {row.pack} pick {row.pick}: you took {taken}, as the hint would"
    else:
        said = f"Pack {row.pack} pick {row.pick}: you took {taken}; the hint: " + " + ".join(c.name for c in row.hint)
        said += f"; {rated_sentence(row)}"
    if row.wheeled:
        said += f"; {len(row.wheeled)} wheeled: " + " / ".join(c.name for c in row.wheeled)
    return said + "."


def bot_sentence(bot: BotDeck, style: str) -> str:
    """A bot's deck in words: 'Seat 3 (strong bot): Kediss, Emberclaw Familiar + Anara, Wolvid Familiar; RG; legal.'"""
    leaders = " + ".join(c.name for c in bot.deck.commanders) or "no commander"
    legal = "legal" if bot.report.valid else "not legal"
    return f"Seat {bot.seat + 1} ({style} bot): {leaders}; {bot.report.color_identity.code or 'C'}; {legal}."


def sentence_lines(said: str, width: int) -> list[str]:
    """A sentence wrapped at ``width`` between words (a name never broken), its later lines indented, and never one
    word alone on its last line (a reader hears a lone word as a line of its own)."""
    lines = textwrap.wrap(said, width, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)
    if len(lines) > 1 and " " not in lines[-1].strip() and " " in lines[-2].strip():
        head, word = lines[-2].rsplit(" ", 1)
        lines[-2:] = [head, f"  {word} {lines[-1].strip()}"]
    return lines


def review(console: Console, table: DraftTable) -> None:
    """Every pick of the human seats (what was taken, what the hint would have taken, what wheeled) and the bots'
    decks, a sentence each: a screen reader reads a table's row as bare words, and 80 columns cut its names."""

    def say(said: str, style: str = "") -> None:
        for line in sentence_lines(said, console.width):
            console.print(shown(line, style=style), no_wrap=True)

    for seat in table.humans:
        say(REVIEW_TITLE, "bold")
        for row in advice_review(table.draft, seat, table.pipers):
            say(pick_sentence(row))
    say("The bots' decks ('bot N' shows one; export writes practice-bot-N-deck.*):", "bold")
    for bot in bot_decks(table):
        say(bot_sentence(bot, table.styles[bot.seat]))


def bot_deck_rows(bot: BotDeck, commander: str = "C") -> list[list]:
    """A bot's deck as rows: commanders (their count column says ``commander``), then the main deck by lands last,
    mana value and name."""
    deck = bot.deck
    rows = [[commander, c.name, identity_text(c.identity.code), str(c.mana_value)] for c in deck.commanders]
    rows += [
        [str(n), c.name, identity_text(c.deck_colors.code), str(c.mana_value)]
        for c, n in sorted(deck.main.items(), key=lambda kv: (kv[0].is_land, kv[0].mana_value, kv[0].name))
    ]
    return rows


def bot_tables(bot: BotDeck, width: int | None) -> list:
    """One bot's pool and deck."""
    return [
        pack_table(
            sorted(bot.pool, key=pool_order),
            title=f"Seat {bot.seat + 1}: pool ({len(bot.pool)} cards)",
            width=width,
            grouped=True,
        ),
        card_list_table(
            ["Count", "Card", "Id", "MV"],
            bot_deck_rows(bot),
            title=f"Seat {bot.seat + 1}: deck ({bot.deck.size} cards)",
            width=width,
        ),
    ]


def bot_view(console: Console, bot: BotDeck) -> None:
    """One bot's pool, a card a line with its copies (the line prompt: never a table's wrapped cell), and its deck."""
    pool = sorted(bot.pool, key=pool_order)
    counts = Counter((p.card, p.foil, p.etched) for p in pool)
    firsts = {(p.card, p.foil, p.etched): p for p in reversed(pool)}
    console.print(Text(f"Seat {bot.seat + 1}: pool ({plural(len(pool), 'card')})", style="bold"))
    for key, count in counts.items():
        console.print(card_line(firsts[key], str(count), console.width))
    console.print(
        unruled(
            card_list_table(
                ["Count", "Card", "Id", "MV"],
                bot_deck_rows(bot, "commander"),
                title=f"Seat {bot.seat + 1}: deck ({plural(bot.deck.size, 'card')})",
                width=console.width,
            )
        )
    )
