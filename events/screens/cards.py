"""Reading a card on demand: '? N', 'show N' or 'card NAME' at the pick prompt and in the deck builder."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from events.screens.render import card_panel
from sets.cards import Card, normalize_name
from sets.errors import InputError
from sets.numbers import is_number
from sets.visible import quoted

HELP_CARD = "? N, show N or card NAME: a card's full facts and rules text"


def card_request(line: str) -> str | None:
    """What a line asks to read ('3', 'murder'), or None when it asks something else.

    '? N' and 'card NAME' take a number or a name; 'show N' only a number
    (the builder's 'show pool' and 'show deck' stay what they are).
    """
    text = line.strip()
    if text.startswith("?"):
        return text[1:].strip() or None
    verb, _, rest = text.partition(" ")
    rest = rest.strip()
    if verb.lower() == "card" and rest:
        return rest
    if verb.lower() == "show" and is_number(rest):
        return rest
    return None


def find_card(asked: str, numbered: list[Card], where: str) -> Card:
    """The card a player means: a number in ``numbered``, a name there, or any known card's name."""
    if is_number(asked):
        number = int(asked)
        if not 1 <= number <= len(numbered):
            raise InputError(f"there is no card {number} in {where}: choose 1 to {len(numbered)}")
        return numbered[number - 1]
    key = normalize_name(asked)
    for test in (lambda name: name == key, lambda name: name.startswith(key), lambda name: key in name):
        found = {card.name: card for card in numbered if test(normalize_name(card.name))}
        if len(found) == 1:
            return next(iter(found.values()))
        if len(found) > 1:
            raise InputError(
                f"{quoted(asked)} names {' / '.join(sorted(found))} in {where}: type more of the name or its number"
            )
    from sets.card_index import card_index

    return card_index().find_start(asked)


def show_card(console: Console, asked: str, numbered: list[Card], where: str) -> None:
    """Print the card's full facts, or why it can't be found."""
    try:
        card = find_card(asked, numbered, where)
    except InputError as error:
        console.print(Text(str(error), style="red"), soft_wrap=True)  # one line, the terminal wraps it
        return
    console.print(card_panel(card))
