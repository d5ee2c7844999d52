"""The turn: the roll and its bonuses, fords, reverse and tacks, and the agenda that resolves effects."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion.gamekit import put
from companion.games.rallye import effects
from companion.games.rallye.circuit import free_tacks
from companion.games.rallye.effects import passed_ford
from companion.games.rallye.state import State, clockwise, lasts, nearest, roll_die, trimming


def end_turn(state: State, draws, events: list[dict], seat: int) -> State:
    """The next racing seat clockwise plays."""
    following = clockwise(state, (seat + 1) % state.players)
    turn = following[0] if following else seat
    events.append({"type": "turn", "seat": turn})
    return replace(state, turn=turn)


TASKS: dict[str, Callable[..., State]] = {  # each agenda task's step: its arguments follow the task's name

    "walk": effects.walk,
    "arrive": effects.arrive,
    "draw": effects.draw,
    "effect": effects.effect,
    "back": effects.back,
    "back_all": effects.back_all,
    "forward": effects.forward,
    "reverse": effects.reverse,
    "end_turn": end_turn,
}


def run(state: State, draws, events: list[dict]) -> State:
    """Resolve the agenda until it is done, or a seat must answer, choose, or cut its hand to 3."""
    while state.phase == "race" and state.pending is None and trimming(state) is None and state.agenda:
        task, state = state.agenda[0], replace(state, agenda=state.agenda[1:])
        state = TASKS[task[0]](state, draws, events, *task[1:])
    return state


def roll(state: State, seat: int, args, draws) -> tuple[State, list[dict]]:
    """The turn's roll: sit out a turn on tacks, or roll and move (forwards, backwards, out of a ford)."""
    events: list[dict] = []
    status = state.status[seat]
    if status == "caught" or (status == "tacks" and state.blocked[seat] > 0):
        events.append({"type": "sits_out", "seat": seat, "turns_left": max(0, state.blocked[seat] - 1)})
        state = replace(state, blocked=put(state.blocked, seat, max(0, state.blocked[seat] - 1)))
        return run(replace(state, agenda=(("end_turn", seat),)), draws, events), events
    if status == "tacks":  # the 3rd turn: the tacks are discarded as the player sets off
        state = free_tacks(state, state.places[seat], events)
    state, die = roll_die(state, draws, seat, "turn")
    events.append({"type": "rolled", "seat": seat, "die": die})
    tasks: list[tuple] = []
    if die == 6:
        tasks.append(("draw", seat))
    if die == 1:
        tasks.append(("draw", nearest(state, lasts(state), seat)))
    # (ruling) The 6 and 1 bonuses count for the turn's roll only (not an effect's or the oil's roll),
    # whatever it does (a ford's too); the last player is the rulebook's (state.lasts), the roller included.
    status = state.status[seat]
    if status in ("ford_4", "ford_5") and not passed_ford(state, seat, die):
        if status == "ford_4":  # the move back is an effect's: protection may cancel it
            tasks.append(("back", seat, die))
            state = replace(state, status=put(state.status, seat, ""))
        else:
            # (ruling) "I may draw a card" while stuck: always drawn (the hand limit lets it go again).
            tasks.append(("draw", seat))
        events.append({"type": "ford_failed", "seat": seat, "ford": status})
    else:
        # (ruling) A reverse turn is an ordinary turn run backwards: its arrival card applies, tacks and oil
        # catch it. It is a backward move an effect imposes, so protection may cancel it (« protégé des
        # retours en arrière »): asked first, cancelled the player stays on its card and the reverse is spent.
        state = replace(state, status=put(state.status, seat, ""))
        tasks.append(("reverse", seat, die) if status == "reverse" else ("walk", seat, die, 1))
    tasks.append(("end_turn", seat))
    state = replace(state, last_roll=(seat, die), agenda=tuple(tasks))
    return run(state, draws, events), events


def resume(state: State, draws, events: list[dict]) -> tuple[State, list[dict]]:
    """After a card play or an answer: the agenda goes on if it waited for it."""
    return run(state, draws, events), events
