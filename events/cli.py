"""The ``cmdraft`` command line: a thin typer layer over the core.

Every command that prints data takes ``--json``.  Errors from the core become
one line on stderr and the error's exit code (2 bad input, 3 out of order,
4 storage); see README.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Optional

import click
import typer
from typer.core import TyperGroup

from sets.errors import CmdraftError, InputError

class _Group(TyperGroup):
    """The root group: the one place where a cmdraft error becomes a line and an exit code."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except CmdraftError as error:
            click.echo(f"cmdraft: error: {error}", err=True)
            ctx.exit(error.exit_code)


app = typer.Typer(
    cls=_Group,
    help="Commander Legends drafts: packs, pick-two drafts with bots, decks and store events.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
sets_app = typer.Typer(help="Card sets: list, show, import.", no_args_is_help=True)
app.add_typer(sets_app, name="sets")

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON for scripts instead of tables.")]
SetOption = Annotated[str, typer.Option("--set", help="Set code, e.g. CMR.")]


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def out():
    from events.render import console

    return console()


# --- sets ----------------------------------------------------------------------


@sets_app.command("list")
def sets_list(as_json: JsonOption = False) -> None:
    """List the bundled and imported sets."""
    from sets.catalog import available_codes, load_set

    rows = []
    for code in available_codes():
        card_set = load_set(code)
        rows.append({"code": card_set.code, "name": card_set.name, "cards": len(card_set),
                     "boosters": sorted(card_set.boosters), "source": card_set.source})
    if as_json:
        emit_json(rows)
        return
    from rich.table import Table

    table = Table("Code", "Name", "Cards", "Boosters", "Source", title="Sets")
    for row in rows:
        table.add_row(row["code"], row["name"], str(row["cards"]), ", ".join(row["boosters"]) or "—", row["source"])
    out().print(table)


def set_summary(code: str) -> dict[str, Any]:
    from collections import Counter

    from sets.catalog import load_set

    card_set = load_set(code)
    rarities = Counter(card.rarity.value for card in card_set)
    return {
        "code": card_set.code,
        "name": card_set.name,
        "cards": len(card_set),
        "main_set": sum(card.main_set for card in card_set),
        "by_rarity": dict(sorted(rarities.items())),
        "legends": sum(card.is_legendary for card in card_set),
        "commanders": sum(card.can_be_commander for card in card_set),
        "partners": sum(card.has_partner for card in card_set),
        "choose_color": [card.name for card in card_set if card.chooses_color],
        "boosters": sorted(card_set.boosters),
    }


@sets_app.command("show")
def sets_show(code: Annotated[str, typer.Argument(help="Set code, e.g. CMR.")], as_json: JsonOption = False) -> None:
    """Counts by rarity, legends, partners and commanders of one set."""
    summary = set_summary(code)
    if as_json:
        emit_json(summary)
        return
    from rich.table import Table

    table = Table.grid(padding=(0, 2))
    for key, value in summary.items():
        if isinstance(value, dict):
            value = ", ".join(f"{k} {v}" for k, v in value.items())
        elif isinstance(value, list):
            value = ", ".join(value) or "—"
        table.add_row(key.replace("_", " "), str(value))
    out().print(table)


@sets_app.command("import")
def sets_import(
    file: Annotated[Path, typer.Argument(help="MTGJSON set or AtomicCards file, or a Scryfall card array.")],
    code: Annotated[Optional[str], typer.Option(help="Set code to store the cards under (default: the file's).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Import a card file so that its set can be used like the bundled one."""
    from sets.catalog import BUNDLED, CardSet, save_imported
    from sets.importers import read_card_file, valid_set_code

    result = read_card_file(file)
    card_sets = result.card_sets()
    if code:
        code = code.upper()
        if not valid_set_code(code):
            raise InputError(f"bad set code {code!r}: use 2-8 letters or digits")
        from dataclasses import replace

        card_sets = [CardSet(code, result.name or code, tuple(
            replace(card, set_code=code) for s in card_sets for card in s.cards
        ), result.boosters, result.source)]
    stored = []
    for card_set in card_sets:
        if not valid_set_code(card_set.code):
            raise InputError(f"{file}: cards without a usable set code; give one with --code XYZ")
        if card_set.code in BUNDLED:
            raise InputError(f"{file}: set {card_set.code} is bundled; store it under another code with --code")
        stored.append({"code": card_set.code, "cards": len(card_set), "path": str(save_imported(card_set)),
                       "boosters": sorted(card_set.boosters)})
    mismatches = [{"name": card.name, "computed": card.deck_colors.code, "file": published.code}
                  for card, published in result.mismatches]
    report = {"kind": result.kind, "sets": stored, "identity_mismatches": mismatches, "problems": result.problems}
    if as_json:
        emit_json(report)
        return
    console = out()
    for entry in stored:
        console.print(f"imported {entry['code']}: {entry['cards']} cards -> {entry['path']}")
    for item in mismatches:
        console.print(f"[yellow]identity differs[/] {item['name']}: computed {item['computed'] or 'C'}, file says {item['file'] or 'C'}")
    for problem in result.problems:
        console.print(f"[yellow]warning[/] {problem}", markup=True, highlight=False)


# --- cards -------------------------------------------------------------------------


def card_json(card) -> dict[str, Any]:
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
    }


@app.command("card")
def card_command(
    name: Annotated[str, typer.Argument(help="Card name; case and accents don't matter, DFCs match either face.")],
    set_code: Annotated[Optional[str], typer.Option("--set", help="Only look in this set.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Show a card's facts and color identity."""
    from sets.catalog import card_index

    card = card_index([set_code] if set_code else None).find(name)
    if as_json:
        emit_json(card_json(card))
        return
    from events.render import card_panel

    out().print(card_panel(card))


@app.command("identity")
def identity_command(
    file: Annotated[Path, typer.Argument(help="MTGJSON set or AtomicCards file, or a Scryfall card array.")],
    as_json: JsonOption = False,
) -> None:
    """Compute the color identity of every card in a card file."""
    from sets.importers import read_card_file

    result = read_card_file(file)
    if as_json:
        lines = [
            json.dumps({"name": card.name, "color_identity": card.identity.letters, "deck_colors": card.deck_colors.letters},
                       ensure_ascii=False)
            for card in result.cards
        ]
        sys.stdout.write("\n".join(lines) + ("\n" if lines else ""))
        return
    from rich.table import Table

    from events.render import identity_text

    table = Table("Card", "Identity", "Deck colors", "File says", title=f"{file} ({result.kind})")
    mismatched = {id(card) for card, _ in result.mismatches}
    for card, published in zip(result.cards, result.published, strict=True):
        said = "" if published is None else (published.code or "C")
        table.add_row(card.name, identity_text(card.identity.code), identity_text(card.deck_colors.code),
                      f"[red]{said}[/]" if id(card) in mismatched else said)
    out().print(table)
    if result.mismatches:
        out().print(f"[yellow]{len(result.mismatches)} card(s) differ from the file's identity field[/]")


# --- packs --------------------------------------------------------------------------

packs_app = typer.Typer(help="Open boosters.", invoke_without_command=True)
app.add_typer(packs_app, name="packs")

SeedOption = Annotated[Optional[int], typer.Option("--seed", help="Random seed; the same seed replays the same result.")]
KindOption = Annotated[Optional[str], typer.Option("--booster", help="Booster type: draft, default, set, collector… (default: draft).")]


def resolve_seed(seed: int | None) -> int:
    """The seed to use: the one given, or a fresh one that is then shown so the run can be replayed."""
    if seed is not None:
        return seed
    import random

    return random.SystemRandom().randrange(1, 2**31)


def positive(value: int, option: str) -> int:
    if value <= 0:
        raise InputError(f"{option} must be at least 1, not {value}")
    return value


@packs_app.callback()
def packs(
    ctx: typer.Context,
    set_code: SetOption = "CMR",
    count: Annotated[int, typer.Option("--count", help="How many boosters.")] = 1,
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Open boosters and show them (one JSON object per line with --json)."""
    if ctx.invoked_subcommand is not None:
        return
    import random

    from sets.booster import booster_spec

    positive(count, "--count")
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    boosters = spec.open_many(random.Random(seed), count)
    if as_json:
        sys.stdout.write("".join(json.dumps(b.to_json(seed), ensure_ascii=False) + "\n" for b in boosters))
        return
    from events.render import pack_table

    console = out()
    for booster in boosters:
        console.print(pack_table(booster.printings, title=f"{spec.name} #{booster.index + 1} (seed {seed}, variant {booster.variant})",
                                 width=console.width))


@packs_app.command("audit")
def packs_audit(
    set_code: SetOption = "CMR",
    count: Annotated[int, typer.Option("--count", help="How many boosters to open.")] = 10000,
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Open many boosters and compare what came out with the spec (chi-square p-values)."""
    from sets.audit import open_and_audit
    from sets.booster import booster_spec

    positive(count, "--count")
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    if as_json:
        checks = open_and_audit(spec, count, seed)
        emit_json({"seed": seed, "count": count, "checks": [c.to_json() for c in checks]})
        return
    from rich.progress import Progress
    from rich.table import Table

    console = out()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"opening {count} boosters", total=count)
        checks = open_and_audit(spec, count, seed, lambda n: progress.advance(task, n))
    for check in checks:
        table = Table("class", "observed", "expected", "obs/exp", title=f"{check.title}  (p = {check.p_value:.3f})", title_justify="left")
        for row in check.rows:
            ratio = row.observed / row.expected if row.expected else float("nan")
            table.add_row(row.label, str(row.observed), f"{row.expected:.1f}", f"{ratio:.3f}")
        console.print(table)
    console.print(f"seed {seed}, {count} boosters; a p-value under 0.001 would point to a collation fault")


@app.command("sealed")
def sealed(
    players: Annotated[int, typer.Option("--players", help="How many players.")] = 1,
    boosters: Annotated[int, typer.Option("--boosters", help="Boosters per player.")] = 6,
    set_code: SetOption = "CMR",
    seed: SeedOption = None,
    kind: KindOption = None,
    as_json: JsonOption = False,
) -> None:
    """Give each player a sealed pool of six boosters."""
    import random

    from sets.booster import booster_spec, sealed_pool

    positive(players, "--players")
    positive(boosters, "--boosters")
    spec = booster_spec(set_code, kind)
    seed = resolve_seed(seed)
    rng = random.Random(seed)
    pools = [sealed_pool(spec, rng, boosters) for _ in range(players)]
    if as_json:
        emit_json({"seed": seed, "set": set_code.upper(), "players": [
            {"player": i, "boosters": [b.to_json(seed) for b in pool],
             "pool": [p.card.name for b in pool for p in b.printings]}
            for i, pool in enumerate(pools, start=1)]})
        return
    from events.render import pack_table

    console = out()
    for i, pool in enumerate(pools, start=1):
        printings = sorted((p for b in pool for p in b.printings), key=lambda p: (p.card.deck_colors.mask, p.card.mana_value, p.card.name))
        console.print(pack_table(printings, title=f"Player {i}: sealed pool ({len(printings)} cards, seed {seed})"))


# --- decks ----------------------------------------------------------------------------

deck_app = typer.Typer(help="Check, convert and advise on decks and pools.", no_args_is_help=True)
app.add_typer(deck_app, name="deck")


def read_deck(path: Path, index=None):
    """Read a deck or pool file and look its names up: (deck, problems).

    A file with no card line at all can't be read as a deck: that is an input error.
    """
    from draft.formats import read_file, resolve
    from sets.catalog import card_index

    deck_file = read_file(path)
    if not deck_file.entries:
        first = f"; {deck_file.errors[0]}" if deck_file.errors else ""
        raise InputError(f"{path}: no card lines could be read ({len(deck_file.errors)} unreadable{first}); "
                         "give a deck or pool file such as '1 Sol Ring' lines, .cod, .dck, .dek, .json or .csv")
    return resolve(deck_file, index or card_index())


def parse_colors(values: list[str] | None):
    from sets.colors import Color

    return None if not values else [Color.parse(value) for value in values]


def load_banlist(path: Path | None) -> list[str]:
    if path is None:
        from importlib import resources

        text = resources.files("sets").joinpath("data", "commander-banlist.txt").read_text(encoding="utf-8")
    else:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError as error:
            raise InputError(f"cannot read banned list {str(path)!r}: {error.strerror or error}; check the path") from None
    return [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


@deck_app.command("check")
def deck_check(
    deck_path: Annotated[Path, typer.Argument(metavar="DECK", help="Deck file in any supported format.")],
    pool: Annotated[Optional[Path], typer.Option("--pool", help="The player's pool file (Commander draft).")] = None,
    piper: Annotated[Optional[list[str]], typer.Option("--piper", help="Chosen color of a Piper commander: U or blue; repeat for two.")] = None,
    fmt: Annotated[str, typer.Option("--format", help="commander-draft (default) or commander.")] = "commander-draft",
    banlist: Annotated[Optional[Path], typer.Option("--banlist", help="Banned list file for --format commander (one name a line).")] = None,
    as_json: JsonOption = False,
) -> None:
    """Check a deck; exit 0 when legal, 1 when not, 2 when the input can't be read."""
    from draft.decks import DeckFormat, validate
    from sets.catalog import card_index

    try:
        deck_format = DeckFormat(fmt)
    except ValueError:
        raise InputError(f"unknown deck format {fmt!r}: use commander-draft or commander") from None
    colors = parse_colors(piper)
    index = card_index()
    deck, problems = read_deck(deck_path, index)
    pool_deck = None
    if pool is not None:
        if deck_format is not DeckFormat.COMMANDER_DRAFT:
            raise InputError("--pool is for --format commander-draft; constructed Commander has no pool")
        pool_deck, pool_problems = read_deck(pool, index)
        problems += [type(p)(p.code, f"pool file: {p.message}", p.cards) for p in pool_problems]
    banned = load_banlist(banlist) if deck_format is DeckFormat.COMMANDER else []
    report = validate(deck, pool_deck, deck_format, colors, banned, problems)
    if as_json:
        emit_json(report.to_json())
    else:
        from events.render import deck_report

        out().print(deck_report(report))
    raise typer.Exit(0 if report.valid else 1)


@deck_app.command("convert")
def deck_convert(
    source: Annotated[Path, typer.Argument(metavar="IN", help="Deck or pool file in any supported format.")],
    target: Annotated[Path, typer.Argument(metavar="OUT", help="File to write; its extension picks the format unless --to is given.")],
    to: Annotated[Optional[str], typer.Option("--to", help="arena, text, cod, dck, dek, json or csv.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Convert a deck or pool file to another format."""
    from draft.formats import FileFormat, write

    fmt = FileFormat.parse(to) if to else FileFormat.for_path(target)
    deck, problems = read_deck(source)
    text = write(deck, fmt)
    from events.exports import write_file

    write_file(target, text)
    if as_json:
        emit_json({"written": str(target), "format": fmt.value, "cards": sum(l.count for l in deck.lines),
                   "problems": [p.to_json() for p in problems]})
        return
    console = out()
    for problem in problems:
        console.print(f"[yellow]skipped[/] {problem.message}", markup=True)
    console.print(f"wrote {target} ({fmt.value}, {sum(l.count for l in deck.lines)} cards)")


@deck_app.command("suggest")
def deck_suggest(
    pool: Annotated[Path, typer.Argument(metavar="POOL", help="Pool file in any supported format.")],
    top: Annotated[int, typer.Option("--top", help="How many choices to show.")] = 10,
    as_json: JsonOption = False,
) -> None:
    """Rank commander choices for a pool: legends, partner pairs and Piper options."""
    from draft.decks import suggest_commanders

    positive(top, "--top")
    deck, problems = read_deck(pool)
    counts = {}
    for line in deck.lines:
        counts[line.card] = counts.get(line.card, 0) + line.count
    suggestions = suggest_commanders(counts, top, piper=_piper_card())
    if as_json:
        emit_json({"suggestions": [s.to_json() for s in suggestions], "problems": [p.to_json() for p in problems]})
        return
    from events.render import suggestion_table

    console = out()
    for problem in problems:
        console.print(f"[yellow]skipped[/] {problem.message}", markup=True)
    console.print(suggestion_table(suggestions))


def _piper_card():
    from draft.decks import PIPER
    from sets.catalog import card_index

    return card_index(["CMR"]).get(PIPER)


# --- sim ----------------------------------------------------------------------------------


def parse_styles(text: str | None):
    from draft.bots import BotStyle

    if text is None:
        return None
    styles = [BotStyle.parse(part) for part in text.split(",") if part.strip()]
    if not styles:
        raise InputError("--bots needs a style: commander-first or best-card (comma-separated for several)")
    return styles


def draft_config(players: int, set_code: str, kind: str | None):
    from draft.engine import DraftConfig

    config = DraftConfig(seats=players, set_code=set_code.upper(), booster_kind=kind)
    config.check()
    return config


@app.command("sim")
def sim(
    players: Annotated[int, typer.Option("--players", help="Seats at the table (2-12).")] = 8,
    seed: SeedOption = None,
    bots: Annotated[Optional[str], typer.Option("--bots", help="commander-first or best-card; a comma list goes round the table.")] = None,
    set_code: SetOption = "CMR",
    kind: KindOption = None,
    drafts: Annotated[int, typer.Option("--drafts", help="Run this many pods and print aggregate figures.")] = 1,
    jobs: Annotated[int, typer.Option("--jobs", help="Processes for --drafts.")] = 1,
    out_dir: Annotated[Optional[Path], typer.Option("--out", help="Write every seat's pool, deck and draft log here.")] = None,
    as_json: JsonOption = False,
) -> None:
    """Simulate a whole pod with bots, from boosters to legal decks."""
    from draft.sim import run_pod

    styles = parse_styles(bots)
    config = draft_config(players, set_code, kind)
    positive(drafts, "--drafts")
    positive(jobs, "--jobs")
    seed = resolve_seed(seed)
    if drafts > 1:
        if out_dir is not None:
            raise InputError("--out writes one pod; leave it out with --drafts")
        run_many(seed, drafts, jobs, config, styles, as_json)
        return
    if out_dir is not None:
        check_writable(out_dir)
    result = run_pod(seed, config, styles)
    if out_dir is not None:
        from events.exports import export_pod

        export_pod(result, out_dir)
    if as_json:
        emit_json(result.to_json())
        return
    from events.render import pod_table

    console = out()
    console.print(pod_table(result))
    if out_dir is not None:
        console.print(f"wrote pools, decks and draft logs to {out_dir}")


def check_writable(folder: Path) -> None:
    import os

    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise InputError(f"cannot write to {str(folder)!r}: {error.strerror or error}; choose a writable folder") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise InputError(f"cannot write to {str(folder)!r}: not a writable folder; choose another with --out")


def run_many(seed: int, drafts: int, jobs: int, config, styles, as_json: bool) -> None:
    from functools import partial

    from draft.sim import aggregate, pod_seeds, pod_summary

    seeds = pod_seeds(seed, drafts)
    work = partial(pod_summary, config=config, styles=styles)
    summaries = []
    if as_json:
        summaries = _map(work, seeds, jobs, None)
        emit_json({"seed": seed, **aggregate(summaries)})
        return
    from rich.progress import Progress

    console = out()
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task(f"simulating {drafts} pods", total=drafts)
        summaries = _map(work, seeds, jobs, lambda: progress.advance(task))
    from events.render import aggregate_table

    console.print(aggregate_table(seed, aggregate(summaries)))


def _map(work, seeds, jobs, tick):
    if jobs == 1:
        results = []
        for s in seeds:
            results.append(work(s))
            if tick:
                tick()
        return results
    from concurrent.futures import ProcessPoolExecutor

    results = []
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for summary in pool.map(work, seeds, chunksize=max(1, len(seeds) // (jobs * 8))):
            results.append(summary)
            if tick:
                tick()
    return results


# --- solo practice -----------------------------------------------------------------------------

DbOption = Annotated[Optional[Path], typer.Option("--db", help="Database file (default: CMDRAFT_HOME/cmdraft.json).")]


def open_store(db: Path | None):
    from events.store import Store

    return Store(db)


@app.command("play")
def play(
    seed: SeedOption = None,
    players: Annotated[int, typer.Option("--players", help="Seats at the table, you included (2-12).")] = 8,
    bots: Annotated[Optional[str], typer.Option("--bots", help="commander-first or best-card; a comma list goes round the table.")] = None,
    seat: Annotated[int, typer.Option("--seat", help="Your seat, 1 to players.")] = 1,
    timer: Annotated[Optional[int], typer.Option("--timer", help="Seconds for the first pick; shrinks as packs empty.")] = None,
    resume: Annotated[Optional[str], typer.Option("--resume", help="Continue a saved draft: its id, or 'latest' (the default).")] = None,
    list_drafts: Annotated[bool, typer.Option("--list", help="List saved practice drafts.")] = False,
    name: Annotated[str, typer.Option("--name", help="Your name in logs and exports.")] = "You",
    set_code: SetOption = "CMR",
    db: DbOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="With --list: print JSON.")] = False,
) -> None:
    """Draft against bots at the terminal, build your deck, export it."""
    from events.drafts import TableSession, list_drafts as saved_drafts

    store = open_store(db)
    if list_drafts:
        rows = saved_drafts(store, "practice")
        if as_json:
            emit_json(rows)
            return
        from rich.table import Table

        table = Table("Id", "Created", "Status", "Seed", "Seats", "Picks", title="Saved practice drafts")
        for row in rows:
            table.add_row(str(row["id"]), row["created"], row["status"], str(row["seed"]), str(row["seats"]), str(row["picks"]))
        out().print(table if rows else "No saved practice drafts yet: start one with 'cmdraft play'.")
        return
    if timer is not None and timer < 5:
        raise InputError(f"--timer must be at least 5 seconds, not {timer}")
    if resume is not None:
        session = TableSession.load(store, _resume_id(store, resume))
    else:
        config = draft_config(players, set_code, None)
        if not 1 <= seat <= players:
            raise InputError(f"--seat must be 1 to {players}, not {seat}")
        styles = parse_styles(bots)
        names = [f"Bot {i + 1}" for i in range(players)]
        names[seat - 1] = name
        session = TableSession.create(store, kind="practice", seed=resolve_seed(seed), config=config, humans=[seat - 1],
                                      names=names, styles=styles, timer=timer)
    from events.play import PracticeUI, Terminal

    console = out()
    PracticeUI(session, console, Terminal(console)).run()


def _resume_id(store, text: str) -> int:
    from events.drafts import list_drafts as saved_drafts

    rows = saved_drafts(store, "practice")
    if text == "latest":
        open_rows = [row for row in rows if row["status"] != "done"] or rows
        if not open_rows:
            raise InputError("no saved practice draft to resume: start one with 'cmdraft play'")
        return open_rows[-1]["id"]
    if not text.isdigit() or int(text) not in {row["id"] for row in rows}:
        raise InputError(f"no practice draft {text!r}: see 'cmdraft play --list'")
    return int(text)


def _add_event_app() -> None:
    from events.event_cli import event_app

    app.add_typer(event_app, name="event")


_add_event_app()


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``cmdraft`` script."""
    args = list(sys.argv[1:] if argv is None else argv)
    # '--resume' may stand alone: it then means the latest saved draft.
    for i, arg in enumerate(args):
        if arg == "--resume" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            args.insert(i + 1, "latest")
            break
    try:
        app(args=args, prog_name="cmdraft")
    except KeyboardInterrupt:
        sys.stderr.write("cmdraft: interrupted\n")
        raise SystemExit(130) from None
