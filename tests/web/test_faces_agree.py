"""Every face says what the core says (brief "faces agree"): who is still to confirm a report, a reporter's own
report (nothing to confirm or dispute: they report again), a correction after a later round was paired, a final
table in the log, and which cards may be a commander, at a phone, the desk's page and a terminal alike."""

from __future__ import annotations

from starlette.testclient import TestClient

from events.night.decks import registered_words
from events.night.report_waits import waiting_for
from events.night.standings import FINAL_STANDINGS, STANDINGS
from events.night.table_shown import (
    ALL_PLACED_VERSION_WORDS,
    ALL_PLACED_WORDS,
    FINAL_RESULT_WORDS,
    PLAYER_STATUS_WORDS,
)
from events.storage.records import Round
from events.storage.store import Store
from events.storage.tables import records_of
from events.web.cards_shown import card_json
from sets.basics import basic_lands
from sets.card_index import CardIndex
from sets.importers import read_card_file
from tests.helpers.nights import draft_to_the_end, start, terminal_night
from tests.helpers.paths import FIXTURES
from tests.helpers.served import ORIGIN
from tests.helpers.tables import app_of, drafted_four, four, ok, terminal_report  # noqa: F401  (fixtures)
from tests.helpers.tables import table_phone as phone

OWN = "nothing to confirm or dispute; report again to change it"


def test_who_is_still_to_confirm_a_disputed_report_is_the_cores_list_on_every_face(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        phones = {name: phone(app, event_id, name, codes[name]) for name in ("Ann", "Bo")}
        table = ok(phones["Ann"].get("/api/table"))["round"]
        ids = {p["name"]: p["id"] for p in table["players"]}
        order = [[ids["Ann"]], [ids["Bo"]], [ids["Cy"]], [ids["Di"]]]
        report = ok(phones["Ann"].post("/api/result", json={"order": order}))["round"]["report"]["id"]
        ok(phones["Bo"].post("/api/result/confirm", json={"report": report, "agree": False}))
        shown = ok(phones["Ann"].get("/api/table"))["round"]["report"]
    with Store(db).read() as data:
        rnd = records_of(data, Round).find(event=event_id)[0]
        core = waiting_for(data, rnd, 1, [ids["Ann"]], [ids["Bo"]])
    names = {pid: name for name, pid in ids.items()}
    assert shown["waiting_for"] == [names[pid] for pid in core] and sorted(shown["waiting_for"]) == ["Cy", "Di"]
    seen = cli("event", "table", event_id, "--player", "Cy", "--db", db)
    waiting = next(line for line in seen.stdout.splitlines() if line.startswith("Still to confirm: "))
    # the same words at Ann's phone and Cy's terminal, each naming its own player "you" (before: the phone's own)
    assert waiting.removeprefix("Still to confirm: ").split(" / ") == [
        "you" if name == "Cy" else name for name in shown["waiting_for"]
    ]
    assert shown["waiting_words"] == "Still to confirm: " + " / ".join(shown["waiting_for"])  # Ann waits for nobody
    assert shown["by_words"] == "Reported by Ann" and f"{shown['by_words']}: Ann > Bo > Cy > Di" in seen.stdout
    # Bo's dispute, in the same words on the phone and at the terminal (before: "Bo disputes" / "'Bo' disputes it")
    (disputed,) = shown["disputes"]
    assert disputed["words"] == "Bo disputes it (no version given)" and disputed["words"] in seen.stdout.splitlines()


def test_a_reporter_may_not_dispute_their_own_report_at_a_phone_or_a_terminal(four, manual_clock, cli):  # noqa: F811
    db, event_id, codes = four
    terminal_report(cli, db, event_id, codes, "Di", "Ann > Bo > Cy > Di")
    refused = cli("event", "table", event_id, "--player", "Di", "--dispute", "--db", db, input=codes["Di"] + "\n")
    assert refused.exit_code == 3 and OWN in " ".join(refused.stderr.split())
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        di = phone(app, event_id, "Di", codes["Di"])
        report = ok(di.get("/api/table"))["round"]["report"]
        assert report["status"] == "waiting" and report["disputes"] == []
        answer = di.post("/api/result/confirm", json={"report": report["id"], "agree": False})
        assert answer.status_code == 409 and OWN in answer.json()["error"]["message"]
        assert ok(di.get("/api/table"))["round"]["report"]["status"] == "waiting"


def test_a_correction_settled_from_the_desks_page_says_what_the_terminal_says_of_the_later_pairing(
    four,  # noqa: F811
    manual_clock,
    cli,
):
    db, event_id, _ = four
    desk = {"authorization": "Bearer desk-secret"}
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as web:
        body = {"round": 1, "table": 1, "order": "Di > Cy > Bo > Ann", "replace": True}
        settled = ok(web.post("/api/desk/settle", json=body, headers=desk))
    said = cli("event", "result", event_id, 1, 1, "Di > Cy > Bo > Ann", "--replace", "--db", db)
    terminal = " ".join(said.stdout.split())
    assert settled["next_round"] == 2 and settled["correction"].startswith("corrected after round 2 was paired")
    assert settled["correction"].removesuffix(")") in terminal  # the terminal adds its command inside the brackets


def test_a_final_table_is_named_so_in_the_log_and_round_again_says_it_refuses_one(four, cli):  # noqa: F811
    db, event_id, _ = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
    assert cli("event", "top", event_id, 4, "--db", db).exit_code == 0
    log = cli("event", "log", event_id, "--db", db)
    rows = [line for line in log.stdout.splitlines() if "round 2:" in line]
    assert len(rows) == 1 and "final table" in rows[0]
    helped = " ".join(cli("event", "round", "--help").stdout.split())
    assert "never a final table" in helped
    listed = cli("event", "undo", event_id, "--list", "--db", db)
    assert "the final table (round 2)" in " ".join(listed.stdout.split())
    refused = cli("event", "round", event_id, "--again", "--db", db)
    assert refused.exit_code == 3 and "final table" in refused.stderr


def test_the_deck_page_offers_the_command_zone_only_to_cards_the_core_lets_lead():
    """The page put a crown on every card whose type line says Legendary; the core's rule (CR 903.3) decides now."""
    index = CardIndex([*read_card_file(FIXTURES / "rules_set.json").card_sets(), basic_lands()])
    leads = {name: card_json(index.find(name), 0).leads for name in LEGENDS}
    assert leads == LEGENDS


LEGENDS = {
    "Odra, Keeper of Tales": True,  # a legendary creature
    "Scholar of the Deep Stacks": True,  # a Background, beside a creature that chooses one
    "Skyhull Dreadnought": True,  # a legendary Vehicle with printed power and toughness
    "Maelis, Tide Oracle": True,  # a legendary planeswalker that says it can be your commander
    "Beacon of Vell": False,  # a legendary Spacecraft with no printed power and toughness
    "The Shard of Vor": False,  # a legendary artifact (a meld card's front)
}


PIPERS_THREE = "choose one or two colors for The Prismatic Piper: 1 Piper leads in each color (3 chosen)"
PIPERS_NONE = "choose one or two colors for The Prismatic Piper: 1 Piper leads in each color (none chosen)"


def test_how_many_pipers_may_lead_is_refused_in_the_cores_words_at_the_terminal_and_the_phone(
    four,  # noqa: F811
    manual_clock,
    cli,
) -> None:
    """The phone's page counted the colours tapped and refused in words of its own; the terminal refused in words
    of its own syntax.  A deck leads with one or two Pipers (RULES.md, the added commander): the deck session
    says so, and each face shows its words."""
    db, event_id, codes = four
    terminal = cli("event", "deck", event_id, "Ann", "--build", "--db", db, input="piper U R G\nquit\n")
    assert PIPERS_THREE in terminal.stdout + terminal.stderr
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        for colors, words in ((["U", "R", "G"], PIPERS_THREE), ([], PIPERS_NONE)):
            refused = ann.post("/api/deck", json={"action": "pipers", "colors": colors})
            assert refused.status_code == 400 and refused.json()["error"]["message"] == words


def test_the_deck_page_is_told_by_the_core_whether_another_commander_may_be_crowned(four, manual_clock) -> None:  # noqa: F811
    """The page counted the commanders itself (fewer than 2: a crown on each card that may lead); the deck state
    now carries the core's answer (one commander, or two a partner ability pairs)."""
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        one = ok(ann.post("/api/deck", json={"action": "pipers", "colors": ["U"]}))
        assert len(one["commanders"]) == 1 and one["commander_room"] is True
        two = ok(ann.post("/api/deck", json={"action": "pipers", "colors": ["U", "R"]}))
        assert len(two["commanders"]) == 2 and two["commander_room"] is False


def test_a_tables_status_is_told_in_the_cores_words_at_the_phone_and_the_terminal(four, manual_clock, cli):  # noqa: F811
    """The phone's page composed the round's and the report's status sentences itself, and the terminal had words
    of its own; the core words them (``table_status_sentence``) and both faces say them."""
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)

    def terminal_says(words: str) -> None:
        seen = cli("event", "table", event_id, "--player", "Cy", "--db", db)
        assert seen.exit_code == 0 and words in seen.stdout.splitlines()

    def standings_called(web, title: str) -> None:
        assert ok(web.get("/api/table"))["standings_title"] == ok(web.get("/api/room"))["standings_title"] == title
        shown = cli("event", "standings", event_id, "--db", db)
        assert (
            shown.exit_code == 0
            and title in shown.stdout
            and (title == FINAL_STANDINGS) == (FINAL_STANDINGS in shown.stdout)
        )

    with TestClient(app, headers=ORIGIN):
        phones = {name: phone(app, event_id, name, codes[name]) for name in ("Ann", "Bo")}
        table = ok(phones["Ann"].get("/api/table"))["round"]
        assert table["status_words"] == PLAYER_STATUS_WORDS["playing"]
        # the order form's rule (every player at the table placed) and its words then, the core's (before: the page's)
        assert table["entry"] == {
            "places": len(table["players"]),
            "place_words": ["1st", "2nd", "3rd", "4th"][: len(table["players"])],  # each place as the core writes it
            "placed": ALL_PLACED_WORDS,
            "placed_version": ALL_PLACED_VERSION_WORDS,
        }
        terminal_says(PLAYER_STATUS_WORDS["playing"])
        ids = {p["name"]: p["id"] for p in table["players"]}
        order = [[ids["Ann"]], [ids["Bo"]], [ids["Cy"]], [ids["Di"]]]
        report = ok(phones["Ann"].post("/api/result", json={"order": order}))["round"]
        assert report["status_words"] == PLAYER_STATUS_WORDS["waiting"]
        # the sentence under "Still to confirm: …" says whom it waits for in that line's words
        assert report["status_words"] == "It is recorded once everyone still to confirm agrees."
        terminal_says(PLAYER_STATUS_WORDS["waiting"])
        disputed = ok(phones["Bo"].post("/api/result/confirm", json={"report": report["report"]["id"], "agree": False}))
        assert disputed["round"]["status_words"] == PLAYER_STATUS_WORDS["disputed"]
        terminal_says(PLAYER_STATUS_WORDS["disputed"])
        assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
        assert ok(phones["Ann"].get("/api/table"))["round"]["status_words"] == PLAYER_STATUS_WORDS["recorded"]
        terminal_says(PLAYER_STATUS_WORDS["recorded"])
        # what the standings are called, the core's words on the phone, the room and the desk's terminal alike
        # (before: each face judged the event's status itself)
        standings_called(phones["Ann"], STANDINGS)
        assert cli("event", "finish", event_id, "--db", db).exit_code == 0
        assert ok(phones["Ann"].get("/api/table"))["round"]["status_words"] == FINAL_RESULT_WORDS
        terminal_says(FINAL_RESULT_WORDS)
        standings_called(phones["Ann"], FINAL_STANDINGS)


def test_an_incomplete_finishing_order_from_a_phone_is_refused_in_the_cores_words(four, manual_clock, cli):  # noqa: F811
    """The page disabled Confirm until it judged everyone placed; it now sends the order as tapped and shows the
    answer: the core refuses a report or a dispute's version that misses a player, naming whom, and keeps none."""
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        phones = {name: phone(app, event_id, name, codes[name]) for name in ("Ann", "Bo")}
        ids = {p["name"]: p["id"] for p in ok(phones["Ann"].get("/api/table"))["round"]["players"]}
        missing = "the result must name every player at the table once; missing 'Di'"
        refused = phones["Ann"].post("/api/result", json={"order": [[ids["Ann"]], [ids["Bo"]], [ids["Cy"]]]})
        assert refused.status_code == 400 and refused.json()["error"]["message"] == missing
        assert ok(phones["Ann"].get("/api/table"))["round"]["report"] is None
        order = [[ids["Ann"]], [ids["Bo"]], [ids["Cy"]], [ids["Di"]]]
        report = ok(phones["Ann"].post("/api/result", json={"order": order}))["round"]["report"]["id"]
        body = {"report": report, "agree": False, "order": [[ids["Bo"]], [ids["Ann"]], [ids["Cy"]]]}
        refused = phones["Bo"].post("/api/result/confirm", json=body)
        assert refused.status_code == 400 and refused.json()["error"]["message"] == missing
        assert ok(phones["Bo"].get("/api/table"))["round"]["report"]["status"] == "waiting"


def test_why_no_deck_is_built_is_the_cores_sentence_in_the_seats_state_and_the_decks_refusal(four, manual_clock, cli):  # noqa: F811
    """The deck page wrote "The event is over…" itself, and a copy of the core's "Decks are built once every pod
    has drafted." when the seat's state said nothing; the seat's state now carries the core's words, the same as
    the deck's refusal."""
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        assert ok(ann.get("/api/seat"))["no_builder"] is None  # decks are being built
        assert cli("event", "round", event_id, "--db", db).exit_code == 0
        assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
        assert cli("event", "finish", event_id, "--db", db).exit_code == 0
        said = ok(ann.get("/api/seat"))["no_builder"]
        refused = ann.get("/api/deck")
        assert (
            refused.status_code == 409 and said == "The event is finished: its decks can no longer be built or changed."
        )
        assert said == refused.json()["error"]["message"].capitalize() + "."


def test_the_desks_actions_are_the_cores_answer_with_the_night(four, manual_clock, cli):  # noqa: F811
    """The desk's page chose its buttons from the event's status and the round it had; the night's view now says
    which actions the desk may take (``desk_actions``)."""
    db, event_id, _ = four
    desk = {"authorization": "Bearer desk-secret"}
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as web:

        def actions() -> list[str]:
            return ok(web.get("/api/desk/night", headers=desk))["actions"]

        assert actions() == ["pair", "undo", "tracker", "publish"]
        assert cli("event", "round", event_id, "--db", db).exit_code == 0
        assert "pair" not in actions() and "clock" in actions() and "finish" not in actions()
        assert "settle" in actions()
        assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
        assert actions() == ["pair", "settle", "undo", "top", "tracker", "finish", "publish"]
        # after the final table's result the core pairs no round (finish): the desk is offered none, only finish
        assert cli("event", "top", event_id, 4, "--db", db).exit_code == 0
        assert cli("event", "result", event_id, 2, 1, "Bo > Ann > Cy > Di", "--db", db).exit_code == 0
        assert actions() == ["settle", "undo", "tracker", "finish", "publish"]
        refused = web.post("/api/desk/round", json={}, headers=desk)
        assert refused.status_code == 409 and "finish the event" in refused.json()["error"]["message"]
        assert cli("event", "finish", event_id, "--db", db).exit_code == 0
        assert actions() == ["publish"]  # no result may change now: none is offered


def test_a_decks_registration_is_told_in_the_cores_words_with_the_deck(four, manual_clock):  # noqa: F811
    """The deck page wrote "Registered. The desk has your deck." (or "with problems") itself, from the answer's
    legality; the deck's state carries the core's words (``registered_words``), none before registering."""
    db, event_id, codes = four
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        ok(ann.post("/api/deck", json={"action": "pipers", "colors": ["U"]}))
        assert ok(ann.get("/api/deck"))["registered_words"] is None
        done = ok(ann.post("/api/deck/register", json={}))
        words = registered_words(True, done["legal"])
        assert done["deck"]["registered_words"] == words == ok(ann.get("/api/deck"))["registered_words"]
        assert words == "Registered, with problems the desk will see."  # a lone Piper is no 60-card deck


def test_pairing_without_decks_is_one_refusal_each_face_telling_its_own_way_to_pair_anyway(tmp_path, manual_clock, cli):
    """The core's words name no terminal option (the desk page's way is its "Pair anyway" button); the terminal's
    ``event round`` adds its ``--force`` to the same words."""
    db = tmp_path / "night.json"
    event_id = terminal_night(cli, db, "Ann", "Bo", "Cy", "Di")
    start(cli, db, event_id)
    draft_to_the_end(db, event_id)
    words = "no legal deck registered for 'Ann', 'Bo', 'Cy' and 1 more; register them first, or pair the round anyway"
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as web:
        refused = web.post("/api/desk/round", json={}, headers={"authorization": "Bearer desk-secret"})
    assert refused.status_code == 409 and refused.json()["error"] == {"code": "decks-missing", "message": words}
    said = cli("event", "round", event_id, "--db", db)
    assert said.exit_code == 3 and said.stderr.strip() == f"cmdraft: error: {words} with --force"


def test_a_result_recorded_already_is_refused_in_the_cores_words_each_face_naming_its_own_way_to_correct_it(
    four,  # noqa: F811
    manual_clock,
    cli,
):
    """The core said "use --replace to correct it", the terminal's option, on the desk's page too (where "Correct"
    does it): the core's words name no face's option, and the terminal adds its own."""
    db, event_id, _ = four
    desk = {"authorization": "Bearer desk-secret"}
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    assert cli("event", "result", event_id, 1, 1, "Ann > Bo > Cy > Di", "--db", db).exit_code == 0
    words = "round 1 is finished: a result changes now only as a correction"  # its one table has its result
    with TestClient(app_of(db, event_id, manual_clock), headers=ORIGIN) as web:
        body = {"round": 1, "table": 1, "order": "Di > Cy > Bo > Ann"}  # "Record this version", a moment too late
        refused = web.post("/api/desk/settle", json=body, headers=desk)
    assert refused.status_code == 409 and refused.json()["error"]["message"] == words  # no '--replace' on the page
    said = cli("event", "result", event_id, 1, 1, "Di > Cy > Bo > Ann", "--db", db)
    assert said.exit_code == 3 and f"{words} with --replace" in " ".join(said.stderr.split())


def test_a_report_with_nobody_placed_is_refused_in_the_cores_words_naming_every_player(four, manual_clock, cli):  # noqa: F811
    """Before: Confirm tapped before any player was placed sent an empty order, refused by the web's JSON check in
    its own words ("order must be a list of places, each a list of player ids: [[4], [2, 7]]"), where an order
    missing one player was refused in the core's ("… missing 'Di'")."""
    db, event_id, codes = four
    assert cli("event", "round", event_id, "--db", db).exit_code == 0
    app = app_of(db, event_id, manual_clock)
    with TestClient(app, headers=ORIGIN):
        ann = phone(app, event_id, "Ann", codes["Ann"])
        seats = [p["name"] for p in ok(ann.get("/api/table"))["round"]["players"]]  # the table, in seat order
        assert sorted(seats) == ["Ann", "Bo", "Cy", "Di"]
        refused = ann.post("/api/result", json={"order": []})
        assert refused.status_code == 400
        assert refused.json()["error"]["message"] == (
            "the result must name every player at the table once; missing " + ", ".join(f"'{n}'" for n in seats)
        )
        assert ok(ann.get("/api/table"))["round"]["report"] is None
