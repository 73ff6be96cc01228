"""Speed figures, run on demand (never part of the test suite):

    python -m tests.benchmarks            # everything
    python -m tests.benchmarks boosters   # one group
    python -m tests.benchmarks event_store --players 8,64 --terminals 1,8 [--json] [--limit PICKS]
    python -m tests.benchmarks bots [--pods N] [--seed S] [--pipers N] [--json]   # bot quality per style (issues 23, 33)
    python -m tests.benchmarks practice [--picks N]  # a pick and a keypress to the screen drawn, prompt and app
    python -m tests.benchmarks serve [--phones N] [--rounds N] [--post] [--json]  # 64 phones against 'cmdraft serve' (issue 31)
    python -m tests.benchmarks stalls [--drafts N] [--seed S] [--json]  # 1,000 drafts with unreliable phones (issue 41)
    python -m tests.benchmarks NAME --help                            # a group's options, nothing run

Each line prints the measured figure next to the target from the issues.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

GROUPS: dict[str, Callable[..., None]] = {}


def group(function: Callable[..., None]) -> Callable[..., None]:
    GROUPS[function.__name__] = function
    return function


def cpu_best_of(function: Callable[[], object], repeat: int = 5) -> float:
    """The least CPU time (this process's, user and system) one call took: the same on a busy machine."""
    times = []
    for _ in range(repeat):
        start = time.process_time()
        function()
        times.append(time.process_time() - start)
    return min(times)


def children_cpu_best_of(function: Callable[[], object], repeat: int = 5) -> float:
    """The least CPU time (user and system) the processes one call started took."""
    import resource

    times = []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        function()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(times)


def report(label: str, value: float, unit: str, target: str) -> None:
    print(f"{label:<58} {value:>12.3f} {unit:<12} target {target}")


@group
def foundation() -> None:
    from sets.cards import Face
    from sets.identity import color_identity
    from sets.type_line import parse_type_line

    rng = random.Random(1)
    symbols = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{W/U}", "{2/B}", "{G/U/P}", "{C}", "{X}"]
    type_lines = ["Creature — Elf", "Legendary Creature — Human Wizard", "Land — Forest Plains", "Instant", "Artifact"]
    faces = []
    for i in range(30000):
        supertypes, types, subtypes = parse_type_line(rng.choice(type_lines))
        text = f"{{T}}: Add {rng.choice(symbols)}. ({rng.choice(symbols)} reminder)\nCard {i} is blue."
        faces.append(Face(f"Card {i}", "".join(rng.choices(symbols, k=3)), "", supertypes, types, subtypes, text))
    report(
        "identity of 30,000 synthetic cards (CPU)",
        cpu_best_of(lambda: [color_identity([f]) for f in faces], 3),
        "s CPU",
        "<= 1 s",
    )

    import sets.catalog as catalog

    def load():
        catalog._load_bundled.cache_clear()
        catalog._load_bundled("CMR")

    report("load the bundled CMR set (warm imports, CPU)", cpu_best_of(load, 10) * 1000, "ms CPU", "<= 20 ms")
    cold = children_cpu_best_of(
        lambda: subprocess.run([sys.executable, "-m", "events", "--help"], capture_output=True, check=True), 5
    )
    report("`cmdraft --help` cold start (the process's CPU)", cold, "s CPU", "<= 0.3 s")


@group
def boosters() -> None:
    """A CMR booster's CPU against bare ``random()`` calls making as many draws, timed in the same run.

    Both sides are timed as ``timeit`` times: the cyclic garbage collector off during each timed call and back on
    after, so neither pays for the collector walking what the run keeps alive (the 100,000 boosters: about a fifth
    of their time with it on, a cost of the benchmark's heap, not of drawing).  The ratio with the collector on is
    printed too, informational."""
    import gc
    from math import trunc

    from sets.booster import Booster, booster_spec

    spec = booster_spec("CMR")
    count = 100000

    def without_collector(function: Callable[[], object]) -> Callable[[], object]:
        def timed() -> object:
            gc.disable()
            try:
                return function()
            finally:
                gc.enable()

        return timed

    class Counting(random.Random):
        """The same stream, counting the draws a booster makes."""

        draws = 0

        def random(self) -> float:
            Counting.draws += 1
            return super().random()

    spec.open_many(Counting(1), count)
    draws = Counting.draws

    def opened() -> None:
        spec.open_many(random.Random(1), count)

    def baseline() -> None:
        rnd = random.Random(1).random
        for _ in range(draws):
            rnd()

    elapsed = cpu_best_of(without_collector(opened), 3)
    base = cpu_best_of(without_collector(baseline), 3)
    report("CMR draft boosters per CPU second (collector off)", count / elapsed, "boosters/s", "")
    report(
        f"baseline: bare random() making the same draws ({draws / count:.1f} a booster)", count / base, "boosters/s", ""
    )
    report("ratio boosters / baseline, same run, collector off (timeit)", base / elapsed, "", ">= 0.25 (issue 41)")
    report(
        "the same ratio with the collector on",
        cpu_best_of(baseline, 3) / cpu_best_of(opened, 3),
        "",
        "(informational)",
    )
    cards = tuple(spec.sheets["common"].printings) if "common" in spec.sheets else tuple(range(100))
    size = max(spec.sizes)  # a booster's cards: one draw each when none is refused as a repeat

    def floor() -> None:
        """Less than any booster drawn this way can cost in Python: a variant and its cards, each one random number
        times the table's size as a whole number into one table (no sheets, no weights, no repeats refused), in one
        tuple of a booster made as the spec makes it."""
        rnd = random.Random(1).random
        n, weights, new = float(len(cards)), float(spec.total_weight), tuple.__new__
        boosters = []
        for index in range(count):
            variant = trunc(rnd() * weights)
            boosters.append(new(Booster, (index, variant, tuple([cards[trunc(rnd() * n)] for _ in range(size)]))))

    least = cpu_best_of(without_collector(floor), 3)
    report(
        f"floor: {size + 1} draws into one table and a Booster / baseline (the most any Python drawing can reach)",
        base / least,
        "",
        "(informational)",
    )


@group
def decks() -> None:
    from collections import Counter

    from draft.deck_rules import validate
    from draft.decks import Deck
    from draft.formats import parse, resolve
    from sets.basics import basic_land
    from sets.card_index import card_index
    from sets.catalog import load_set

    cmr = load_set("CMR")
    commander = next(c for c in cmr if c.name == "Akroma, Vision of Ixidor")
    piper = next(c for c in cmr if c.name == "The Prismatic Piper")
    spells = [c for c in cmr if c.deck_colors.code in ("W", "U") and not c.is_legendary][:35]
    main = Counter(spells) + Counter({basic_land("W"): 12, basic_land("U"): 11})
    deck = Deck.build([piper, commander], main)
    pool = Counter(spells) + Counter([commander]) + Counter([c for c in cmr if c.deck_colors.code == "B"][:24])
    runs = 2000
    elapsed = cpu_best_of(lambda: [validate(deck, pool) for _ in range(runs)], 3)
    report(
        "validate a 60-card deck (Piper colour searched) vs 60-card pool (CPU)",
        elapsed / runs * 1000,
        "ms CPU",
        "<= 1 ms",
    )
    elapsed = cpu_best_of(lambda: [validate(deck, pool, piper_colors=[]) for _ in range(runs)], 3)
    index = card_index()
    names = [c.name for c in cmr]
    text = "\n".join(f"{i % 3 + 1} {names[i % len(names)]} (CMR) {i % 361 + 1} *F*" for i in range(10000))
    elapsed = cpu_best_of(lambda: resolve(parse(text), index), 5)
    report("parse + resolve a 10,000-line deck file (CPU)", elapsed * 1000, "ms CPU", "<= 100 ms")
    import tempfile
    from pathlib import Path

    from draft.formats import read_file

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "deck.txt"
        path.write_text(text, encoding="utf-8")
        elapsed = cpu_best_of(lambda: resolve(read_file(path), index), 5)
        report(
            "read (size and type checked, strict decoding) + resolve it from disk (CPU)",
            elapsed * 1000,
            "ms CPU",
            "<= 100 ms",
        )
        unknown = "\n".join(f"1 {names[i % len(names)]}q" for i in range(10000))
        elapsed = cpu_best_of(lambda: resolve(parse(unknown), index), 3)
        report(
            "parse + resolve a 10,000-line file of unknown names (CPU)",
            elapsed * 1000,
            "ms CPU",
            "<= 100 ms",
        )
        big = "\n".join(f"1 {names[i % len(names)]}" for i in range(100000))
        elapsed = cpu_best_of(lambda: parse(big), 3)
        report(
            "parse a 100,000-line deck (linear: ~10x the 10,000-line time, CPU)",
            elapsed * 1000,
            "ms CPU",
            "<= 1,000 ms",
        )


@group
def pods() -> None:
    from draft.sim import run_pod

    run_pod(0)
    report(
        "one 8-seat CMR pod with bots, boosters to legal decks (CPU)",
        cpu_best_of(lambda: run_pod(1), 5) * 1000,
        "ms CPU",
        "<= 20 ms (issue 41)",
    )
    start = time.process_time()
    for seed in range(1000):
        run_pod(seed)
    report("1,000 pods on one core (CPU)", time.process_time() - start, "s CPU", "<= 60 s")


@group
def practice(picks: int | None = None) -> None:
    import asyncio
    import io
    import tempfile
    from pathlib import Path

    from rich.console import Console

    from draft.engine import DraftConfig
    from events.screens.table import TablePrompt
    from events.sessions.seat import SeatSession
    from events.storage.draft_files import TableSession
    from events.storage.store import Store

    def seated(folder: str, name: str) -> TableSession:
        return TableSession.create(
            Store(Path(folder) / name),
            kind="practice",
            seed=1,
            config=DraftConfig(),
            humans=[0],
            names=[f"Seat {i}" for i in range(8)],
        )

    with tempfile.TemporaryDirectory() as folder:
        session = seated(folder, "plain.json")
        console = Console(file=io.StringIO(), width=80, height=24, force_terminal=True)
        ui = TablePrompt(SeatSession(session, 0), console, None)
        times, cpu = [], []
        while not session.draft.finished and (picks is None or len(cpu) < picks):
            start, start_cpu = time.perf_counter(), time.process_time()
            session.pick(session.choose(0, [0, 1]))  # the pick: 7 bots follow, all saved durably
            if not session.draft.finished:
                ui.show_pack(session.draft.pack(0))  # the next pack on screen (paged at 80x24)
            times.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        report(
            "plain: pick -> next pack on screen, 7 bots (median CPU)",
            statistics.median(cpu) * 1000,
            "ms CPU",
            "<= 100 ms",
        )
        report("plain: pick -> next pack on screen, 7 bots (worst CPU)", max(cpu) * 1000, "ms CPU", "<= 100 ms")
        report("plain: the same, wall clock (median)", statistics.median(times) * 1000, "ms", "(informational)")

        from events.screens.app.practice import PracticeApp

        app_session = seated(folder, "app.json")

        from textual import events
        from textual.screen import Screen

        drawn: list[tuple[float, float]] = []  # (wall, CPU) when each drawing begun after the key's handler ended
        draw = Screen._compositor_refresh
        awaited: list[Callable[[], bool]] = []

        def drawing(screen) -> None:  # when a screen is drawn to the terminal
            after = bool(awaited) and awaited[0]()  # the handler had run when this drawing began
            draw(screen)
            if after:
                drawn.append((time.perf_counter(), time.process_time()))

        Screen._compositor_refresh = drawing

        async def timed_key(pilot, key: str, done) -> tuple[float, float]:
            """From the key reaching the app to the end of the first drawing of the screen that began after
            its handler ran (the app's own refresh, at most 60 a second; Pilot.press sleeps while waiting
            for idle, so it isn't the clock).  The drawing is told by the handler's effect (``done``) at the
            moment it begins: a drawing quicker than this loop's polling is still seen."""
            app = pilot.app
            event = events.Key(key, " " if key == "space" else (key if len(key) == 1 else None))
            drawn.clear()
            awaited[:] = [done]
            start, start_cpu = time.perf_counter(), time.process_time()
            app._driver.send_message(event)
            give_up = start + 10
            while not drawn:
                if time.perf_counter() > give_up:
                    raise RuntimeError(
                        f"key {key!r} was never handled and drawn" if done() else f"key {key!r} was never handled"
                    )
                await asyncio.sleep(0.001)
            awaited.clear()
            return drawn[0][0] - start, drawn[0][1] - start_cpu  # wall, and this process's CPU meanwhile

        async def drive() -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
            keys: list[tuple[float, float]] = []
            taken: list[tuple[float, float]] = []
            async with PracticeApp(app_session).run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                while not app_session.draft.finished and (picks is None or len(taken) < picks):
                    screen = pilot.app.screen
                    table = screen.query_one("#pack")
                    row = table.cursor_row
                    keys.append(await timed_key(pilot, "j", lambda: table.cursor_row == row + 1))
                    keys.append(await timed_key(pilot, "space", lambda: len(screen.seat.marked) == 1))
                    keys.append(await timed_key(pilot, "k", lambda: table.cursor_row == row))
                    keys.append(await timed_key(pilot, "space", lambda: len(screen.seat.marked) == 2))
                    before = len(app_session.draft.log)
                    # the pick: 7 bots, saved durably, the next pack drawn (the last one opens the builder: not timed)
                    took = await timed_key(pilot, "enter", lambda: len(app_session.draft.log) > before)
                    if not app_session.draft.finished:
                        taken.append(took)
                    await pilot.pause()
            return keys, taken

        try:
            keys, app_picks = asyncio.run(drive())
        finally:
            Screen._compositor_refresh = draw
        key_cpu, pick_cpu = [c for _, c in keys], [c for _, c in app_picks]
        print(f"timed: {len(cpu)} picks at the line prompt, {len(app_picks)} in the app")
        report("app: keypress -> redrawn screen (median CPU)", statistics.median(key_cpu) * 1000, "ms CPU", "<= 100 ms")
        report("app: keypress -> redrawn screen (worst CPU)", max(key_cpu) * 1000, "ms CPU", "<= 100 ms")
        report(
            "app: pick -> next pack on screen, 7 bots (median CPU)",
            statistics.median(pick_cpu) * 1000,
            "ms CPU",
            "<= 100 ms",
        )
        report("app: pick -> next pack on screen, 7 bots (worst CPU)", max(pick_cpu) * 1000, "ms CPU", "<= 100 ms")
        report(
            "app: keypress -> redrawn screen, wall clock (median)",
            statistics.median(w for w, _ in keys) * 1000,
            "ms",
            "(informational)",
        )
        report(
            "app: pick -> next pack, wall clock (median)",
            statistics.median(w for w, _ in app_picks) * 1000,
            "ms",
            "(informational)",
        )


STORE_PLAYERS = (8, 64, 256, 1024)
STORE_TERMINALS = (1, 4, 8)


def _store_terminal(
    db: str, event_id: int, mine: set[int], start: Any, stop: Any, limit: int | None
) -> tuple[list[float], list[tuple[int, int, int]], float]:
    """One terminal: pick for its players whenever they hold a pack; each pick is timed alone (wall clock), and the
    terminal's CPU over its picks is summed.

    With ``limit``, the first terminal to reach that many picks stops them all (``stop``).
    """
    from events.storage.store import Store
    from tests.helpers.night import Night

    events = Night(Store(db))
    snap = events.snapshot(event_id)
    seating = {pod.number: pod.players for pod in snap.pods if mine & set(pod.players)}
    sessions = {number: events.draft_session(event_id, number) for number in seating}
    times: list[float] = []
    acked: list[tuple[int, int, int]] = []
    cpu = 0.0
    if start is not None:
        start.wait()
    while not all(session.draft.finished for session in sessions.values()):
        if stop is not None and stop.is_set():
            break
        progressed = False
        for number, session in sessions.items():
            session.refresh()
            for seat in session.waiting_humans():
                if seating[number][seat] not in mine:
                    continue
                choice = session.suggested_pick(seat)
                begin, begin_cpu = time.perf_counter(), time.process_time()
                record = session.pick(choice)  # one durable transaction
                times.append(time.perf_counter() - begin)
                cpu += time.process_time() - begin_cpu
                acked.append((seating[number][seat], record.pack, record.pick))
                events.after_picks(event_id, number, session)
                progressed = True
                if limit is not None and len(times) >= limit:
                    if stop is not None:
                        stop.set()
                    return times, acked, cpu
        if not progressed:
            time.sleep(0.001)  # the other terminals' turn
    return times, acked, cpu


def _store_child(
    db: str, event_id: int, mine: set[int], start: Any, stop: Any, limit: int | None, results: Any
) -> None:
    results.put(_store_terminal(db, event_id, mine, start, stop, limit))


def store_run(players: int, terminals: int, limit: int | None = None) -> dict[str, float | int]:
    """A terminal draft with every seat human: ``players`` players, ``terminals`` processes picking at once."""
    import multiprocessing
    import tempfile
    from pathlib import Path

    from events.storage.store import Store
    from tests.helpers.night import Night

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "event.json"
        events = Night(Store(db))
        event_id = events.create("Benchmark", style="terminal", seed=1)
        ids = [events.add_player(event_id, f"Player {i + 1}") for i in range(players)] if players <= 64 else None
        if ids is None:  # many players: register them in one transaction (setup is not measured)
            from events.storage.table_names import PLAYERS

            with events.store.write() as handle:
                ids = handle.table(PLAYERS).insert_multiple(
                    {
                        "event": event_id,
                        "name": f"Player {i + 1}",
                        "status": "active",
                        "late": False,
                        "bot": False,
                        "pod": None,
                        "seat": None,
                        "requested": 0,
                        "number": i + 1,
                    }
                    for i in range(players)
                )
        events.seat(event_id)
        events.start_draft(event_id)
        shares = [set(ids[t::terminals]) for t in range(terminals)]
        if terminals == 1:
            times, acked, cpu = _store_terminal(str(db), event_id, shares[0], None, None, limit)
        else:
            context = multiprocessing.get_context("fork")
            start, stop, results = context.Event(), context.Event(), context.Queue()
            children = [
                context.Process(target=_store_child, args=(str(db), event_id, share, start, stop, limit, results))
                for share in shares
            ]
            for child in children:
                child.start()
            time.sleep(0.2)
            start.set()
            outcomes = [results.get() for _ in children]
            for child in children:
                child.join()
            times = [t for outcome in outcomes for t in outcome[0]]
            acked = [a for outcome in outcomes for a in outcome[1]]
            cpu = sum(outcome[2] for outcome in outcomes)
        check = Night(Store(db))
        on_disk = set()
        for pod in check.snapshot(event_id).pods:
            session = check.draft_session(event_id, pod.number)
            on_disk |= {(pod.players[p.seat], p.pack, p.pick) for p in session.draft.log}
        lost = len(set(acked) - on_disk)
        disk = sum(f.stat().st_size for f in Path(folder).rglob("*") if f.is_file())
    cuts = statistics.quantiles(times, n=100, method="inclusive")
    return {
        "players": players,
        "terminals": terminals,
        "picks": len(acked),
        "lost": lost,
        "cpu_ms": round(cpu / max(1, len(times)) * 1000, 3),
        "mean_ms": round(statistics.mean(times) * 1000, 3),
        "p50_ms": round(statistics.median(times) * 1000, 3),
        "p95_ms": round(cuts[94] * 1000, 3),
        "p99_ms": round(cuts[98] * 1000, 3),
        "worst_ms": round(max(times) * 1000, 3),
        "disk_kib": round(disk / 1024, 1),
    }


@group
def event_store(
    players: Sequence[int] = STORE_PLAYERS,
    terminals: Sequence[int] = STORE_TERMINALS,
    as_json: bool = False,
    limit: int | None = None,
) -> None:
    """Durable picks through the store, all seats human (targets from issue 12)."""
    if not as_json:
        print(
            "targets: CPU per durable pick <= 2 ms at every size and terminal count; no pick lost "
            "(the wall-clock columns are informational: a busy machine moves them)"
        )
        print(
            f"{'players':>7} {'terms':>5} {'picks':>6} {'lost':>4} {'CPU ms':>7} {'mean ms':>8} {'p50':>7} {'p95':>7} "
            f"{'p99':>7} {'worst':>8} {'disk KiB':>9}"
        )
    for count in players:
        for terms in terminals:
            row = store_run(count, terms, limit)
            if as_json:
                print(json.dumps(row), flush=True)
            else:
                print(
                    f"{row['players']:>7} {row['terminals']:>5} {row['picks']:>6} {row['lost']:>4} {row['cpu_ms']:>7.3f} "
                    f"{row['mean_ms']:>8.2f} "
                    f"{row['p50_ms']:>7.2f} {row['p95_ms']:>7.2f} {row['p99_ms']:>7.2f} {row['worst_ms']:>8.1f} "
                    f"{row['disk_kib']:>9.0f}",
                    flush=True,
                )


def reference_cards(code: str = "CMR"):  # -> Path | None
    """The reference card list with rules text (``$CMDRAFT_REFERENCE_CARDS``, or ``shared/data/CODE/cards.json``
    above here)."""
    import os
    from pathlib import Path

    override = os.environ.get("CMDRAFT_REFERENCE_CARDS")
    if override:
        return Path(override) if Path(override).is_file() else None
    for folder in Path(__file__).resolve().parents:
        candidate = folder / "shared" / "data" / code.lower() / "cards.json"
        if candidate.is_file():
            return candidate
    return None


def _product_set(code: str) -> str:
    """Where a product's cards come from for a benchmark: its set as loaded (bundled or imported), else the suite's
    fixture of it imported into a temporary data folder (``CMDRAFT_HOME`` set for this process)."""
    import atexit
    import os
    import shutil
    import tempfile
    from pathlib import Path

    from sets.catalog import load_set, save_imported
    from sets.errors import UnknownSetError
    from sets.importers import read_card_file

    try:
        return load_set(code).source
    except UnknownSetError:
        fixture = Path(__file__).parent / "fixtures" / f"{code.lower()}_set.json"
        if not fixture.is_file():
            raise
    home = tempfile.mkdtemp(prefix="cmdraft-bench-")
    atexit.register(shutil.rmtree, home, True)
    os.environ["CMDRAFT_HOME"] = home
    for card_set in read_card_file(fixture).card_sets():
        save_imported(card_set)
    return f"the suite's fixture {fixture.name}, imported into a temporary data folder"


@group
def bots(
    pods: int = 30, as_json: bool = False, seed: int = 0, set_code: str = "CMR", pipers: int | None = None
) -> None:
    """Bot quality per style over seeded 8-seat pods (every seat one style), judged without the bots' rating (issue 23).
    ``--set CLB`` or ``CMM``: that product's pods, from its imported set, else from the suite's small MTGJSON-shaped
    file of it (tests/fixtures/CODE_set.json, imported into a temporary data folder, said in the output).
    ``--pipers N``: pods at a store whose stock sures every seat N Pipers (the bots plan with N, the decks add at
    most N: ``legal_share`` is then the share of seats with a legal commander); by default two, as without a store."""
    from draft.bots import BotStyle
    from draft.engine import DraftConfig
    from draft.quality import TARGETS, figures, meets, pod_figures, use_reference_texts
    from draft.sim import pod_seeds, run_pod

    code = set_code.upper()
    source = _product_set(code)
    config = DraftConfig(seats=8, set_code=code)
    reference = reference_cards(code)
    judge = "committed role tags (no reference rules text found)"
    if reference is not None:
        cards = json.loads(reference.read_text(encoding="utf-8"))["cards"]
        use_reference_texts({card["name"]: card.get("text") or "" for card in cards})
        judge = f"rules text of {reference}"
    rows = {}
    for style in BotStyle:
        seats = [
            seat
            for pod_seed in pod_seeds(seed, pods)
            for seat in pod_figures(run_pod(pod_seed, config, styles=style, pipers=pipers))
        ]
        rows[style.value] = figures(seats)
    if as_json:
        print(
            json.dumps(
                {
                    "pods": pods,
                    "seed": seed,
                    "set": code,
                    "set_source": source,
                    "pipers": pipers,
                    "judge": judge,
                    "styles": rows,
                    "targets": {k: f"{op} {v}" for k, (op, v) in TARGETS.items()},
                    "met": {style: meets(found) for style, found in rows.items()},
                }
            )
        )
        return
    sure = (
        ""
        if pipers is None
        else f"; every seat sure of {pipers} Piper{'' if pipers == 1 else 's'} from a store's stock"
    )
    print(f"{code} ({source}): {pods} pods per style (seed {seed}), {pods * 8} decks each{sure}; judged with {judge}")
    print(f"{'figure':<34}" + "".join(f"{style:>17}" for style in rows) + "   target")
    for key in next(iter(rows.values())):
        cells = []
        for found in rows.values():
            value = found[key]
            text = ",".join(f"{k}:{v}" for k, v in value.items()) if isinstance(value, dict) else str(value)
            cells.append(text + ("" if key not in TARGETS or meets(found)[key] else " !"))
        target = " ".join(map(str, TARGETS[key])) if key in TARGETS else ""
        print(f"{key:<34}" + "".join(f"{cell:>17}" for cell in cells) + f"   {target}")


@group
def serve(phones: int = 64, as_json: bool = False, post: bool = False, rounds: int = 3) -> None:
    """64 phones over real sockets in 8 pods against 'cmdraft serve' (issue 31; tests/serve_bench.py)."""
    from tests.serve_bench import rounds_median
    from tests.serve_bench import serve as run

    runs = [run(phones, post) for _ in range(rounds)]
    row = rounds_median(runs)
    if as_json:
        from tests.serve_night_bench import night

        print(json.dumps({**row, **{f"night_{key}": value for key, value in night(phones).items()}}))
        return
    for number, each in enumerate(runs, 1):
        print(
            f"draft {number} of {rounds}: {each['phones']} phones, {each['picks']} picks in {each['seconds']} s "
            f"({each['refused']} refused); CPU while picking: server {each['server_cpu_s']} s, phones "
            f"{each['phones_cpu_s']} s; load average {each['load_average']} on {os.cpu_count()} cores; own next "
            f"pack {each['own_next_p50_ms']}/{each['own_next_p99_ms']} ms, echo {each['echo_p50_ms']}/"
            f"{each['echo_p99_ms']} ms (median/p99): {each['p50_ratio']:.2f}x, {each['p99_ratio']:.2f}x"
        )
    print(
        f"picks {'posted to /api/pick' if post else 'sent over each stream, as the page does'}; the figures below: "
        f"the draft whose median ratio is the median of the {rounds} (the ratios: the median of each)"
    )
    report("pick -> its answer, median", row["own_p50_ms"], "ms", "")
    report("pick -> its answer, p99", row["own_p99_ms"], "ms", "")
    report("pick -> own next pack, median", row["own_next_p50_ms"], "ms", "")
    report("pick -> own next pack, p99", row["own_next_p99_ms"], "ms", "")
    report("bare Starlette/uvicorn WebSocket echo, same clients, median", row["echo_p50_ms"], "ms", "(baseline)")
    report("bare Starlette/uvicorn WebSocket echo, same clients, p99", row["echo_p99_ms"], "ms", "(baseline)")
    report("pick -> own next pack / echo, median", row["p50_ratio"], "x", "<= 3 (issue 41)")
    report("pick -> own next pack / echo, p99", row["p99_ratio"], "x", "<= 3 (issue 41)")
    report("server CPU per pick", row["server_cpu_per_pick_ms"], "ms CPU", "<= 0.35 ms (issue 41)")
    report("sent to the phones per pick (their streams)", row["received_per_pick_kb"], "KiB", "(informational)")
    report("picks lost / made twice / seats unfinished (every draft)", row["wrong"], "", "0")
    report("picks written but unanswered when the draft ended", row["unanswered"], "", "(not an error)")
    report("server peak memory (VmHWM)", row["server_peak_mb"], "MB", "<= 300 MB")
    print("the slowest 1% of picks, by pack.pick:", ", ".join(f"{at} ×{n}" for at, n in row["slowest_picks"].items()))
    from tests.serve_night_bench import night

    pushed = night(phones)  # issue 32: the night after the draft on the same phones
    report("a new pairing or clock change reaches the phones, median", pushed["push_p50_ms"], "ms", "")
    report("a new pairing or clock change reaches the phones, p99", pushed["push_p99_ms"], "ms", "")
    report(
        "a new pairing or clock change reaches the phones, p99 / echo p99",
        pushed["push_p99_ms"] / row["echo_p99_ms"],
        "x",
        "(informational: no target set against the echo yet)",
    )


@group
def stalls(drafts: int = 1000, seed: int = 0, as_json: bool = False) -> None:
    """Drafts with randomly slow, sleeping and vanishing phones on a simulated clock: stalls (issue 41)."""
    from tests.stall_bench import stalls as run

    row = run(drafts, seed)
    if as_json:
        print(json.dumps(row))
        return
    phones = ", ".join(f"{n} {kind}" for kind, n in row["phones"].items())
    print(
        f"{row['drafts']} drafts of 4-8 seats, 2-8 of them phones ({phones}); {row['picks']} picks, "
        f"{row['timed_out']} by the timer, {row['stale']} refused as stale; the longest draft "
        f"{row['longest_draft_minutes']} simulated minutes; {row['cpu_s']} s CPU, {row['seconds']} s"
    )
    report("the longest a pack waited in front of a seat / its pick time", row["longest_hold_share"], "x", "")
    report("stalls", row["stalls"], "", "0 in 1,000 drafts (issue 41)")


# Options each group takes: (flag, key, kind, help).
OPTIONS: dict[str, list[tuple[str, str, str, str]]] = {
    "event_store": [
        ("--players", "players", "list", "players per run, comma-separated (default 8,64,256,1024)"),
        ("--terminals", "terminals", "list", "terminal processes picking at once, comma-separated (default 1,4,8)"),
        ("--limit", "limit", "int", "stop after this many picks"),
        ("--json", "as_json", "flag", "one JSON line per run"),
    ],
    "practice": [
        ("--picks", "picks", "int", "picks timed in each draft, the first ones (default: every pick of the draft)"),
    ],
    "serve": [
        ("--phones", "phones", "int", "simulated phones, 8 to a pod (default 64)"),
        (
            "--rounds",
            "rounds",
            "int",
            "drafts timed, each against the echo around it; targets on their median (default 3)",
        ),
        ("--post", "post", "flag", "phones pick with POST /api/pick, as scripts do (default: over the stream)"),
        ("--json", "as_json", "flag", "the figures as one JSON line"),
    ],
    "stalls": [
        ("--drafts", "drafts", "int", "simulated drafts (default 1000)"),
        ("--seed", "seed", "int", "seed of the drafts' seeds (default 0)"),
        ("--json", "as_json", "flag", "the figures as one JSON line"),
    ],
    "bots": [
        ("--pods", "pods", "int", "seeded pods per style (default 30)"),
        ("--seed", "seed", "int", "seed of the pod seeds (default 0)"),
        ("--json", "as_json", "flag", "the figures as one JSON document"),
        ("--set", "set_code", "text", "the product: CMR (default), CLB or CMM"),
        ("--pipers", "pipers", "int", "Pipers a store's stock sures every seat, 0 or more (default: two, no store)"),
    ],
}


def _numbers(text: str, option: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        values = []
    if not values or min(values) < 0 or (option not in ("--seed", "--pipers") and min(values) < 1):
        raise SystemExit(f"benchmarks: {option} takes positive whole numbers (comma-separated), not {text!r}")
    return values


def usage(name: str | None = None) -> str:
    if name is None:
        lines = ["usage: python -m tests.benchmarks [GROUP ...] [OPTIONS]", "", "groups:"]
        lines += [
            f"  {group_name:<12} {(function.__doc__ or '').strip().splitlines()[0] if function.__doc__ else ''}"
            for group_name, function in GROUPS.items()
        ]
        lines += ["", "python -m tests.benchmarks GROUP --help lists a group's options"]
        return "\n".join(lines)
    function = GROUPS[name]
    lines = [
        f"usage: python -m tests.benchmarks {name}"
        + "".join(
            f" [{flag}{'' if kind == 'flag' else ' CODE' if kind == 'text' else ' N'}]"
            for flag, _, kind, _ in OPTIONS.get(name, [])
        )
    ]
    if function.__doc__:
        lines += ["", function.__doc__.strip()]
    if OPTIONS.get(name):
        lines += ["", "options:"] + [f"  {flag:<12} {text}" for flag, _, _, text in OPTIONS[name]]
    else:
        lines += ["", "no options"]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    # Values follow their flags: read the line left to right.
    chosen: list[str] = []
    options: dict[str, object] = {}
    known = {flag: (key, kind) for group_options in OPTIONS.values() for flag, key, kind, _ in group_options}
    args = list(argv)
    wants_help = False
    while args:
        arg = args.pop(0)
        if arg in ("-h", "--help"):
            wants_help = True
        elif arg in known:
            key, kind = known[arg]
            if kind == "flag":
                options[key] = True
                continue
            if not args:
                print(f"{arg} needs a value", file=sys.stderr)
                return 2
            if kind == "text":
                options[key] = args.pop(0)
                continue
            values = _numbers(args.pop(0), arg)
            options[key] = values[0] if kind == "int" else [*options.get(key, []), *values]  # type: ignore[list-item]  # options holds any flag's value; a repeated flag's is a list of numbers
        elif arg.startswith("-"):
            print(f"unknown option {arg!r}: see python -m tests.benchmarks --help", file=sys.stderr)
            return 2
        elif arg not in GROUPS:
            print(f"unknown benchmark group {arg!r}: choose from {', '.join(GROUPS)}", file=sys.stderr)
            return 2
        else:
            chosen.append(arg)
    if wants_help:
        print("\n\n".join(usage(name) for name in chosen) if chosen else usage())
        return 0
    chosen = chosen or list(GROUPS)
    if options:
        owners = [name for name in chosen if OPTIONS.get(name)]
        allowed = {key for name in owners for _, key, _, _ in OPTIONS[name]}
        if len(chosen) != 1 or not owners or set(options) - allowed:
            print(
                f"options {', '.join(sorted(options))} belong to one group: name it alone "
                f"(see python -m tests.benchmarks GROUP --help)",
                file=sys.stderr,
            )
            return 2
    for name in chosen:
        if not options.get("as_json"):
            print(f"== {name}")
        GROUPS[name](**options)  # type: ignore[operator]  # the options were checked above to be this one group's keywords
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
