"""The session: what a spec declares is checked before its rules see a command, and a record replays."""

from __future__ import annotations

from dataclasses import dataclass, replace

import msgspec
import pytest
from webfixtures import changed, game_spec, plug_game

from companion.core.session import NEW_GAME, UNDO, UNDO_IN_MEMORY, advance, replay
from companion.gamekit.contract import (
    GAME_OVER,
    NOT_NOW,
    NOT_YOU,
    NOT_YOU_MANY,
    UNKNOWN_COMMAND,
    Command,
    IllegalMove,
    Move,
    Turn,
    Views,
)
from companion.gamekit.draws import Draws
from companion.storage.store import Record


# --- a game of turns: seat `turn` may "go" (its only legal kind); the rules note every command they see ----
class NoArgs(msgspec.Struct, forbid_unknown_fields=True):
    """A command that takes no arguments."""


@dataclass(frozen=True)
class Turns:
    turn: int | None = 0  # None: the game is over
    seen: tuple[tuple[int | None, str], ...] = ()  # (seat, kind) of each command the rules were handed


def _noted(kind: str):
    """The move `kind`: the next seat's turn, and the rules note the command they were handed."""
    def do(state: Turns, seat: int | None, args, draws) -> tuple[Turns, list[dict]]:
        return replace(state, turn=(state.turn + 1) % 3, seen=(*state.seen, (seat, kind))), []
    return do


def _hold_words(state: Turns, seat: int | None) -> IllegalMove:
    return IllegalMove("Hold on, {who}: player {player} is still moving.", who=seat, player=state.turn + 1)


class TurnsPublic(msgspec.Struct):
    turn: int | None


def _public(state: Turns) -> TurnsPublic:
    return TurnsPublic(state.turn)


def _private(state: Turns, seat: int) -> TurnsPublic:
    return TurnsPublic(None)


def _may_go(state: Turns, seat: int | None) -> bool:
    return state.turn is not None and seat in (None, state.turn)


TURNS = game_spec(
    name="turns", setup=lambda options, draws, data: Turns(),
    moves={"go": Move(NoArgs, _noted("go"), line="", allowed=_may_go),
           "wait": Move(NoArgs, _noted("wait"), line="", allowed=lambda state, seat: "Wait for the bell."),
           "stop": Move(NoArgs, _noted("stop"), line="", allowed=lambda state, seat: False),
           "hold": Move(NoArgs, _noted("hold"), line="", allowed=_hold_words)},
    turn=Turn(actor=lambda state: state.turn, over=lambda state: state.turn is None),
    views=Views(_public, _private), seats=(3, 3))
KINDS = tuple(TURNS.commands)


def refusal(spec, state, kind: str, seat: int | None) -> IllegalMove:
    """The refusal of `kind` from `seat`: the table's check's, as these rules refuse nothing."""
    with pytest.raises(IllegalMove) as refused:
        spec.play(state, Command(kind, {}, seat), Draws([]))
    return refused.value


def test_a_game_that_is_over_refuses_every_kind_from_everyone_even_one_its_legal_still_lists():
    careless = replace(TURNS.moves["go"], allowed=lambda state, seat: True)
    spec = replace(TURNS, moves={**TURNS.moves, "go": careless})
    assert spec.legal(Turns(turn=None), 0) == []  # the table lists no move once the game is over
    over = Turns(turn=None)
    for seat in (None, 0, 1, 2):
        for kind in KINDS:
            assert refusal(spec, over, kind, seat).msgid == GAME_OVER


def test_a_seat_out_of_turn_is_told_which_seat_the_game_waits_on():
    state = Turns(turn=1)
    for kind in ("go", "wait", "hold"):  # whatever it sends: it has nothing to do now
        refused = refusal(TURNS, state, kind, 0)
        assert (refused.msgid, refused.params) == (NOT_YOU, {"player": 2})
        assert str(refused) == "Player 2 must act now, not you: wait for them."
    several = changed(TURNS, waiting=lambda state: [2, 1])
    refused = refusal(several, state, "go", 0)
    assert (refused.msgid, refused.params) == (NOT_YOU_MANY, {"players": "2, 3"})


def test_a_kind_not_legal_for_the_actor_gets_the_specs_words_or_not_now():
    state = Turns(turn=1)
    for seat in (1, None):  # the actor's phone, and the table acting for it
        assert refusal(TURNS, state, "wait", seat).msgid == "Wait for the bell."
        assert refusal(TURNS, state, "stop", seat).msgid == NOT_NOW
        held = refusal(TURNS, state, "hold", seat)  # words read from the state and the sender
        assert (held.msgid, held.params) == ("Hold on, {who}: player {player} is still moving.",
                                             {"who": seat, "player": 2})


def test_an_unknown_kind_is_refused_naming_the_known_ones_before_anything_else():
    for state in (Turns(), Turns(turn=None)):
        refused = refusal(TURNS, state, "fly", None)
        assert refused.msgid == UNKNOWN_COMMAND
        assert refused.params == {"kind": "fly", "kinds": "go, wait, stop, hold"}


def test_a_command_of_the_table_acts_for_the_actor_and_the_history_says_so(monkeypatch):
    plug_game(monkeypatch, TURNS)
    session, _ = advance(None, NEW_GAME, None, {"game": "turns"}, Draws())
    assert TURNS.check(session.state, Command("go")) == Command("go", {}, 0)
    session, _ = advance(session, "go", None, {}, Draws())
    session, _ = advance(session, "go", 1, {}, Draws())
    assert session.state.seen == ((0, "go"), (1, "go"))  # the rules never see a seat of None
    assert [(line["seat"], line["kind"]) for line in session.history] == [(None, NEW_GAME), (0, "go"),
                                                                            (1, "go")]


# --- replay ----------------------------------------------------------------------------------------------
def test_a_replayed_record_undoes_past_memory_within_its_own_game():
    records, version = [Record(1, NEW_GAME, None, {"game": "dice", "options": {"count": 1}}, [])], 1
    records.append(Record(2, NEW_GAME, None, {"game": "dice", "options": {"count": 2}}, []))
    version = 2
    for face in range(3 * UNDO_IN_MEMORY):
        version += 1
        records.append(Record(version, "roll", None, {}, [face % 6, (face + 1) % 6]))
    for _ in range(3 * UNDO_IN_MEMORY):
        version += 1
        records.append(Record(version, UNDO, None, {}, []))
    session, last = replay(records)
    assert last == version and session.state == replay(records[:2])[0].state
    assert session.spec.public_json(session.state)["count"] == 2


def test_replay_of_nothing_is_no_game():
    assert replay([]) == (None, 0)
