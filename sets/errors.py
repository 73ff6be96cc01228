"""The exceptions of cmdraft.

Every error a person can cause by their input is a ``CmdraftError``; its
message quotes the input and says what to do.  The CLI turns it into one
line on stderr and ``exit_code``; nothing else prints a traceback.
"""

from sets.visible import quoted


class CmdraftError(Exception):
    """Base class: an error with a message meant for a person.  ``about``: the field of what was typed the error is
    about, when the core knows it (a join's ``"event"``, ``"player"`` or ``"code"``), for a face to point at the
    field to correct; None when it is about no one field."""

    exit_code = 2
    about: str | None = None


class InputError(CmdraftError, ValueError):
    """The input (a file, a name, an option) is at fault."""

    exit_code = 2


class LimitError(InputError):
    """A number or a text beyond its documented range, found where that range is kept (the core).

    ``what`` names the value in the core's words ("a life change for Ann"); a face that knows which
    option carried it says so instead (``for_option("--life")``)."""

    def __init__(self, field: str, what: str, low: int, high: int, value: int, unit: str = ""):
        self.field, self.what, self.low, self.high, self.value, self.unit = field, what, low, high, value, unit
        super().__init__(self.for_option(what))

    @classmethod
    def check(cls, value: int, field: str, what: str, low: int, high: int, unit: str = "") -> int:
        """``value`` when it is from ``low`` to ``high``; this error otherwise."""
        if not low <= value <= high:
            raise cls(field, what, low, high, value, unit)
        return value

    def for_option(self, option: str, said: bool = True) -> str:
        """The message with ``option`` as what is out of range (the core's words after it, when they differ and
        ``said``)."""
        unit = f" {self.unit}" if self.unit else ""
        core_words = f" ({self.what})" if said and option != self.what else ""
        return f"{option} must be from {self.low:,} to {self.high:,}{unit}, not {self.value:,}{core_words}"


class ManaCostError(InputError):
    """A mana cost that cannot be read."""


class ColorError(InputError):
    """A color that cannot be read."""


def quoted_list(names: list[str] | tuple[str, ...]) -> str:
    """Names in single quotes, comma-separated: 'Sol Ring', 'Soul Ring'."""
    return ", ".join(quoted(name) for name in names)


class UnknownCardError(InputError):
    """A card name that no loaded set knows."""

    def __init__(self, name: str, suggestions: list[str] | tuple[str, ...] = ()):
        self.name = name
        self.suggestions = tuple(suggestions)
        if not name.strip():  # nothing to look up: say what to give, not that '' is unknown
            super().__init__("no card name given: give a card's name (or the start of one), such as 'Sol Ring'")
            return
        hint = (
            f" (did you mean {quoted_list(self.suggestions)}?)"
            if self.suggestions
            else " (check the spelling, or import the set with 'cmdraft sets import FILE')"
        )
        super().__init__(f"unknown card {quoted(name)}{hint}")


class MeldResultError(UnknownCardError):
    """The name of a meld pair's back face: a card made in play from two others, never a card of a deck."""

    def __init__(self, name: str, result: str, fronts: list[str] | tuple[str, ...] = ()):
        InputError.__init__(self, meld_result_message(name, result, fronts))
        self.name, self.result, self.fronts, self.suggestions = name, result, tuple(fronts), tuple(fronts)


def meld_result_message(name: str, result: str, fronts: list[str] | tuple[str, ...] = ()) -> str:
    made = f" (melded from {' and '.join(quoted(f) for f in fronts)})" if fronts else ""
    return (
        f"{quoted(name)} is the meld result {quoted(result)}{made}: it is the back face of a meld pair and can't be in a deck; "
        "name the front cards instead"
    )


class UnknownSetError(InputError):
    """A set code that is neither bundled nor imported."""


class ImportFormatError(InputError):
    """A card file whose format cannot be read."""


class BoosterSpecError(InputError):
    """A booster definition that is missing or inconsistent."""


class StateError(CmdraftError):
    """A step taken out of order (seating twice, a pick after the draft ended)."""

    exit_code = 3


class StorageError(CmdraftError):
    """The event store cannot be opened or written safely."""

    exit_code = 4


class MissingDatabaseError(StorageError):
    """The database a command reads or changes is not there (a mistyped ``--db``, or nothing saved yet); nothing
    was created in its place."""

    exit_code = 6


class WouldWait(StorageError):
    """A write that must not wait (``cmdraft serve``'s event loop) would have to: a lock is held, or the file is to
    be read or rewritten first.  Nothing was changed: make the write where waiting is fine."""
