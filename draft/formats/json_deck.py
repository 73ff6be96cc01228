"""cmdraft's own lossless JSON deck file (``cmdraft-deck/1``)."""

from __future__ import annotations

import json
from typing import Any

from draft.decks import Deck, DeckLine, Zone
from draft.formats.model import (
    DeckFile,
    Entry,
    FileFormat,
    LineError,
    commander_colors,
    count_or_error,
    line_printing,
    one_color,
)
from sets.colors import Color
from sets.errors import ColorError, InputError
from sets.files import loads
from sets.visible import quoted


def parse_json(text: str, label: str = "deck") -> DeckFile:
    try:
        data = loads(text)
    except ValueError as error:
        raise InputError(f"{label}: {error}") from None
    if not isinstance(data, dict) or not any(key in data for key in ("main", "commanders", "sideboard")):
        kinds = {dict: "an object without them", list: "a list", str: "a string", bool: "true or false"}
        held = "this one is " + kinds.get(type(data), "null" if data is None else "a number")
        raise InputError(
            f"{label}: not a cmdraft deck JSON file (an object with 'commanders', 'main' or 'sideboard'; {held}); "
            "give the deck as cmdraft writes it ('cmdraft deck convert DECK deck.json') or in another format (.txt, .cod, .dck, .dek, .csv)"
        )
    for key in ("name", "format"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise InputError(f"{label}: {quoted(key)} should be text, not {type(data[key]).__name__}")
    if data.get("piper_colors") is not None and not isinstance(data["piper_colors"], list):
        raise InputError(f"{label}: 'piper_colors' should be a list of colors")
    result = DeckFile(FileFormat.JSON, name=str(data.get("name") or ""))
    position = 0
    for key, zone in (("commanders", Zone.COMMANDER), ("main", Zone.MAIN), ("sideboard", Zone.SIDEBOARD)):
        items = data.get(key) or []
        if isinstance(items, dict):  # {"Name": count}
            items = [{"name": name, "count": count} for name, count in items.items()]
        if not isinstance(items, list):
            result.errors.append(LineError(0, key, "expected a list of cards"))
            continue
        for item in items:
            position += 1
            if isinstance(item, str):
                item = {"name": item}
            if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not item["name"].strip():
                result.errors.append(LineError(position, str(item)[:80], "a card without a name"))
                continue
            count = count_or_error(str(item.get("count", 1)), position, item["name"], result)
            if count is None:
                continue
            color = one_color(str(item["color"]), position) if item.get("color") else None
            if isinstance(color, LineError):
                result.errors.append(color)
                color = None
            printing = [item.get("set"), item.get("number")]
            if any(
                value is not None and not isinstance(value, (str, int)) or isinstance(value, bool) for value in printing
            ):
                result.errors.append(LineError(position, item["name"][:80], "'set' and 'number' should be text"))
                continue
            printing = [None if value is None else str(value) for value in printing]
            result.entries.append(
                Entry(
                    item["name"].strip(),
                    count,
                    zone,
                    printing[0],
                    printing[1],
                    bool(item.get("foil")),
                    bool(item.get("etched")),
                    color,
                    position,
                )
            )
    for letter in data.get("piper_colors") or []:
        try:
            result.piper_colors.append(Color.parse(str(letter)))
        except ColorError:
            result.errors.append(LineError(0, str(letter), "not a color in piper_colors"))
    return result


def _line_json(line: DeckLine, color: Color | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"name": line.card.name, "count": line.count}
    printed = line_printing(line)
    if printed is not None:
        data["set"], data["number"] = printed
    if line.foil:
        data["foil"] = True
    if line.etched:
        data["etched"] = True
    if color is not None:
        data["color"] = color.value
    return data


def write_json(deck: Deck) -> str:
    commanders = [
        _line_json(line, color) for line, color in zip(deck.zone(Zone.COMMANDER), commander_colors(deck), strict=True)
    ]
    data = {
        "format": "cmdraft-deck/1",
        "name": deck.name,
        "commanders": commanders,
        "main": [_line_json(line) for line in deck.zone(Zone.MAIN)],
        "sideboard": [_line_json(line) for line in deck.zone(Zone.SIDEBOARD)],
        "piper_colors": [color.value for color in deck.piper_colors],
    }
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
