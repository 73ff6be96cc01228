"""The user's data folder and what cmdraft keeps there for the built-in sets (rules text, MTGO ids)."""

from __future__ import annotations

import json
import os
from functools import cache
from pathlib import Path
from typing import Any


def user_home() -> Path:
    """Where cmdraft keeps the user's data: ``$CMDRAFT_HOME`` or the platform's data folder."""
    override = os.environ.get("CMDRAFT_HOME")
    if override:
        return Path(override).expanduser()
    from platformdirs import user_data_path

    return user_data_path("cmdraft", appauthor=False)


def texts_path(code: str) -> Path:
    return user_home() / "texts" / f"{code.upper()}.json"


def kept_mtgo_ids(code: str) -> dict[str, int]:
    """MTGO ids by card name that imported files gave for a built-in set's cards."""
    return dict(read_kept(code)["mtgo_ids"])


def read_kept(code: str) -> dict[str, Any]:
    path = texts_path(code)
    try:
        stat = path.stat()
    except OSError:
        return {"cards": {}, "mtgo_ids": {}}
    return read_kept_file(str(path), stat.st_mtime_ns, stat.st_size)


@cache
def read_kept_file(path: str, mtime_ns: int, size: int) -> dict[str, Any]:
    """The kept texts and MTGO ids (cached per file version); a damaged file counts as none (import again to mend it)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        cards = data["cards"]
        texts = {str(name): [str(text) for text in faces] for name, faces in cards.items() if isinstance(faces, list)}
        ids = {
            str(name): value
            for name, value in (data.get("mtgo_ids") or {}).items()
            if isinstance(value, int) and not isinstance(value, bool) and value > 0
        }
        return {"cards": texts, "mtgo_ids": ids}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return {"cards": {}, "mtgo_ids": {}}
