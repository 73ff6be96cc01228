"""The serve benchmark's baseline (docs/benchmarks.md): the bare echo is timed just before the draft and again just
after it, and pick → own next pack is compared with the two runs' round trips together; the phones' CPU is counted
while they pick, as the server's is."""

from __future__ import annotations

import time

from tests import serve_bench

BURNED = 0.25  # seconds of CPU the phones' process spends in each echo run here, on top of the echo itself


def test_the_echo_is_timed_before_and_after_the_draft_and_the_baseline_is_both_together(monkeypatch, tmp_path):
    monkeypatch.setenv("CMDRAFT_HOME", str(tmp_path / "home"))  # put back after (the benchmark sets its own)
    made: list[serve_bench.Figures] = []
    picked_when_timed: list[int] = []  # the picks acknowledged when each echo run began
    real_init, real_echo_drive = serve_bench.Figures.__init__, serve_bench.echo_drive

    def init(self: serve_bench.Figures) -> None:
        real_init(self)
        made.append(self)

    async def echo_drive(url: str, clients: int) -> list[float]:
        picked_when_timed.append(sum(made[-1].acknowledged.values()))
        until = time.process_time() + BURNED
        while time.process_time() < until:
            pass
        return await real_echo_drive(url, clients)

    monkeypatch.setattr(serve_bench.Figures, "__init__", init)
    monkeypatch.setattr(serve_bench, "echo_drive", echo_drive)
    row = serve_bench.serve(8)
    assert picked_when_timed == [0, 8 * serve_bench.PICKS]  # once before the first pick, once after the last
    assert row["picks"] == 8 * serve_bench.PICKS and row["lost"] + row["twice"] + row["unfinished"] == 0
    before, after = row["echo_before_p50_ms"], row["echo_after_p50_ms"]
    assert 0 < min(before, after) <= row["echo_p50_ms"] <= max(before, after)  # the median of both runs together
    assert row["echo_p99_ms"] >= row["echo_p50_ms"]
    # "CPU while picking: ... phones": the phones' CPU from the first pick to the last, not the echo runs' around it
    assert 0 < row["phones_cpu_s"] < BURNED and row["phones_cpu_s"] <= row["seconds"] + 0.05
