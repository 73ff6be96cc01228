"""Every answer type declared in ``events.web``, or in the core as the value the web sends as it is
(``events.night.shown``, ``table_shown``, ``table_reports``), is what some route sends, at some depth of its answer
(or the one error shape; a type the web extends counts as sent with it): no type stays declared, and listed on the
API page, once nothing answers it."""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from types import ModuleType

from msgspec import Struct
from msgspec import inspect as types

from events.night import shown, table_reports, table_shown
from events.night.shown import Answer
from events.web import answers, desk_answers
from events.web.answers import Failure
from events.web.app import ENDPOINTS
from events.web.endpoints import Endpoint


def declared(modules: Iterable[ModuleType]) -> set[type[Struct]]:
    """The answer types the modules declare."""
    return {
        kind
        for module in modules
        for _, kind in inspect.getmembers(module, inspect.isclass)
        if issubclass(kind, Answer) and kind is not Answer and kind.__module__ == module.__name__
    }


def reached(endpoints: Iterable[Endpoint]) -> set[type[Struct]]:
    """Every struct type the routes' answers hold, at any depth (and the one error shape every route may send)."""
    roots = [kind for endpoint in endpoints for kind in endpoint.returns] + [Failure]
    found: set[type[Struct]] = set()
    pending: list[types.Type] = list(types.multi_type_info(roots))
    while pending:
        kind = pending.pop()
        if isinstance(kind, types.StructType):
            if kind.cls in found:
                continue
            found.update(base for base in kind.cls.__mro__ if issubclass(base, Answer) and base is not Answer)
            pending.extend(field.type for field in kind.fields)
        elif isinstance(kind, (types.ListType, types.DictType)):
            pending.extend([kind.item_type] if isinstance(kind, types.ListType) else [kind.key_type, kind.value_type])
        elif isinstance(kind, types.UnionType):
            pending.extend(kind.types)
        elif isinstance(kind, types.Metadata):
            pending.append(kind.type)
    return found


MODULES = [answers, desk_answers, shown, table_shown, table_reports]


def test_every_answer_type_is_what_some_route_sends():
    assert declared(MODULES) - reached(ENDPOINTS) == set()


def test_a_type_no_route_answers_any_more_is_seen():
    without = [e for e in ENDPOINTS if (e.method, e.path) != ("POST", "/api/desk/undo")]  # (its GET: what's next)
    assert declared(MODULES) - reached(without) == {desk_answers.Undone}
    without_extra_time = [e for e in ENDPOINTS if e.path != "/api/desk/extra-time"]
    assert declared(MODULES) - reached(without_extra_time) == {table_reports.ExtraTime}
