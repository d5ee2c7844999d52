"""How long a rally lasts at a table: a model fitted to seeded simulated games, shipped as length.toml.

`tests/bench_rallye_length.py` plays the games (seeded, every legal move drawn at random, the answer windows
closed by the table when nobody answers), counts what the table waits for, and writes the fit. Time at a
table is modelled from those counts: a roll (roll, move the pawn, read the card) takes `roll` seconds, an
answer window `window` seconds (the victims of one effect answer together), any other command `other`.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from companion.games.rallye.layout import passage_count


@dataclass(frozen=True)
class Pace:
    roll: float  # seconds per roll
    window: float  # seconds per answer window
    other: float  # seconds per other command


@cache
def model() -> dict:
    return tomllib.loads(files("companion.games.rallye").joinpath("length.toml").read_text(encoding="utf-8"))


def pace() -> Pace:
    return Pace(**model()["pace"])


def size(route_cards: int, laps: int) -> int:
    """What a rally's length grows with: laps times the cards of the circuit (passages included)."""
    return laps * (route_cards + passage_count(route_cards))


def expected_minutes(players: int, route_cards: int, laps: int) -> int:
    """The expected length of a rally, in minutes, rounded to 5."""
    fit = model()["players"][str(players)]
    minutes = fit["per_card_lap"] * size(route_cards, laps) + fit["fixed"]
    return max(5, 5 * round(minutes / 5))


def suggestion(players: int) -> tuple[int, int] | None:
    """Shorter settings (route cards, laps) for a large table, or None when the defaults suit it."""
    shorter = model().get("suggested", {}).get(str(players))
    return (shorter["route_cards"], shorter["laps"]) if shorter else None


def schema_hint() -> dict:
    """The host form's estimate, as an `x-length` keyword of the players option's JSON Schema: the expected
    minutes for every setting (players, route cards, laps) and, per large table, shorter settings."""
    from companion.games.rallye.layout import MAX_PLAIN, MIN_PLAIN

    minutes = {f"{p},{c},{laps}": expected_minutes(p, c, laps) for p in range(2, 7)
               for c in range(MIN_PLAIN, MAX_PLAIN + 1) for laps in range(1, 5)}
    shorter = {str(p): {"route_cards": s[0], "laps": s[1]} for p in range(2, 7) if (s := suggestion(p))}
    return {"x-length": {"by": ["players", "route_cards", "laps"], "minutes": minutes, "shorter": shorter}}
