"""The table's check of what a spec declares, asserted at one moment of a game (each game's properties
call it at every step of random legal play)."""

from __future__ import annotations

import pytest

from companion.gamekit.contract import Command, GameSpec, IllegalMove
from companion.gamekit.draws import Draws


def assert_enforced(spec: GameSpec, state, seats: int) -> None:
    """For the table and each of `seats` at `state`: nothing is legal once the game is over; every kind
    `legal` leaves out is refused before the rules run (an IllegalMove, with no draw taken); every legal
    kind passes the table's check and acts for the sender, or the actor for a command of the table."""
    for seat in (None, *range(seats)):
        legal = spec.legal(state, seat)
        assert set(legal) <= set(spec.commands), f"seat {seat}: legal {legal} names an unknown kind"
        assert not (spec.over(state) and legal), f"seat {seat}: {legal} legal once the game is over"
        for kind in spec.commands:
            command = Command(kind, {}, seat)
            if kind in legal:
                assert spec.check(state, command).seat == (spec.actor(state) if seat is None else seat)
            else:
                with pytest.raises(IllegalMove):
                    spec.play(state, command, Draws([]))  # a draw would raise DrawsExhausted instead
