"""Moving pawns round the circuit: steps, laps at the start line, statuses left behind, arrivals."""

from __future__ import annotations

from dataclasses import replace

from companion.gamekit import put
from companion.games.rallye.state import TACKS_TURNS, State, is_plain, pawns_at, racing


def step(state: State, place: int, lap: int, direction: int) -> tuple[int, int, int] | None:
    """One card along the route: (place, lap, crossed), crossed = +1/-1 at the start line; None if barred.

    Passing the last card turns the lap counter and goes on at the start line (position 0).
    """
    last = len(state.circuit) - 1
    if direction > 0:
        return (0, lap + 1, 1) if place == last else (place + 1, lap, 0)
    if place > 0:
        return place - 1, lap, 0
    # (ruling) Backward across the start line goes on into the last cards and turns the counter back, so
    # no lap counts twice; the `backward_stop` option stops backward moves at the line instead.
    # (ruling) On the first lap nothing lies behind the start (no counter below 0): the move stops there.
    if state.backward_stop or lap == 0:
        return None
    return last, lap - 1, -1


def can_go_back(state: State, seat: int) -> bool:
    return step(state, state.places[seat], state.laps[seat], -1) is not None


def free_tacks(state: State, at: int, events: list[dict]) -> State:
    """The tacks at `at` leave the circuit for the discards; every pawn they held is free."""
    hazards = tuple(h for h in state.hazards if h != (at, "tacks"))
    status, blocked = list(state.status), list(state.blocked)
    for seat in range(state.players):
        if state.places[seat] == at and status[seat] in ("tacks", "caught"):
            status[seat], blocked[seat] = "", 0
    events.append({"type": "tacks_removed", "position": at})
    return replace(state, hazards=hazards, status=tuple(status), blocked=tuple(blocked),
                   discard=state.discard + ("tacks",))


def relocate(state: State, seat: int, place: int, lap: int, events: list[dict]) -> State:
    """`seat` now stands at `place` on lap `lap`; whatever held it to its old card is left behind."""
    old = state.places[seat]
    if place != old:
        status = state.status[seat]
        # (ruling) Tacks are discarded when their first victim leaves their card, whatever moves it (its
        # 3rd turn, an effect, a swap); a ford holds only a player still on it.
        if status == "tacks":
            state = free_tacks(state, old, events)
        elif status in ("ford_4", "ford_5", "caught"):
            state = replace(state, status=put(state.status, seat, ""), blocked=put(state.blocked, seat, 0))
    return replace(state, places=put(state.places, seat, place), laps=put(state.laps, seat, lap))


def finish(state: State, seat: int, events: list[dict]) -> State:
    """`seat` crossed the line after its last lap: ranked, out of the race, its cards discarded."""
    # (ruling) A finished player's surprise cards go to the discards: it takes no more part. The race
    # goes on for the places ("classés dans l'ordre de leur arrivée") until one player is left, last.
    if state.status[seat] == "tacks":
        state = free_tacks(state, state.places[seat], events)
    state = replace(state, ranking=state.ranking + (seat,), discard=state.discard + state.hands[seat],
                    hands=put(state.hands, seat, ()), status=put(state.status, seat, ""),
                    blocked=put(state.blocked, seat, 0))
    events.append({"type": "finished", "seat": seat, "place": len(state.ranking)})
    left = racing(state)
    if len(left) <= 1:
        state = replace(state, ranking=state.ranking + tuple(left), phase="over", pending=None, agenda=())
        events.append({"type": "game_over", "ranking": list(state.ranking)})
    return state


def crossed(state: State, seat: int, lap: int, direction: int, events: list[dict]) -> bool:
    """Records a crossing of the start line; True if it finished the race for `seat`."""
    events.append({"type": "crossed", "seat": seat, "lap": lap, "direction": direction})
    return direction > 0 and lap >= state.laps_to_win


def shift(state: State, seat: int, steps: int, direction: int, events: list[dict],
          keep_face: bool = False) -> State:
    """An effect moves `seat`: it triggers nothing (no card, no passage, no tacks or oil), and a face-up
    plain card it lands on turns face down."""
    place, lap = state.places[seat], state.laps[seat]
    for _ in range(steps):
        moved = step(state, place, lap, direction)
        if moved is None:
            break
        place, lap, across = moved
        if across and crossed(state, seat, lap, across, events):
            return finish(relocate(state, seat, place, lap, events), seat, events)
    if direction < 0 and state.status[seat] == "reverse":
        # (ruling) Sent backwards by an effect before its reverse turn, the player goes forwards: the reverse
        # is used up. A backward move cancelled by protection did not send it back: the reverse stays.
        state = replace(state, status=put(state.status, seat, ""))
    return land(state, seat, place, lap, events, keep_face)


def land(state: State, seat: int, place: int, lap: int, events: list[dict], keep_face: bool = False) -> State:
    """`seat` was put at `place` by an effect (not by its own roll)."""
    moved = place != state.places[seat]
    state = relocate(state, seat, place, lap, events)
    events.append({"type": "moved", "seat": seat, "position": place, "lap": lap})
    if moved and not keep_face and is_plain(state, place) and state.face_up[place]:
        state = replace(state, face_up=put(state.face_up, place, False))
        events.append({"type": "turned_down", "position": place})
    return state


def catch(state: State, seat: int, at: int) -> State:
    """The tacks at `at` hold `seat`: for 2 turns if nobody sits on them yet, else until they leave."""
    # (ruling) "Those passing while I am blocked are blocked too": they stay while the first victim sits out
    # and go free when the tacks are discarded, as the first victim sets off on its 3rd turn.
    held = any(state.status[s] == "tacks" for s in pawns_at(state, at, but=seat))
    status, turns = ("caught", 0) if held else ("tacks", TACKS_TURNS)
    return replace(state, status=put(state.status, seat, status), blocked=put(state.blocked, seat, turns))
