"""Importing a card file (``sets import``, ``sets download``) and listing the sets on this machine (``sets list``):
what each did, as typed values the faces read, and their JSON forms (``--json``)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from sets.cards import SET_CODE_RULE, CardSet, valid_set_code
from sets.catalog import BUNDLED, available_codes, keep_texts, load_set, save_imported
from sets.errors import InputError
from sets.importers import read_card_file
from sets.visible import quoted, visible


@dataclass(frozen=True)
class ListedSet:
    """A set this machine can draft: its cards, how many of them have their rules text here, its boosters and
    where it came from (bundled, or the file it was imported from)."""

    code: str
    name: str
    cards: int
    cards_with_text: int
    boosters: list[str]
    source: str

    def to_json(self) -> dict[str, Any]:
        """The row ``sets list --json`` prints."""
        return {
            "code": self.code,
            "name": self.name,
            "cards": self.cards,
            "cards_with_text": self.cards_with_text,
            "boosters": self.boosters,
            "source": self.source,
        }


def listed_sets() -> list[ListedSet]:
    """The bundled and imported sets, bundled first."""
    listed = []
    for code in available_codes():
        card_set = load_set(code)
        listed.append(
            ListedSet(
                card_set.code,
                card_set.name,
                len(card_set),
                sum(1 for card in card_set if any(face.text for face in card.faces)),
                sorted(card_set.boosters),
                card_set.source,
            )
        )
    return listed


@dataclass(frozen=True)
class StoredSet:
    """A set of the file stored to be drafted like a bundled one: its code, cards, file and boosters, and how many
    of its cards came with rules text."""

    code: str
    cards: int
    path: str
    boosters: list[str]
    cards_with_text: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "cards": self.cards,
            "path": self.path,
            "boosters": self.boosters,
            "cards_with_text": self.cards_with_text,
        }


@dataclass(frozen=True)
class KeptText:
    """The rules text the file brought for a bundled set: how many of its cards have it now (``cards_with_text``,
    earlier imports' too), how many took it from this file (``from_file``), and whether the file holds the set
    itself or only other sets' printings of some of its cards (``reprints``: a CMM file's cards that CMR has too)."""

    code: str
    cards_with_text: int
    from_file: int
    reprints: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "cards_with_text": self.cards_with_text,
            "from_file": self.from_file,
            "reprints": self.reprints,
        }


@dataclass(frozen=True)
class IdentityMismatch:
    """A card whose color identity, computed from its cost and text, differs from the one the file states
    (letters; empty for colorless)."""

    name: str
    computed: str
    file: str

    def to_json(self) -> dict[str, Any]:
        """As ``sets import --json`` lists it: each identity a list of letters (empty for colorless), as every
        ``color_identity`` in ``--json`` is; ``computed`` is cmdraft's, ``file`` the file's."""
        return {"name": self.name, "computed": list(self.computed), "file": list(self.file)}


@dataclass(frozen=True)
class CardFileImport:
    """What importing a card file did: the file's kind, the sets stored, the rules text kept for bundled sets,
    the cards whose identity differs from the file's, the file's problems (warnings), and the file downloaded
    when ``sets download`` fetched it."""

    kind: str
    sets: list[StoredSet]
    rules_text: list[KeptText]
    identity_mismatches: list[IdentityMismatch]
    problems: list[str]
    downloaded: str | None = None

    def to_json(self) -> dict[str, Any]:
        """The report ``sets import --json`` (and ``sets download --json``, with ``downloaded``) prints."""
        return {
            "kind": self.kind,
            "sets": [stored.to_json() for stored in self.sets],
            "rules_text": [kept.to_json() for kept in self.rules_text],
            "identity_mismatches": [mismatch.to_json() for mismatch in self.identity_mismatches],
            "problems": [visible(problem) for problem in self.problems],
            **({} if self.downloaded is None else {"downloaded": self.downloaded}),
        }


def import_card_file(file: Path, code: str | None) -> CardFileImport:
    """Store the sets of a card file and keep its rules text for the bundled cards it names: the report."""
    result = read_card_file(file)
    card_sets = result.card_sets()
    if code:
        code = code.upper()
        if not valid_set_code(code):
            raise InputError(f"bad set code {quoted(code)}: {SET_CODE_RULE}")
        if code in BUNDLED:
            raise InputError(
                f"{code} is a bundled set: give another code with --code, or leave --code out to add the file's rules text to {code}"
            )

        card_sets = [
            CardSet(
                code,
                result.name or code,
                tuple(replace(card, set_code=code) for s in card_sets for card in s.cards),
                result.boosters,
                result.source,
            )
        ]
    for card_set in card_sets:
        if not valid_set_code(card_set.code):
            raise InputError(f"{quoted(str(file))}: cards without a usable set code; give one with --code XYZ")
    stored = [
        StoredSet(
            card_set.code,
            len(card_set),
            str(save_imported(card_set)),
            sorted(card_set.boosters),
            sum(any(face.text for face in card.faces) for card in card_set.cards),
        )
        for card_set in card_sets
        if card_set.code not in BUNDLED  # the bundled facts stay; what the file adds is its rules text (below)
    ]
    own = {card.set_code.upper() for card in result.cards}
    texts = [
        KeptText(code, with_text, given, bool(own - {""}) and code not in own)  # (an atomic file names no set)
        for code, (with_text, given) in keep_texts(result.cards, str(file)).items()
    ]
    mismatches = [
        IdentityMismatch(card.name, card.deck_colors.code, published.code) for card, published in result.mismatches
    ]
    return CardFileImport(result.kind, stored, texts, mismatches, result.problems)
