"""A finishing order as the desk types it: ``Ann > Bo = Cy``, places split by ``>``, draws joined by ``=``,
names that hold either in quotes; and the one message for a name typed without the quotes it needs."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from sets.errors import InputError
from sets.visible import quoted, visible

Found = TypeVar("Found")

SEPARATORS = ">="


def split_order(text: str) -> list[list[str]]:
    """A finishing order as groups of names: ``>`` separates places, ``=`` joins a draw.

    A name in double or single quotes may hold ``>``, ``=``, commas and the other quote (a quote
    opens only where a name starts, so ``O'Brien`` needs none); a backslash inside quotes takes
    the next character literally (``"Al \\"Ace\\" Bo"``).
    """
    usage = "write the finishing order like 'Ann > Bo = Cy > Di' (quote a name that holds > or =)"
    groups: list[list[str]] = [[]]
    name: list[str] = []
    in_quotes = False  # the current name had a quoted part (so an empty "" is still a name given)
    index = 0

    def close() -> None:
        nonlocal name, in_quotes
        value = " ".join("".join(name).split())
        if not value and not in_quotes:
            raise InputError(f"bad result {quoted(text)}: a place has no name; {usage}")
        groups[-1].append(value)
        name, in_quotes = [], False

    while index < len(text):
        ch = text[index]
        if (
            ch in "\"'" and not in_quotes and not "".join(name).strip()
        ):  # a quote opens only where a name starts (O'Brien)
            end = index + 1
            part = []
            while end < len(text) and text[end] != ch:
                if text[end] == "\\" and end + 1 < len(text):
                    end += 1
                part.append(text[end])
                end += 1
            if end >= len(text):
                raise InputError(f"bad result {quoted(text)}: a quote {ch} is not closed; {usage}")
            name.extend(part)
            in_quotes = True
            index = end + 1
            continue
        if ch in ">=":
            close()
            if ch == ">":
                groups.append([])
        else:
            name.append(ch)
        index += 1
    close()
    return groups


def order_quote(name: str) -> str:
    """``name`` as a finishing order holds it whole: in double quotes, a backslash before a quote or backslash."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def names_in_order(text: str, names: Iterable[str], find: Callable[[str], Found]) -> list[list[Found]]:
    """The places of a typed order, each name looked up with ``find``; where the text doesn't read (a place
    with no name, a name no one has) because a player's name holding ``>`` or ``=`` was typed without quotes,
    the error names that player and gives the order with the quotes, ready to type again."""
    try:
        return [[find(name) for name in place] for place in split_order(text)]
    except InputError as error:
        held = sorted((n for n in names if any(ch in n for ch in SEPARATORS)), key=len, reverse=True)
        bare = [name for name in held if _quote_bare(text, name) != text]
        tries = [[name] for name in bare] + ([bare] if len(bare) > 1 else [])  # each alone, then all of them
        for quoting in tries:
            fixed = text
            for name in quoting:
                fixed = _quote_bare(fixed, name)
            try:
                [[find(each) for each in place] for place in split_order(fixed)]
            except InputError:
                continue
            said = " and ".join(f"{quoted(name)} has {next(ch for ch in SEPARATORS if ch in name)}" for name in quoting)
            raise InputError(
                f"bad result {quoted(text)}: the player{'s' if len(quoting) > 1 else ''} {said} in their name, "
                f"which splits places and draws; quote the name{'s' if len(quoting) > 1 else ''}: {visible(fixed)}"
            ) from None
        raise error


def _quote_bare(text: str, name: str) -> str:
    """``text`` with every bare ``name`` in it (not already inside quotes) quoted as ``order_quote`` does."""
    pieces = text.split(name)
    out = pieces[0]
    for piece in pieces[1:]:
        inside = out.rstrip().endswith(('"', "'")) and piece.lstrip().startswith(('"', "'"))
        out += (name if inside else order_quote(name)) + piece
    return out
