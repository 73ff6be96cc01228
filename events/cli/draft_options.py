"""The options that name a draft's things, shared by the commands that draft or build: the Commander-draft
product (``--product``), the bots' styles (``--bots``), a table's draft settings.  Apart from ``common`` so a
command that neither drafts nor builds imports no bots, engine or product."""

from __future__ import annotations

from typing import Annotated

import typer

from draft.bots import BotStyle
from draft.engine import DraftConfig
from draft.products import Product, product, products
from events.cli.common import option_limits
from sets.catalog import load_set
from sets.errors import InputError
from sets.visible import quoted

ProductOption = Annotated[
    str | None,
    typer.Option(
        "--product",
        "--set",
        help="The Commander-draft product whose rules apply: CMR, CLB or CMM (default: the one the pool's cards, "
        "else the deck's, come from).",
    ),
]


def product_option(code: str | None) -> Product | None:
    """The product ``--product`` names (None when not given); its set must be loadable (bundled or imported)."""
    if code is None:
        return None
    found = product(code)
    if not found.known:
        known = ", ".join(products())
        raise InputError(f"--product {quoted(code)} is no Commander-draft product: use one of {known}")
    load_set(found.code)  # not imported: one line saying how to get it (exit 2)
    return found


def parse_styles(text: str | None) -> list[BotStyle] | None:
    if text is None:
        return None
    styles = [BotStyle.parse(part) for part in text.split(",") if part.strip()]
    if not styles:
        raise InputError("--bots needs a style: strong, commander-first or best-card (comma-separated for several)")
    return styles


def draft_config(players: int, set_code: str, kind: str | None) -> DraftConfig:
    config = DraftConfig(seats=players, set_code=set_code.upper(), booster_kind=kind)
    with option_limits({"seats": "--players"}):
        config.check()
    return config
