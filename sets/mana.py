"""Mana symbols and mana costs: parse, format, mana value, colors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum, unique
from functools import cache, lru_cache

from sets.colors import COLORLESS, Color, ColorIdentity, identity_from_mask
from sets.errors import ManaCostError
from sets.visible import quoted


@unique
class SymbolKind(StrEnum):
    GENERIC = "generic"  # {3}, {½}, {∞}
    COLORED = "colored"  # {W}
    COLORLESS = "colorless"  # {C}
    VARIABLE = "variable"  # {X}
    SNOW = "snow"  # {S}
    HYBRID = "hybrid"  # {W/U}
    MONO_HYBRID = "monocolored hybrid"  # {2/W}
    PHYREXIAN = "phyrexian"  # {W/P}, {P}
    HYBRID_PHYREXIAN = "hybrid phyrexian"  # {G/U/P}
    HALF = "half"  # {HW}


_COLOR_LETTERS = frozenset("WUBRG")
_GENERIC_SPECIAL = {"½": 0.5, "∞": float("inf")}


@dataclass(frozen=True, slots=True)
class ManaSymbol:
    """One symbol of a mana cost, such as ``{G/U/P}``."""

    inner: str
    kind: SymbolKind
    colors: ColorIdentity
    value: float

    @classmethod
    def parse(cls, text: str) -> ManaSymbol:
        """Read ``{W/U}`` or ``W/U``; raise ``ManaCostError`` for anything else."""
        inner = text[1:-1] if text.startswith("{") and text.endswith("}") else text
        return _parse_symbol(inner.upper())

    def __str__(self) -> str:
        return "{" + self.inner + "}"

    def __repr__(self) -> str:
        return f"ManaSymbol.parse({str(self)!r})"


@cache
def _parse_symbol(inner: str) -> ManaSymbol:
    def make(kind: SymbolKind, colors: str, value: float) -> ManaSymbol:
        return ManaSymbol(inner, kind, ColorIdentity.of(colors), value)

    if inner.isdigit():
        return make(SymbolKind.GENERIC, "", int(inner))
    if inner in _GENERIC_SPECIAL:
        return make(SymbolKind.GENERIC, "", _GENERIC_SPECIAL[inner])
    if inner in ("X", "Y", "Z"):
        return make(SymbolKind.VARIABLE, "", 0)
    if inner == "C":
        return make(SymbolKind.COLORLESS, "", 1)
    if inner == "S":
        return make(SymbolKind.SNOW, "", 1)
    if inner == "P":
        return make(SymbolKind.PHYREXIAN, "", 1)
    if inner in _COLOR_LETTERS:
        return make(SymbolKind.COLORED, inner, 1)
    if len(inner) == 2 and inner[0] == "H" and inner[1] in _COLOR_LETTERS:
        return make(SymbolKind.HALF, inner[1], 0.5)
    parts = inner.split("/")
    if len(parts) == 2:
        first, second = parts
        if second == "P" and first in _COLOR_LETTERS:
            return make(SymbolKind.PHYREXIAN, first, 1)
        if first.isdigit() and second in _COLOR_LETTERS:
            return make(SymbolKind.MONO_HYBRID, second, int(first))
        if first != second and {first, second} <= _COLOR_LETTERS | {"C"}:
            return make(SymbolKind.HYBRID, (first + second).replace("C", ""), 1)
    if len(parts) == 3 and parts[2] == "P" and parts[0] != parts[1] and {parts[0], parts[1]} <= _COLOR_LETTERS:
        return make(SymbolKind.HYBRID_PHYREXIAN, parts[0] + parts[1], 1)
    raise ManaCostError(
        f"unknown mana symbol {{{inner}}}: use symbols like {{2}}, {{W}}, {{C}}, {{X}}, {{S}}, "
        "{W/U}, {2/W}, {W/P} or {G/U/P}"
    )


_COST_TOKEN = re.compile(r"\{([^{}]*)\}")


@dataclass(frozen=True, slots=True)
class ManaCost:
    """A mana cost: a sequence of symbols.  ``str()`` gives ``{2}{W}{U}`` back."""

    symbols: tuple[ManaSymbol, ...] = ()

    @classmethod
    def parse(cls, text: str) -> ManaCost:
        """Read a cost in brace notation; the empty string is the empty cost."""
        return _parse_cost(text.strip())

    @property
    def mana_value(self) -> float:
        total = sum(symbol.value for symbol in self.symbols)
        return int(total) if float(total).is_integer() else total

    @property
    def colors(self) -> ColorIdentity:
        identity = COLORLESS
        for symbol in self.symbols:
            identity |= symbol.colors
        return identity

    def count(self, color: Color) -> int:
        """How many symbols show ``color`` (a devotion-style count)."""
        return sum(1 for symbol in self.symbols if color in symbol.colors)

    def __str__(self) -> str:
        return "".join(str(symbol) for symbol in self.symbols)

    def __repr__(self) -> str:
        return f"ManaCost.parse({str(self)!r})"

    def __bool__(self) -> bool:
        return bool(self.symbols)


def _braced(text: str) -> Iterator[tuple[str, str]]:
    """Each symbol of a cost in brace notation, as (its inside, upper case; the symbol as written), in order; then
    ``ManaCostError`` if the text is not brace notation throughout."""
    position = 0
    for match in _COST_TOKEN.finditer(text):
        if match.start() != position:
            break
        yield match.group(1).strip().upper(), match.group(0)
        position = match.end()
    if position != len(text):
        raise ManaCostError(f"bad mana cost {quoted(text)}: write each symbol in braces, like {{2}}{{W}}{{U/B}}")


@lru_cache(maxsize=4096)
def _parse_cost(text: str) -> ManaCost:
    symbols = []
    for inside, _ in _braced(text):
        try:
            symbols.append(_parse_symbol(inside))
        except ManaCostError as error:
            raise ManaCostError(f"bad mana cost {quoted(text)}: {error}") from None
    return ManaCost(tuple(symbols))


def known_part(text: str) -> tuple[ManaCost, tuple[str, ...]]:
    """A cost read as far as cmdraft knows its symbols (card files hold symbols no reader knows yet): the cost
    without the symbols it doesn't know, and those symbols as written (``{TK}``).  ``ManaCostError`` for text that
    is not brace notation, as ``ManaCost.parse`` says it."""
    text = text.strip()
    known, unknown = [], []
    for inside, written in _braced(text):
        try:
            known.append(_parse_symbol(inside))
        except ManaCostError:
            unknown.append(written)
    return ManaCost(tuple(known)), tuple(unknown)


_ANY_SYMBOL = re.compile(r"\{([^{}]+)\}")


def text_symbol_colors(text: str) -> ColorIdentity:
    """Colors of every mana symbol in ``text``; non-mana symbols like {T} add nothing.

    Hybrid symbols count every color they show, as CR 903.4 asks.
    """
    mask = 0
    for inner in _ANY_SYMBOL.findall(text):
        for part in inner.upper().split("/"):
            if part in _COLOR_LETTERS:
                mask |= Color(part).bit
            elif len(part) == 2 and part[0] == "H" and part[1] in _COLOR_LETTERS:
                mask |= Color(part[1]).bit
    return identity_from_mask(mask)
