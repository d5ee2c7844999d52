"""Laying out the circuit: the plain cards, and the passage cards placed by the rulebook's count."""

from __future__ import annotations

from dataclasses import replace

from companion.gamekit import IllegalMove
from companion.games.rallye.deck import PASSAGE_CARDS, PLAIN_CARDS, Route
from companion.games.rallye.state import State, is_plain, roll_die

MIN_PLAIN, MAX_PLAIN = 10, PLAIN_CARDS


def passage_count(plain: int) -> int:
    """How many passage cards a circuit of `plain` route cards takes."""
    # (ruling) The rulebook's bands overlap at 15 and run past the box's 40 plain cards: 10-15 plain cards
    # take 2 passage cards (one entrance, one exit, each drawn at random), 16-30 take 4 drawn at random
    # (maybe more exits than entrances), 31-40 all 6.
    return 2 if plain <= 15 else 4 if plain <= 30 else PASSAGE_CARDS


def passage_row(route: Route, plain: int, draws) -> tuple[int, ...]:
    """The passage cards that wait in a row beside the circuit, in the row's (random) order."""
    count = passage_count(plain)
    if count == 2:
        entrances = [i for i, p in enumerate(route.passages) if p.kind == "entrance"]
        exits = [i for i, p in enumerate(route.passages) if p.kind == "exit"]
        chosen = [entrances[draws.below(len(entrances))], exits[draws.below(len(exits))]]
        return tuple(draws.shuffled(chosen))
    return tuple(draws.shuffled(range(PASSAGE_CARDS))[:count])


def counted(row: tuple[int, ...], die: int) -> int:
    """The index the die reaches counting along the row from its first card, wrapping round to the start."""
    # (ruling) Every count starts again at the first card of the row as it now stands.
    return (die - 1) % len(row)


def place(state: State, named: int, draws, events: list[dict]) -> State:
    """The rulebook's placement: the die counts along the row; the card reached replaces the named route
    card, locked side up, and the named card goes to the end of the circuit (still face down)."""
    # (ruling) The named card is a plain route card: not the start line, not a passage already placed.
    if not is_plain(state, named):
        raise IllegalMove("Name a route card of the circuit for the passage, from 1 to {last}: not the start "
                          "line and not a passage card.", last=len(state.circuit) - 1)
    state, die = roll_die(state, draws, placer(state), "placement")
    index = counted(state.row, die)
    passage = state.row[index]
    circuit = state.circuit[:named] + (PLAIN_CARDS + passage,) + state.circuit[named + 1:] \
        + (state.circuit[named],)
    row = state.row[:index] + state.row[index + 1:]
    events.append({"type": "passage_placed", "position": named, "die": die, "counted": index + 1,
                   "kind": state.route.passages[passage].kind, "moved_to": len(circuit) - 1})
    state = replace(state, circuit=circuit, face_up=state.face_up + (False,), row=row,
                    placed=state.placed + 1)
    if not row:
        state = replace(state, phase="race", turn=state.first)
        events.append({"type": "race_started", "seat": state.first})
    return state


def place_passage(state: State, seat: int, args, draws) -> tuple[State, list[dict]]:
    """The place_passage command: `args.card` is the route card named for the next passage (None: one
    the device names at random)."""
    events: list[dict] = []
    named = random_plain(state, draws) if args.card is None else args.card
    return place(state, named, draws, events), events


def placer(state: State) -> int:
    """Who names the card for the next passage: the first player, then clockwise."""
    return (state.first + state.placed) % state.players


def auto_place(state: State, draws, events: list[dict]) -> State:
    """The device names the cards itself, at random (the option for tables that prefer it)."""
    while state.phase == "placing":
        state = place(state, random_plain(state, draws), draws, events)
    return state


def random_plain(state: State, draws) -> int:
    """A plain route card of the circuit, drawn at random: the device naming a card for a passage."""
    plain = [p for p in range(1, len(state.circuit)) if is_plain(state, p)]
    return plain[draws.below(len(plain))]


def check_plain(plain: int) -> None:
    if not MIN_PLAIN <= plain <= MAX_PLAIN:
        raise IllegalMove("Lay out {min} to {max} route cards.", min=MIN_PLAIN, max=MAX_PLAIN)
