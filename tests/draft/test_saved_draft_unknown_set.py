"""A saved draft of a set this machine hasn't imported (a database copied from a store that imported CMM) is refused
with the unknown set's own line, which says how to bring the set, never as a damaged draft with an exception's
repr in it."""

from __future__ import annotations

import pytest

from draft.engine import Draft, DraftConfig
from sets.errors import UnknownSetError


def test_a_saved_draft_of_a_set_not_imported_here_says_how_to_bring_the_set():
    saved = Draft.new(DraftConfig(seats=4), seed=3).to_json()
    saved["config"]["set"] = "ZZQ"  # a set no machine here has: as CMM on a machine that never imported it
    with pytest.raises(UnknownSetError) as refused:
        Draft.from_json(saved)
    said = str(refused.value)
    assert said.startswith("unknown set 'ZZQ'") and "sets download ZZQ" in said, said
    assert "damaged" not in said and "Error(" not in said  # before: saved draft is damaged (UnknownSetError("…"))
