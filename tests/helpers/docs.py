"""The documentation as tests read it: its pages and their shell blocks."""

from __future__ import annotations

import re
from pathlib import Path


def doc_files(root: Path) -> list[Path]:
    """The README, ARCHITECTURE.md, CONTRIBUTING.md and every page of the site (docs/)."""
    top = [root / name for name in ("README.md", "ARCHITECTURE.md", "CONTRIBUTING.md")]
    return [path for path in top if path.is_file()] + sorted((root / "docs").glob("*.md"))


def shell_blocks(text: str) -> list[str]:
    """The ```sh blocks of a Markdown text."""
    return re.findall(r"^```sh\n(.*?)^```", text, re.M | re.S)
