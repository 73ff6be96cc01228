"""Colors and color identities."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum, unique
from functools import cached_property

from sets.errors import ColorError
from sets.visible import quoted


@unique
class Color(StrEnum):
    """One of the five colors, in WUBRG order."""

    W = "W"
    U = "U"
    B = "B"
    R = "R"
    G = "G"

    @property
    def word(self) -> str:
        return _WORDS[self]

    @cached_property
    def bit(self) -> int:
        # Kept on the member once asked: later reads find it in the member's own attributes, with no property call
        # and no dict lookup (the deck builder reads it at every color of every commander option).
        return _BITS[self]

    @classmethod
    def parse(cls, text: str) -> Color:
        """Read a color from a letter or a word: ``U``, ``u``, ``blue``."""
        key = text.strip().lower()
        for color in cls:
            if key in (color.value.lower(), color.word):
                return color
        raise ColorError(
            f"unknown color {quoted(text)}: use a letter W, U, B, R, G or a word white, blue, black, red, green"
        )


_WORDS = {Color.W: "white", Color.U: "blue", Color.B: "black", Color.R: "red", Color.G: "green"}
_BITS = {color: 1 << index for index, color in enumerate(Color)}
_ORDER = tuple(Color)
_COLORS_OF = tuple(tuple(color for color in _ORDER if mask & _BITS[color]) for mask in range(32))  # by mask, WUBRG


@dataclass(frozen=True, slots=True)
class ColorIdentity:
    """A set of colors; ``a <= b`` means ``a`` fits inside ``b``.

    Held as a five-bit mask so that the deck checker's subset tests are cheap.
    Text form is WUBRG-ordered letters (``WUG``); colorless is ``C``.
    """

    mask: int = 0

    @classmethod
    def of(cls, colors: Iterable[Color | str]) -> ColorIdentity:
        mask = 0
        for color in colors:
            mask |= (color if isinstance(color, Color) else Color.parse(color)).bit
        return _CACHE[mask]

    @classmethod
    def parse(cls, text: str) -> ColorIdentity:
        """Read ``WUG``, ``gwu``, ``C`` or ``colorless``, or words joined by spaces or commas."""
        known = _BY_CODE.get(text)
        if known is not None:
            return known
        cleaned = text.strip()
        if cleaned.upper() in ("", "C") or cleaned.lower() == "colorless":
            return COLORLESS
        parts = [p for p in cleaned.replace(",", " ").split() if p]
        if len(parts) == 1 and all(ch.upper() in "WUBRG" for ch in parts[0]):
            return cls.of(ch.upper() for ch in parts[0])
        try:
            return cls.of(Color.parse(part) for part in parts)
        except ColorError:
            raise ColorError(
                f"unknown color identity {quoted(text)}: write WUBRG letters such as 'WUG', or 'C' for colorless"
            ) from None

    def __iter__(self) -> Iterator[Color]:
        return iter(_COLORS_OF[self.mask])

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, color: object) -> bool:
        return isinstance(color, Color) and bool(self.mask & color.bit)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __le__(self, other: ColorIdentity) -> bool:
        return self.mask & ~other.mask == 0

    def __lt__(self, other: ColorIdentity) -> bool:
        return self <= other and self.mask != other.mask

    def __ge__(self, other: ColorIdentity) -> bool:
        return other <= self

    def __gt__(self, other: ColorIdentity) -> bool:
        return other < self

    def __or__(self, other: ColorIdentity) -> ColorIdentity:
        return _CACHE[self.mask | other.mask]

    def __and__(self, other: ColorIdentity) -> ColorIdentity:
        return _CACHE[self.mask & other.mask]

    def __sub__(self, other: ColorIdentity) -> ColorIdentity:
        return _CACHE[self.mask & ~other.mask]

    @property
    def code(self) -> str:
        """WUBRG letters, empty for colorless."""
        return "".join(color.value for color in self)

    @property
    def letters(self) -> list[str]:
        return [color.value for color in self]

    @property
    def words(self) -> str:
        return " and ".join(color.word for color in self) if self else "colorless"

    def __str__(self) -> str:
        return self.code or "C"

    def __repr__(self) -> str:
        return f"ColorIdentity.parse({str(self)!r})"


_CACHE = [object.__new__(ColorIdentity) for _ in range(32)]
for _mask, _identity in enumerate(_CACHE):
    object.__setattr__(_identity, "mask", _mask)
COLORLESS = _CACHE[0]
_BY_CODE = {identity.code: identity for identity in _CACHE}
ALL_COLORS = _CACHE[31]


def identity_from_mask(mask: int) -> ColorIdentity:
    return _CACHE[mask & 31]
