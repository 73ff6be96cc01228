"""User and file text laid out by every face: one display width, one column fitting.

``cell_width`` is the columns a text takes on a fixed-width screen or printout (``wcwidth``), measured
on its visible form (``sets.visible``, the one escaping policy); ``fit_columns`` shares a
width out among columns, for the terminal's tables and the printed ones alike.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable, Sequence

from sets.visible import visible


def cell_width(text: str) -> int:
    """The columns ``text`` takes on a terminal or a fixed-width printout (wide East Asian characters and
    emoji take two, combining marks none), measured on its visible form."""
    # here: importing wcwidth (31 modules) would cost every command, not only those measuring text
    from wcwidth import wcswidth, wcwidth

    shown = visible(text)
    width = wcswidth(shown)
    if width >= 0:
        return width
    return sum(max(0, wcwidth(ch)) for ch in shown)  # a character wcwidth can't place counts as none


def cut(text: str, width: int) -> tuple[str, str]:
    """The longest head of ``text`` that fits ``width`` columns (at least one character), and the rest."""
    from wcwidth import wcwidth  # (see ``cell_width``)

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


def wrapped(words: str, width: int, first: str, then: str) -> list[str]:
    """``words`` wrapped at ``width`` after ``first`` on the first line and ``then`` on the others, never breaking an
    example typed in quotes ('lands U 9') where it fits, nor a word at its hyphen."""
    room = width - max(len(first), len(then))
    kept = re.sub(
        r"(?<!\w)'[^']*'(?!\w)", lambda quote: quote[0].replace(" ", "\0") if len(quote[0]) <= room else quote[0], words
    )
    return [
        line.replace("\0", " ")
        for line in textwrap.wrap(kept, width, initial_indent=first, subsequent_indent=then, break_on_hyphens=False)
    ]


def hanging(text: str, width: int) -> str:
    """A help written in lines whose continuations are indented two spaces, wrapped again at ``width`` columns
    (at least 30) with the same hanging indent: each paragraph's first line at the left, the rest under it."""
    width = max(width, 30)
    if all(len(line) <= width for line in text.splitlines()):
        return text
    paragraphs: list[str] = []
    for line in text.splitlines():
        if line.startswith("  ") and paragraphs:
            paragraphs[-1] += " " + line.strip()
        else:
            paragraphs.append(line)
    return "\n".join(row for paragraph in paragraphs for row in wrapped(paragraph, width, "", "  ") or [""])
