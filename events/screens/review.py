"""The review after a practice draft at the line prompt: every pick beside the hint's, what wheeled, and the
bots' decks ('bot N' shows one)."""

from __future__ import annotations

from collections import Counter

from rich.console import Console
from rich.table import Table
from rich.text import Text

from draft.advice import ReviewRow
from draft.advice import review as advice_review
from draft.deck_state import plural, pool_order
from events.outputs.text import join_names
from events.screens.render import (
    card_line,
    card_list_table,
    fit_table,
    identity_text,
    pack_table,
    shown,
    unruled,
)
from events.sessions.activities import BotDeck, bot_decks
from events.sessions.table import DraftTable

RATED = "Rated higher"
RATED_NOTE = (
    "Rated higher: whose cards are rated more, and by how much; the hint also weighs your colors and commander, "
    "so 'you' is often right"
)


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


def review_table(table: DraftTable, seat: int, width: int | None = None) -> Table:
    """Every pick of a seat: what it took, what the hint would have taken, whose is rated higher, what wheeled."""
    rows = []
    for row in advice_review(table.draft, seat, table.pipers):
        same = {c.name for c in row.taken} == {c.name for c in row.hint}
        rows.append(
            [
                f"P{row.pack}p{row.pick}",
                shown(" + ".join(c.name for c in row.taken), style="green"),
                shown("same" if same else " + ".join(c.name for c in row.hint), style="dim" if same else "cyan"),
                rated_higher(row),
                shown(join_names([c.name for c in row.wheeled])),
            ]
        )
    return fit_table(
        ["Pick", "You took", "Hint took", RATED, "Wheeled"],
        rows,
        essential={"Pick", "You took", RATED},
        width=width,
        title=f"Your picks ({RATED_NOTE})",
        justify={RATED: "right"},
    )


def bots_table(table: DraftTable, width: int | None = None) -> Table:
    rows = []
    for bot in bot_decks(table):
        rows.append(
            [
                str(bot.seat + 1),
                shown("\n".join(c.name for c in bot.deck.commanders)),
                identity_text(bot.report.color_identity.code),
                "yes" if bot.report.valid else "no",
                table.styles[bot.seat],
            ]
        )
    return fit_table(
        ["Seat", "Commanders", "Colors", "Legal", "Bot"],
        rows,
        essential={"Seat", "Commanders", "Colors", "Legal"},
        width=width,
        title="The bots' decks ('bot N' shows one; export writes practice-bot-N-deck.*)",
    )


def review(console: Console, table: DraftTable) -> None:
    """Every pick of the human seats (what was taken, what the hint would have taken, what wheeled) and the bots' decks."""
    for seat in table.humans:
        console.print(unruled(review_table(table, seat, console.width)))
    console.print(unruled(bots_table(table, console.width)))


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
