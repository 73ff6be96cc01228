"""A body's field of the wrong type is refused in plain words: what the field must be, nested lists included
(before: "must be a list (a list (a whole number each) each)")."""

from __future__ import annotations

from msgspec import inspect as types

from events.web.bodies import words
from tests.helpers.served import client, served_night

DESK = {"authorization": "Bearer desk-secret"}


def test_a_nested_list_of_the_wrong_type_is_named_plainly_by_the_server(tmp_path, cli, manual_clock):
    db = tmp_path / "words.json"
    event_id = served_night(cli, db, humans=("Ann", "Bo"), bots=2)
    with client(db, event_id, manual_clock, watch=False) as web:
        refused = web.post("/api/desk/settle", json={"round": 1, "table": 1, "order": [[1, "Bo"]]}, headers=DESK)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "bad-field"
    assert error["message"] == "the field 'order' must be a list of lists of whole numbers or text"


def test_every_shape_a_body_field_takes_reads_as_plain_words():
    said = {
        list[int]: "a list of whole numbers",
        list[list[int]]: "a list of lists of whole numbers",
        list[tuple[int, str]]: "a list of [a whole number, text] lists",
        list[list[bool]]: "a list of lists of true/false values",
        int | str: "a whole number or text",
    }
    for kind, words_said in said.items():
        assert words(types.type_info(kind)) == words_said
        assert " each" not in words_said and "(" not in words_said
