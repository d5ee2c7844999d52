"""Free dice rules: invariants under random legal play, replay determinism, purity."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path

import pytest
from enforced import assert_enforced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.session import NEW_GAME, UNDO, Setup, advance, replay
from companion.core.table import Table
from companion.gamekit.contract import MAX_SEATS, Command, IllegalMove
from companion.gamekit.draws import Draws, DrawsExhausted
from companion.games import dice
from companion.games.dice import rules
from companion.games.dice.controls import CONTROLS, dice_shown
from companion.games.dice.rules import MAX_DICE, MIN_DICE, SHOWN_HISTORY, DiceOptions, DiceState
from companion.storage.store import Record, Store


def public(state: DiceState) -> dict:
    return dice.SPEC.public_json(state)

counts = st.integers(MIN_DICE, MAX_DICE)
steps = st.one_of(
    st.just(("roll", {})),
    counts.map(lambda n: ("set_dice", {"count": n})),
    st.just((UNDO, {})),
)
plays = st.lists(steps, max_size=40)
states = st.builds(
    DiceState,
    count=counts,
    rolls=st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=3).map(tuple), max_size=15).map(tuple),
)


class Model:
    """What the table should hold: a stack of (count, rolls) snapshots, one per applied command."""

    def __init__(self, count: int):
        self.stack = [(count, ())]

    @property
    def count(self) -> int:
        return self.stack[-1][0]

    @property
    def rolls(self) -> tuple:
        return self.stack[-1][1]

    def can(self, kind: str) -> bool:
        return kind != UNDO or len(self.stack) > 1

    def step(self, kind: str, args: dict, events: list[dict]) -> None:
        if kind == UNDO:
            self.stack.pop()
        elif kind == "roll":
            (event,) = events
            self.stack.append((self.count, (*self.rolls, tuple(event["dice"]))))
        else:
            self.stack.append((args["count"], self.rolls))


def check_view(view: dict, model: Model) -> None:
    """Every invariant of the public view, against the model."""
    assert view["count"] == model.count
    assert view["rolls"] == len(model.rolls)
    assert all(1 <= d <= 6 for roll in model.rolls for d in roll)
    assert view["last"] == (list(model.rolls[-1]) if model.rolls else [])
    assert view["total"] == sum(view["last"])
    history = view["history"]
    assert len(history) == min(len(model.rolls), SHOWN_HISTORY)
    assert [h["n"] for h in history] == list(range(len(model.rolls), len(model.rolls) - len(history), -1))
    assert [tuple(h["dice"]) for h in history] == list(reversed(model.rolls))[:SHOWN_HISTORY]
    assert all(h["total"] == sum(h["dice"]) for h in history)
    if history:
        assert history[0]["dice"] == view["last"]


@given(counts, plays)
def test_random_play_through_advance_keeps_every_invariant_and_replays_exactly(start, play):
    draws = Draws()
    session, _ = advance(None, NEW_GAME, None, {"game": "dice", "options": {"count": start}}, draws)
    records = [Record(1, NEW_GAME, None, {"game": "dice", "options": {"count": start}}, draws.taken)]
    model = Model(start)
    for kind, args in play:
        assert_enforced(dice.SPEC, session.state, MAX_SEATS)  # any seat may roll or change the dice, always
        draws = Draws()
        if not model.can(kind):
            with pytest.raises(IllegalMove):
                advance(session, kind, None, args, draws)
            continue
        count_before = model.count
        session, events = advance(session, kind, None, args, draws)
        if kind == "roll":
            assert len(events[0]["dice"]) == count_before
            assert draws.taken == [d - 1 for d in events[0]["dice"]]
        else:
            assert draws.taken == []
        model.step(kind, args, events)
        records.append(Record(len(records) + 1, kind, None, args, draws.taken))
        check_view(public(session.state), model)

    again, version = replay(records)
    assert version == len(records)
    assert again.state == session.state
    assert public(again.state) == public(session.state)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(counts, plays)
def test_random_play_through_the_table_keeps_every_invariant_and_survives_restart(start, play):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table.db"
        store = Store(path)
        table = Table(store, Setup(options={"dice": {"count": start}})).start()
        model = Model(start)
        accepted = 0
        try:
            assert not table.call(Command("no_such_command")).ok  # waits for the opening new game
            assert table.version == 1
            for kind, args in play:
                count_before = model.count
                result = table.call(Command(kind, args))
                assert result.ok == model.can(kind), result.error
                if not result.ok:
                    assert result.version == table.version == accepted + 1
                    continue
                accepted += 1
                assert result.version == accepted + 1
                events = table.latest.events
                if kind == "roll":
                    assert len(events[0]["dice"]) == count_before
                model.step(kind, args, events)
                check_view(table.latest.public, model)
            view, version = table.latest.public, table.version
        finally:
            table.stop()
            store.close()

        store = Store(path)
        try:
            reopened = Table(store)
            assert (reopened.version, reopened.latest.public) == (version, view)
        finally:
            store.close()


@given(states, st.lists(st.integers(0, 5), min_size=MAX_DICE, max_size=MAX_DICE + 3))
def test_roll_is_pure_and_uses_only_its_draws(state, recorded):
    frozen = copy.deepcopy(state)
    first, first_events = dice.SPEC.play(state, Command("roll"), Draws(recorded))
    second, second_events = dice.SPEC.play(state, Command("roll"), Draws(recorded))
    assert state == frozen
    assert (first, first_events) == (second, second_events)
    faces = tuple(v + 1 for v in recorded[:state.count])
    assert first.rolls[-1] == faces
    assert public(first) == public(DiceState(state.count, (*state.rolls, faces), state.earlier))
    assert len(first.rolls) <= SHOWN_HISTORY  # undo keeps every state: each must stay small
    assert first_events == [{"type": "rolled", "dice": list(faces)}]


@given(states)
def test_a_roll_asks_for_exactly_count_draws(state):
    with pytest.raises(DrawsExhausted):
        dice.SPEC.play(state, Command("roll"), Draws([0] * (state.count - 1)))
    draws = Draws([0] * state.count)
    dice.SPEC.play(state, Command("roll"), draws)
    assert len(draws.taken) == state.count


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.floats(allow_nan=False) | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=5,
)


@given(states, json_values)
def test_set_dice_accepts_exactly_the_whole_numbers_one_to_three(state, count):
    frozen = copy.deepcopy(state)
    allowed = type(count) is int and MIN_DICE <= count <= MAX_DICE
    draws = Draws([])
    if allowed:
        new, events = dice.SPEC.play(state, Command("set_dice", {"count": count}), draws)
        assert new == DiceState(count, state.rolls, state.earlier)
        assert events == [{"type": "dice_count", "count": count}]
    else:
        with pytest.raises(IllegalMove) as info:
            dice.SPEC.play(state, Command("set_dice", {"count": count}), draws)
        assert info.value.params["kind"] == "set_dice" and info.value.params["field"] == "count"
    assert state == frozen


@given(states, st.text(min_size=1, max_size=10).filter(lambda k: k not in {"roll", "set_dice"}))
def test_unknown_commands_are_refused_by_name(state, kind):
    with pytest.raises(IllegalMove) as info:
        dice.SPEC.play(state, Command(kind), Draws([]))
    assert info.value.params == {"kind": kind, "kinds": "roll, set_dice"}


@given(counts)
def test_setup_makes_an_empty_table_of_that_many_dice(count):
    state = rules.setup(DiceOptions(count), Draws([]), {})
    assert state == DiceState(count)
    assert public(state) == {"count": count, "last": [], "total": 0, "rolls": 0, "history": []}


def test_history_is_capped_and_numbered_from_the_newest():
    rolls = tuple((i % 6 + 1,) for i in range(SHOWN_HISTORY + 5))
    view = public(DiceState(1, rolls))
    assert view["rolls"] == SHOWN_HISTORY + 5
    assert [h["n"] for h in view["history"]] == list(range(SHOWN_HISTORY + 5, 5, -1))
    assert view["history"][-1]["dice"] == [6]  # roll n=6 is rolls[5] == (5 % 6 + 1,)
    assert view["history"][0]["dice"] == view["last"] == [list(rolls[-1])[0]]


@given(states)
def test_buttons_always_send_a_legal_command(state):
    view = public(state)
    entry, nxt = CONTROLS.step(None, "a", view)
    new, _ = dice.SPEC.play(state, nxt, Draws([]))
    assert entry is None and new.count == state.count % MAX_DICE + 1
    assert CONTROLS.step(None, "roll", view) == (None, Command("roll"))
    assert CONTROLS.step(None, "d", view) == (None, Command(UNDO))
    assert CONTROLS.step(None, "b", view) == (None, None)  # unchanged: the device shows a refusal
    assert dice_shown(view) == view["last"]
    assert dice.SPEC.private_json(state, 0) == {}
