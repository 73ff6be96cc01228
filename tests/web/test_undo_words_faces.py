"""An undo the core refuses says what to do instead in words for every face: the desk's page (``POST
/api/desk/undo``, answered through ``core_error``) never names a terminal command, flag or key; the desk's
terminal adds its command.  Before: after "Start the clock" the page said "…start it again from its length
(--minutes N changes it, p pauses it)"."""

from __future__ import annotations

import re

import pytest

from events.night.round_clock import start_clock
from events.night.undo import INSTEAD, Undo, UndoRefused
from events.storage.store import Store
from events.web.api_common import core_error
from tests.helpers.night import Night, bots_drafted

TERMINAL_WORDS = re.compile(r"--|cmdraft|\b[pq] (pauses|quits)\b")


@pytest.mark.parametrize("what", sorted(INSTEAD))
def test_every_instead_names_no_command_flag_or_key(what):
    words, _terminal = INSTEAD[what]
    assert not TERMINAL_WORDS.search(words), words


def test_the_desk_page_and_the_terminal_refuse_a_clock_undo_each_in_its_own_words(tmp_path, cli):
    events = Night(Store(tmp_path / "night.json"))
    event_id = bots_drafted(events, "Duels", ["Ann", "Bo", "Cy", "Di"], seed=8, one_v_one=True)
    events.new_round(event_id)
    start_clock(events, event_id, 30)
    with pytest.raises(UndoRefused) as refused:
        Undo(events.store).undo(event_id)
    page = core_error(refused.value)  # as the desk's page is answered
    assert page.status == 409
    assert page.message == (
        "the desk's last change (clock: round 1: 30 minutes from now) can't be undone: a round's clock is set again, not undone: start it "
        "again from its length, give it another length, or pause it"
    ), page.message
    assert not TERMINAL_WORDS.search(page.message)
    at_desk = cli("event", "undo", str(event_id), "--db", str(events.store.path))
    assert at_desk.exit_code == 3
    said = " ".join(at_desk.stderr.split())
    assert said.endswith(
        f"or pause it ('cmdraft event clock {event_id} --restart --db {events.store.path}' starts it again; "
        "--minutes N gives another length, p pauses it)"
    ), said
    listed = cli("event", "undo", str(event_id), "--list", "--db", str(events.store.path))
    assert "--restart" in listed.stdout and "p pauses it" in " ".join(listed.stdout.split())
