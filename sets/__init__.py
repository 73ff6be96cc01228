"""What is in the packs: cards, colors, color identity, set data and boosters.

This package is pure: no terminal output, no storage, no randomness of its own.
"""
