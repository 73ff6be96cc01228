"""The benchmarks' targets mean the same on a busy machine (docs/benchmarks.md, issue 41): every speed figure that
has a target is CPU time or a ratio to a baseline timed in the same run; wall-clock figures carry no target."""

from __future__ import annotations

import ast
from pathlib import Path

BENCHMARKS = Path(__file__).parent / "benchmarks.py"


def targets(source: str) -> list[tuple[str, str, str]]:
    """(label, unit, target) of every ``report`` call whose target is a bound (``<=``, ``>=``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "report":
            label, _, unit, target = node.args
            text = target.value if isinstance(target, ast.Constant) else ""
            if "<=" in text or ">=" in text:
                name = label.value if isinstance(label, ast.Constant) else ast.unparse(label)
                found.append((str(name), str(unit.value) if isinstance(unit, ast.Constant) else "", text))
    return found


def cpu_or_ratio(label: str, unit: str) -> bool:
    """A speed figure a busy machine doesn't move (memory, in MB, is no speed: load doesn't move it either)."""
    return "CPU" in unit or unit == "MB" or (unit in ("", "x") and ("ratio" in label or "/" in label))


def test_every_benchmark_target_is_cpu_time_or_a_ratio_to_a_baseline_of_the_same_run():
    found = targets(BENCHMARKS.read_text(encoding="utf-8"))
    assert len(found) >= 12
    assert [row for row in found if not cpu_or_ratio(row[0], row[1])] == []


def test_a_wall_clock_target_is_caught():
    planted = 'report("pick -> next pack (median)", 12.0, "ms", "<= 100 ms")\n'
    assert [row for row in targets(planted) if not cpu_or_ratio(row[0], row[1])] == [
        ("pick -> next pack (median)", "ms", "<= 100 ms")
    ]


def test_both_serve_benchmarks_let_every_phone_hold_a_stream_and_a_request() -> None:
    """``serve --phones 256`` (docs/benchmarks.md): the draft's and the night's servers allow two connections a phone;
    the default 200 turned the night's phones away past 100."""
    from tests import serve_bench, serve_night_bench

    assert serve_night_bench.start_serve is serve_bench.start_serve  # (which runs ``serve_command``)
    for phones, allowed in ((8, 200), (64, 200), (256, 512)):
        command = serve_bench.serve_command(Path("night.json"), 1, phones)
        assert command[command.index("--max-connections") + 1] == str(allowed)
