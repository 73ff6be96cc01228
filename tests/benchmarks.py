"""Speed figures, run on demand (never part of the test suite):

    python -m tests.benchmarks            # everything
    python -m tests.benchmarks boosters   # one group

Each line prints the measured figure next to the target from the issues.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

GROUPS: dict[str, Callable[[], None]] = {}


def group(function: Callable[[], None]) -> Callable[[], None]:
    GROUPS[function.__name__] = function
    return function


def best_of(function: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def report(label: str, value: float, unit: str, target: str) -> None:
    print(f"{label:<58} {value:>12.3f} {unit:<12} target {target}")


@group
def foundation() -> None:
    from sets.cards import Face, parse_type_line
    from sets.identity import color_identity

    rng = random.Random(1)
    symbols = ["{1}", "{2}", "{W}", "{U}", "{B}", "{R}", "{G}", "{W/U}", "{2/B}", "{G/U/P}", "{C}", "{X}"]
    type_lines = ["Creature — Elf", "Legendary Creature — Human Wizard", "Land — Forest Plains", "Instant", "Artifact"]
    faces = []
    for i in range(30000):
        supertypes, types, subtypes = parse_type_line(rng.choice(type_lines))
        text = f"{{T}}: Add {rng.choice(symbols)}. ({rng.choice(symbols)} reminder)\nCard {i} is blue."
        faces.append(Face(f"Card {i}", "".join(rng.choices(symbols, k=3)), "", supertypes, types, subtypes, text))
    report("identity of 30,000 synthetic cards", best_of(lambda: [color_identity([f]) for f in faces], 3), "s", "<= 1 s")

    import sets.catalog as catalog

    def load():
        catalog._load_bundled.cache_clear()
        catalog._load_bundled("CMR")

    report("load the bundled CMR set (warm imports)", best_of(load, 10) * 1000, "ms", "<= 20 ms")
    cold = best_of(lambda: subprocess.run([sys.executable, "-m", "events", "--help"], capture_output=True, check=True), 5)
    report("`cmdraft --help` cold start", cold, "s", "<= 0.3 s")


@group
def boosters() -> None:
    from bisect import bisect
    from itertools import accumulate

    from sets.booster import booster_spec

    spec = booster_spec("CMR")
    count = 100000
    elapsed = best_of(lambda: spec.open_many(random.Random(1), count), 3)
    weights = [1] * 141
    cum = list(accumulate(weights))

    def baseline():
        rng = random.Random(1)
        rnd = rng.random
        total = cum[-1]
        for _ in range(count):
            [bisect(cum, rnd() * total) for _ in range(20)]

    base = best_of(baseline, 3)
    report("CMR draft boosters per second", count / elapsed, "boosters/s", ">= 50,000")
    report("baseline: 20 weighted random indices per booster", count / base, "boosters/s", "(bare random.Random)")
    report("ratio boosters / baseline", (count / elapsed) / (count / base), "", "close to 1")


@group
def decks() -> None:
    from collections import Counter

    from draft.decks import Deck, validate
    from draft.formats import parse, resolve
    from sets.basics import basic_land
    from sets.catalog import card_index, load_set

    cmr = load_set("CMR")
    commander = next(c for c in cmr if c.name == "Akroma, Vision of Ixidor")
    piper = next(c for c in cmr if c.name == "The Prismatic Piper")
    spells = [c for c in cmr if c.deck_colors.code in ("W", "U") and not c.is_legendary][:35]
    main = Counter(spells) + Counter({basic_land("W"): 12, basic_land("U"): 11})
    deck = Deck.build([piper, commander], main)
    pool = Counter(spells) + Counter([commander]) + Counter([c for c in cmr if c.deck_colors.code == "B"][:24])
    runs = 2000
    elapsed = best_of(lambda: [validate(deck, pool) for _ in range(runs)], 3)
    report("validate a 60-card deck (Piper colour searched) vs 60-card pool", elapsed / runs * 1000, "ms", "<= 1 ms")
    elapsed = best_of(lambda: [validate(deck, pool, piper_colors=[]) for _ in range(runs)], 3)
    index = card_index()
    names = [c.name for c in cmr]
    text = "\n".join(f"{i % 3 + 1} {names[i % len(names)]} (CMR) {i % 361 + 1} *F*" for i in range(10000))
    elapsed = best_of(lambda: resolve(parse(text), index), 5)
    report("parse + resolve a 10,000-line deck file", elapsed * 1000, "ms", "<= 100 ms")


@group
def pods() -> None:
    from draft.sim import run_pod

    run_pod(0)
    report("one 8-seat CMR pod with bots, boosters to legal decks", best_of(lambda: run_pod(1), 5) * 1000, "ms", "<= 50 ms")
    start = time.perf_counter()
    for seed in range(1000):
        run_pod(seed)
    report("1,000 pods on one core", time.perf_counter() - start, "s", "<= 60 s")


@group
def practice() -> None:
    import io
    import tempfile
    from pathlib import Path

    from rich.console import Console

    from draft.engine import DraftConfig
    from events.drafts import TableSession
    from events.screens.practice import PracticeUI, Terminal
    from events.store import Store

    with tempfile.TemporaryDirectory() as folder:
        store = Store(Path(folder) / "bench.json")
        session = TableSession.create(store, kind="practice", seed=1, config=DraftConfig(), humans=[0],
                                      names=[f"Seat {i}" for i in range(8)])
        console = Console(file=io.StringIO(), width=120, force_terminal=True)
        ui = PracticeUI(session, console, Terminal(console))
        times = []
        while not session.draft.finished:
            start = time.perf_counter()
            session.pick(0, [0, 1])  # the confirmed pick: 7 bots follow, all saved durably
            if not session.draft.finished:
                ui.show_pack(session.draft.pack(0))  # the next pack on screen
            times.append(time.perf_counter() - start)
    report("pick confirmed -> next pack on screen, 7 bots (median)", statistics.median(times) * 1000, "ms", "<= 100 ms")
    report("pick confirmed -> next pack on screen, 7 bots (worst)", max(times) * 1000, "ms", "<= 100 ms")


@group
def event_store() -> None:
    import tempfile
    from pathlib import Path

    from events.event import Events
    from events.store import Store

    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "event.json"
        events = Events(Store(db))
        event_id = events.create("Benchmark", style="terminal", seed=1)
        for i in range(64):
            events.add_player(event_id, f"Player {i + 1}")
        events.seat(event_id)
        events.start_draft(event_id)
        snap = events.snapshot(event_id)
        sessions = [events.draft_session(event_id, pod["number"]) for pod in snap["pods"]]
        times = []
        while not all(s.draft.finished for s in sessions):
            for session in sessions:
                for seat in session.waiting_humans():
                    choice = session.suggested_pick(seat)
                    start = time.perf_counter()
                    session.pick(seat, choice)  # one durable transaction: fsync + atomic rename
                    times.append(time.perf_counter() - start)
        size = db.stat().st_size
    report(f"64-player event, {len(times)} picks: mean time per durable pick", statistics.mean(times) * 1000, "ms", "<= 10 ms")
    report("64-player event: slowest pick", max(times) * 1000, "ms", "")
    report("64-player event: database size after the draft", size / 1024, "KiB", "(compact records)")


def main(argv: list[str]) -> int:
    names = argv or list(GROUPS)
    for name in names:
        if name not in GROUPS:
            print(f"unknown benchmark group {name!r}: choose from {', '.join(GROUPS)}", file=sys.stderr)
            return 2
        print(f"== {name}")
        GROUPS[name]()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
