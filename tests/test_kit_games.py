"""Every bundled game, and Twenty-one shipped as its own package, passes the conformance kit authors run.

The kit plays random legal games through `spec.play`: the games that hide something get their twin builders
(tests/twins.py), and the games whose args are hard to guess the random players of tests/*_play.py.
"""

from __future__ import annotations

import sys
from pathlib import Path

import crash_play
import gewalt_play
import pytest
import rallye_play
import schacht_play
import twins

from companion.core import registry
from companion.gamekit.testing import check_game

sys.path.insert(0, str(Path(__file__).resolve().parent / "tinygame"))
import twentyone  # noqa: E402  (a game shipped as its own package: importable from its folder)


def table_only(random_command):
    """`moves` from a random player that sends the table's commands (or picks its own seat)."""
    return lambda state, seat, rng: [random_command(state, rng)] if seat is None else []


def rallye_moves(state, seat, rng):
    return [command for group in rallye_play.groups(state) for command in group if command.seat == seat]


def twin_of(seat_twin, table_twin=None):
    """A kit's `twin` from a builder of one seat's twins, and one of the table's own secrets if it has any."""
    def twin(state, seat, rng):
        if seat is None:
            return table_twin(state, rng) if table_twin is not None else None
        return seat_twin(state, seat, rng)
    return twin


KITS = {
    "dice": {"max_steps": 150},  # free dice never end: a game is this many commands
    "twentyone": {},
    # Stall stops that let random play end; 0 (never) is no game for random players.
    "crash": {"options": [{"stall_turns": n, "games": g} for n in (1, 4, 12) for g in (1, 2)],
              "moves": lambda state, seat, rng: crash_play.legal_commands(state) if seat is None else []},
    "gewalt": {"moves": table_only(gewalt_play.random_command),
               "twin": twin_of(twins.gewalt_twin, twins.gewalt_table_twin)},
    "schacht": {"moves": table_only(schacht_play.random_command),
                "twin": twin_of(twins.schacht_twin, twins.schacht_table_twin)},
    "rallye": {"options": {"laps": 1, "route_cards": 10}, "moves": rallye_moves,
               "twin": twin_of(twins.rallye_twin, twins.rallye_table_twin)},
}


def spec_of(name: str):
    return twentyone.SPEC if name == "twentyone" else registry.get(name)


def test_every_game_installed_has_a_kit_run():
    assert set(registry.names()) | {"twentyone"} == set(KITS)


@pytest.mark.parametrize("name", sorted(KITS))
def test_the_game_passes_the_kit(name):
    check_game(spec_of(name), **KITS[name])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(KITS))
def test_the_game_passes_a_deeper_kit_run(name):
    kit = dict(KITS[name])
    if name == "rallye":
        kit["options"] = [{"laps": 1}, {"laps": 2, "route_cards": 16}]
    check_game(spec_of(name), **kit, examples=40, stops=6)
