"""``cmdraft event draft ID`` at the desk once the draft is over says only that, and what comes next: before, it
began "The draft is on. Each player picks on their phone …" and then "pod 1: draft over / Every pod has drafted."."""

from __future__ import annotations

from events.night.drafting import draft_over_words
from tests.helpers.nights import draft_to_the_end, terminal_event


def test_the_desk_looking_at_a_draft_that_is_over_is_told_it_is_over_and_what_comes_next(tmp_path, cli):
    db = tmp_path / "night.json"
    event_id = terminal_event(db)
    draft_to_the_end(db, event_id)
    looked = cli("event", "draft", str(event_id), "--db", str(db))
    assert looked.exit_code == 0, looked.output
    assert "The draft is on" not in looked.stdout and "picks on their phone" not in looked.stdout
    assert " ".join(looked.stdout.split()) == (
        "The draft is over: every pod has drafted. Next: the players register their decks (the board: cmdraft event "
        f"deck {event_id}), then round 1 is paired (cmdraft event round {event_id})."
    )
    assert looked.stdout.strip().replace("\n", " ") == draft_over_words(event_id, "building")


def test_a_draft_whose_last_pick_was_not_settled_yet_is_settled_and_said_over(tmp_path, cli):
    """The last pick made at a terminal that left before recording the pools: the desk's look records them (as its
    watching screen always did) and says the draft is over."""
    db = tmp_path / "night.json"
    event_id = terminal_event(db)
    night = draft_to_the_end(db, event_id, settle=False)
    assert night.event(event_id).status == "drafting"
    looked = cli("event", "draft", str(event_id), "--db", str(db))
    assert looked.exit_code == 0 and "The draft is on" not in looked.stdout, looked.output
    assert looked.stdout.startswith("The draft is over: every pod has drafted.")
    assert night.event(event_id).status == "building"


def test_the_words_say_what_comes_next_in_each_phase_after_the_draft():
    assert draft_over_words(3, "playing") == (
        "The draft is over: every pod has drafted, and the rounds are on (the next is paired with: cmdraft event "
        "round 3)."
    )
    assert draft_over_words(3, "finished") == "The draft is over: every pod has drafted, and the event is finished."
