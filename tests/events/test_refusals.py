"""The night's refusals (``events.night.refusals``): one type per rule, each with its own web code, HTTP status and
exit code, and the same words on every face that maps it."""

from __future__ import annotations

import msgspec
import pytest

from events.night.refusals import (
    EXIT_ROLE,
    REFUSALS,
    Actor,
    LimitExceeded,
    NotAllowed,
    NotYourSeat,
    Refusal,
    Role,
    answer,
)
from events.web.api_common import core_error
from sets.errors import LimitError, StateError


def test_each_rule_has_a_code_of_its_own_and_a_status_and_exit_code_a_face_can_map() -> None:
    codes = [kind.code for kind in REFUSALS]
    assert len(set(codes)) == len(codes) == 12
    for kind in REFUSALS:
        assert 400 <= kind.status < 500 and kind.exit_code in (2, 3, EXIT_ROLE)
        # each is the step out of order (or the limit error) the faces already catch
        assert issubclass(kind, StateError) != (kind is LimitExceeded)
    assert {kind.exit_code for kind in REFUSALS} == {2, 3, EXIT_ROLE}


@pytest.mark.parametrize("kind", [k for k in REFUSALS if k is not LimitExceeded])
def test_the_web_answers_a_refusal_with_its_status_code_and_the_same_words(kind: type[Refusal]) -> None:
    refusal = kind("that pack has moved on: here is your seat now", seat={"phase": "drafting"})
    answer = core_error(refusal)
    assert answer.status == kind.status and answer.code == kind.code
    about = {} if kind.about is None else {"field": kind.about}  # a join's refusal names its field (NoSeat, WrongCode)
    assert msgspec.to_builtins(answer.body()) == {
        "error": {"code": kind.code, "message": "that pack has moved on: here is your seat now", **about},
        "seat": {"phase": "drafting"},
    }


def test_a_limit_is_a_limit_error_with_its_words_and_waiting_makes_it_a_429() -> None:
    life = LimitExceeded("life", "a life change for Ann", -999, 999, -1500)
    assert isinstance(life, LimitError) and str(life) == "a life change for Ann must be from -999 to 999, not -1,500"
    assert core_error(life).status == 400 and core_error(life).message == str(life)
    plain = LimitError("life", "a life change for Ann", -999, 999, -1500)  # as the core has always raised it
    assert answer(plain) == answer(life) and core_error(plain).code == "limit"
    assert life.for_option("--life") == "--life must be from -999 to 999, not -1,500 (a life change for Ann)"
    slow = LimitExceeded("codes", "wrong codes", 0, 5, 6, message="too many wrong codes: wait 30 s", retry_after=30)
    said = answer(slow)
    assert said is not None and said.status == 429 and said.message == str(slow) == "too many wrong codes: wait 30 s"
    assert core_error(slow).body().retry_after == 30 and answer(StateError("x")) is None


def test_only_the_desk_passes_a_desk_check_and_a_seat_acts_only_for_itself() -> None:
    Actor.desk().require_desk("start the draft")
    for actor in (Actor.seat(3, "browser", "Ann"), Actor.public()):
        with pytest.raises(NotAllowed, match="only the desk can start the draft"):
            actor.require_desk("start the draft")
    Actor.seat(3).require_player(3, "report")
    Actor.desk().require_player(3, "report")
    with pytest.raises(NotYourSeat):
        Actor.seat(4).require_player(3, "report")
    with pytest.raises(NotYourSeat):
        Actor.public().require_player(3, "report")
    assert Actor.seat(3, "browser", "Ann").who == "browser Ann" and Actor.desk().who == "desk"
    assert Actor.public().role is Role.PUBLIC
