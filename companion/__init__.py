"""Table companion: a Raspberry Pi that keeps the dice, secrets and scores of a board game."""

__version__ = "0.1.0"
