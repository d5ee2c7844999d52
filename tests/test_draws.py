"""Draws: OS randomness recorded at command time and replayed exactly."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.gamekit.draws import Draws, DrawsExhausted


@given(st.lists(st.integers(1, 50), min_size=1, max_size=30))
def test_live_below_is_in_range_and_recorded(bounds):
    draws = Draws()
    values = [draws.below(n) for n in bounds]
    assert all(0 <= v < n for v, n in zip(values, bounds, strict=True))
    assert draws.taken == values


@given(st.integers(1, 100))
def test_die_is_between_one_and_its_sides(sides):
    draws = Draws()
    faces = [draws.die(sides) for _ in range(50)]
    assert all(1 <= f <= sides for f in faces)
    assert draws.taken == [f - 1 for f in faces]


def test_a_six_sided_die_shows_every_face_eventually():
    # Not a statistics test: 2000 live rolls missing a face has probability ~6 * (5/6)**2000.
    faces = Counter(Draws().die(6) for _ in range(2000))
    assert set(faces) == {1, 2, 3, 4, 5, 6}


@given(st.lists(st.integers(), max_size=40))
def test_shuffled_is_a_permutation_and_leaves_the_input_alone(items):
    original = list(items)
    out = Draws().shuffled(items)
    assert Counter(out) == Counter(original)
    assert items == original
    assert out is not items


@given(st.lists(st.integers(1, 6), min_size=1, max_size=20))
def test_replaying_recorded_draws_repeats_them(sides):
    live = Draws()
    first = [live.die(s) for s in sides]
    deck = live.shuffled(range(10))
    again = Draws(live.taken)
    assert [again.die(s) for s in sides] == first
    assert again.shuffled(range(10)) == deck
    assert again.taken == live.taken


def test_replay_uses_exactly_the_recorded_values():
    draws = Draws([2, 0, 5])
    assert [draws.die(6), draws.die(6), draws.die(6)] == [3, 1, 6]


def test_shuffle_replays_a_known_order():
    # Fisher-Yates from the end: i=3 swaps with 0, i=2 with 2, i=1 with 0.
    assert Draws([0, 2, 0]).shuffled("abcd") == ["b", "d", "c", "a"]


def test_replay_runs_out():
    draws = Draws([1])
    draws.below(6)
    with pytest.raises(DrawsExhausted):
        draws.below(6)


def test_empty_record_runs_out_at_once():
    with pytest.raises(DrawsExhausted):
        Draws([]).die(6)


def test_recorded_value_out_of_range_is_refused():
    with pytest.raises(DrawsExhausted, match="outside"):
        Draws([6]).below(6)
    with pytest.raises(DrawsExhausted):
        Draws([-1]).below(6)


def test_the_record_is_copied_not_aliased():
    record = [1, 2]
    draws = Draws(record)
    record.clear()
    assert draws.below(6) == 1


@pytest.mark.parametrize("n", [0, -1])
def test_nothing_below_one(n):
    with pytest.raises(ValueError):
        Draws().below(n)


def test_shuffling_one_or_no_items_draws_nothing():
    draws = Draws([])
    assert draws.shuffled([]) == []
    assert draws.shuffled(["x"]) == ["x"]
    assert draws.taken == []
