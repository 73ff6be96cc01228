"""A folder of output files whose writing was killed (a real process, SIGKILL between two files, a temporary
written and not yet renamed): the same command run again finishes it without ``--force`` and leaves nothing of
the killed run behind (its temporary removed, no mark); a folder a finished run filled is still refused without
``--force``.  Before: the rerun was refused as "not empty", and the temporary stayed for good."""

from __future__ import annotations

import signal
from pathlib import Path

from events.outputs.guard import UNFINISHED
from tests.helpers.terminals import worker


def undated(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if not line.startswith(b"Time:")]


def test_an_output_folder_a_kill_left_half_written_is_finished_by_the_same_command_run_again(tmp_path, cli):
    folder, whole = tmp_path / "pod", tmp_path / "whole"
    assert cli("sim", "--seed", "1", "--out", whole).exit_code == 0  # the files an unbroken run writes
    process = worker("sim-out", str(folder), "1", kill="write:5:before")  # the fifth file's temporary, on disk
    _, errors = process.communicate(timeout=120)
    assert process.returncode == -signal.SIGKILL, errors
    left = sorted(path.name for path in folder.iterdir())
    assert UNFINISHED in left and any(name.endswith(".tmp") for name in left), left
    again = cli("sim", "--seed", "1", "--out", folder)
    assert again.exit_code == 0, again.stderr
    assert sorted(path.name for path in folder.iterdir()) == sorted(path.name for path in whole.iterdir())
    for path in whole.iterdir():  # the same files (a draft log's "Time:" line aside: when it was written)
        assert undated(folder / path.name) == undated(path), path.name
    refused = cli("sim", "--seed", "1", "--out", folder)  # a finished folder is the user's now: --force to replace
    assert refused.exit_code == 2 and "--force" in refused.stderr
