"""The desk in the browser (to come)."""

from __future__ import annotations

from typing import Any


def routes(server: Any) -> list:
    return []
