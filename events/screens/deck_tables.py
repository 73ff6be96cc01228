"""Decks and advice as tables: a deck's check, commander choices, a deck's figures, the signals of the packs
passed to a seat, and a simulated pod's decks and figures."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text

from draft.advice import ColorSignal
from draft.commanders import Suggestion
from draft.deck_rules import DeckReport
from draft.deck_state import plural
from draft.deckstats import DeckStats
from draft.products import Product, default_product, product
from draft.sim import PodResult, SimFigures
from events.outputs.deck_problems import judge_order
from events.screens.render import fit_table, identity_text, shown


def deck_report(report: DeckReport) -> Table:
    """A deck check: verdict, commanders, identity, size and every problem."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    problems = judge_order(report.problems, report.color_identity)  # causes first, identity folded
    verdict = (
        shown("LEGAL", style="bold green")
        if report.valid
        else shown(f"NOT LEGAL ({plural(len(problems), 'problem')})", style="bold red")
    )
    table.add_row("Deck", verdict)
    table.add_row("Format", report.format.value)
    if report.product:
        table.add_row("Product", shown(f"{report.product} ({product(report.product).name})"))
    table.add_row("Commanders", shown(" + ".join(report.commanders) or "—"))
    if report.piper_colors:
        table.add_row("Chosen colors", ", ".join(color.word for color in report.piper_colors))
    for line in report.chosen_for_you:
        table.add_row("Chosen for you", shown(line))
    table.add_row("Color identity", identity_text(report.color_identity.code))
    table.add_row("Size", str(report.size))
    for problem in problems:
        table.add_row(shown(problem.code, style="red"), shown(problem.message))
    for note in report.notes:
        table.add_row(shown("note", style="yellow"), shown(note))
    return table


def suggestion_table(
    suggestions: Sequence[Suggestion], width: int | None = None, product: Product | None = None
) -> Table:
    """Commander choices; each commander on its own line so no name is cut.  The last column counts the product's
    added cards ("Added Pipers", "Added Faceless Ones")."""
    added = f"Added {(product or default_product()).added.words}"
    rows = [
        [
            str(rank),
            shown("\n".join(s.commanders)),
            shown(", ".join(c.word for c in s.piper_colors) or "—"),
            identity_text(s.identity.code),
            str(s.playable),
            str(s.added_pipers),
        ]
        for rank, s in enumerate(suggestions, start=1)
    ]
    return fit_table(
        ["#", "Commanders", "Identity", "Playable", "Chosen colors", added],
        [[r[0], r[1], r[3], r[4], r[2], r[5]] for r in rows],
        essential={"#", "Commanders", "Identity"},
        width=width,
        title="Commander choices",
        justify={"#": "right", "Playable": "right", added: "right"},
    )


def pod_table(result: PodResult) -> Table:
    table = Table(
        "Seat",
        "Player",
        "Bot",
        "Commanders",
        "Colors",
        "Deck",
        "Legal",
        title=shown(
            f"{result.draft.config.set_code} pod, seed {result.seed}: "
            f"{product(result.draft.config.set_code).added.count_words(result.pipers_opened)} opened"
        ),
    )
    for seat in result.seats:
        report = seat.report
        commanders = []
        colors = iter(report.piper_colors)
        for card in seat.deck.commanders:
            commanders.append(f"{card.name} ({next(colors).word})" if card.chooses_color else card.name)
        legal = shown("yes", style="green") if report.valid else shown(", ".join(report.codes()), style="red")
        table.add_row(
            str(seat.seat + 1),
            shown(seat.name),
            seat.style.value,
            shown(" + ".join(commanders)) or "—",
            identity_text(report.color_identity.code),
            str(report.size),
            legal,
        )
    return table


def aggregate_table(seed: int, figures: SimFigures, set_code: str = "CMR") -> Table:
    """Figures of simulated pods, in the product's words for its added card ("Pipers", "Faceless Ones")."""
    words = product(set_code).added.words
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    table.add_row("Pods", f"{figures.pods} (seed {seed})")
    table.add_row("Seats", str(figures.seats))
    table.add_row("Legal decks", f"{figures.legal_rate:.1%}")
    table.add_row(f"Seats using {words}", f"{figures.piper_seat_share:.1%}")
    table.add_row(
        f"{words} opened per pod",
        f"{figures.pipers_opened_mean:.2f} mean; "
        + ", ".join(f"{k}: {v}" for k, v in figures.pipers_opened_distribution.items()),
    )
    table.add_row("Deck colors (count)", ", ".join(f"{k}-color: {v}" for k, v in figures.identity_sizes.items()))
    table.add_row("Decks playing each color", ", ".join(f"{k} {v:.0%}" for k, v in figures.color_share.items()))
    quality = figures.quality

    def pick(value: float | None) -> str:
        return "none taken" if value is None else f"{value:.2f}"

    def share(value: float | None) -> str:
        return "none taken" if value is None else f"{value:.0%}"

    table.add_row(
        "Cheap removal: mean pick",
        f"{pick(quality.cheap_removal_mean_pick)} (taken at pick 6+: "
        f"{share(quality.cheap_removal_pick6_share)}; {quality.cheap_removal_taken} taken)",
    )
    table.add_row(
        f"{words} drafted at picks 1-5",
        f"{share(quality.pipers_picks_1_5_share)} of {quality.pipers_drafted}",
    )
    table.add_row(f"Decks with {words} in the main deck", str(quality.piper_main_decks))
    table.add_row("Decks short of sources for a color", f"{quality.under_sourced_share:.1%}")
    table.add_row("On-color cheap removal benched", f"{quality.benched_removal_per_deck:.2f} per deck")
    table.add_row(
        "Lands per deck",
        f"{quality.lands_min}-{quality.lands_max}; creatures {quality.creatures_mean} "
        f"mean; removal {quality.removal_in_deck_mean} mean",
    )
    for style, found in figures.quality_by_style.items():
        table.add_row(
            f"Style {style}",
            shown(
                f"{found.decks} decks; cheap removal pick {pick(found.cheap_removal_mean_pick)}; "
                f"legends at picks 1-3 {found.legends_at_picks_1_3_per_deck}; two commanders "
                f"{found.two_commander_share:.0%}; {words} as commanders {found.piper_commander_share:.0%}"
            ),
        )
    return table


def stats_lines(stats: DeckStats) -> list[Text]:
    """A deck's figures in three lines: curve and roles; sources per color against the symbols to cast;
    a warning naming each commander color short of sources; and one for a deck that is mostly lands."""
    line = Text("Curve ")
    for mv, n in stats.curve.items():
        line.append(f"{mv if mv < 7 else '7+'}:", style="dim")
        line.append(f"{n} ")
    removal = str(stats.removal)
    line.rstrip()  # the last count's space
    line.append(f"; creatures {stats.creatures}; removal {removal}; ramp {stats.ramp}")
    colors = Text("Sources/symbols ")
    for color, made in stats.sources.items():
        if made or stats.symbols[color] or color in stats.identity:
            colors.append_text(identity_text(color.value))
            colors.append(
                f" {made}/{stats.symbols[color]}  ", style="bold red" if color in stats.identity and made < 8 else ""
            )
    lines = [line, colors]
    return lines + [shown("⚠ " + caution, style="yellow") for caution in stats.cautions]


SIGNALS_TITLE = "Signals: what the packs passed to you hold"
NO_SIGNALS_YET = "No pack has been passed to you yet: the signals start at your next pick."


def signals_table(rows: Sequence[ColorSignal], width: int | None = None) -> Table:
    """Each color's quality in the packs passed to you (``draft.advice.signals``), best first: the best card
    seen of the color, named, and the best card's rating per pack on average; before any pack was passed to you (the
    first pick of the draft) one line that says so, never a row of zeros."""
    if not any(row.packs for row in rows):
        return fit_table([""], [[NO_SIGNALS_YET]], essential=set(), width=width, title=SIGNALS_TITLE)
    body = [
        [
            identity_text(row.color.value),
            row.color.word,
            row.top.name if row.top is not None else "-",
            f"{row.best:.1f}",
            f"{row.per_pack:.1f}",
            str(row.packs),
        ]
        for row in rows
    ]
    return fit_table(
        ["", "Color", "Best card seen", "Avg best", "Per pack", "Packs"],
        body,
        essential={"", "Color", "Best card seen", "Avg best"},
        width=width,
        title=SIGNALS_TITLE,
    )


def signals_lines(rows: Sequence[ColorSignal]) -> list[str]:
    """The signals as the line prompt says them: a sentence a color, every figure named, nothing left to a column's
    place (a screen reader reads a row's numbers with no header beside them)."""
    if not any(row.packs for row in rows):
        return [SIGNALS_TITLE, NO_SIGNALS_YET]
    return [SIGNALS_TITLE] + [
        f"{row.color.word}: best card seen {row.top.name if row.top is not None else 'none'}; the best card rates "
        f"{row.best:.1f} a pack on average; {row.per_pack:.1f} {row.color.word} cards a pack, over "
        f"{row.packs} {'pack' if row.packs == 1 else 'packs'}."
        for row in rows
    ]
