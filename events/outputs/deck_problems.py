"""A deck's problems in the order a judge reads them, on every face (check, registration, board, sheet).

One bad line can bring a wall of problems: a misspelled commander is an unknown card, so the deck has
no commander, so every colored card is outside its (colorless) identity.  The checker reports each
(``draft.decks.validate``; stored as they are); shown, they come in the order of cause and effect:

1. the file's own problems (unreadable lines, unknown cards, unclear commander lines), which are often
   the cause of the rest; past the first ``SHOWN_FILE_LINES`` bad lines, one line says how many more;
2. then every other problem, the root causes first (the commanders, then size, copies, pool and Pipers);
3. then the colour identity, the cards outside it folded into one line ("11 cards outside the commanders' color
   identity W (CR 903.5c): A / B / …: take them out ..."), the rule and what to do said as each card's line says them;
   so are two or more cards not in the pool ("4 cards not in your pool: A / B / …: a Commander draft deck …").

The words of each problem are the checker's; only the order and the folding are decided here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import msgspec

from draft.deck_rules import Problem
from events.outputs.text import join_names
from events.storage.records import Problem as StoredProblem

FILE_PROBLEMS = ("unreadable-line", "unknown-card", "meld-result", "unclear-commander")
LINE_PROBLEMS = ("unreadable-line", "unknown-card", "meld-result")  # one a line of the file
SHOWN_FILE_LINES = 10  # a file of thousands of unknown lines is not a wall of thousands of rows
COMMANDER_PROBLEMS = ("no-commander", "too-many-commanders", "not-a-commander", "illegal-pair")
OUTSIDE = "outside-identity"
IDENTITY_PROBLEMS = (OUTSIDE, "basic-type-outside-identity")
NOT_IN_POOL = "not-in-pool"
# The rule a not-in-pool problem gives after its card (the checker's words: ``deck_rules``), said once when folded.
_POOL_RULE = re.compile(r" but not in your pool: (?P<rule>.*): take it out$")
# The identity a stored outside-identity problem names (the checker's words: ``deck_rules``), for a face that has
# only the stored problems (the board, the decklist sheet).
_NAMED_IDENTITY = re.compile(r" is outside the commanders' color identity (?P<identity>\S+) \(CR 903\.5c\)")


def _problem(item: Problem | Mapping[str, Any]) -> Problem:
    """A problem as reported (``Problem``) or as stored (its JSON form, read as the record's ``Problem``)."""
    if isinstance(item, Mapping):
        stored = msgspec.convert(item, StoredProblem)
        return Problem(stored.code, stored.message, tuple(stored.cards))
    return item


def identity_words(identity: Any) -> str:
    """A colour identity as its letters (``WU``), or ``colorless``; accepts a ``ColorIdentity`` or its letters."""
    letters = identity.letters if hasattr(identity, "letters") else identity
    text = "".join(letters) if not isinstance(letters, str) else letters
    return "colorless" if text in ("", "C") else text


def judge_order(problems: Iterable[Problem | Mapping[str, Any]], identity: Any = None) -> list[Problem]:
    """The problems to show, in order (see the module's text); two or more cards outside the identity are one
    problem naming them all.  ``identity``: the commanders' colour identity, when known, for the folded line."""
    items = [_problem(p) for p in problems]

    def rank(problem: Problem) -> int:
        if problem.code in FILE_PROBLEMS:
            return 0
        if problem.code in COMMANDER_PROBLEMS:
            return 1
        if problem.code in IDENTITY_PROBLEMS:
            return 3
        return 2

    ordered = _not_in_pool_folded(_bad_lines_folded(sorted(items, key=rank)))  # a stable sort: the checker's order
    outside = [p for p in ordered if p.code == OUTSIDE]
    if len(outside) < 2:
        return ordered
    names = tuple(dict.fromkeys(name for p in outside for name in p.cards))
    if identity is None:  # stored problems: the identity their own words name, when they agree on one
        named = {found.group("identity") for p in outside if (found := _NAMED_IDENTITY.search(p.message))}
        identity = named.pop() if len(named) == 1 else None
    where = "the commanders' color identity" + (f" {identity_words(identity)}" if identity is not None else "")
    folded = Problem(
        OUTSIDE,
        f"{len(names)} cards outside {where} (CR 903.5c): {join_names(names)}: take them out of the main deck, or lead "
        "with commanders whose identity holds them",
        names,
    )
    first = ordered.index(outside[0])
    rest = [p for p in ordered if p.code != OUTSIDE]
    return [*rest[:first], folded, *rest[first:]]


def _not_in_pool_folded(ordered: list[Problem]) -> list[Problem]:
    """Two or more cards not in the pool (another player's deck file, say) as one problem naming them all, the rule
    said once in the checker's words ("N cards not in your pool: A / B: a Commander draft deck holds only …")."""
    missing = [p for p in ordered if p.code == NOT_IN_POOL]
    if len(missing) < 2:
        return ordered
    names = tuple(dict.fromkeys(name for p in missing for name in p.cards))
    found = _POOL_RULE.search(missing[0].message)
    rule = found.group("rule") if found else "a Commander draft deck holds only cards from its pool"
    folded = Problem(
        NOT_IN_POOL, f"{len(names)} cards not in your pool: {join_names(names)}: {rule}: take them out", names
    )
    first = ordered.index(missing[0])
    rest = [p for p in ordered if p.code != NOT_IN_POOL]
    return [*rest[:first], folded, *rest[first:]]


def _bad_lines_folded(ordered: list[Problem]) -> list[Problem]:
    """The first ``SHOWN_FILE_LINES`` bad lines of the file, then one problem saying how many more (of their code
    when they share one)."""
    bad = [p for p in ordered if p.code in LINE_PROBLEMS]
    if len(bad) <= SHOWN_FILE_LINES + 1:  # one more line said in a line of its own saves nothing
        return ordered
    rest = bad[SHOWN_FILE_LINES:]
    codes = {p.code for p in rest}
    code = codes.pop() if len(codes) == 1 else "unreadable-line"
    folded = Problem(code, f"and {len(rest):,} more lines of the file that can't be read")
    first = ordered.index(rest[0])
    return [*ordered[:first], folded, *(p for p in ordered[first:] if p.code not in LINE_PROBLEMS)]


def problem_lines(problems: Sequence[Problem | Mapping[str, Any]], identity: Any = None) -> list[str]:
    """The messages of ``judge_order``, one a line."""
    return [p.message for p in judge_order(problems, identity)]
