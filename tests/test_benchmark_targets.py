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


def test_several_serve_drafts_give_their_median_ratios_and_every_lost_pick() -> None:
    """``serve --rounds N`` (docs/benchmarks.md): the targets are on the median of the drafts' ratios, each draft to
    the echo timed around it; a pick lost in any draft counts."""
    from tests.serve_bench import rounds_median

    def draft(own: float, echo: float, own_p99: float, lost: int) -> dict[str, float]:
        return {
            "own_next_p50_ms": own,
            "echo_p50_ms": echo,
            "own_next_p99_ms": own_p99,
            "echo_p99_ms": 10.0,
            "server_cpu_per_pick_ms": own / 100,
            "server_peak_mb": own,
            "lost": lost,
            "twice": 0,
            "unfinished": 0,
            "unanswered": 1,
        }

    row = rounds_median([draft(9.0, 3.0, 20.0, 0), draft(4.0, 2.0, 50.0, 0), draft(8.0, 1.0, 30.0, 2)])
    assert (row["p50_ratio"], row["p99_ratio"]) == (3.0, 3.0)  # ratios 3, 2, 8 and 2, 5, 3
    assert row["own_next_p50_ms"] == 9.0  # the figures shown are the median draft's own
    assert row["server_cpu_per_pick_ms"] == 0.08 and row["server_peak_mb"] == 9.0
    assert (row["wrong"], row["unanswered"], len(row["rounds"])) == (2, 3, 3)
