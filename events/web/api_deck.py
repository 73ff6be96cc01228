"""The deck after the draft, built in the browser over the player's recorded pool (to come)."""

from __future__ import annotations

from typing import Any


def routes(server: Any) -> list:
    return []
