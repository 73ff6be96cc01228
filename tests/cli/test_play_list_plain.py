"""``play --list --plain``: the saved drafts as a screen reader reads them, a sentence each that names every figure
and the command that goes on with it.  Before, ``--plain`` (docs/practice.md: "the line prompt (screen readers,
scripts)") still drew a box of heavy lines, each row bare numbers ("1 CMR ... building 5 8 30")."""

from __future__ import annotations

import re
import shlex

BOX = set("┏┳┓┃┡╇┩│└┴┘━─")


def test_play_list_plain_is_a_sentence_a_draft_with_no_box(cli, tmp_path):
    db = tmp_path / "practice.json"
    assert cli("play", "--plain", "--seed", "5", "--db", db, input="1 2\nq\n").exit_code == 0
    listed = cli("play", "--list", "--plain", "--db", db)
    assert listed.exit_code == 0, listed.stderr
    assert not BOX & set(listed.stdout), listed.stdout
    lines = [line for line in listed.stdout.splitlines() if line.strip()]
    assert len(lines) == 2, lines  # what the list is, then one draft
    draft = " ".join(lines[1:])
    for words in ("Draft 1:", "CMR", "1 pick made", "seed 5", "8 seats", "cmdraft play --resume 1"):
        assert words in draft, draft
    assert re.search(r"started \d{4}-\d\d-\d\d \d\d:\d\d UTC;", draft), draft  # not an ISO stamp read letter by letter
    # the command given goes on with this draft, in this database, at the plain prompt (not the full-screen app)
    command = shlex.split(re.search(r"'(cmdraft play [^']*)'", draft).group(1))
    assert command[-2:] == ["--db", str(db)] and "--plain" in command
    resumed = cli(*command[1:], input="q\n")
    assert resumed.exit_code == 0 and "Pack 1 of 3, pick 2 of 10" in resumed.stdout, resumed.output
    boxed = cli("play", "--list", "--db", db)  # the full-screen side keeps its table
    assert boxed.exit_code == 0 and "Your picks" in boxed.stdout
