"""Crazy Race (Schacht): random legal play keeps cards, points, lanes and secrets right (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from enforced import assert_enforced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schacht_play import public_view, random_command, start

from companion.gamekit import ScriptedDraws
from companion.games.schacht import SPEC
from companion.games.schacht.data import MODELS
from companion.games.schacht.rules import Placement, played_out
from companion.games.schacht.track import space


def hidden_values_changed(state):
    """The same state with every secret value replaced: hands, discards and unrevealed cards."""
    revealed = {o.side for o in state.outcomes}
    bids = tuple(side if i in revealed else tuple(Placement(p.seat, 99) for p in side)
                 for i, side in enumerate(state.bids))
    return replace(state, bids=bids, hands=tuple((99,) * len(h) for h in state.hands),
                   discards=tuple((98,) * len(d) for d in state.discards))


def check(state, first) -> None:
    # Per colour, the 8 driver cards are in hand, in the discards, or beside this stage's card.
    on_table = state.phase in ("bid", "decide")
    for seat in range(state.players):
        cards = Counter(state.hands[seat]) + Counter(state.discards[seat])
        if on_table:
            cards += Counter(p.value for side in state.bids for p in side if p.seat == seat)
        assert cards == Counter(state.deck.drivers), f"seat {seat} cards: {cards}"
    # Points held equal the cards gone from the piles.
    held = Counter(v for p in state.points for v in p)
    gone = Counter(first.turntable) - Counter(state.turntable) + Counter(first.finish) - Counter(state.finish)
    assert held == gone
    # Locos of one lane never share a space.
    for lane in state.lanes:
        spaces = [space(p) for p in lane if space(p) is not None]
        assert len(spaces) == len(set(spaces)), lane
    # Once every seat has recalled and played out its hand, the stage is evaluated and the game ends:
    # no take-back, no review, no further stage.
    if played_out(state):
        assert state.phase in ("decide", "over"), state.phase
    # No secret value reaches the public view before its side is evaluated.
    assert public_view(state) == public_view(hidden_values_changed(state))


@settings(max_examples=60, deadline=None)
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**32 - 1),
       variants=st.fixed_dictionaries({v: st.booleans() for v in (
           "shuffled_piles", "steal_second_home", "fewer_points", "end_penalty", "next_lower_wins")}))
def test_random_legal_play_keeps_every_invariant(players, seed, variants):
    rng = random.Random(seed)
    draws = ScriptedDraws(rng)
    state = start({"players": players, **variants}, draws)
    first = state
    for _ in range(400):
        check(state, first)
        if state.phase == "over":
            break
        state, _events = SPEC.play(state, random_command(state, rng), draws)
    assert state.phase == "over", "a game of 8 stages ends"
    assert max(state.final.scores) >= 0 and set(state.final.winners) <= set(range(players))
    if "end_penalty" not in state.variants:
        assert state.final.scores == tuple(sum(p) for p in state.points)
    assert all(len(lane) == len(MODELS) for lane in state.lanes)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4]), choices=st.data())
def test_the_table_refuses_exactly_the_kinds_legal_leaves_out(players, choices):
    """At every step of a random game, from its start to its end (tests/enforced.py)."""
    rng = choices.draw(st.randoms(use_true_random=False))
    draws = ScriptedDraws(rng.randrange(2**32))
    state = start({"players": players}, draws)
    for _ in range(400):
        assert_enforced(SPEC, state, players)
        if SPEC.over(state):
            break
        state, _events = SPEC.play(state, random_command(state, rng), draws)
    assert SPEC.over(state), "a game of 8 stages ends"
