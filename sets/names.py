"""A name a person gives (a player's, an event's, a practice seat's): what one is, how it is kept, when two are
the same name and in what order names are listed.  The one rule: registration, look-ups, sheets, exports and every face ask here.

- A name is kept as typed, in Unicode's composed form (NFC: ``e`` and an accent typed apart are kept as ``é``), its
  spaces (any Unicode space, the ideographic one too) made single plain spaces and trimmed, and at most so many
  characters; it must show something: a letter, digit, punctuation mark or symbol that takes a place on the screen
  (a name only of spaces, zero-width, bidi or other format characters, or Hangul fillers is refused).
- Two names are the same name when they match after Unicode compatibility normalisation (NFKC: full-width
  ``Ａｎｎ`` is ``Ann``), case folding and with the characters that take no place left out (zero-width and bidi
  controls, variation selectors, Hangul fillers): ``name_key``.
- Names are listed by their letters first, accents and case aside (``Émile`` beside ``Emma``, ``Ünal`` among the
  U's), then by their key, then as typed: ``name_order``, the same order on every sheet.
"""

from __future__ import annotations

import unicodedata

from sets.errors import InputError
from sets.visible import escape_character, quoted

# Letters by their category that take no place on the screen: the Hangul fillers, and the braille blank.
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Characters that change no letter a person reads: the combining grapheme joiner, Mongolian free variation
# selectors and the variation selectors (format characters, category Cf, are left out of a key as well).
IGNORED = frozenset("\u034f\u180b\u180c\u180d\u180f") | frozenset(map(chr, range(0xFE00, 0xFE10)))


def shows_something(text: str) -> bool:
    """Whether ``text`` holds a character a person sees: a letter, digit, punctuation mark or symbol, not blank."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in BLANK_LETTERS for ch in text)


def written_out(text: str) -> str:
    """``text`` with every character that shows nothing written out (``\\u3164``), plain spaces kept: a refused
    name as the message can show it."""
    return "".join(ch if ch == " " or shows_something(ch) else escape_character(ch) for ch in text)


def refuse_blank(name: str, what: str) -> None:
    """Bad input when ``name`` shows nothing (``what``: ``player name``, ``a seat's name``), its characters written
    out."""
    if not shows_something(name):
        raise InputError(
            f"{what} {quoted(written_out(name))} shows nothing (only spaces, invisible or format characters): "
            "give a name with a letter, digit or sign in it"
        )


def _regional(ch: str) -> bool:
    return "\U0001f1e6" <= ch <= "\U0001f1ff"


def _joined(text: str, at: int) -> bool:
    """Whether ``text[at]`` belongs to the character shown before it: a mark, a joiner, a variation selector or an
    emoji's skin tone, anything after a joiner, or the second half of a flag."""
    ch, before = text[at], text[at - 1]
    if unicodedata.category(ch)[0] == "M" or ch in "\u200d" or ch in IGNORED or before == "\u200d":
        return True
    if "\U0001f3fb" <= ch <= "\U0001f3ff" or "\U000e0020" <= ch <= "\U000e007f":  # skin tones, a flag's tags
        return True
    if _regional(ch) and _regional(before):
        run = 0
        while at - run - 1 >= 0 and _regional(text[at - run - 1]):
            run += 1
        return run % 2 == 1  # an odd run before it: it ends a pair
    return False


def head(text: str, size: int) -> str:
    """The first ``size`` characters of ``text`` or fewer, never cutting what shows as one character in two (a letter
    and its accent, an emoji joined with others, a flag)."""
    end = min(size, len(text))
    while 0 < end < len(text) and _joined(text, end):
        end -= 1
    return text[:end] if end else text[:size]


def clean_name(name: str, what: str, limit: int) -> str:
    """``name`` as it is kept (spaces made single plain spaces, trimmed), or bad input saying why it can't be one:
    empty, showing nothing, or more than ``limit`` characters.  ``what``: ``player``, ``event``."""
    clean = unicodedata.normalize("NFC", " ".join(name.split()))
    if not clean:
        spaces = " (only spaces were given)" if name else ""
        raise InputError(f"{'an' if what[0] in 'aeiou' else 'a'} {what} needs a name{spaces}")
    refuse_blank(clean, f"{what} name")
    if len(clean) > limit:
        raise InputError(
            f"{what} name {quoted(head(clean, 24) + '…')} is {len(clean):,} characters; keep it to {limit}"
        )
    return clean


def name_key(name: str) -> str:
    """What makes two names the same name: Unicode compatibility forms (NFKC), case folding, the characters that
    take no place left out, and spaces trimmed and collapsed (``Ａｎｎ``, ``ann``, ``Ann\\u200b`` and `` Ann `` are
    Ann; ``José`` composed or decomposed is one name)."""
    # Left out before the forms are normalised, so that an accent typed after one composes with its letter (no
    # character kept normalises or folds into one left out).
    kept = "".join(
        ch for ch in name if unicodedata.category(ch) != "Cf" and ch not in IGNORED and ch not in BLANK_LETTERS
    )
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", kept).casefold())
    return " ".join(folded.split())


def name_order(name: str) -> tuple[str, str, str, str]:
    """Where ``name`` is listed among others: by its letters and digits, accents, case and punctuation aside (as a
    phone book lists "O'Neil" among the O's), then with its punctuation, then its key, then as typed (so the order
    is the same every time, whatever form a name was typed in)."""
    key = name_key(name)
    letters = "".join(ch for ch in unicodedata.normalize("NFKD", key) if not unicodedata.combining(ch))
    return "".join(ch for ch in letters if ch.isalnum()), letters, key, name
