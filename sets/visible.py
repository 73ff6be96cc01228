"""How text a person or a file supplied is shown, on every face (the terminal, the full-screen app, printed
sheets, error lines, a web page): one policy (``visible``), and one way to quote such text inside a message
(``quoted``), for every layer's messages from the card model up.

Kept apart from the screens and sheets that use it, with nothing but ``unicodedata`` beneath it, so that the
command line's root can write an error line without loading storage or rich (``cmdraft --help`` stays light).
"""

from __future__ import annotations

import unicodedata

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


# The quotes a message puts around user text, in order of preference: the first pair whose marks the text doesn't
# hold, so where the text ends is plain and nothing inside it needs a backslash.
QUOTES = (("'", "'"), ('"', '"'), ("\u201c", "\u201d"), ("\u2018", "\u2019"), ("\u00ab", "\u00bb"))


def quoted(text: object) -> str:
    """``text`` (a name, a card, a path, an option's value) in quotes inside a message, as typed and visible:
    ``'Ann'``, ``"O'Neil"``, ``\u201cBob "The Piper" O'Neil\u201d`` (the first of ``QUOTES`` the text doesn't
    hold; a text that holds them all has its own single quotes written out, ``\\'``).  Control and format
    characters are written out as ``visible`` writes them."""
    shown = visible(str(text))
    for opening, closing in QUOTES:
        if opening not in shown and closing not in shown:
            return f"{opening}{shown}{closing}"
    return "'" + shown.replace("'", "\\'") + "'"


def sentence(words: str) -> str:
    """Words said as a sentence of their own (a refusal or a status shown on a line apart): a capital first letter
    and a full stop."""
    return words[:1].upper() + words[1:] + "."
