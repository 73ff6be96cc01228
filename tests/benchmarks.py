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
