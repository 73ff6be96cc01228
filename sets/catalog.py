"""Set data on disk: the bundled Commander Legends set and sets the user imported, found by code.

Sets are stored in the project's own compact JSON form (``sets.set_json``): the bundled ones inside
this package (facts only, no rules text), imported ones under the user's data
directory (``CMDRAFT_HOME`` overrides it) with the rules text their file had.
Rules text for the bundled sets comes only from files the user brings: an
import keeps the text of every bundled card it names in ``texts/CODE.json``
under the data directory, and the bundled cards are loaded with it.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable
from dataclasses import replace
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path

from sets.basics import BASIC_NAMES
from sets.card_facts import text_copy_limit
from sets.cards import SET_CODE_RULE, Card, CardSet, normalize_name, valid_set_code
from sets.errors import ImportFormatError, InputError, UnknownSetError
from sets.set_json import set_from_json, set_to_json, text_facts
from sets.userdata import pinned, read_kept, read_kept_file, texts_path, user_home
from sets.visible import quoted

BUNDLED = ("CMR",)


def imported_dir() -> Path:
    return user_home() / "sets"


# --- finding sets ---------------------------------------------------------------


def _bundled_text(name: str) -> str:
    return resources.files("sets").joinpath("data", name).read_text(encoding="utf-8")


@cache
def _load_bundled(code: str) -> CardSet:
    card_set = set_from_json(json.loads(_bundled_text(f"{code.lower()}.json")), "bundled")
    boosters = json.loads(_bundled_text(f"{code.lower()}-boosters.json"))
    return CardSet(card_set.code, card_set.name, card_set.cards, boosters, "bundled")


def _imported_path(code: str) -> Path:
    return imported_dir() / f"{code.upper()}.json"


def imported_codes() -> list[str]:
    folder = imported_dir()
    if not folder.is_dir():
        return []
    return sorted(path.stem.upper() for path in folder.glob("*.json"))


def available_codes() -> list[str]:
    return list(BUNDLED) + [code for code in imported_codes() if code not in BUNDLED]


@lru_cache(maxsize=32)
def _load_imported(path: str, inode: int, mtime_ns: int, size: int) -> CardSet:
    """An imported set's file read once for as long as it is unchanged (its signature is the key: an import
    replaces the file whole, so a new import is read again)."""
    try:
        return set_from_json(json.loads(Path(path).read_text(encoding="utf-8")), path)
    except (OSError, json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ImportFormatError(
            f"imported set {quoted(str(path))} cannot be read ({error}): import it again with 'cmdraft sets import FILE'"
        ) from None


def load_set(code: str) -> CardSet:
    """A set by code, bundled or imported; ``UnknownSetError`` names the codes there are."""
    key = code.strip().upper()
    if not valid_set_code(key):
        shown = code if len(code) <= 40 else f"{code[:20]}… ({len(code)} characters)"
        raise UnknownSetError(
            f"unknown set {quoted(shown)}: {SET_CODE_RULE}; known sets are {', '.join(available_codes())}"
        )
    return pinned(("set", key), lambda: _load_set(code, key))


def _load_set(code: str, key: str) -> CardSet:
    path = _imported_path(key)
    try:
        found = path.stat()
    except OSError:
        found = None
    if found is not None and stat.S_ISREG(found.st_mode):
        return _load_imported(str(path), found.st_ino, found.st_mtime_ns, found.st_size)
    if key in BUNDLED:
        return with_texts(_load_bundled(key))
    raise UnknownSetError(
        f"unknown set {quoted(code)}: it isn't imported (known sets are {', '.join(available_codes())}); run 'cmdraft sets download "
        f"{key}' once (MTGJSON's set file with its booster definition), or 'cmdraft sets import FILE'; then it runs "
        "offline"
    )


def save_user_file(path: Path, text: str) -> Path:
    """Write a file under the user's data folder whole (temporary file, then rename), or fail with a one-line error."""
    temporary = path.with_name(f".{path.name}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    except OSError as error:
        try:
            temporary.unlink(missing_ok=True)
        except OSError:
            pass
        raise InputError(
            f"cannot write {quoted(str(path))}: {error.strerror or error}; set CMDRAFT_HOME to a writable folder"
        ) from None
    return path


def save_imported(card_set: CardSet) -> Path:
    """Store an imported set, rules text included, so that it can be loaded by code from now on."""
    text = json.dumps(set_to_json(card_set, with_text=True), ensure_ascii=False, separators=(",", ":"))
    return save_user_file(_imported_path(card_set.code), text)


# --- rules text for the bundled sets, from files the user brought ----------------------------


def _text_keys(card: Card) -> list[str]:
    keys = [normalize_name(card.name)]
    if len(card.faces) > 1:
        keys.append(normalize_name(card.faces[0].name))
    return keys


def keep_texts(cards: Iterable[Card], source: str) -> dict[str, tuple[int, int]]:
    """Keep the rules text and MTGO ids these cards carry for every bundled card of the same name.

    A bundled card takes the MTGO id of its own printing (same set and number) when the file has it,
    else of any printing of the same name.  Returns, by bundled set code, how many of its cards have
    text now (this file's and earlier ones') and how many took it from these cards; sets that the cards
    don't name are left as they were.
    """
    cards = list(cards)
    by_name: dict[str, Card] = {}
    # A printing's MTGO ids, its own and its foil's (MTGO gives a foil an id of its own), taken together.
    ids_by_name: dict[str, tuple[int, int | None]] = {}
    ids_by_printing: dict[tuple[str, str], tuple[int, int | None]] = {}
    for card in cards:
        if any(face.text for face in card.faces):
            for key in _text_keys(card):
                by_name.setdefault(key, card)
        if card.mtgo_id is not None:
            pair = (card.mtgo_id, card.mtgo_foil_id)
            ids_by_printing.setdefault((card.set_code, card.number), pair)
            for key in _text_keys(card):
                ids_by_name.setdefault(key, pair)
    kept: dict[str, tuple[int, int]] = {}
    for code in BUNDLED:
        bundled = _load_bundled(code)
        old = read_kept(code)
        texts, ids, foil_ids = dict(old["cards"]), dict(old["mtgo_ids"]), dict(old["mtgo_foil_ids"])
        found = given = 0
        for card in bundled.cards:
            given_ids = ids_by_printing.get((card.set_code, card.number)) or next(
                (ids_by_name[key] for key in _text_keys(card) if key in ids_by_name), None
            )
            if given_ids is not None:
                found += 1
                ids[card.name] = given_ids[0]
                if given_ids[1] is not None:
                    foil_ids[card.name] = given_ids[1]
            source_card = next((by_name[key] for key in _text_keys(card) if key in by_name), None)
            if source_card is None:
                continue
            found += 1
            given += 1
            faces = {normalize_name(face.name): face.text for face in source_card.faces}
            texts[card.name] = [
                faces.get(normalize_name(face.name), source_card.faces[i].text if i < len(source_card.faces) else "")
                for i, face in enumerate(card.faces)
            ]
        if found:
            data = {
                "format": "cmdraft-texts/1",
                "code": code,
                "source": source,
                "cards": texts,
                "mtgo_ids": ids,
                "mtgo_foil_ids": foil_ids,
            }
            save_user_file(texts_path(code), json.dumps(data, ensure_ascii=False, indent=0))
            with_text = sum(1 for card in bundled.cards if any(texts.get(card.name, ())))
            if with_text:
                kept[code] = (with_text, given)
    basic_pairs = {
        name: ids_by_name[normalize_name(name)] for name in sorted(BASIC_NAMES) if normalize_name(name) in ids_by_name
    }
    if basic_pairs:  # the built-in basic lands take their MTGO ids from the file too
        old = read_kept("BASIC")
        data = {
            "format": "cmdraft-texts/1",
            "code": "BASIC",
            "source": source,
            "cards": {},
            "mtgo_ids": {**old["mtgo_ids"], **{name: pair[0] for name, pair in basic_pairs.items()}},
            "mtgo_foil_ids": {
                **old["mtgo_foil_ids"],
                **{name: pair[1] for name, pair in basic_pairs.items() if pair[1] is not None},
            },
        }
        save_user_file(texts_path("BASIC"), json.dumps(data, ensure_ascii=False, indent=0))
    return kept


def with_texts(card_set: CardSet) -> CardSet:
    """The set with the rules text the user brought filled into its cards' faces."""
    path = texts_path(card_set.code)
    try:
        stat = path.stat()
    except OSError:
        return card_set
    return _enriched(card_set, str(path), stat.st_mtime_ns, stat.st_size)


@cache
def _enriched(card_set: CardSet, path: str, mtime_ns: int, size: int) -> CardSet:
    kept = read_kept_file(path, mtime_ns, size)
    texts, ids, foil_ids = kept["cards"], kept["mtgo_ids"], kept["mtgo_foil_ids"]
    if not texts and not ids:
        return card_set
    cards = []
    for card in card_set.cards:
        faces = texts.get(card.name)
        if faces:
            card = replace(
                card,
                faces=tuple(
                    replace(face, text=face.text or (faces[i] if i < len(faces) else ""))
                    for i, face in enumerate(card.faces)
                ),
            )
            # The text adds what it says to the bundled facts; a copy limit is read from it.
            abilities, partner_with, partner_group = text_facts(card)
            card = replace(
                card,
                abilities=card.abilities | abilities,
                partner_with=card.partner_with or partner_with,
                partner_group=card.partner_group or partner_group,
                copy_limit=text_copy_limit(card.faces) if any(f.text for f in card.faces) else card.copy_limit,
            )
        if card.name in ids and card.mtgo_id is None:
            card = replace(card, mtgo_id=ids[card.name], mtgo_foil_id=foil_ids.get(card.name))
        cards.append(card)
    return CardSet(card_set.code, card_set.name, tuple(cards), card_set.boosters, card_set.source)


def with_kept_text(card: Card) -> Card:
    """``card`` with the rules text kept for its set now, when it has none: text imported while a draft or
    a builder runs (another terminal's 'cmdraft sets import') shows on the next card drawn, no restart
    (the kept file is read again only when it changed)."""
    if any(face.text for face in card.faces) or not card.set_code:
        return card
    faces = read_kept(card.set_code)["cards"].get(card.name)
    if not faces:
        return card
    return replace(
        card, faces=tuple(replace(face, text=faces[i] if i < len(faces) else "") for i, face in enumerate(card.faces))
    )
