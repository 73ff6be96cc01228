"""How text a person or a file supplied is shown: control characters written out.

Kept apart from the screens and sheets that use it, with nothing but ``re`` beneath it, so that the
command line's root can write an error line without loading storage or rich (``cmdraft --help`` stays light).
"""

from __future__ import annotations

import re

# Control characters, and the bidirectional controls (RLO, LRI, the marks…) that reorder what follows them.
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """``text`` with control characters written out (``\\x1b``, ``\\u202e``), so no name can move the cursor,
    colour the screen or turn the text after it around."""
    return _CONTROL.sub(
        lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) < 0x100 else f"\\u{ord(m.group()):04x}", text
    )
