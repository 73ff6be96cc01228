"""What a draft's saved header says (its kind, timer, assistance, the seats' claims, the deck saved from its pool),
read as fields: ``TableSession`` keeps the header as the dict ``doc`` the store reads and writes; the use cases
above read these."""

from __future__ import annotations

from typing import Any


class DraftFields:
    """The fields of a draft's saved header ``doc``, for a class that keeps one."""

    doc: dict[str, Any]

    @property
    def kind(self) -> str:
        """``practice`` or ``event``: what the draft was made for."""
        return str(self.doc.get("kind") or "")

    @property
    def timer(self) -> int | None:
        """The seconds a full pack allows, as saved (None: no timer)."""
        timer = self.doc.get("timer")
        return timer if isinstance(timer, int) else None

    @property
    def assist(self) -> bool:
        """Whether an event's draft offers the hint, signals and "Can lead" (``event new --assist``)."""
        return bool(self.doc.get("assist"))

    @property
    def claims(self) -> dict[str, Any]:
        """Which terminal token holds each seat (by seat number as text), as saved."""
        return dict(self.doc.get("claims") or {})

    @property
    def saved_deck(self) -> Any:
        """The deck saved from this draft's pool, as saved (None before one is)."""
        return self.doc.get("deck")
