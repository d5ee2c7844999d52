"""Crash!: random legal play keeps every car, cell and junkyard right, and always ends (hypothesis)."""

from __future__ import annotations

import msgspec
import pytest
from crash_play import game, random_command
from enforced import assert_enforced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.gamekit import ScriptedDraws
from companion.gamekit.contract import Command
from companion.games.crash import SPEC, rules, views
from companion.games.crash.board import CARS, PLAYERS, car_of

ALL_CARS = set(range(PLAYERS * CARS))


def check(state: rules.State) -> None:
    """What must hold in every state."""
    junked = [i for junk in state.junk for i in junk]
    playing = [i for i, car in enumerate(state.cars) if car is not None]
    # Cars are conserved: each is in play, in one junkyard, or out, exactly once.
    assert sorted(playing + junked + list(state.out)) == sorted(ALL_CARS)
    board = state.board
    cells = [state.cars[i].cell for i in playing]
    if state.dice_only:
        assert cells == [None] * len(playing)
    else:
        assert len(set(cells)) == len(cells), "two cars share a cell"
        for i in playing:
            cell = state.cars[i].cell
            assert board.is_road(cell) or cell == board.garages[i].cell, (i, cell)
    counts = [rules.in_play(state, s) for s in range(PLAYERS)]
    if state.phase == rules.OVER:
        assert state.result is not None and state.dice == ()
        assert (min(counts) == 0) == (state.result.reason == "no_cars")
    else:
        assert state.result is None and min(counts) > 0
        assert state.stall_turns == 0 or state.quiet < state.stall_turns
    assert len(state.dice) == (rules.DICE if state.phase == rules.STEER else 0)
    for die in state.dice:
        assert 1 <= die.value <= 6 and not (die.used and die.lost)
        assert die.first is not None or not die.lost
    match = state.match
    assert sum(match.wins) + match.draws == match.played <= match.games
    check_view(state, playing, counts)


def check_view(state: rules.State, playing: list[int], counts: list[int]) -> None:
    view = views.public_view(state)
    assert msgspec.convert(msgspec.to_builtins(view), views.PublicView) == view
    assert msgspec.json.decode(msgspec.json.encode(view), type=views.PublicView) == view
    on_cells = {(c.q, c.r): (c.car.seat, c.car.car) for c in view.cells if c.car is not None}
    shown = {(c.q, c.r): (c.seat, c.car) for c in view.cars if c.status == "board" and c.q is not None}
    assert on_cells == shown
    assert [p.in_play for p in view.players] == counts
    for p in view.players:
        assert p.in_play + p.out + p.taken == CARS and sum(p.captured_colours) == p.captured
    assert [j.count for j in view.junkyards] == [len(j) for j in state.junk]
    assert sum(c.status in ("board", "waiting") for c in view.cars) == len(playing)
    assert {(m.seat, m.car) for m in view.moved} == {car_of(i) for i in state.moved}
    assert view.actor == rules.actor(state) and view.legal == rules.legal(state, None)
    for seat in range(PLAYERS):
        private = views.private_view(state, seat)
        assert msgspec.convert(msgspec.to_builtins(private), views.PrivateView) == private


def check_step(old: rules.State, new: rules.State, kind: str) -> None:
    """What must hold from one state to the next within a game."""
    if kind == "next_game":
        assert new.match.played == old.match.played and new.first == 1 - old.first
        return
    for seat in range(PLAYERS):  # a junkyard only fills
        assert new.junk[seat][:len(old.junk[seat])] == old.junk[seat]
    changed = {i for i in ALL_CARS if old.cars[i] != new.cars[i] and (
        old.cars[i] is None or new.cars[i] is None or old.cars[i].cell != new.cars[i].cell)}
    assert changed <= set(new.moved), "a car moved without being marked"
    if kind in ("roll", "turn"):
        assert changed == set() and new.moved == ()


# A long game can outgrow hypothesis's buffer: such an example is dropped (data_too_large), not failed.
@settings(deadline=None, max_examples=120,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_random_legal_play_keeps_every_invariant_and_every_match_ends(data):
    """At every step too, the table refuses exactly the kinds `legal` leaves out (tests/enforced.py)."""
    options = data.draw(st.fixed_dictionaries({
        "first": st.sampled_from([0, 1]), "sixty": st.booleans(), "games": st.sampled_from([1, 2]),
        # Mostly board play, the richer game; stall stops up to 12 let most board games run out of cars.
        "dice_only": st.sampled_from([False, False, False, True]), "stall_turns": st.integers(1, 12)}),
        label="options")

    def pick(items):
        return data.draw(st.sampled_from(list(items)))

    draws = ScriptedDraws(pick=lambda n: pick(range(n)))
    state = game(**options)
    check(state)
    # The proven bound (test_crash_rules): 12 * stall_turns turns a game, each of at most five commands
    # (roll, three manoeuvres, end), plus up to twelve mark_out and one next_game.
    limit = options["games"] * (5 * 12 * options["stall_turns"] + 13)
    for _ in range(limit):
        assert_enforced(SPEC, state, PLAYERS)
        if state.phase == rules.OVER and state.match.over:
            break
        command = random_command(state, pick)
        new, events = SPEC.play(state, command, draws)
        check(new)
        check_step(state, new, command.kind)
        assert msgspec.json.decode(msgspec.json.encode(events)) == events  # plain JSON
        state = new
    assert state.phase == rules.OVER and state.match.over, "the match did not end within the bound"
    assert state.match.played == options["games"]


@pytest.mark.parametrize("first", [0, 1])
def test_a_match_alternates_the_first_player(first):
    state = game(games=4, first=first, stall_turns=1)
    firsts = []
    while True:
        firsts.append(state.first)
        state, _ = SPEC.play(state, Command("roll"), ScriptedDraws(pick=lambda n: 0))
        state, _ = SPEC.play(state, Command("end"), ScriptedDraws(pick=lambda n: 0))
        assert state.result == rules.Result(None, "stalled")
        if state.match.over:
            break
        state, _ = SPEC.play(state, Command("next_game"), ScriptedDraws(pick=lambda n: 0))
    assert firsts == [first, 1 - first, first, 1 - first] and state.match.draws == 4
