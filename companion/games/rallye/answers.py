"""The answers a seat gives mid-effect: cancel or not, the player it chooses, the passage's exit."""

from __future__ import annotations

from dataclasses import replace

from companion.gamekit import N_, IllegalMove, put
from companion.games.rallye import commands as c
from companion.games.rallye.circuit import catch, shift
from companion.games.rallye.effects import push, settle, targeted, through
from companion.games.rallye.race import resume
from companion.games.rallye.state import CANCELS, HAZARDS, State, lasts, question, roll_die
from companion.games.rallye.surprises import take

WRONG_CANCEL = {
    "back": N_("Only a protection card cancels a backward move: cancel with one, or answer no."),
    "oil_roll": N_("Only protection or a shield against oil cancels oil: cancel with one, or answer no."),
    "oil_5": N_("Only protection or a shield against oil cancels oil: cancel with one, or answer no."),
    "tacks": N_("Only protection or a shield against tacks cancels tacks: cancel with one, or answer no."),
}


def answered(state: State, seat: int) -> State:
    """`seat` has answered: the window closes once nobody it asked is left to answer."""
    pending = question(state)
    left = tuple(s for s in pending.asked() if s != seat)
    if not pending.seats or not left:
        return replace(state, pending=None)
    return replace(state, pending=replace(pending, seat=left[0], seats=left))


def cancel(state: State, seat: int, args: c.Cancel, draws):
    pending = question(state)
    if args.card not in CANCELS[pending.threat]:
        raise IllegalMove(WRONG_CANCEL[pending.threat])
    state = take(state, seat, args.card)
    state = replace(answered(state, seat), discard=state.discard + (args.card,))
    events = [{"type": "cancelled", "seat": seat, "threat": pending.threat, "card": args.card}]
    if pending.threat in HAZARDS:  # the player passes the hazard by and goes on with the move
        state = push(state, ("walk", seat, pending.amount, pending.direction))
    return resume(state, draws, events)


def decline(state: State, seat: int, args: c.Decline, draws):
    """No cancel: the threat strikes. Also the platform's default answer once the window is over."""
    pending = question(state)
    state = answered(state, seat)
    events = [{"type": "declined", "seat": seat, "threat": pending.threat}]
    if pending.threat == "back" and pending.own:  # the reverse turn: the player's own move, backwards
        state = push(state, ("walk", seat, pending.amount, -1))
    elif pending.threat == "back":
        state = shift(state, seat, pending.amount, -1, events)
    elif pending.threat == "tacks":
        state = catch(state, seat, pending.at)
        events.append({"type": "caught", "seat": seat, "position": pending.at})
    else:
        steps = 5
        if pending.threat == "oil_roll":
            state, steps = roll_die(state, draws, seat, "oil")
        events.append({"type": "oil", "seat": seat, "steps": steps, "rolled": pending.threat == "oil_roll"})
        state = shift(state, seat, steps, -1, events)
        state = replace(state, hazards=tuple(h for h in state.hazards if h != (pending.at, pending.threat)))
        # (ruling) "Unless I am the last": judged once the oil has sent the player back. The last player
        # keeps it always, as no question: the hand limit lets the card go again.
        if seat in lasts(state):
            state = replace(state, hands=put(state.hands, seat, state.hands[seat] + (pending.threat,)))
            events.append({"type": "oil_kept", "seat": seat})
        else:
            state = replace(state, discard=state.discard + (pending.threat,))
    return resume(state, draws, events)


def close(state: State, seat: int, args: c.Close, draws):
    """The window of several victims is over: no for every one still asked, clockwise."""
    events: list[dict] = []
    for victim in question(state).asked():
        state, more = decline(state, victim, c.Decline(), draws)
        events += more
    return state, events


def choose(state: State, seat: int, args: c.Choose, draws):
    pending = question(state)
    if args.seat not in pending.choices:
        raise IllegalMove("Player {player} cannot be chosen: choose one of players {players}.",
                          player=args.seat + 1, players=", ".join(str(s + 1) for s in pending.choices))
    events: list[dict] = []
    state = replace(state, pending=None)
    state = targeted(state, seat, pending.threat, args.seat, pending.amount, pending.at, pending.surprise,
                     events)
    return resume(state, draws, events)


def exit_(state: State, seat: int, args: c.Exit, draws):
    pending = question(state)
    if args.card not in pending.choices:
        raise IllegalMove("Position {position} is no open exit: choose one of {choices}.", position=args.card,
                          choices=", ".join(map(str, pending.choices)))
    events: list[dict] = []
    state = through(replace(state, pending=None), seat, args.card, events)
    return resume(state, draws, events)


def stay(state: State, seat: int, args: c.Stay, draws):
    events: list[dict] = []
    state = settle(replace(state, pending=None), seat, state.places[seat], events)
    return resume(state, draws, events)
