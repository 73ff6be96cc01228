"""``cmdraft sets …``, ``cmdraft card`` and ``cmdraft identity``: card sets and card facts."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, DownloadColumn, MofNCompleteColumn, Progress, TextColumn, TransferSpeedColumn
from rich.table import Table
from rich.text import Text

from draft.commanders import granted_partner
from draft.deck_state import plural
from draft.products import products
from events.cli.common import JsonOption, emit_json, emit_json_lines, out
from events.screens.render import card_panel, identity_text
from sets.card_imports import CardFileImport, import_card_file, listed_sets
from sets.card_index import card_index
from sets.cards import Card, CardSet, Rarity, normalize_name
from sets.catalog import load_set
from sets.download import download_set
from sets.images import ATTRIBUTION, download_images
from sets.importers import read_card_file
from sets.visible import visible

sets_app = typer.Typer(help="Card sets: list, show, import, download.", no_args_is_help=True)


@sets_app.command("list")
def sets_list(as_json: JsonOption = False) -> None:
    """List the bundled and imported sets, and how many of each set's cards have their rules text on this machine
    (none: 'cmdraft sets download CODE' or 'cmdraft sets import FILE' brings it)."""
    listed = listed_sets()
    if as_json:
        emit_json([row.to_json() for row in listed])
        return

    table = Table("Code", "Name", "Cards", "Card text", "Boosters", "Source", title="Sets")
    for row in listed:
        table.add_row(
            row.code,
            row.name,
            str(row.cards),
            card_text_cell(row.code, row.cards_with_text, row.cards),
            ", ".join(row.boosters) or "—",
            row.source,
        )
    out().print(table)


def card_text_cell(code: str, with_text: int, cards: int) -> Text:
    """Whether a set's rules text is installed: all of it, some, or none and the command that brings it."""
    if with_text == 0:
        return Text(f"none: 'cmdraft sets download {code}'", style="yellow")
    if with_text == cards:
        return Text(f"installed ({cards})", style="green")
    return Text(f"{with_text} of {cards}")


def set_summary(code: str) -> dict[str, Any]:
    card_set = load_set(code)
    rarities = Counter(card.rarity for card in card_set)
    return {
        "code": card_set.code,
        "name": card_set.name,
        "cards": len(card_set),
        "main_set": sum(card.main_set for card in card_set),
        "by_rarity": {rarity.value: rarities[rarity] for rarity in Rarity if rarities[rarity]},  # rarity order
        "legends": sum(card.is_legendary for card in card_set),
        "commanders": sum(card.can_be_commander for card in card_set),
        "partners": sum(card.has_partner for card in card_set),
        **_grant_summary(card_set),
        "choose_color": [card.name for card in card_set if card.chooses_color],
        "boosters": sorted(card_set.boosters),
    }


def _grant_summary(card_set: CardSet) -> dict[str, Any]:
    """A product's grant (Commander Masters: mono-colored legends pair as though they had partner): its words and
    the legends without a partner ability of their own that it pairs; nothing for a set with no grant."""
    found = products().get(card_set.code.upper())
    if found is None or found.grant is None:
        return {}
    granted = sum(granted_partner(card, found) and not card.has_partner for card in card_set)
    return {"grant": found.grant.words, "granted_partners": granted}


@sets_app.command("show")
def sets_show(code: Annotated[str, typer.Argument(help="Set code, e.g. CMR.")], as_json: JsonOption = False) -> None:
    """Counts by rarity, legends, partners and commanders of one set."""
    summary = set_summary(code)
    if as_json:
        emit_json(summary)
        return

    table = Table.grid(padding=(0, 2))
    for key, value in summary.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(value) or "—"
        table.add_row(key.replace("_", " "), str(value))
    out().print(table)


def print_import(report: CardFileImport) -> None:
    console = out()
    for stored in report.sets:
        counted = {0: "none", stored.cards: "all"}.get(stored.cards_with_text, str(stored.cards_with_text))
        text = f"{counted} with rules text"
        console.print(Text(f"imported {stored.code}: {stored.cards} cards, {text} -> {stored.path}"), soft_wrap=True)
    for kept in report.rules_text:
        if kept.reprints:  # the file's printings of cards a bundled set has too: what they gave it, not its whole state
            cards = "card" if kept.from_file == 1 else "cards"
            console.print(
                Text(
                    f"rules text also for {kept.from_file} bundled {kept.code} {cards} of the same name "
                    "(see it with 'cmdraft card NAME')"
                )
            )
            continue
        total = len(load_set(kept.code))
        console.print(
            Text(
                f"rules text for {kept.code}: {kept.cards_with_text} of {total} bundled cards "
                "(see it with 'cmdraft card NAME')"
            )
        )
    if not report.sets and not report.rules_text:
        console.print(Text("nothing imported: the file names no card with rules text and no set to store"))
    for item in report.identity_mismatches:
        console.print(
            Text.assemble(
                ("identity differs", "yellow"),
                f" {item.name}: computed {item.computed or 'C'}, file says {item.file or 'C'}",
            )
        )
    for problem in report.problems:
        console.print(Text.assemble(("warning", "yellow"), f" {visible(problem)}"))


@sets_app.command("import")
def sets_import(
    file: Annotated[
        Path,
        typer.Argument(help="MTGJSON set, AllPrintings or AtomicCards file, or a Scryfall card array or bulk file."),
    ],
    code: Annotated[str | None, typer.Option(help="Set code to store the cards under (default: the file's).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Import a card file: its sets become usable like the bundled one, and its rules text is kept for the bundled cards."""
    report = import_card_file(file, code)
    if as_json:
        emit_json(report.to_json())
        return
    print_import(report)


@sets_app.command("download")
def sets_download(
    code: Annotated[str, typer.Argument(help="Set code, e.g. CMR.")],
    source: Annotated[
        str | None,
        typer.Option("--source", help="URL of the MTGJSON set file (its SHA-256 is read from URL.sha256)."),
    ] = None,
    images: Annotated[
        bool,
        typer.Option(
            "--images",
            help="Fetch the set's card images from Scryfall instead (bundled or imported set; once each, resumable).",
        ),
    ] = False,
    as_json: JsonOption = False,
) -> None:
    """Download MTGJSON's file of a set (checked against its published SHA-256), keep it and import it;
    or, with --images, the set's card images for 'cmdraft serve' to show offline."""
    if images:
        download_card_images(code, as_json)
        return
    console = out()
    if as_json or not console.is_terminal:
        path = download_set(code, source)
    else:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"downloading {code.upper()}.json", total=None)
            path = download_set(code, source, lambda done, total: progress.update(task, completed=done, total=total))
    report = replace(import_card_file(path, None), downloaded=str(path))
    if as_json:
        emit_json(report.to_json())
        return

    console.print(Text(f"downloaded {path} (SHA-256 checked)"), soft_wrap=True)
    print_import(report)


def download_card_images(code: str, as_json: bool) -> None:
    card_set = load_set(code)
    console = out()
    if as_json or not console.is_terminal:
        report = download_images(card_set)
    else:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"images of {card_set.code}", total=None)
            report = download_images(card_set, lambda done, total: progress.update(task, completed=done, total=total))
    if as_json:
        emit_json(
            {
                "code": report.code,
                "cards": report.cards,
                "fetched": report.fetched,
                "kept": report.kept,
                "missing": report.missing,
                "not_asked_again": report.not_asked,
                "folder": str(report.folder),
                "attribution": ATTRIBUTION,
            }
        )
        return
    console.print(
        Text(
            f"images of {report.code}: {report.fetched} fetched, {report.kept} already kept, "
            f"{len(report.missing)} without an image -> {report.folder}"
        ),
        soft_wrap=True,
    )
    if report.missing:
        console.print(Text("no image on Scryfall for: " + ", ".join(report.missing)), soft_wrap=True)
    if report.not_asked:
        console.print(Text(f"not asked again about those (the next run asks): {report.not_asked}"), soft_wrap=True)
    console.print(Text(ATTRIBUTION))


def card_json(card: Card) -> dict[str, Any]:
    return {
        "name": card.name,
        "set": card.set_code,
        "number": card.number,
        "rarity": card.rarity.value,
        "layout": card.layout.value,
        "mana_cost": card.mana_cost,
        "mana_value": card.mana_value,
        "type_line": card.type_line,
        "colors": card.colors.letters,
        "color_identity": card.identity.letters,
        "deck_colors": card.deck_colors.letters,
        "can_be_commander": card.can_be_commander,
        "abilities": sorted(card.abilities),
        "partner_with": card.partner_with,
        "faces": [face.name for face in card.faces],
        # one entry per face when the card has rules text here, none when it has none (not imported, or a card
        # printed without text): never a list of empty strings
        "text": [face.text for face in card.faces] if any(face.text for face in card.faces) else [],
    }


def card_command(
    name: Annotated[
        str,
        typer.Argument(
            help="Card name or a unique start of one; case and accents don't matter, DFCs match either face."
        ),
    ],
    set_code: Annotated[str | None, typer.Option("--set", help="Only look in this set.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Show a card's facts and color identity."""
    card = card_index([set_code] if set_code else None).find_start(name)
    if as_json:
        emit_json(card_json(card))
        return

    out().print(card_panel(card))


def identity_command(
    file: Annotated[Path, typer.Argument(help="MTGJSON set or AtomicCards file, or a Scryfall card array.")],
    as_json: JsonOption = False,
) -> None:
    """Compute the color identity of every card in a card file."""
    result = read_card_file(file)
    # One row per card, not per printing: a name's first printing speaks for all of them.
    rows: dict[str, tuple] = {}
    for card, published in zip(result.cards, result.published, strict=True):
        rows.setdefault(normalize_name(card.name), (card, published))
    if as_json:
        emit_json_lines(
            {"name": card.name, "color_identity": card.identity.letters, "deck_colors": card.deck_colors.letters}
            for card, _ in rows.values()
        )
        return

    table = Table("Card", "Identity", "Deck colors", "File says", title=Text(f"{file} ({result.kind})"))
    mismatched = {id(card) for card, _ in result.mismatches}
    for card, published in rows.values():
        said = "" if published is None else (published.code or "C")
        table.add_row(
            Text(card.name),
            identity_text(card.identity.code),
            identity_text(card.deck_colors.code),
            Text(said, style="red") if id(card) in mismatched else Text(said),
        )
    out().print(table)
    differing = sum(1 for card, _ in rows.values() if id(card) in mismatched)
    if differing:
        out().print(
            Text(
                f"{plural(differing, 'card')} {'differs' if differing == 1 else 'differ'} from the file's identity field",
                style="yellow",
            )
        )
    for problem in result.problems:  # what the file holds that was read in part or skipped, as 'sets import' says
        out().print(Text.assemble(("warning", "yellow"), f" {visible(problem)}"))
