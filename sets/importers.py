"""Read card files other tools publish, whatever their kind: MTGJSON set, AllPrintings and AtomicCards
files (``sets.mtgjson``), Scryfall card arrays and bulk files (``sets.scryfall``), plain card lists
(the shape of ``shared/data/cmr/cards.json``, read here) and a set cmdraft itself stored (``sets/CODE.json`` of a
data folder, copied to a machine with no network).  ``read_card_file`` tells which kind a file is.

Identity is always computed by the engine from the card's text (a stored set's card without text keeps the identity
computed when it was imported); where a file carries its own identity field, any difference is reported, never hidden.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from sets.cards import Face, Layout
from sets.colors import COLORLESS
from sets.errors import ImportFormatError, InputError
from sets.files import CARD_FILE_LIMIT, loads, read_input
from sets.identity import defined_colors, make_card
from sets.import_result import FORMAT_HINT, PLAIN_FIELDS, ImportResult, face_from, published_identity, rarity_of
from sets.mtgjson import read_mtgjson_atomic, read_mtgjson_printings, read_mtgjson_set
from sets.scryfall import read_scryfall
from sets.set_json import SET_FORMAT, set_from_json
from sets.visible import quoted

# --- plain card lists (shared/data/cmr/cards.json) ---------------------------------------


def read_card_list(data: dict[str, Any], source: str) -> ImportResult:
    named = data.get("set")
    # The set is a bare code (the CLB and CMM lists) or an object with its code and name (the CMR list).
    about = named if isinstance(named, dict) else {"code": named}
    code = str(about.get("code") or data.get("code") or "").upper()
    result = ImportResult("card-list", source, code=code, name=str(about.get("name") or data.get("name") or code))
    for obj in data["cards"]:
        faces, layout = _plain_faces(obj, result)
        card = make_card(
            faces,
            layout,
            name=obj["name"],
            set_code=code,
            number=str(obj["number"]),
            rarity=rarity_of(obj.get("rarity")),
            mana_value=obj.get("mana_value"),
            main_set=obj.get("in_main_set", True),
        )
        result.add(card, published_identity(obj.get("color_identity")))
    return result


def _plain_faces(obj: dict[str, Any], result: ImportResult) -> tuple[list[Face], Layout]:
    """A plain list's card as its faces: a card of two parts (adventure, split, double-faced) is one object whose
    name, cost and type line join the parts with ' // '; its colors, types and text are the front part's."""
    names = str(obj["name"]).split(" // ")
    costs = _parts(obj.get("mana_cost"), len(names))
    lines = _parts(obj.get("type_line"), len(names))
    faces = [face_from({**obj, "mana_cost": costs[0] or None, "type_line": lines[0]}, result, PLAIN_FIELDS, names[0])]
    faces += [
        face_from({"mana_cost": cost or None, "type_line": line}, result, PLAIN_FIELDS, name)
        for name, cost, line in zip(names[1:], costs[1:], lines[1:], strict=True)
    ]
    explained = COLORLESS
    for face in faces:
        explained = explained | face.cost.colors | defined_colors(face)
    if faces[0].color_indicator is None and faces[0].colors - explained:
        # Plain lists carry no color indicator; colors that neither a cost nor a
        # characteristic-defining ability explains can only come from one.
        faces[0] = replace(faces[0], color_indicator=faces[0].colors)
    if len(faces) == 1 or obj.get("layout"):
        return faces, Layout.parse(obj.get("layout"))
    if any("Adventure" in face.subtypes for face in faces[1:]):
        return faces, Layout.ADVENTURE
    if all(costs) and all({"Instant", "Sorcery"} & set(face.types) for face in faces):
        return faces, Layout.SPLIT
    return faces, Layout.MODAL_DFC if all(costs) else Layout.TRANSFORM


def _parts(text: Any, count: int) -> list[str]:
    """``text`` split at ' // ' into ``count`` parts (missing ones empty)."""
    parts = [part.strip() for part in str(text or "").split("//")]
    return (parts + [""] * count)[:count]


# --- a set cmdraft stored (its data folder's sets/CODE.json) ---------------------------------


def read_stored_set(data: dict[str, Any], source: str) -> ImportResult:
    """A set file in cmdraft's own form, copied from another machine's data folder: its cards as stored (their
    identities were computed when that machine imported them), with their text and boosters."""
    if data.get("format") != SET_FORMAT:
        raise ImportFormatError(
            f"{quoted(str(source))}: a cmdraft set file of another version ({quoted(str(data.get('format')))}); "
            f"import the file it was made from, or use the cmdraft that wrote it"
        )
    advice = "copy it again from the data folder it came from, or import the card file it was made from"
    card_set = set_from_json(data, source, advice)
    result = ImportResult("cmdraft-set", source, code=card_set.code, name=card_set.name)
    result.boosters = dict(card_set.boosters)
    for card in card_set.cards:
        if not any(face.text for face in card.faces):
            result.add(card, None)  # no text to compute its identity from: the stored facts are all there is
            continue
        computed = make_card(  # the engine's identity from the card's text, the stored one reported if it differs
            card.faces,
            card.layout,
            name=card.name,
            set_code=card.set_code,
            number=card.number,
            rarity=card.rarity,
            mana_value=card.mana_value,
            main_set=card.main_set,
            mtgo_id=card.mtgo_id,
            mtgo_foil_id=card.mtgo_foil_id,
            copy_limit=card.copy_limit,
            commander_legal=card.commander_legal,
        )
        result.add(computed, card.deck_colors)
    return result


# --- detection --------------------------------------------------------------------------


def read_card_data(data: Any, source: str) -> ImportResult:
    """Read already-parsed JSON of any supported kind, or raise ``ImportFormatError``."""
    if isinstance(data, list):
        if (
            data
            and all(isinstance(obj, dict) for obj in data[:5])
            and any("type_line" in obj or "card_faces" in obj for obj in data[:5])
        ):
            return read_scryfall(data, source)
        if not data:
            raise ImportFormatError(f"{quoted(str(source))}: the card array is empty; {FORMAT_HINT}")
    elif isinstance(data, dict):
        if str(data.get("format") or "").startswith("cmdraft-set/"):
            return read_stored_set(data, source)
        body = data.get("data")
        if isinstance(body, dict) and isinstance(body.get("cards"), list):
            return read_mtgjson_set(data, source)
        if isinstance(body, dict) and body and all(isinstance(v, list) for v in list(body.values())[:20]):
            return read_mtgjson_atomic(data, source)
        if (
            isinstance(body, dict)
            and body
            and all(isinstance(v, dict) and isinstance(v.get("cards"), list) for v in list(body.values())[:20])
        ):
            return read_mtgjson_printings(data, source)
        if data.get("object") == "list" and isinstance(body, list):
            return read_scryfall(body, source)
        if isinstance(data.get("cards"), list) and all(
            isinstance(c, dict) and "number" in c and "name" in c for c in data["cards"][:5]
        ):
            return read_card_list(data, source)
    raise ImportFormatError(f"{quoted(str(source))}: not a card file cmdraft knows; {FORMAT_HINT}")


def read_card_file(path: str | Path) -> ImportResult:
    """Read a card file from disk, detecting its format."""
    path = Path(path)
    raw = read_input(path, CARD_FILE_LIMIT)
    try:
        data = loads(raw)
    except UnicodeDecodeError as error:
        raise ImportFormatError(
            f"{quoted(str(path))}: not UTF-8 text (byte 0x{raw[error.start]:02x} at {error.start}); {FORMAT_HINT}"
        ) from None
    except ValueError as error:
        raise ImportFormatError(f"{quoted(str(path))}: {error}; {FORMAT_HINT}") from None
    try:
        return read_card_data(data, str(path))
    except RecursionError:
        raise ImportFormatError(f"{quoted(str(path))}: card data nested too deep; {FORMAT_HINT}") from None
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        if isinstance(error, InputError):
            raise
        raise ImportFormatError(f"{quoted(str(path))}: card data is incomplete ({error!r}); {FORMAT_HINT}") from None
