"""A bots event in play (decks, a round, a game) and the kinds of damage its database file can carry: what the
hostile sweep (``python -m tests.hostile``) and its sample in the suite run against."""

from __future__ import annotations

import json
from pathlib import Path

from events.storage.store import Store
from tests.helpers.night import Night

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed"]


def playing_event(db: Path) -> int:
    """A bots event with decks and a recorded result: every table has records."""
    events = Night(Store(db))
    event_id = events.create("Friday", style="bots", seed=5)
    for name in NAMES:
        events.add_player(event_id, name)
    events.seat(event_id)
    events.start_draft(event_id)
    for name in NAMES:
        events.register_deck(event_id, name, None, auto=True)
    events.new_round(event_id)
    events.game(event_id, 1, 1, life={"Ann": -3})
    return event_id


def first_record(data: dict, table: str) -> dict:
    return data[table][sorted(data[table], key=int)[0]]


def bad_databases(good: dict) -> dict[str, bytes]:
    """Kinds of damage a database file can carry, each applied to a copy of a good one."""
    raw = json.dumps(good)
    assert '"seed": 5' in raw and '"points": [3.0, 2.0, 1.0, 0.0]' in raw
    kinds: dict[str, bytes] = {
        "empty file": b"",
        "only spaces": b"   \n",
        "not JSON": b"hello",
        "truncated JSON": raw[: len(raw) // 2].encode(),
        "not UTF-8": b'{"_meta": {"1": {"app": "cmdraft", "schema": 3}}, "events": {"1": {"name": "\xff"}}}',
        "a JSON list": b"[]",
        "a JSON number": b"5",
        "deeply nested": b"[" * 100_000 + b"]" * 100_000,
        "a 5,000-digit number": raw.replace('"seed": 5', '"seed": ' + "9" * 5000).encode(),
        "NaN points": raw.replace('"points": [3.0, 2.0, 1.0, 0.0]', '"points": [NaN, 0]').encode(),
        "Infinity points": raw.replace('"points": [3.0, 2.0, 1.0, 0.0]', '"points": [Infinity, 0]').encode(),
    }

    def mutate(name: str, change) -> None:
        data = json.loads(
            raw
        )  # a copy of the good one (read from JSON: the same as a deep copy, several times quicker)
        change(data)
        kinds[name] = json.dumps(data).encode()

    mutate("no meta", lambda d: d.pop("_meta"))
    mutate('"schema": true', lambda d: d["_meta"]["1"].update(schema=True))
    mutate("schema as text", lambda d: d["_meta"]["1"].update(schema="2"))
    mutate("newer schema", lambda d: d["_meta"]["1"].update(schema=99))
    mutate("unknown old schema", lambda d: d["_meta"]["1"].update(schema=0))
    mutate("foreign app", lambda d: d["_meta"]["1"].update(app="other"))
    mutate("a table that is a list", lambda d: d.update(events=[]))
    mutate("a record that is a list", lambda d: d["events"].update({"1": []}))
    mutate("a record key that is no number", lambda d: d["players"].update({"x": first_record(d, "players")}))
    mutate("an event without a name", lambda d: first_record(d, "events").pop("name"))
    mutate("an event name that is a number", lambda d: first_record(d, "events").update(name=5))
    mutate("an empty event name", lambda d: first_record(d, "events").update(name="  "))
    mutate("an unknown status", lambda d: first_record(d, "events").update(status="party"))
    mutate("pod size true", lambda d: first_record(d, "events").update(pod_size=True))
    mutate("pod size 10^6", lambda d: first_record(d, "events").update(pod_size=10**6))
    mutate("points as text", lambda d: first_record(d, "events").update(points="3,2,1,0"))
    mutate("points empty", lambda d: first_record(d, "events").update(points=[]))
    mutate("a huge seed", lambda d: first_record(d, "events").update(seed=10**40))
    mutate("negative timer", lambda d: first_record(d, "events").update(timer=-1))
    mutate("a player of no event", lambda d: first_record(d, "players").update(event=99))
    mutate("a player event as text", lambda d: first_record(d, "players").update(event="1"))
    mutate("a player seat as float", lambda d: first_record(d, "players").update(seat=1.5))
    mutate("a player in no pod", lambda d: first_record(d, "players").update(pod=9))
    mutate("a pod naming no player", lambda d: first_record(d, "pods")["players"].append(999))
    mutate("a pod naming no draft", lambda d: first_record(d, "pods").update(draft=999))
    mutate("a pool of no player", lambda d: first_record(d, "pools").update(player=999))
    mutate("pool cards as numbers", lambda d: first_record(d, "pools").update(cards=[1, 2]))
    mutate("a deck that is text", lambda d: first_record(d, "decks").update(deck="Sol Ring"))
    mutate("a round table naming no player", lambda d: first_record(d, "rounds")["tables"][0].append(999))
    mutate("a round status as number", lambda d: first_record(d, "rounds").update(status=1))
    mutate(
        "a game life as text",
        lambda d: (
            next(iter(first_record(d, "games")["life"].values()))
            and first_record(d, "games")["life"].update({next(iter(first_record(d, "games")["life"])): "forty"})
        ),
    )
    mutate("a game life for no player", lambda d: first_record(d, "games")["life"].update({"999": 40}))
    mutate("draft humans beyond its seats", lambda d: first_record(d, "drafts").update(humans=[40]))
    mutate("draft picks as text", lambda d: first_record(d, "drafts").update(picks="all"))
    mutate("draft state as a list", lambda d: first_record(d, "drafts").update(state=[]))
    mutate("draft seed as text", lambda d: first_record(d, "drafts")["state"].update(seed="x"))
    mutate("draft config missing", lambda d: first_record(d, "drafts")["state"].pop("config"))
    mutate("a deck whose main is text", lambda d: first_record(d, "decks")["deck"].update(main="Sol Ring"))
    mutate("a deck line count as text", lambda d: first_record(d, "decks")["deck"]["main"][0].update(count="2"))
    return kinds
