"""The state of a rally: the circuit, the pawns, the surprise cards, and what the game waits for."""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.games.rallye.deck import PLAIN_CARDS, Route

START = -1  # the card id at position 0: the start line
HAZARDS = ("tacks", "oil_roll", "oil_5")
# Which discarded card cancels which threat: protection cancels all three.
CANCELS = {"back": ("protection",), "oil_roll": ("protection", "shield_oil"),
           "oil_5": ("protection", "shield_oil"), "tacks": ("protection", "shield_tacks")}
HAND_LIMIT = 3
TACKS_TURNS = 2


@dataclass(frozen=True)
class Pending:
    """What the game waits for from one seat, besides a roll.

    - "cancel": the victim of a cancellable threat ("back", an oil or tacks) answers cancel or decline.
      Asked whether or not the victim holds a card that cancels it, so the question tells nothing. The
      victims of one route effect (1-3) are asked together, in one window (`seats`).
      For a hazard, `amount`/`direction` are the steps left in the move it stopped, `at` its card.
    - "target": the seat choosing a player for `threat` (one_back, with `amount` rolled, or swap_any).
    - "exit": the seat choosing an open exit among `choices`; `optional` when an access card led
      there (the seat may stay instead).
    """

    kind: str
    seat: int
    threat: str = ""
    amount: int = 0
    direction: int = 1
    at: int = 0
    choices: tuple[int, ...] = ()
    optional: bool = False
    surprise: bool = False  # swap_any: the card shows the surprise symbol (the partner draws too)
    own: bool = False  # "back": the player's own reverse turn (declined, it walks `amount` and arrives)
    seats: tuple[int, ...] = ()  # "back" of effects 1-3: every victim still to answer, `seat` the first
    opened: int = 0  # `moves` when a window of several victims opened: its one clock runs from then

    def asked(self) -> tuple[int, ...]:
        """The seats this window waits on: the victims of one effect together, else the one seat."""
        return self.seats or (self.seat,)


@dataclass(frozen=True)
class State:
    """The whole game, in tuples (undo keeps every earlier state, so states share structure).

    The secrets are in two fields only, so a twin that differs in them alone is easy to build:
    `circuit` holds every card's id by position (a face-down plain card's id is secret, its
    `face_up` is not), `spare` the plain cards left in the box, and `pile` the surprise draw order.
    """

    players: int
    laps_to_win: int
    ford_exact: bool
    backward_stop: bool
    route: Route
    circuit: tuple[int, ...]  # card id by position; position 0 is the start line
    face_up: tuple[bool, ...]  # by position; only plain cards use it (passages always show)
    spare: tuple[int, ...]  # route cards left out of the circuit
    row: tuple[int, ...]  # passage indices waiting to be placed, in the row's order
    keys: tuple[int, ...]  # by passage index: keys lying on it
    opened: tuple[bool, ...]  # by passage index
    access: tuple[bool, ...]  # by passage index: an access card lies on this entrance
    hazards: tuple[tuple[int, str], ...]  # (position, tacks/oil_roll/oil_5) laid on the circuit
    pile: tuple[str, ...]  # surprise draw pile, top first: secret order
    discard: tuple[str, ...]
    hands: tuple[tuple[str, ...], ...]  # each seat's surprise cards, oldest first: that seat's secret
    places: tuple[int, ...]
    laps: tuple[int, ...]  # laps completed
    status: tuple[str, ...]  # "", ford_4, ford_5, reverse, tacks (blocked), caught (held by tacks)
    blocked: tuple[int, ...]  # turns a "tacks" seat still sits out
    first: int
    turn: int
    phase: str = "placing"  # placing, race, over
    placed: int = 0  # passage cards placed so far
    ranking: tuple[int, ...] = ()  # seats in order of arrival
    pending: Pending | None = None
    agenda: tuple[tuple, ...] = ()  # the steps left of an effect being resolved
    last_roll: tuple[int, int] | None = None  # (seat, die)
    last_effect: tuple[int, int, str, bool] | None = None  # (seat, position, effect, surprise)
    last_die: tuple[int, int, str] | None = None  # (seat, face, why): the LED die, whatever rolled it
    moves: int = 0
    answer_seconds: int = 20  # the answer window: then the table answers no (decline)
    discard_seconds: int = 60  # a hand over 3: then the table discards the newest card
    choice_seconds: int = 60  # a choice of a player, an exit or a passage's card: then the table's default


def roll_die(state: State, draws, seat: int, why: str) -> tuple[State, int]:
    """One roll of the die, kept for the LED die: the turn's, an effect's, the oil's or a placement's."""
    die = draws.die(6)
    return replace(state, last_die=(seat, die, why)), die


def passage_of(state: State, position: int) -> int | None:
    """The passage index of the card at `position`, or None."""
    card = state.circuit[position]
    return card - PLAIN_CARDS if card >= PLAIN_CARDS else None


def passage_at(state: State, position: int) -> int:
    """The passage index of the card at `position`, which holds a passage (an entrance or an exit)."""
    passage = passage_of(state, position)
    if passage is None:
        raise ValueError(f"position {position} holds no passage card")
    return passage


def question(state: State) -> Pending:
    """The question open now: an answer is allowed only while one is."""
    if state.pending is None:
        raise ValueError("no question is open")
    return state.pending


def is_plain(state: State, position: int) -> bool:
    return 0 < position < len(state.circuit) and 0 <= state.circuit[position] < PLAIN_CARDS


def plain_positions(state: State) -> list[int]:
    return [p for p in range(1, len(state.circuit)) if is_plain(state, p)]


def kind_at(state: State, position: int) -> str:
    """start, route, entrance or exit: public at every position."""
    if position == 0:
        return "start"
    passage = passage_of(state, position)
    return "route" if passage is None else state.route.passages[passage].kind


def open_exits(state: State) -> list[int]:
    return [p for p in range(1, len(state.circuit)) if kind_at(state, p) == "exit"
            and state.opened[passage_at(state, p)]]


def hazard_at(state: State, position: int) -> str | None:
    return next((kind for at, kind in state.hazards if at == position), None)


def racing(state: State) -> list[int]:
    return [s for s in range(state.players) if s not in state.ranking]


def clockwise(state: State, seat: int) -> list[int]:
    """The racing seats in clockwise order, starting with `seat`."""
    return [(seat + i) % state.players for i in range(state.players)
            if (seat + i) % state.players not in state.ranking]


def pawns_at(state: State, position: int, but: int | None = None) -> list[int]:
    return [s for s in racing(state) if s != but and state.places[s] == position]


def lasts(state: State) -> list[int]:
    """The players nearest the start, whatever their lap."""
    # (ruling) "The last player" is always the rulebook's (effect 7): also for the 1's card and the oil.
    seats = racing(state)
    low = min(state.places[s] for s in seats)
    return [s for s in seats if state.places[s] == low]


def firsts(state: State) -> list[int]:
    """The players furthest from the start, whatever their lap."""
    seats = racing(state)
    high = max(state.places[s] for s in seats)
    return [s for s in seats if state.places[s] == high]


def nearest(state: State, seats: list[int], seat: int) -> int:
    """The first of `seats` met going round clockwise from `seat` (included)."""
    # (ruling) Ties for the last or the first player are broken this way.
    return next(s for s in clockwise(state, seat) if s in seats)


def trimming(state: State) -> int | None:
    """The seat that holds more than 3 surprise cards and must lay or discard one, if any."""
    if state.phase != "race" or max(map(len, state.hands)) <= HAND_LIMIT:
        return None
    return next((s for s in clockwise(state, state.turn) if len(state.hands[s]) > HAND_LIMIT), None)
