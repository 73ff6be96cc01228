"""The one parser for every whole number a person types.

Only ASCII digits count (``²``, ``٣`` or ``3_000`` are not numbers here, whatever
Python's ``int`` accepts), with at most one leading sign where a sign is allowed,
and at most 18 digits.  Errors are ``InputError`` naming the input and the form.
"""

from __future__ import annotations

import re

from sets.errors import InputError
from sets.visible import quoted

MAX_DIGITS = 18
_SIGNED = re.compile(r"[+-]?[0-9]+", re.ASCII)
_UNSIGNED = re.compile(r"[0-9]+", re.ASCII)


def is_number(text: str, signed: bool = False, digits: int = MAX_DIGITS) -> bool:
    """Whether ``text`` (surrounding spaces aside) is a whole number in the strict form, of at most ``digits``."""
    body = text.strip(" \t")
    return bool((_SIGNED if signed else _UNSIGNED).fullmatch(body)) and len(body.lstrip("+-")) <= digits


def parse_int(text: str, what: str, *, signed: bool = False, low: int | None = None, high: int | None = None) -> int:
    """``text`` as an int: ASCII digits, a sign only when ``signed``; ``what`` names the input in errors."""
    if not isinstance(text, str):
        text = str(text)
    if not is_number(text, signed):
        form = "a whole number like 5 or -5" if signed else "a whole number like 5 (digits 0-9, no sign)"
        raise InputError(f"bad {what} {quoted(text)}: give {form}")
    value = int(text.strip(" \t"))
    if low is not None and value < low:
        raise InputError(f"{what} must be at least {low}, not {value}")
    if high is not None and value > high:
        raise InputError(f"{what} must be at most {high}, not {value}")
    return value


_DECIMAL = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?", re.ASCII)
MAX_PLACES = 6


def is_decimal(text: str, signed: bool = False) -> bool:
    """Whether ``text`` is a decimal number in the strict form: ASCII digits, at most one point with
    1-6 digits after it, a sign only when ``signed`` (no ``nan``, ``inf``, ``1e3``, ``1_0``, ``٣`` or ``５０``)."""
    body = text.strip(" \t")
    if not _DECIMAL.fullmatch(body) or (body[0] in "+-" and not signed):
        return False
    whole, _, fraction = body.lstrip("+-").partition(".")
    return len(whole) <= MAX_DIGITS and len(fraction) <= MAX_PLACES


def parse_decimal(
    text: str, what: str, *, signed: bool = False, low: float | None = None, high: float | None = None
) -> float:
    """``text`` as a float through the same strict rule as ``parse_int`` (always finite)."""
    if not isinstance(text, str):
        text = str(text)
    if not is_decimal(text, signed):
        form = (
            "a number like 2.5 or -2.5" if signed else "a number like 50 or 2.5 (digits 0-9, a point, up to 6 decimals)"
        )
        span = f" from {low:g} to {high:g}" if low is not None and high is not None else ""
        raise InputError(f"bad {what} {quoted(text)}: give {form}{span}")
    value = float(text.strip(" \t"))
    if (low is not None and value < low) or (high is not None and value > high):
        span = (
            f"from {low:g} to {high:g}"
            if low is not None and high is not None
            else (f"at least {low:g}" if low is not None else f"at most {high:g}")
        )
        raise InputError(f"{what} must be {span}, not {text.strip()}")
    return value
