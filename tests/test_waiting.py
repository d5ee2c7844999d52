"""Which seats the rules wait on: one contract (`GameSpec.waiting_on`) for every game's "Your turn"."""

from __future__ import annotations

import pytest
from webfixtures import changed

from companion.core import registry
from companion.core.session import NEW_GAME, advance
from companion.gamekit.draws import Draws


@pytest.mark.parametrize("name", registry.names())
def test_every_game_says_whom_it_waits_on_its_actor_by_default(name):
    session, _ = advance(None, NEW_GAME, None, {"game": name}, Draws())
    spec, state = session.spec, session.state
    actor = spec.actor(state)
    assert spec.waiting_on(state) == ([] if actor is None else [actor])
    if name == "dice":
        assert spec.waiting_on(state) == []  # anyone may roll: nobody is waited on
    else:
        assert spec.waiting_on(state) == [0] or len(spec.waiting_on(state)) == 1


def test_a_game_waiting_on_several_seats_says_so_in_seat_order():
    spec = changed(registry.get("crash"), waiting=lambda state: {2, 0})
    session, _ = advance(None, NEW_GAME, None, {"game": "crash"}, Draws())
    assert spec.waiting_on(session.state) == [0, 2]
