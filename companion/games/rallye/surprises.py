"""Surprise cards played: keys, locks, access, the card swap, tacks and oil, and discards."""

from __future__ import annotations

from dataclasses import replace

from companion.gamekit import IllegalMove, put, without
from companion.games.rallye import commands as c
from companion.games.rallye.race import resume
from companion.games.rallye.state import (
    State,
    hazard_at,
    kind_at,
    open_exits,
    passage_at,
    passage_of,
    pawns_at,
)


# --- where each card may go: public facts only, so `legal` and refusals tell no secret -----------
def key_targets(state: State) -> list[int]:
    """Locked passages that may take a key now."""
    # (ruling) As the first passage opened must be an exit, an entrance takes keys only once one is open.
    exit_open = bool(open_exits(state))
    return [p for p in range(1, len(state.circuit)) if (passage := passage_of(state, p)) is not None
            and not state.opened[passage] and (exit_open or kind_at(state, p) == "exit")]


def lock_targets(state: State) -> list[int]:
    """Open passages, except the last open exit: at least one exit stays open."""
    exits = open_exits(state)
    return [p for p in range(1, len(state.circuit)) if (passage := passage_of(state, p)) is not None
            and state.opened[passage] and exits != [p]]


def access_targets(state: State) -> list[int]:
    return [p for p in range(1, len(state.circuit)) if kind_at(state, p) == "entrance"
            and state.opened[passage_at(state, p)] and not state.access[passage_at(state, p)]]


def lay_targets(state: State) -> list[int]:
    """Where tacks or oil may go."""
    # (ruling) On a circuit card (not the start line) with no tacks or oil and no pawn on it already.
    return [p for p in range(1, len(state.circuit)) if hazard_at(state, p) is None and not pawns_at(state, p)]


def take(state: State, seat: int, card: str) -> State:
    """`card` leaves `seat`'s hand (the refusal goes only to that seat: it is about its own hand)."""
    if card not in state.hands[seat]:
        raise IllegalMove("You do not hold that surprise card: play one from your hand.")
    return replace(state, hands=put(state.hands, seat, without(state.hands[seat], card)))


def _position(state: State, position: int) -> None:
    if position >= len(state.circuit):
        raise IllegalMove("The circuit has positions 0 to {last}: choose one of them.",
                          last=len(state.circuit) - 1)


# --- card plays ---------------------------------------------------------------------------------
def key(state: State, seat: int, args: c.Key, draws):
    at = args.passage
    _position(state, at)
    if at not in key_targets(state):
        held = passage_of(state, at)
        if held is None:
            raise IllegalMove("Position {position} holds no passage card: lay the key on a locked entrance "
                              "or exit.", position=at)
        if state.opened[held]:
            raise IllegalMove("The passage at position {position} is open already: lay the key on a locked "
                              "one.", position=at)
        raise IllegalMove("The first passage opened must be an exit: lay the key on a locked exit.")
    state = take(state, seat, "key")
    passage = passage_at(state, at)
    keys, padlocks = state.keys[passage] + 1, state.route.passages[passage].padlocks
    events = [{"type": "key", "seat": seat, "position": at, "keys": keys, "padlocks": padlocks}]
    if keys < padlocks:
        state = replace(state, keys=put(state.keys, passage, keys))
    else:  # the keys go to the discards and the card flips to its manhole side
        state = replace(state, keys=put(state.keys, passage, 0), opened=put(state.opened, passage, True),
                        discard=state.discard + ("key",) * padlocks)
        events.append({"type": "opened", "position": at})
    return resume(state, draws, events)


def lock(state: State, seat: int, args: c.Lock, draws):
    at = args.passage
    _position(state, at)
    if at not in lock_targets(state):
        held = passage_of(state, at)
        if held is None or not state.opened[held]:
            raise IllegalMove("Position {position} holds no open passage: lay the lock on an open entrance "
                              "or exit.", position=at)
        raise IllegalMove("At least one exit must stay open: the exit at position {position} is the last "
                          "one. Lock another passage.", position=at)
    state = take(state, seat, "lock")
    passage = passage_at(state, at)
    # (ruling) The lock card's work is the flip: it goes to the discards, with the access card it ends.
    thrown = ("lock", "passage_access") if state.access[passage] else ("lock",)
    state = replace(state, opened=put(state.opened, passage, False), access=put(state.access, passage, False),
                    discard=state.discard + thrown)
    return resume(state, draws, [{"type": "locked", "seat": seat, "position": at}])


def access(state: State, seat: int, args: c.Access, draws):
    at = args.passage
    _position(state, at)
    if at not in access_targets(state):
        raise IllegalMove("Position {position} is no open entrance without an access card: lay it on an "
                          "open entrance.", position=at)
    state = take(state, seat, "passage_access")
    state = replace(state, access=put(state.access, passage_at(state, at), True))
    return resume(state, draws, [{"type": "access", "seat": seat, "position": at}])


def swap_targets(state: State) -> list[int]:
    """Every card of the circuit but the start line: route cards and passages alike."""
    return list(range(1, len(state.circuit)))


def _turned_over(state: State, position: int) -> State:
    """The card at `position` turned over where it lies: a route card shows its face or hides it, a passage
    changes between locked and open."""
    passage = passage_of(state, position)
    if passage is None:
        return replace(state, face_up=put(state.face_up, position, not state.face_up[position]))
    if state.opened[passage]:  # locked again, as the lock card does: an access card on it goes too
        thrown = ("passage_access",) if state.access[passage] else ()
        return replace(state, opened=put(state.opened, passage, False),
                       access=put(state.access, passage, False), discard=state.discard + thrown)
    # opened: the keys already laid on it go to the discards
    return replace(state, opened=put(state.opened, passage, True), keys=put(state.keys, passage, 0),
                   discard=state.discard + ("key",) * state.keys[passage])


def swapped_over(state: State, a: int, b: int) -> State | None:
    """The circuit once the cards at `a` and `b` changed places and were turned over; None if that would
    leave no exit open while a passage is open, or close the last open exit."""
    before = bool(open_exits(state))
    swapped = replace(state, circuit=put(put(state.circuit, a, state.circuit[b]), b, state.circuit[a]),
                      face_up=put(put(state.face_up, a, state.face_up[b]), b, state.face_up[a]))
    swapped = _turned_over(_turned_over(swapped, a), b)
    any_open = any(swapped.opened[passage] for p in swap_targets(swapped)
                   if (passage := passage_of(swapped, p)) is not None)
    return None if not open_exits(swapped) and (before or any_open) else swapped


def swap_cards(state: State, seat: int, args: c.SwapCards, draws):
    """Two cards of the circuit change places and are both turned over."""
    # (ruling) « Permuter 2 cartes du circuit (n'importe lesquelles) »: any two cards but the start line,
    # passage cards included. Each takes the other's place and is turned over: a face-down route card shows
    # its face without its effect (nobody arrived), a face-up one goes face down; a locked passage opens
    # (keys on it are discarded), an open one locks as the lock card does. A swap that would leave no exit
    # open while a passage is open, or close the last open exit, is refused as the lock card's rule
    # requires. Pawns and tacks or oil stay where they are; a ford's hold stays with the player on it.
    a, b = args.first, args.second
    _position(state, max(a, b))
    if a == b or a == 0 or b == 0:
        raise IllegalMove("Choose two different cards of the circuit (not the start line) to swap.")
    swapped = swapped_over(state, a, b)
    if swapped is None and not open_exits(state):  # nothing is locked: the swap would open an entrance
        raise IllegalMove("The first passage opened must be an exit: this swap would open an entrance while "
                          "no exit is open. Swap other cards.")
    if swapped is None:
        raise IllegalMove("At least one exit must stay open: this swap would lock the last one. Swap other "
                          "cards.")
    state = take(swapped, seat, "swap")
    state = replace(state, discard=state.discard + ("swap",))
    return resume(state, draws, [{"type": "cards_swapped", "seat": seat, "first": a, "second": b}])


def lay(state: State, seat: int, args: c.Lay, draws):
    at = args.at
    _position(state, at)
    if at not in lay_targets(state):
        raise IllegalMove("Lay tacks or oil on a circuit card with no pawn and no tacks or oil on it (not "
                          "the start line).")
    state = take(state, seat, args.card)
    state = replace(state, hazards=state.hazards + ((at, args.card),))
    return resume(state, draws, [{"type": "laid", "seat": seat, "card": args.card, "position": at}])


def discard(state: State, seat: int, args: c.Discard, draws):
    """Over the hand limit: a card to the discards."""
    # (ruling) None named, the newest goes: the table's (or a timer's) default, as it cannot see the hand.
    card = args.card if args.card is not None else state.hands[seat][-1]
    state = take(state, seat, card)
    state = replace(state, discard=state.discard + (card,))
    return resume(state, draws, [{"type": "discarded", "seat": seat}])
