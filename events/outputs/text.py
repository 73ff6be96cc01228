"""User and file text as every face writes it out: one escaping policy, one display width, one column fitting.

A name, a card or a path is data wherever it is shown (the terminal, the full-screen app, printed
sheets, a web page): ``visible`` writes out the characters that could move the cursor, colour the
screen, turn the text around or hide in it; ``cell_width`` is the columns a text takes on a
fixed-width screen or printout (``wcwidth``); ``fit_columns`` shares a width out among columns.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Sequence

from wcwidth import wcswidth, wcwidth

# Control (Cc) and format (Cf: bidi controls, zero-width joiners, soft hyphens) characters and the
# Unicode line and paragraph separators: never written as they are.
ESCAPED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})


def escape_character(ch: str) -> str:
    """One character written out: ``\\x1b``, ``\\u202e``, ``\\U000e0001``."""
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def visible(text: str, *, line_breaks: bool = False) -> str:
    """``text`` with every control, format and separator character written out as an escape, so no name
    can move the cursor, colour the screen, turn the text after it around or hide a letter; letters of
    any script stay as typed.  A line feed is written out too (a name, a table cell, a line of a printout:
    a break would split it) unless ``line_breaks`` keeps it (a card's rules text on the screen)."""
    if text.isprintable():  # the common case: nothing to write out
        return text
    return "".join(
        escape_character(ch)
        if unicodedata.category(ch) in ESCAPED_CATEGORIES and not (line_breaks and ch == "\n")
        else ch
        for ch in text
    )


def cell_width(text: str) -> int:
    """The columns ``text`` takes on a terminal or a fixed-width printout (wide East Asian characters and
    emoji take two, combining marks none), measured on its visible form."""
    shown = visible(text)
    width = wcswidth(shown)
    if width >= 0:
        return width
    return sum(max(0, wcwidth(ch)) for ch in shown)  # a character wcwidth can't place counts as none


def cut(text: str, width: int) -> tuple[str, str]:
    """The longest head of ``text`` that fits ``width`` columns (at least one character), and the rest."""
    used = 0
    for index, ch in enumerate(text):
        used += max(0, wcwidth(ch))
        if used > width:
            return text[: max(index, 1)], text[max(index, 1) :]
    return text, ""


def join_names(names: Iterable[str]) -> str:
    """Names in one line that stays readable when a name holds a comma ("Ann, the Great / Bo")."""
    return " / ".join(names)


def fit_columns(natural: Sequence[int], least: Sequence[int], room: int) -> list[int]:
    """Column widths that share ``room`` cells: each column gets at most its ``natural`` width and at least
    its ``least``; when the room is short, the widest columns give way first, a cell at a time (so widths
    level down together, and of columns equally wide the later keeps the odd cell).  When even the least
    widths don't fit, every column has its least (the caller decides what goes)."""
    widths = [max(n, m) for n, m in zip(natural, least, strict=True)]
    while sum(widths) > room:
        shrinkable = [i for i, w in enumerate(widths) if w > least[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths
