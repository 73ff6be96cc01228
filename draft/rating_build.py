"""Remaking the committed ratings (``draft/data/<set>_ratings.json``) from a card list with rules text.

    python -m draft.rating_build CARDS.json > draft/data/cmr_ratings.json
    python -m draft.rating_build ../shared/data/clb/cards.json > draft/data/clb_ratings.json
    python -m draft.rating_build ../shared/data/cmm/cards.json > draft/data/cmm_ratings.json

Step 1 runs the rules of ``draft.ratings`` on each card's text (roles, then a
figure); step 2 applies a drafter's judgement by name.  For CMR that is
``JUDGEMENT``: it sets the figure of the cards the rules misjudge (bombs and top
creatures the text can't see, traps the text overrates).  Battle for Baldur's
Gate and Commander Masters are graded card by card by hand: their judgement,
``draft/data/<set>_judgement.json``, sets every card's figure (roles it adds or
drops are written ``+role`` / ``-role``), and the rules only tag the roles.
The bots read only the ratings file this writes.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from draft.ratings import PIPER, PIPER_RATING, rate, rate_text, roles_from_facts
from sets.cards import Card
from sets.catalog import load_set
from sets.importers import read_card_data, read_card_file

# A drafter's judgement on top of the rules, by name: (the rating, roles to add).  The rules read what a card does,
# not how well: a 4/2 that makes two more bodies, a flier that takes the monarchy, a ping that needs a sacrifice.
JUDGEMENT: dict[str, tuple[float, tuple[str, ...]]] = {
    # Bombs and top creatures: what wins a multiplayer game, first.
    "Akroma, Vision of Ixidor": (4.5, ("bomb",)),
    "Hellkite Courser": (4.4, ("bomb",)),
    "Archon of Coronation": (4.4, ("bomb", "monarch")),
    "Dawnglade Regent": (4.4, ("monarch", "bomb")),
    "Court of Grace": (4.0, ("bomb",)),
    "Sphinx of the Second Sun": (3.9, ("bomb",)),
    "Apex Devastator": (3.9, ("bomb",)),
    "Imperious Perfect": (3.9, ("tokens",)),
    "Exquisite Huntmaster": (3.8, ("tokens",)),
    "Noxious Dragon": (3.9, ()),
    "Port Razer": (3.9, ()),
    "Armored Skyhunter": (3.8, ()),
    "Rakshasa Debaser": (3.8, ()),
    "Sengir, the Dark Baron": (3.9, ("bomb",)),
    "Tevesh Szat, Doom of Fools": (3.9, ("bomb",)),
    "Xenagos, God of Revels": (3.9, ()),
    "Karametra, God of Harvests": (3.9, ("ramp",)),
    "Maelstrom Wanderer": (3.6, ()),
    "Opposition Agent": (3.4, ()),
    "Kodama of the East Tree": (3.4, ()),
    "Annoyed Altisaur": (3.4, ()),
    "Aurora Phoenix": (3.4, ()),
    "Palace Sentinels": (3.4, ()),
    "Thorn of the Black Rose": (3.4, ()),
    "Plague Reaver": (3.3, ()),
    "Elvish Dreadlord": (3.3, ()),
    "Amphin Mutineer": (3.3, ("removal",)),
    "Liesa, Shroud of Dusk": (3.3, ()),
    "Rakdos, Lord of Riots": (3.3, ()),
    "Kamahl, Heart of Krosa": (3.2, ()),
    "Faith's Fetters": (3.4, ("removal",)),
    "Confiscate": (2.9, ("removal",)),
    "Eyeblight Massacre": (2.9, ("wipe",)),
    "Necrotic Hex": (2.8, ("wipe",)),
    "Triumphant Reckoning": (2.7, ("recursion",)),
    "Soulfire Eruption": (2.8, ("draw",)),
    "Seraph of Dawn": (2.8, ()),
    "Volcanic Dragon": (2.8, ()),
    "Frenzied Saddlebrute": (2.8, ()),
    "Wildheart Invoker": (2.8, ()),
    "Scaled Behemoth": (2.8, ()),
    "Sifter Wurm": (2.8, ()),
    "Immaculate Magistrate": (2.8, ()),
    "Patron of the Valiant": (2.8, ()),
    "Coercive Recruiter": (2.8, ()),
    "Entourage of Trest": (2.8, ()),
    "Marath, Will of the Wild": (2.8, ()),
    "Court of Bounty": (2.8, ()),
    "Court of Ambition": (2.8, ()),
    "Nevinyrral's Disk": (2.8, ()),
    "Nevinyrral, Urborg Tyrant": (3.2, ("wipe",)),
    "Blasphemous Act": (3.3, ()),
    "Austere Command": (3.2, ()),
    "Slash the Ranks": (3.2, ()),
    "Dragon Egg": (2.2, ()),
    "Jeska, Thrice Reborn": (3.2, ("removal",)),
    "Jeska's Will": (2.8, ()),
    "Murder": (3.2, ()),
    "Akroma's Will": (2.7, ()),
    "Kamahl's Will": (2.6, ("removal",)),
    "Sakashima's Will": (2.2, ()),
    "Muldrotha, the Gravetide": (3.0, ()),
    "Profane Transfusion": (2.6, ("wipe",)),
    "Seraphic Greatsword": (2.6, ()),
    "Volcanic Torrent": (2.6, ("removal",)),
    # Marginal removal and traps: what the text overrates.
    "Bladegriff Prototype": (2.3, ()),
    "Halana, Kessig Ranger": (2.2, ()),
    "Kwain, Itinerant Meddler": (2.2, ()),
    "Averna, the Chaos Bloom": (2.2, ()),
    "Hullbreacher": (2.2, ()),
    "Malcolm, Keen-Eyed Navigator": (1.95, ()),
    "Ancient Animus": (1.9, ()),
    "Ordeal of Nylea": (1.9, ()),
    "Crushing Vines": (1.8, ()),
    "Eyeblight Assassin": (1.8, ()),
    "Livio, Oathsworn Sentinel": (1.8, ("removal",)),
    "Jeweled Lotus": (2.4, ("ramp",)),
    "Arcane Signet": (2.0, ()),
    "Commander's Sphere": (1.6, ()),
    "Perilous Myr": (1.2, ()),
    "Impulsive Pilferer": (1.2, ()),
    "Wheel of Misfortune": (1.2, ()),
    "Wrong Turn": (1.2, ("removal",)),
    "Command Tower": (1.2, ()),
    "Sisay's Ring": (1.2, ()),
    "Prophetic Prism": (1.0, ()),
    "Mask of Memory": (1.0, ()),
    "Sunset Pyramid": (1.0, ()),
    "War Room": (1.0, ()),
    "Makeshift Munitions": (0.9, ()),
    "Spectral Searchlight": (0.9, ()),
    "Furnace Celebration": (0.8, ()),
    "Seer's Lantern": (0.8, ()),
    "Universal Solvent": (0.8, ()),
    "Staff of Domination": (0.8, ()),
    "Ingenuity Engine": (0.8, ()),
    "Horizon Stone": (0.5, ()),
    "Codex Shredder": (0.5, ()),
    "Natural Reclamation": (1.2, ()),
    # Cheap bodies with a keyword the rules like more than a drafter does.
    "Elvish Doomsayer": (1.2, ()),
    "Omenspeaker": (1.2, ()),
    "Intangible Virtue": (1.2, ()),
    "Bladebrand": (1.2, ()),
    "Undying Rage": (0.9, ()),
    "Howling Golem": (0.9, ()),
    "Jalum Tome": (0.9, ()),
    "Dreamstone Hedron": (1.0, ()),
    "Armory of Iroas": (0.9, ()),
    "Amorphous Axe": (0.9, ()),
    "Brass Herald": (0.9, ()),
    "Foundry Inspector": (1.2, ()),
    "Workshop Assistant": (1.2, ()),
    "Maelstrom Colossus": (1.2, ()),
    "Loreseeker's Stone": (1.2, ()),
    "Doomed Traveler": (1.2, ()),
    "Opal Palace": (1.0, ()),
    "Rupture Spire": (1.2, ()),
    "Rings of Brighthearth": (0.5, ()),
    "Scroll Rack": (0.5, ()),
    # Monarch cards and colorless finishers: in a 40-life game of four, the card a turn and the big body that ends it
    # are worth more than the rules see.
    "Crimson Fleet Commodore": (3.2, ()),
    "Phyrexian Triniform": (3.1, ()),
    "Feast of Succession": (3.1, ()),
    "Court of Ire": (3.0, ()),
    "Fall from Favor": (2.7, ()),
    "Court of Cunning": (2.2, ()),
    "Emberwilde Captain": (3.1, ()),
    "Azure Fleet Admiral": (3.0, ()),
    "Jared Carthalion, True Heir": (2.3, ("monarch",)),
    # Legends that lead no better than the commanders every pack holds: a partner is worth its card, not its label
    # (the label counts only above the Pipers anyone may add, as the rules count it: ``draft.ratings.rate``).
    "Anara, Wolvid Familiar": (2.2, ()),
    "Toggo, Goblin Weaponsmith": (2.3, ()),
    "Gilanra, Caller of Wirewood": (2.05, ()),
    "Siani, Eye of the Storm": (1.9, ()),
    "Tormod, the Desecrator": (1.85, ()),
    "Rebbec, Architect of Ascension": (1.8, ()),
    "Esior, Wardwing Familiar": (1.85, ()),
    "Kydele, Chosen of Kruphix": (2.4, ()),
    "Tana, the Bloodsower": (3.0, ()),
    "Abomination of Llanowar": (2.5, ()),
    "Prossh, Skyraider of Kher": (3.1, ()),
    "Bell Borca, Spectral Sergeant": (2.6, ()),
    "Karador, Ghost Chieftain": (2.3, ()),
    "Colfenor, the Last Yew": (2.4, ()),
    "Captain Vargus Wrath": (2.1, ()),
    "Juri, Master of the Revue": (2.1, ()),
    "Hamza, Guardian of Arashin": (2.6, ()),
    "Krark, the Thumbless": (1.2, ()),
    "Rograkh, Son of Rohgahh": (1.0, ()),
    # Legends whose worth the rules don't read: a mana sink, a drain on every spell, a blink, a body that grows in a
    # game of four.  The rules' figure of a legend counts its label only above the Pipers (``draft.ratings.rate``);
    # these lead better than their card's text says.
    "Thrasios, Triton Hero": (2.8, ()),
    "Vial Smasher the Fierce": (2.7, ()),
    "Brago, King Eternal": (2.7, ()),
    "Ishai, Ojutai Dragonspeaker": (2.6, ()),
    "Zara, Renegade Recruiter": (2.6, ()),
    "Ravos, Soultender": (2.5, ()),
    "Prava of the Steel Legion": (2.5, ()),
    "Breeches, Brazen Plunderer": (2.5, ()),
    "Reyhan, Last of the Abzan": (2.4, ()),
    "Bruse Tarl, Boorish Herder": (2.4, ()),
    "Kangee, Sky Warden": (2.4, ()),
    "Tuya Bearclaw": (2.0, ()),
    "Sakashima of a Thousand Faces": (2.3, ()),
    "Silas Renn, Seeker Adept": (2.2, ()),
    "Alena, Kessig Trapper": (2.2, ()),
    "Akiri, Line-Slinger": (2.1, ()),
    "Armix, Filigree Thrasher": (2.1, ()),
    "Hans Eriksson": (2.1, ()),
    "Araumi of the Dead Tide": (2.0, ()),
    # Bodies and tricks: a fair creature makes a 40-life deck; a trick, a cantrip, a slow rock or a card for a theme
    # the deck lacks rarely does.
    "Ambush Viper": (2.2, ()),
    "Ancestral Blade": (2.1, ()),
    "Squad Captain": (2.2, ()),
    "Explosion of Riches": (2.0, ()),
    "Galestrike": (2.2, ()),
    "Soul's Might": (2.1, ()),
    "Armorcraft Judge": (2.1, ()),
    "Three Visits": (2.0, ()),
    "Vow of Torment": (2.1, ()),
    "Vow of Wildness": (2.0, ()),
    "Vow of Lightning": (2.1, ()),
    "Vow of Flight": (1.8, ()),
    "Captain's Call": (1.8, ()),
    "Court Street Denizen": (1.8, ()),
    "Defiant Salvager": (1.7, ()),
    "Elvish Visionary": (1.8, ()),
    "Fertilid": (1.8, ()),
    "Filigree Familiar": (1.8, ()),
    "Ivy Lane Denizen": (1.8, ()),
    "Kinsbaile Courier": (1.7, ()),
    "Phyrexian Rager": (1.9, ()),
    "Raise the Alarm": (1.7, ()),
    "Scholar of Stars": (1.8, ()),
    "Trove Tracker": (1.8, ()),
    "Bitter Revelation": (1.8, ()),
    "Inspiring Roar": (1.7, ()),
    "Portent of Betrayal": (1.7, ()),
    "Strength of the Pack": (1.8, ()),
    "Fencing Ace": (1.8, ()),
    "First Response": (1.7, ()),
    "Golem Artisan": (1.8, ()),
    "Merchant Raiders": (1.8, ()),
    "Mindless Automaton": (1.8, ()),
    "Open the Armory": (1.7, ()),
    "Skilled Animator": (1.8, ()),
    "Angelic Armaments": (1.8, ()),
    "Pirate's Cutlass": (1.6, ()),
    "Grafted Wargear": (1.6, ()),
    "Mnemonic Deluge": (1.8, ()),
    "Radiant, Serra Archangel": (2.7, ()),
    "Brinelin, the Moon Kraken": (2.6, ()),
    "Aven Surveyor": (2.0, ()),
    "Soul of Eternity": (2.1, ()),
    "Meteor Golem": (2.2, ()),
    "Eyeblight Cullers": (2.1, ()),
    "Supreme Will": (2.2, ()),
    "Victimize": (2.2, ()),
    "Nightshade Harvester": (2.1, ()),
    "Anointer of Valor": (2.2, ()),
    "Laboratory Drudge": (2.1, ()),
    "Sailor of Means": (2.2, ()),
    "Burnished Hart": (2.0, ()),
    "Daring Saboteur": (2.1, ()),
    "Prosperous Pirates": (2.2, ()),
    "Deranged Assistant": (2.2, ()),
    "Sandstone Oracle": (2.0, ()),
    "Skaab Goliath": (2.1, ()),
    "Promise of Tomorrow": (1.3, ()),
    "Reshape the Earth": (1.2, ()),
    "Make a Stand": (1.1, ()),
    "Corpse Churn": (1.0, ()),
    "Dragon Mantle": (1.1, ()),
    "Lifecrafter's Gift": (1.1, ()),
    "Preordain": (1.0, ()),
    "Renegade Tactics": (0.8, ()),
    "Run Away Together": (1.1, ()),
    "Scholar of the Ages": (1.2, ()),
    "Spontaneous Mutation": (1.1, ()),
    "Strategic Planning": (0.8, ()),
    "Supernatural Stamina": (1.1, ()),
    "Wildsize": (1.1, ()),
    "Angelic Gift": (1.1, ()),
    "Aqueous Form": (0.9, ()),
    "Armillary Sphere": (1.1, ()),
    "Charcoal Diamond": (1.1, ()),
    "Fire Diamond": (1.1, ()),
    "Marble Diamond": (1.1, ()),
    "Moss Diamond": (1.1, ()),
    "Sky Diamond": (1.1, ()),
    "Thought Vessel": (1.1, ()),
    "Flood of Recollection": (1.0, ()),
    "Ninth Bridge Patrol": (1.1, ()),
    "Pilgrim's Eye": (1.1, ()),
    "Rummaging Goblin": (1.1, ()),
    "Sanitarium Skeleton": (1.1, ()),
    "Scrounging Bandar": (1.1, ()),
    "Shimmer Myr": (1.1, ()),
    "Viscera Seer": (1.1, ()),
    "Siren Stormtamer": (1.3, ()),
    # Lands that fix little: a land, not a pick.
    "Spectator Seating": (1.5, ()),
    "Training Center": (1.5, ()),
    "Undergrowth Stadium": (1.5, ()),
    "Vault of Champions": (1.5, ()),
    "Terramorphic Expanse": (1.5, ()),
    "Path of Ancestry": (1.3, ()),
}


# Commander Masters draft lets any two mono-colored legends lead together as though they had partner (the
# product's grant): in that set's figures such a legend carries the partner tag.
MONO_COLORED_PAIRS = frozenset({"CMM"})


def build_entries(
    cards: list[Card], judgement: dict[str, tuple[float, tuple[str, ...]]] | None = None, *, by_hand: bool = False
) -> dict[str, dict[str, Any]]:
    """Ratings and roles for cards that carry rules text (step 1 and 2 of the module docstring).

    ``judgement``: by name, a figure and the roles it adds (``-role`` drops one); CMR's ``JUDGEMENT`` when not
    given.  ``by_hand``: every card must be judged (a set graded card by card)."""
    judgement = JUDGEMENT if judgement is None else judgement
    entries: dict[str, dict[str, Any]] = {}
    for card in cards:
        text = "\n".join(face.text for face in card.faces if face.text)
        if card.name == PIPER:
            entries[card.name] = {"rating": PIPER_RATING, "roles": []}
            continue
        rating, roles = rate_text(card, text) if text else (rate(card, roles_from_facts(card)), roles_from_facts(card))
        if card.set_code in MONO_COLORED_PAIRS and "commander" in roles and len(card.identity) == 1:
            roles = tuple(dict.fromkeys(roles + ("partner",)))
        judged = judgement.get(card.name)
        if judged is None and by_hand:
            raise ValueError(f"{card.name!r} has no hand judgement: add it to the set's judgement file")
        if judged is not None:
            dropped = {role[1:] for role in judged[1] if role.startswith("-")}
            added = tuple(role for role in judged[1] if not role.startswith("-"))
            rating, roles = judged[0], tuple(role for role in dict.fromkeys(roles + added) if role not in dropped)
        entries[card.name] = {"rating": round(max(0.1, rating), 2), "roles": list(roles)}
    return entries


def _load_cards(path: str) -> list[Card]:
    """The bundled CMR cards with the rules text of a card file (any file ``sets import`` reads)."""
    texts = {card.name: card for card in read_card_file(path).cards}
    cards = []
    for card in load_set("CMR"):
        source = texts.get(card.name)
        if source is not None:
            card = replace(
                card,
                faces=tuple(
                    replace(face, text=source.faces[i].text if i < len(source.faces) else "")
                    for i, face in enumerate(card.faces)
                ),
            )
        cards.append(card)
    return cards


def load_list(path: str | Path) -> list[Card]:
    """The cards of a plain card list (``shared/data/<set>/cards.json``) with their rules text.  An Adventure card
    is listed as one line with both halves' costs and types (``{3}{W} // {W}``): its card keeps the creature or
    artifact half's, and the whole name.  Colors written run together (``["RW"]``) are read letter by letter."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    for obj in data["cards"]:
        obj["colors"] = [letter for colors in obj.get("colors") or () for letter in colors]
        for key in ("mana_cost", "type_line"):
            if " // " in (obj.get(key) or ""):
                obj[key] = obj[key].split(" // ")[0]
    return read_card_data(data, str(path)).cards


def judgement_of(code: str) -> dict[str, tuple[float, tuple[str, ...]]]:
    """A hand-graded set's judgement (``draft/data/<set>_judgement.json``), by name: (figure, roles +/-)."""
    text = resources.files("draft").joinpath("data", f"{code.lower()}_judgement.json").read_text(encoding="utf-8")
    judged: dict[str, tuple[float, tuple[str, ...]]] = {}
    for name, entry in json.loads(text)["cards"].items():
        figure, *roles = entry if isinstance(entry, list) else [entry]
        judged[name] = (float(figure), tuple(role.lstrip("+") for role in roles))
    return judged


def build_set(path: str) -> tuple[str, dict[str, dict[str, Any]]]:
    """(set code, entries) from a card file: the bundled CMR cards with its text, or a hand-graded set's list."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    named = data.get("set") if isinstance(data, dict) else None
    code = str((named.get("code") if isinstance(named, dict) else named) or "").upper()
    if code in ("", "CMR"):
        return "CMR", build_entries(_load_cards(path))
    return code, build_entries(load_list(path), judgement_of(code), by_hand=True)


def main(argv: list[str]) -> int:
    if argv[:1] == ["build"]:
        argv = argv[1:]  # the old spelling, ``build CARDS.json``
    if len(argv) != 1:
        print("usage: python -m draft.rating_build CARDS.json > draft/data/<set>_ratings.json", file=sys.stderr)
        return 2
    code, entries = build_set(argv[0])
    document = {
        "format": "cmdraft-ratings/1",
        "set": code,
        "scale": "about 0-5 for a 4-player Commander draft deck; roles are tags, no rules text",
        "cards": dict(sorted(entries.items())),
    }
    print(json.dumps(document, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
