"""Random legal play to the end: each command through `spec.play`, each refusal leaving the state alone."""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections.abc import Callable, Collection, Iterable
from typing import Any

from companion.gamekit.contract import Command, Event, GameSpec, IllegalMove, Turn
from companion.gamekit.draws import Draws, ScriptedDraws
from companion.gamekit.testing.args import random_args
from companion.gamekit.testing.report import Played, Step, describe, fail

Moves = Callable[[Any, "int | None", random.Random], Iterable[Command]]
ROUNDS = 12  # rounds over every seat that may act, before a step counts as stuck
GUESSES = 4  # commands made up from the Structs, per seat and round, without a `moves` function
MOVES_FIX = ("give check_game a `moves(state, seat, rng)` function returning commands your rules accept "
             "(seat None: the table's), or make each move's `allowed` refuse it when it cannot be played")
NEVER_ENDS = Turn().over


class OptionsRefused(AssertionError):
    """The game's setup refused the options it was given."""


def ends(spec: GameSpec) -> bool:
    """Whether the game can end: one that keeps the default `over` (free dice) never does."""
    return spec.turn.over is not NEVER_ENDS


def check_play(spec: GameSpec, options: dict[str, Any] | None = None, *, seed: int = 0,
               moves: Moves | None = None,
               max_steps: int = 2000, seeds: Callable[[], int] | None = None) -> Played:
    """Play one random legal game of `spec` with `options` (missing ones take their defaults).

    Each step a seat that may act (or the table) sends a command, from `moves` or made up from the
    command's Struct, until the rules accept one; each refusal, and a random command probed each step,
    must leave the state as it was. A game that can end must end within `max_steps` commands (one that
    never ends stops there). `seeds()` gives each step's random seed (default: drawn from `seed`).
    Returns the game played, for `check_replay` and the other checks.
    """
    seeds = seeds or _seeds(seed)
    draws = ScriptedDraws(random.Random(seeds()))
    try:
        options, state = spec.start(options or {}, draws)
    except IllegalMove as refused:
        raise OptionsRefused(f"new game: spec.start refused options {options}: {refused}\nTo fix: pass "
                             "check_game options your game accepts") from None
    played = Played(spec, options, draws.taken, [state])
    if copy.deepcopy(state) != state:
        fail("new game", "the state is not equal to a copy of itself, so no check can compare two states",
             "make the state a value: a frozen dataclass or a msgspec Struct of plain values and tuples")
    for _ in range(max_steps):
        if spec.over(state):
            break
        step, state = _step(played, state, random.Random(seeds()), moves)
        played.steps.append(step)
        played.states.append(state)
    else:
        if ends(spec) and not spec.over(state):
            fail("random legal play", f"the game did not end within {max_steps} commands",
                 "make sure every game ends (over() turns true), or raise `max_steps` for a long game, or "
                 "pass `options` for a shorter one", played)
    return played


def _seeds(seed: int) -> Callable[[], int]:
    rng = random.Random(seed)
    return lambda: rng.getrandbits(32)


def _step(played: Played, state: Any, rng: random.Random, moves: Moves | None) -> tuple[Step, Any]:
    """One accepted command from `state`, after the refusals and a probe it took to find it."""
    spec, players = played.spec, played.players
    unchanged = Unchanged(played, state)
    sender, kind = rng.choice([None, *range(players)]), rng.choice(list(spec.commands))
    attempt(played, state, Command(kind, random_args(spec.commands[kind], rng), sender), ScriptedDraws(rng),
            unchanged)
    deadline = spec.deadline(state)
    if deadline is not None:
        command = deadline[1]
        outcome = attempt(played, state, command, draws := ScriptedDraws(rng), unchanged)
        if isinstance(outcome, IllegalMove):
            fail("the table's default", f"deadline() names {describe(command)}, which the rules refuse: "
                 f"{outcome}", "make `deadline` name a command the rules accept when its time runs out",
                 played)
        if rng.random() < 0.5:  # the time runs out before anyone answers
            return Step(command, draws.taken), outcome[0]
    senders: list[tuple[int | None, list[str]]] = []
    for seat in (None, *range(players)):
        kinds = spec.legal(state, seat)
        if kinds:
            senders.append((seat, list(kinds)))
    if not senders:
        fail("random legal play", "nobody may act (legal() is empty for the table and every seat) but "
             "over() says the game goes on", "make a move's `allowed` say what may be played now, or the "
             "turn's `over` say that the game ended", played)
    tried = dict.fromkeys((seat for seat, _ in senders), 0)
    for _ in range(ROUNDS):
        rng.shuffle(senders)
        for seat, kinds in senders:
            for command in candidates(spec, state, seat, kinds, rng, moves):
                tried[seat] += 1
                outcome = attempt(played, state, command, draws := ScriptedDraws(rng), unchanged)
                if not isinstance(outcome, IllegalMove):
                    return Step(command, draws.taken), outcome[0]
    offered = "; ".join(f"{'the table' if seat is None else f'seat {seat}'} may send {kinds} "
                        f"({tried[seat]} tried)" for seat, kinds in senders)
    fail("random legal play", f"no command was accepted: {offered}", MOVES_FIX, played)


def candidates(spec: GameSpec, state: Any, seat: int | None, kinds: list[str], rng: random.Random,
               moves: Moves | None) -> list[Command]:
    """Commands worth trying for `seat` (which may act now): the author's, else made up from the Structs of
    the kinds it may send."""
    if moves is not None:
        return list(moves(state, seat, rng))
    return [Command(kind, random_args(spec.commands[kind], rng), seat)
            for kind in (rng.choice(kinds) for _ in range(GUESSES))]


def attempt(played: Played, state: Any, command: Command, draws: Draws, unchanged: Unchanged | None = None,
            phones: Collection[int] = (), device: bool = False) -> tuple[Any, list[Event]] | IllegalMove:
    """`spec.play`'s answer: (state, events), or the refusal; anything but IllegalMove fails. With
    `unchanged`, neither an answer nor a refusal may have changed `state`. `phones` and `device`: the
    table's seat policy, as `GameSpec.check` takes it."""
    spec = played.spec
    answer: tuple[Any, list[Event]] | IllegalMove
    try:
        answer = spec.play(state, command, draws, phones, device)
    except IllegalMove as refusal:
        answer = refusal
    except Exception as exc:
        fail("commands", f"spec.play raised {type(exc).__name__}: {exc} on {describe(command)}",
             "refuse a command the rules cannot take with IllegalMove, saying what is wrong and how to fix "
             "it; never let another exception out (it is a 500 for the player)", played)
    if unchanged is not None:
        unchanged.check(command, refused=isinstance(answer, IllegalMove))
    if not isinstance(answer, IllegalMove):
        _events(answer[1], command, played)
    return answer


class Unchanged:
    """What no command may change: the state it was given, to the last byte of everything it holds (so what
    it shows as well)."""

    def __init__(self, played: Played, state: Any) -> None:
        self.played, self.state, self.kept = played, state, snapshot(state)

    def check(self, command: Command, refused: bool) -> None:
        if snapshot(self.state) != self.kept:
            fail("commands", f"the state changed when the rules {'refused' if refused else 'accepted'} "
                 f"{describe(command)}", "never change the state given to apply: build a new one "
                 "(dataclasses.replace)", self.played)


def snapshot(state: object) -> Any:
    """All of `state`, frozen: its pickle (a hundred times faster than a deep copy), else a deep copy."""
    try:
        return pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return copy.deepcopy(state)


def _events(events: object, command: Command, played: Played) -> None:
    if not isinstance(events, list) or not all(isinstance(event, dict) for event in events):
        fail("commands", f"apply returned events {events!r} for {describe(command)}",
             "return a list of dicts of plain JSON as the events", played)
    try:
        json.dumps(events, allow_nan=False)
    except (TypeError, ValueError) as exc:
        fail("commands", f"the events of {describe(command)} are not plain JSON: {exc}",
             "put only JSON values (str, int, bool, None, lists, dicts) in events", played)
