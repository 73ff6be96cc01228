"""The line builder's commander choices say what to type to lead as the first of them.  A player who drafts with a
screen reader heard "Commander choices ... 1 The Prismatic Piper ..." and typed 'commander 1', as the table is
numbered: 'commander' takes the pool list's numbers, so pool card 1 (an artifact) was refused as a commander at
length, and nothing said how to lead as a choice (two Pipers take 'piper white blue')."""

from __future__ import annotations

import io
import re

from rich.console import Console

from draft import deck_actions as act
from draft.deck_session import DeckSession
from draft.products import product
from events.screens import deck_commands as words
from events.screens.builder import answer_lines, choice_commands, opening_lines
from sets.catalog import load_set
from tests.helpers.products import CLB, CMM, is_background

CMR = {card.name: card for card in load_set("CMR").cards}


class Place:
    """The least a place offers the builder's words: the session."""

    def __init__(self, session: DeckSession) -> None:
        self.session = session


def said(lines, width: int = 80) -> str:
    console = Console(width=width, record=True, file=io.StringIO())
    for line in lines:
        console.print(line)
    return " ".join(console.export_text().split())


def typed_commands(text: str) -> list[str]:
    """The commands the answer says to type for choice 1, in its quotes, in order."""
    found = re.search(r"To lead as choice 1, type (.+?)\. ", text)
    assert found, text
    return re.findall(r"'([^']+)'", found.group(1))


def leads_as(session: DeckSession, commands: list[str], choice) -> None:
    """Typed in order, ``commands`` lead as ``choice`` does: its commanders, its chosen colors."""
    for line in commands:
        session.apply(words.parse(line, session))
    assert sorted(card.name for card in session.commanders) == sorted(choice.commanders), commands
    assert sorted(session.colors) == sorted(choice.piper_colors), commands


def cmr_session() -> DeckSession:
    """A CMR pool of white and blue spells, no card of it able to lead: Pipers lead it."""
    white = [c for c in CMR.values() if c.identity.code == "W" and not c.can_be_commander and not c.is_land][:12]
    blue = [c for c in CMR.values() if c.identity.code == "U" and not c.can_be_commander and not c.is_land][:12]
    pool = [*white, *blue] * 2
    return DeckSession(pool, piper=CMR["The Prismatic Piper"], name="t", save=lambda *a: None, hand_seed=1)


def clb_session(*more: str) -> DeckSession:
    """A CLB pool of a blue Background and blue spells (and ``more``): Dungeon Delver beside an added Faceless One."""
    delver = CLB["Dungeon Delver"]
    assert is_background(delver)
    spells = [c for c in CLB.values() if c.identity.code == "U" and not c.can_be_commander and not c.is_land]
    spells = [c for c in spells if not is_background(c)][:10]
    pool = [delver, *spells, *spells, *(CLB[name] for name in more)]
    return DeckSession(
        pool, piper=CLB["Faceless One"], name="t", save=lambda *a: None, hand_seed=1, product=product("CLB")
    )


def cmm_session() -> DeckSession:
    """A CMM pool of two blue legends with partner, a blue legend without, and blue spells: no added card to lead."""
    legends = [
        CMM[name] for name in ("Brinelin, the Moon Kraken", "Ghost of Ramirez DePietro", "Azami, Lady of Scrolls")
    ]
    spells = [c for c in CMM.values() if c.identity.code == "U" and not c.can_be_commander and not c.is_land][:12]
    return DeckSession(
        [*legends, *spells, *spells], piper=None, name="t", save=lambda *a: None, hand_seed=1, product=product("CMM")
    )


def test_the_opening_says_what_to_type_to_lead_as_the_first_choice_and_whose_numbers_commander_takes():
    session = cmr_session()
    first = session.suggestions(1)[0]
    assert "The Prismatic Piper" in first.commanders
    text = said(opening_lines(session, 80))
    assert "'commander N' takes your pool's numbers ('show pool'), not this list's" in text
    leads_as(session, typed_commands(text), first)


def test_suggest_says_the_commands_for_its_first_choice_too():
    session = clb_session("Safana, Calimport Cutthroat")
    first = session.suggestions(1)[0]
    text = said(answer_lines(session.apply(act.Suggest(5)), Place(session), 80))
    leads_as(session, typed_commands(text), first)


def test_every_kind_of_choice_is_led_by_its_commands():
    """Pipers alone, a legend alone, a named card beside an added one, two named cards: each choice's commands,
    typed in a fresh builder, lead as the choice does."""
    kinds = set()
    for make in (cmr_session, clb_session, lambda: clb_session("Safana, Calimport Cutthroat"), cmm_session):
        for choice in make().suggestions(5):
            added = sum(name in ("The Prismatic Piper", "Faceless One") for name in choice.commanders)
            kinds.add((len(choice.commanders), added))
            leads_as(make(), choice_commands(choice), choice)
    assert {(1, 1), (2, 1), (2, 0), (1, 0)} <= kinds, kinds  # (a CMM legend alone: (1, 0))
