"""Secrecy by twins: a state and its twin, differing only in one seat's secrets, show everyone else the same.

The twin comes from the game's author: `twin(state, seat, rng)` is a state the game could be in where
only `seat`'s secrets differ (other cards in its hand, another bet), or None when it has none now. With
seat None it is a state differing only in what no seat may know (face-down cards, a shuffled pile).

Undo never reveals: a command the table lets a player take back, applied to a state and its twin with
the same draws, must still show everyone else the same, private views included. Else it showed a secret
(a card drawn from a pile the state orders, a card turned up) and the player would choose again knowing it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

from companion.gamekit.contract import Command, Event, IllegalMove
from companion.gamekit.draws import ScriptedDraws
from companion.gamekit.testing.args import random_args
from companion.gamekit.testing.play import Moves, attempt
from companion.gamekit.testing.report import Played, describe, fail

Twin = Callable[[Any, "int | None", random.Random], Any]
Answer = tuple[Any, list[Event]] | IllegalMove  # the rules' answer to a command: (state, events) or why not
TRIES = 3  # twins asked for before one that changes what its seat sees counts as missing
MOVES_PROBED = 8  # the author's commands probed per seat, beside one made up per kind


def check_secrecy(played: Played, index: int, twin: Twin, rng: random.Random, moves: Moves | None = None
                  ) -> int:
    """Compare state `index` of `played` with a twin for each seat and for the table's own secrets;
    returns how many twins were compared (a seat with no secret now gives none)."""
    state, compared = played.states[index], 0
    for owner in (*range(played.players), None):
        other = _twin(played, index, twin, owner, rng)
        if other is not None:
            _compare(played, index, state, other, owner, rng, moves)
            compared += 1
    return compared


def _twin(played: Played, index: int, twin: Twin, owner: int | None, rng: random.Random) -> Any:
    state, spec = played.states[index], played.spec
    for _ in range(TRIES):
        other = twin(state, owner, rng)
        if other is None:
            return None
        if other == state:
            fail("secrecy", f"twin(state, {owner}, rng) returned a state equal to the one it was given",
                 "return a state whose secrets differ, or None when there is none", played, index)
        if owner is None or spec.private_json(other, owner) != spec.private_json(state, owner):
            return other
    fail("secrecy", f"twin(state, {owner}, rng) changed nothing seat {owner} sees in its private view, "
         f"{TRIES} times: such a twin cannot show a leak",
         f"change one of seat {owner}'s secrets in the twin, or return None when it has none", played, index)


def _compare(played: Played, index: int, state: Any, other: Any, owner: int | None, rng: random.Random,
             moves: Moves | None) -> None:
    probes = _probes(played, state, owner, rng, moves)
    seed = rng.getrandbits(32)
    answers: tuple[list[Answer], list[Answer]] = ([], [])
    real, twin = (shown(played, state, owner, probes, seed, answers[0]),
                  shown(played, other, owner, probes, seed, answers[1]))
    leaks = _leaks(real, twin)
    if leaks:
        fail("secrecy", f"{_whose(owner)} reach {'; '.join(leaks)}", "show a secret only in its owner's "
             "private view; refuse a command only for reasons its sender may know (legal, actor and waiting "
             "are public)", played, index)
    tried = [(probe, [ours, theirs]) for probe, ours, theirs in zip(probes, *answers, strict=True)]
    if index < len(played.steps):  # the command the game went on with, beside the probes
        step = Probe(played.steps[index].command)
        tried.append((step, [attempt(played, s, step.command, ScriptedDraws(seed)) for s in (state, other)]))
    for probe, pair in tried:
        _check_undo(played, index, probe, pair, owner, seed)


def _check_undo(played: Played, index: int, probe: Probe, answers: list[Answer], owner: int | None,
                seed: int) -> None:
    """A command the rules accept and would let be undone, sent to a state and to its twin, shows everyone
    but `owner` the same after it: else undoing it would reveal what it showed."""
    spec = played.spec
    accepted = [answer for answer in answers if not isinstance(answer, IllegalMove)]
    if len(accepted) < 2 or not all(spec.undoable(events) for _, events in accepted):
        return  # a refusal that tells the twins apart was failed with the answers
    leaks = _leaks(*(shown(played, after, owner, [], seed) for after, _ in accepted))
    if leaks:
        fail("undo never reveals", f"{describe(probe.command)} may be undone, yet it shows "
             f"{_whose(owner)} in {'; '.join(leaks)}: undoing it, a player would choose again knowing them",
             "declare the type of the event it makes when it draws into a hand in the move's `drawn`, "
             "or when it shows the table something in its `reveals` (the table then refuses to undo it), "
             "or draw what it shows from `draws` at command time, not from an order kept in the state",
             played, index)


def _leaks(real: dict[str, Any], twin: dict[str, Any]) -> list[str]:
    """What differs between what a state and its twin show, with the keys that differ."""
    return [what + _keys(real[what], twin[what]) for what in real if real[what] != twin[what]]


def _whose(owner: int | None) -> str:
    return "the table's own secrets" if owner is None else f"seat {owner}'s secrets"


def _keys(real: object, twin: object) -> str:
    """Where two views differ, for a failure: the keys whose values differ."""
    if not (isinstance(real, dict) and isinstance(twin, dict)):
        return ""
    return f" ({', '.join(sorted(k for k in real.keys() | twin.keys() if real.get(k) != twin.get(k)))})"


def _probes(played: Played, state: Any, owner: int | None, rng: random.Random, moves: Moves | None
            ) -> list[Probe]:
    """Commands from everyone but `owner`, of every kind, and the table's. When the table would act for
    `owner`, its commands are tried as the host's and as the device's buttons' while `owner` plays from a
    phone: the table's seat policy (`GameSpec.check`) must keep them from probing it."""
    spec = played.spec
    senders: list[int | None] = [*(seat for seat in range(played.players) if seat != owner), None]
    table: list[Callable[[Command], Probe]] = [Probe]
    if owner is not None and spec.actor(state) == owner:
        table = [partial(Probe, sender=" as the host", phones=frozenset({owner})),
                 partial(Probe, sender=" as the buttons", phones=frozenset({owner}), device=True)]
    commands = [Command(kind, random_args(schema, rng), seat) for seat in senders
                for kind, schema in spec.commands.items()]
    if moves is not None:
        for seat in senders:
            if spec.legal(state, seat):  # `moves` is asked for a seat that may act only
                commands += [c for c in moves(state, seat, rng) if c.seat in senders][:MOVES_PROBED]
    return [make(c) for c in commands for make in (table if c.seat is None else [Probe])]


@dataclass(frozen=True)
class Probe:
    """A command tried on a state and its twin, with the table's seat policy it is checked under."""

    command: Command
    sender: str = ""  # how the table sent it, for a failure: "", " as the host", " as the buttons"
    phones: frozenset[int] = frozenset()
    device: bool = False


def shown(played: Played, state: Any, owner: int | None, probes: list[Probe], seed: int,
          answered: list[Answer] | None = None) -> dict[str, Any]:
    """What everyone but `owner` is shown of `state`, and the rules' answer to each probe (each answer
    itself is added to `answered`, for the undo check)."""
    spec = played.spec
    out: dict[str, Any] = {"the public view": spec.public_json(state), "actor()": spec.actor(state),
                           "waiting": spec.waiting_on(state), "over()": spec.over(state),
                           "deadline()": spec.deadline(state),
                           "legal moves of the table": spec.legal(state, None)}
    for seat in range(played.players):
        if seat != owner:
            out[f"seat {seat}'s private view"] = spec.private_json(state, seat)
            out[f"seat {seat}'s legal moves"] = spec.legal(state, seat)
    for probe in probes:
        command = probe.command
        answer = attempt(played, state, command, ScriptedDraws(seed), phones=probe.phones,
                         device=probe.device)
        if answered is not None:
            answered.append(answer)
        who = f"the table{probe.sender}" if command.seat is None else f"seat {command.seat}"
        out[f"the answer to {command.kind} {dict(command.args)} from {who}"] = (
            ("refused", answer.msgid, answer.params) if isinstance(answer, IllegalMove) else "accepted")
    return out
