"""A store event, one module per step of the night: registration, seating, drafting, pools, Pipers, decks, rounds, standings, the game tracker, undo, the history and seat codes."""
