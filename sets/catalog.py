"""Set data on disk: the bundled Commander Legends set and sets the user imported.

Sets are stored in the project's own compact JSON form: the bundled ones inside
this package (facts only, no rules text), imported ones under the user's data
directory (``CMDRAFT_HOME`` overrides it) with the rules text their file had.
Rules text for the bundled sets comes only from files the user brings: an
import keeps the text of every bundled card it names in ``texts/CODE.json``
under the data directory, and the bundled cards are loaded with it.
"""

from __future__ import annotations

import difflib
import json
import os
import re
import stat
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from sets.cards import (
    ANY_NUMBER,
    TYPE_FACTS,
    Card,
    CardSet,
    CommanderAbility,
    Face,
    Layout,
    Rarity,
    commander_facts,
    normalize_name,
    text_copy_limit,
    type_facts,
)
from sets.colors import ColorIdentity
from sets.errors import ImportFormatError, InputError, MeldResultError, UnknownCardError, UnknownSetError
from sets.userdata import read_kept, read_kept_file, texts_path, user_home  # noqa: F401 (user_home: others import it here)

BUNDLED = ("CMR",)


def imported_dir() -> Path:
    return user_home() / "sets"


# --- the project's own JSON form -------------------------------------------------


def face_to_json(face: Face, with_text: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {"name": face.name, "mana_cost": face.mana_cost, "type_line": face.type_line}
    if with_text and face.text:
        data["text"] = face.text
    data["colors"] = face.colors.code
    if face.color_indicator is not None:
        data["color_indicator"] = face.color_indicator.code
    for key in ("power", "toughness", "loyalty", "defense"):
        value = getattr(face, key)
        if value is not None:
            data[key] = value
    data["supertypes"], data["types"], data["subtypes"] = list(face.supertypes), list(face.types), list(face.subtypes)
    return data


def face_from_json(data: dict[str, Any]) -> Face:
    indicator = data.get("color_indicator")
    return Face(
        name=data["name"],
        mana_cost=data.get("mana_cost", ""),
        type_line=data.get("type_line", ""),
        supertypes=tuple(data.get("supertypes", ())),
        types=tuple(data.get("types", ())),
        subtypes=tuple(data.get("subtypes", ())),
        text=data.get("text", ""),
        colors=ColorIdentity.parse(data.get("colors", "")),
        color_indicator=None if indicator is None else ColorIdentity.parse(indicator),
        power=data.get("power"),
        toughness=data.get("toughness"),
        loyalty=data.get("loyalty"),
        defense=data.get("defense"),
    )


def card_to_json(card: Card, with_text: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "number": card.number,
        "name": card.name,
        "rarity": card.rarity.value,
        "layout": card.layout.value,
        "mana_value": card.mana_value,
        "identity": card.identity.code,
        "deck_colors": card.deck_colors.code,
        "abilities": sorted(ability.value for ability in card.abilities),
    }
    if card.partner_with:
        data["partner_with"] = card.partner_with
    if card.partner_group:
        data["partner_group"] = card.partner_group
    if not card.main_set:
        data["main_set"] = False
    if card.mtgo_id is not None:
        data["mtgo_id"] = card.mtgo_id
    if card.copy_limit is not None:
        data["copy_limit"] = "any" if card.copy_limit >= ANY_NUMBER else card.copy_limit
    data["faces"] = [face_to_json(face, with_text) for face in card.faces]
    return data


def _copy_limit(value: Any) -> int | None:
    if value == "any":
        return ANY_NUMBER
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def text_facts(card: Card) -> tuple[frozenset[CommanderAbility], str | None, str | None]:
    """Commander facts decided again from the card's faces (their rules text and type lines)."""
    faces = card.faces[:1] if card.layout is Layout.MELD else card.faces
    return commander_facts(faces[0], *faces[1:])


def card_from_json(data: dict[str, Any], set_code: str) -> Card:
    faces = tuple(face_from_json(face) for face in data["faces"])
    # Type-line facts are decided again, so a set imported before a rules fix follows it; so are the
    # facts of the rules text when the set keeps it (imported sets).
    stored = frozenset(CommanderAbility(a) for a in data.get("abilities", ()))
    card = Card(
        name=data["name"],
        faces=faces,
        identity=ColorIdentity.parse(data["identity"]),
        deck_colors=ColorIdentity.parse(data["deck_colors"]),
        layout=Layout(data.get("layout", "normal")),
        set_code=set_code,
        number=str(data["number"]),
        rarity=Rarity(data["rarity"]),
        mana_value=data.get("mana_value", 0),
        abilities=(stored - TYPE_FACTS) | type_facts(faces[0]),
        partner_with=data.get("partner_with"),
        partner_group=data.get("partner_group"),
        main_set=data.get("main_set", True),
        mtgo_id=data.get("mtgo_id"),
        copy_limit=_copy_limit(data.get("copy_limit")),
    )
    if any(face.text for face in faces):
        abilities, partner_with, partner_group = text_facts(card)
        card = replace(
            card,
            abilities=abilities,
            partner_with=partner_with,
            partner_group=partner_group,
            copy_limit=text_copy_limit(faces),
        )
    return card


def set_to_json(card_set: CardSet, with_text: bool = False) -> dict[str, Any]:
    """The set in the project's form; rules text only when asked (never for bundled data)."""
    return {
        "format": "cmdraft-set/1",
        "code": card_set.code,
        "name": card_set.name,
        "cards": [card_to_json(card, with_text) for card in card_set.cards],
        "boosters": card_set.boosters,
    }


def set_from_json(data: dict[str, Any], source: str) -> CardSet:
    try:
        code = data["code"]
        return CardSet(
            code=code,
            name=data.get("name", code),
            cards=tuple(card_from_json(card, code) for card in data["cards"]),
            boosters=data.get("boosters", {}),
            source=source,
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ImportFormatError(
            f"set file {source} is damaged ({error!r}): import the set again with 'cmdraft sets import FILE'"
        ) from None


# --- finding sets -------------------------------------------------------------------


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
            f"imported set {path} cannot be read ({error}): import it again with 'cmdraft sets import FILE'"
        ) from None


def load_set(code: str) -> CardSet:
    """A set by code, bundled or imported; ``UnknownSetError`` names the codes there are."""
    key = code.strip().upper()
    if not re.fullmatch(r"[A-Z0-9]{1,16}", key, re.ASCII):
        shown = code if len(code) <= 40 else f"{code[:20]}… ({len(code)} characters)"
        raise UnknownSetError(
            f"unknown set {shown!r}: a set code is 1-16 letters and digits; known sets are "
            f"{', '.join(available_codes())}"
        )
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
        f"unknown set {code!r}: known sets are {', '.join(available_codes())}; "
        "import others with 'cmdraft sets import FILE'"
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
            f"cannot write {str(path)!r}: {error.strerror or error}; set CMDRAFT_HOME to a writable folder"
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


def keep_texts(cards: Iterable[Card], source: str) -> dict[str, int]:
    """Keep the rules text and MTGO ids these cards carry for every bundled card of the same name.

    A bundled card takes the MTGO id of its own printing (same set and number) when the file has it,
    else of any printing of the same name.  Returns, by bundled set code, how many of its cards have
    text now; sets that the cards don't name are left as they were.
    """
    cards = list(cards)
    by_name: dict[str, Card] = {}
    ids_by_name: dict[str, int] = {}
    ids_by_printing: dict[tuple[str, str], int] = {}
    for card in cards:
        if any(face.text for face in card.faces):
            for key in _text_keys(card):
                by_name.setdefault(key, card)
        if card.mtgo_id is not None:
            ids_by_printing.setdefault((card.set_code, card.number), card.mtgo_id)
            for key in _text_keys(card):
                ids_by_name.setdefault(key, card.mtgo_id)
    kept: dict[str, int] = {}
    for code in BUNDLED:
        bundled = _load_bundled(code)
        old = read_kept(code)
        texts, ids = dict(old["cards"]), dict(old["mtgo_ids"])
        found = 0
        for card in bundled.cards:
            mtgo_id = ids_by_printing.get((card.set_code, card.number)) or next(
                (ids_by_name[key] for key in _text_keys(card) if key in ids_by_name), None
            )
            if mtgo_id is not None:
                found += 1
                ids[card.name] = mtgo_id
            source_card = next((by_name[key] for key in _text_keys(card) if key in by_name), None)
            if source_card is None:
                continue
            found += 1
            faces = {normalize_name(face.name): face.text for face in source_card.faces}
            texts[card.name] = [
                faces.get(normalize_name(face.name), source_card.faces[i].text if i < len(source_card.faces) else "")
                for i, face in enumerate(card.faces)
            ]
        if found:
            data = {"format": "cmdraft-texts/1", "code": code, "source": source, "cards": texts, "mtgo_ids": ids}
            save_user_file(texts_path(code), json.dumps(data, ensure_ascii=False, indent=0))
            with_text = sum(1 for card in bundled.cards if any(texts.get(card.name, ())))
            if with_text:
                kept[code] = with_text
    from sets.basics import BASIC_NAMES

    basic_ids = {
        name: ids_by_name[normalize_name(name)] for name in sorted(BASIC_NAMES) if normalize_name(name) in ids_by_name
    }
    if basic_ids:  # the built-in basic lands take their MTGO ids from the file too
        old_ids = read_kept("BASIC")["mtgo_ids"]
        data = {
            "format": "cmdraft-texts/1",
            "code": "BASIC",
            "source": source,
            "cards": {},
            "mtgo_ids": {**old_ids, **basic_ids},
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
    texts, ids = kept["cards"], kept["mtgo_ids"]
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
            card = replace(card, mtgo_id=ids[card.name])
        cards.append(card)
    return CardSet(card_set.code, card_set.name, tuple(cards), card_set.boosters, card_set.source)


# --- finding cards by name ---------------------------------------------------------------


class CardIndex:
    """Cards by name across sets: case, accents, typographic quotes and ``A // B`` / ``A/B`` spelling don't matter.

    A card is found by its name, and a card of several faces or halves also by each face's name (a card's
    own name wins over another card's face).  A meld pair's back face is no card: its name is known as a
    meld result (``meld_result``), never read as one of the cards that make it.
    A name printed in several sets resolves to the first set given.
    """

    def __init__(self, card_sets: Iterable[CardSet]):
        self._by_name: dict[str, Card] = {}
        self._display: dict[str, str] = {}
        self._meld_results: dict[str, list[str]] = {}
        self.sets = tuple(card_sets)
        cards = [card for card_set in self.sets for card in card_set.cards]
        for own in (True, False):
            for card in cards:
                for alias in self._aliases(card, own):
                    key = normalize_name(alias)
                    self._by_name.setdefault(key, card)
                    self._display.setdefault(key, card.name)
        for card in cards:
            if card.layout is Layout.MELD and len(card.faces) > 1:
                key = normalize_name(card.faces[-1].name)
                if key not in self._by_name:
                    fronts = self._meld_results.setdefault(key, [card.faces[-1].name])
                    if card.name not in fronts:
                        fronts.append(card.name)

    @staticmethod
    def _aliases(card: Card, own: bool) -> list[str]:
        if own:
            names = [card.name]
        elif card.layout is Layout.MELD:
            names = [card.faces[0].name]
        else:
            names = [face.name for face in card.faces] if len(card.faces) > 1 else []
        # "Prismatic Piper" for "The Prismatic Piper": players drop a leading article
        return names + [name[4:] for name in names if name[:4].lower() == "the " and len(name) > 8]

    def get(self, name: str) -> Card | None:
        return self._by_name.get(normalize_name(name))

    def meld_result(self, name: str) -> tuple[str, list[str]] | None:
        """For the back face of a meld pair: (its name, the cards that meld into it); else None."""
        found = self._meld_results.get(normalize_name(name))
        return None if found is None else (found[0], found[1:])

    def find(self, name: str) -> Card:
        """The card called ``name``, or ``UnknownCardError`` with the closest names."""
        card = self.get(name)
        if card is None:
            meld = self.meld_result(name)
            if meld is not None:
                raise MeldResultError(name, *meld)
            raise UnknownCardError(name, self.suggest(name))
        return card

    def suggest(self, name: str, limit: int = 3) -> list[str]:
        key = normalize_name(name)
        # names the text starts (a name before its comma: "Jeska" for "Jeska, Thrice Reborn") come first
        starts = sorted((k for k in self._display if k.startswith(key + " ") or k == key), key=len) if key else []
        close = starts + difflib.get_close_matches(key, self._display.keys(), n=limit, cutoff=0.6)
        if not close:
            close = [k for k in self._display if k.startswith(key[:4])][:limit] if len(key) >= 4 else []
        names: list[str] = []
        for k in close:
            if self._display[k] not in names:
                names.append(self._display[k])
        return names[:limit]

    def starting(self, text: str) -> list[str]:
        """The names that ``text`` is the start of (case, accents and punctuation don't matter), each once."""
        key = normalize_name(text)
        if not key:
            return []
        return list(dict.fromkeys(self._display[k] for k in self._display if k.startswith(key)))

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __iter__(self) -> Iterator[Card]:
        seen: set[Card] = set()
        for card in self._by_name.values():
            if card not in seen:
                seen.add(card)
                yield card


def card_index(codes: Iterable[str] | None = None) -> CardIndex:
    """A name index over the given sets (default: every bundled and imported set).

    The basic lands are always known.
    """
    from sets.basics import basic_lands

    chosen = [load_set(code) for code in (codes if codes is not None else available_codes())]
    return CardIndex([*chosen, basic_lands()])
