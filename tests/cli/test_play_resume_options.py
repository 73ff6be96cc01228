"""``play --confirm`` belongs to the draft, as its timer does (docs/practice.md): a draft left, or stopped by a
crash, asks before each pick again when resumed with the plain ``play --resume`` its farewell line names;
``--no-confirm`` stops it for the rest of the draft.  Before: a resumed draft never asked."""

from __future__ import annotations

ASKED = "[Y/n]"


def test_a_resumed_draft_keeps_asking_before_each_pick_until_no_confirm(cli, tmp_path):
    db = tmp_path / "practice.json"
    left = cli("play", "--plain", "--confirm", "--seed", "1", "--db", db, input="q\n")
    assert left.exit_code == 0 and "Resume with: cmdraft play --resume 1" in left.stdout
    resumed = cli("play", "--resume", "--plain", "--db", db, input="1 2\nn\nq\n")
    assert resumed.exit_code == 0 and ASKED in resumed.stdout
    stopped = cli("play", "--resume", "--plain", "--no-confirm", "--db", db, input="1 2\nq\n")
    assert stopped.exit_code == 0 and ASKED not in stopped.stdout
    again = cli("play", "--resume", "--plain", "--db", db, input="1 2\nq\n")
    assert again.exit_code == 0 and ASKED not in again.stdout
