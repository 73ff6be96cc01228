"""The one parser for every whole number a person types.

Only ASCII digits count (``²``, ``٣`` or ``3_000`` are not numbers here, whatever
Python's ``int`` accepts), with at most one leading sign where a sign is allowed,
and at most 18 digits.  Errors are ``InputError`` naming the input and the form.
"""

from __future__ import annotations

import re

from sets.errors import InputError

MAX_DIGITS = 18
_SIGNED = re.compile(r"[+-]?[0-9]+", re.ASCII)
_UNSIGNED = re.compile(r"[0-9]+", re.ASCII)


def is_number(text: str, signed: bool = False) -> bool:
    """Whether ``text`` (surrounding spaces aside) is a whole number in the strict form."""
    body = text.strip(" \t")
    return bool((_SIGNED if signed else _UNSIGNED).fullmatch(body)) and len(body.lstrip("+-")) <= MAX_DIGITS


def parse_int(text: str, what: str, *, signed: bool = False, low: int | None = None, high: int | None = None) -> int:
    """``text`` as an int: ASCII digits, a sign only when ``signed``; ``what`` names the input in errors."""
    if not isinstance(text, str):
        text = str(text)
    if not is_number(text, signed):
        form = "a whole number like 5 or -5" if signed else "a whole number like 5 (digits 0-9, no sign)"
        raise InputError(f"bad {what} {text!r}: give {form}")
    value = int(text.strip(" \t"))
    if low is not None and value < low:
        raise InputError(f"{what} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise InputError(f"{what} must be at most {high}, not {value}")
    return value
