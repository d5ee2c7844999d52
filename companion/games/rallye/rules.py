"""Rules of Le rallye hasardeux: options, setup, who acts, the legal commands, and `apply`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import replace
from typing import Annotated, Any

import msgspec

from companion.gamekit import N_, NOT_NOW, Command, IllegalMove, Move, Seat, allowed_moves
from companion.games.rallye import answers, commands, layout, length, race, surprises
from companion.games.rallye.deck import PASSAGE_CARDS, Route, Surprises
from companion.games.rallye.state import START, State, question, trimming

HAND = 2  # surprise cards dealt to each player
CARD_PLAYS = ("key", "lock", "access", "swap_cards", "lay")


class RallyeOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Setup options: players, the circuit's length, laps, the first player and the rulings' variants.

    `first` is the seat of "the last player to have crossed a snail", chosen by the host.
    """

    players: Annotated[int, msgspec.Meta(ge=2, le=6, title=N_("Players"),
                                         extra_json_schema=length.schema_hint())] = 4
    route_cards: Annotated[int, msgspec.Meta(ge=layout.MIN_PLAIN, le=layout.MAX_PLAIN, title=N_(
        "Route cards on the circuit (10-15: 2 passages, 16-30: 4, 31-40: 6)"))] = 30
    laps: Annotated[int, msgspec.Meta(ge=1, le=4, title=N_("Laps to win"))] = 4
    # A seat (0 is seat 1), as recorded since the first rally: the host's form offers the seats by name.
    first: Annotated[Seat, msgspec.Meta(le=5, title=N_(
        "First player: the last to have crossed a snail"))] = 0
    auto_passages: Annotated[bool, msgspec.Meta(title=N_(
        "The device picks the cards the passages replace"))] = False
    ford_exact: Annotated[bool, msgspec.Meta(title=N_(
        "Fords need exactly 4 or 5 (not 4 or more, 5 or more)"))] = False
    backward_stop: Annotated[bool, msgspec.Meta(title=N_(
        "Backward moves stop at the start line"))] = False
    answer_seconds: Annotated[int, msgspec.Meta(ge=2, le=120, title=N_(
        "Seconds to answer whether to cancel a threat (then the answer is no)"))] = 20
    discard_seconds: Annotated[int, msgspec.Meta(ge=5, le=600, title=N_(
        "Seconds to lay or discard a fourth surprise card (then the newest is discarded)"))] = 60
    choice_seconds: Annotated[int, msgspec.Meta(ge=2, le=600, title=N_(
        "Seconds to choose a player, an exit or a card for a passage (then the table takes choice A, "
        "stays, or names a card at random)"))] = 60


def setup(options: RallyeOptions, draws, data: Mapping[str, Any]) -> State:
    """A new rally: plain cards shuffled and laid face down, the passage row drawn, 2 cards each."""
    route: Route = data["route"]
    deck: Surprises = data["surprises"]
    layout.check_plain(options.route_cards)
    if options.first >= options.players:
        raise IllegalMove("The first player must be one of the {players} players: choose one of seats 1 to "
                          "{players}.", players=options.players)
    order = draws.shuffled(range(len(route.plain)))
    laid, spare = tuple(order[:options.route_cards]), tuple(order[options.route_cards:])
    row = layout.passage_row(route, options.route_cards, draws)
    spare += tuple(len(route.plain) + i for i in range(PASSAGE_CARDS) if i not in row)
    pile = tuple(draws.shuffled(deck.cards))
    seats = options.players
    state = State(
        players=seats, laps_to_win=options.laps, ford_exact=options.ford_exact,
        backward_stop=options.backward_stop, route=route, circuit=(START,) + laid,
        face_up=(True,) + (False,) * len(laid), spare=spare, row=row, keys=(0,) * PASSAGE_CARDS,
        opened=(False,) * PASSAGE_CARDS, access=(False,) * PASSAGE_CARDS, hazards=(),
        pile=pile[seats * HAND:], discard=(),
        hands=tuple(pile[i * HAND:(i + 1) * HAND] for i in range(seats)), places=(0,) * seats,
        laps=(0,) * seats, status=("",) * seats, blocked=(0,) * seats, first=options.first,
        turn=options.first, answer_seconds=options.answer_seconds, discard_seconds=options.discard_seconds,
        choice_seconds=options.choice_seconds)
    return layout.auto_place(state, draws, []) if options.auto_passages else state


# --- who may act ---------------------------------------------------------------------------------
def actor(state: State) -> int | None:
    """Who must act now: the placer, a seat over the hand limit, the seat asked, else the turn's player."""
    if state.phase == "over":
        return None
    if state.phase == "placing":
        return layout.placer(state)
    trim = trimming(state)
    if trim is not None:
        return trim
    return state.pending.seat if state.pending else state.turn


def deadline(state: State) -> tuple[float, Command] | tuple[float, Command, Hashable] | None:
    """What the table answers itself when a window closes: "no" to a cancel question, the newest card
    discarded from a hand over 3, the default of a choice (a player, an exit: see `default_choice`), a
    card named at random for a passage."""
    # (ruling) A cancel question closes with "no" after the answer window (20 s by default), a hand over 3
    # with its newest card discarded (after 60 s): the defaults the rulebook's "unless I discard a shield"
    # implies. Public facts only: the window is the same whether or not the seat asked holds a card.
    if state.phase == "placing":
        # (ruling) A placer who does not name a card lets the device name one at random, as the option
        # "the device picks the cards the passages replace" does for every passage.
        return state.choice_seconds, Command("place_passage")
    if state.phase != "race":
        return None
    if trimming(state) is not None:
        return state.discard_seconds, Command("discard")
    if state.pending is not None and state.pending.seats:  # one window, one clock, whoever answers first
        return state.answer_seconds, Command("close"), ("victims", state.pending.opened)
    if state.pending is not None and state.pending.kind == "cancel":
        return state.answer_seconds, Command("decline")
    if state.pending is not None and state.pending.kind in ("target", "exit"):
        return state.choice_seconds, default_choice(state.pending.kind, state.pending.choices,
                                                    state.pending.optional)
    return None


def default_choice(kind: str, choices, optional: bool) -> Command:
    """What the table chooses once a choice's window closes: no passage when the player may stay out
    of it, else the first choice, the one the e-ink shows beside A."""
    # (ruling) A player who does not answer does not use an access card (it never forces the passage);
    # otherwise the table takes the choice A would take: the same rule for every seat, from public facts.
    if kind == "exit":
        return Command("stay") if optional else Command("exit", {"card": choices[0]})
    return Command("choose", {"seat": choices[0]})


def waiting(state: State) -> list[int]:
    """The seats the game waits on: every victim a window asks together, else whoever must act."""
    if state.phase == "race" and trimming(state) is None and state.pending is not None:
        return list(state.pending.asked())
    now = actor(state)
    return [] if now is None else [now]


def may_play_cards(state: State, seat: int | None) -> bool:
    """Whether `seat` may play a surprise card now (the table never: it cannot see hands)."""
    # (ruling) "At any moment, even out of turn" means between resolutions: any racing seat while the game
    # waits for a roll, and a seat cutting its hand to 3 (any card played counts as laid); not while a
    # question or a choice is open, nor while the passages are being placed.
    if seat is None or state.phase != "race" or seat in state.ranking or not state.hands[seat]:
        return False
    trim = trimming(state)
    return trim == seat if trim is not None else state.pending is None


# Where each card play could go now: public facts only (never which cards a hand holds).
TARGETS = {"key": surprises.key_targets, "lock": surprises.lock_targets, "access": surprises.access_targets,
           "swap_cards": surprises.swap_targets, "lay": surprises.lay_targets}


def legal(state: State, seat: int | None) -> list[str]:
    """The command kinds `seat` (None: the table) may send now: from public facts only (a hand counts by
    its size, never its cards; a face-down card not at all)."""
    return allowed_moves(MOVES, state, seat, over)


# When each move is allowed: from public facts only, like the words of its refusal below.
def _may_place(state: State, seat: int | None) -> bool:
    return state.phase == "placing" and seat in (None, actor(state))


def _may_roll(state: State, seat: int | None) -> bool:
    return (state.phase == "race" and trimming(state) is None and state.pending is None
            and seat in (None, actor(state)))


def _may_discard(state: State, seat: int | None) -> bool:
    return state.phase == "race" and trimming(state) is not None and seat in (None, actor(state))


def _may_play(kind: str):
    """A surprise card laid on the circuit: by its holder's phone, where it has somewhere to go."""
    return lambda state, seat: may_play_cards(state, seat) and bool(TARGETS[kind](state))


def _answers(state: State, seat: int | None) -> tuple[str, ...]:
    """How `seat` may answer the question or choice open now: the seats asked whether to cancel a threat
    (the table may only say no, or close the window for all), else the seat that must choose."""
    pending = state.pending
    if state.phase != "race" or trimming(state) is not None or pending is None:
        return ()
    if pending.kind == "cancel" and seat is None:
        return ("decline", "close") if pending.seats else ("decline",)
    if pending.kind == "cancel" and seat in pending.asked():
        return ("cancel", "decline")
    if seat not in (None, actor(state)):
        return ()
    if pending.kind == "exit":
        return ("exit", "stay") if pending.optional else ("exit",)
    return ("choose",)


def _may_answer(kind: str):
    return lambda state, seat: kind in _answers(state, seat)


def _refused(kind: str, allows):
    """A move's `allowed`: `allows(state, seat)`, else the words of its refusal (none for a seat that
    is not at the table)."""
    def allowed(state: State, seat: int | None):
        if seat is not None and not 0 <= seat < state.players:
            return False
        return allows(state, seat) or _why_not(kind, state, seat)
    return allowed


def _why_not(kind: str, state: State, seat: int | None) -> IllegalMove:
    """What the sender of `kind` is told when it may not send it now (a hand counts by its size only)."""
    if state.phase == "placing":
        return IllegalMove("The passage cards are being placed: name a route card for the next one first.")
    if kind == "place_passage":
        return IllegalMove("Every passage card is placed already: the race is on.")
    # (ruling) Only a seat's own phone plays its cards or cancels with one: the table cannot see hands,
    # and a refusal about a hand would tell it. The table may answer "no" (decline) for the seat asked.
    if seat is None and (kind in CARD_PLAYS or kind == "cancel"):
        return IllegalMove("Surprise cards are played from the player's own phone: the table cannot see "
                           "hands. The table may only answer no.")
    if kind in CARD_PLAYS and seat is not None and not state.hands[seat]:
        return IllegalMove("You do not hold that surprise card: play one from your hand.")
    trim = trimming(state)
    if kind == "discard" and trim is None:
        return IllegalMove("Discard a surprise card only when you hold more than 3.")
    if trim is not None or state.pending is not None:
        now = actor(state)
        assert now is not None  # a hand over the limit, or a question: a seat is awaited
        return _busy(state, kind, now)
    if kind in ("cancel", "decline", "close"):
        return IllegalMove("There is nothing to cancel now.")
    if kind in ("choose", "exit", "stay"):
        return IllegalMove("There is no choice to make now.")
    return IllegalMove(NOT_NOW)  # a card with nowhere to go


def _busy(state: State, kind: str, now: int) -> IllegalMove:
    """The refusal of a command while something else is awaited, saying what."""
    if trimming(state) is not None:
        return IllegalMove("Player {player} holds 4 surprise cards: they must lay one on the circuit or "
                           "discard one first.", player=now + 1)
    pending = question(state).kind
    if kind == "stay" and pending == "exit":
        return IllegalMove("An open entrance leads into the passage: choose the exit to come out at.")
    if pending == "cancel":
        return IllegalMove("Player {player} is asked whether to cancel a threat: wait for their answer.",
                           player=now + 1)
    if pending == "target":
        return IllegalMove("Player {player} must first choose a player.", player=now + 1)
    return IllegalMove("Player {player} must first choose the passage's exit.", player=now + 1)


# Dice everyone saw, a card turned up, a card drawn from the pile: undoing one would let a player roll,
# turn or draw again for a better result. Any move that lets the race go on may lead to them.
REVEALING = frozenset({"rolled", "effect_roll", "oil", "effect", "drew", "passage_placed", "reshuffled",
                       "cards_swapped"})
ROLLS = ("rolled", "effect_roll", "passage_placed")


def rolls_die(event: dict) -> bool:
    """Whether `event` rolled the die: the LED die tumbles before it holds the face."""
    return event["type"] in ROLLS or (event["type"] == "oil" and event["rolled"])


PUBLIC = frozenset({"roll"})  # ROLL rolls for whoever must roll, a phone's seat too
MOVES = {kind: Move(args, do, line=line, allowed=_refused(kind, allows), public=kind in PUBLIC,
                    rolls=rolls_die, reveals=REVEALING) for kind, args, do, line, allows in (
    ("roll", commands.Roll, race.roll, N_("{who} rolled and moved"), _may_roll),
    ("place_passage", commands.PlacePassage, layout.place_passage, N_("{who} named a card for a passage"),
     _may_place),
    ("choose", commands.Choose, answers.choose, N_("{who} chose a player"), _may_answer("choose")),
    ("exit", commands.Exit, answers.exit_, N_("{who} came out of the passage"), _may_answer("exit")),
    ("stay", commands.Stay, answers.stay, N_("{who} stayed beside the passage"), _may_answer("stay")),
    ("cancel", commands.Cancel, answers.cancel, N_("{who} cancelled the threat with a surprise card"),
     _may_answer("cancel")),
    ("decline", commands.Decline, answers.decline, N_("The threat struck {who}"), _may_answer("decline")),
    ("close", commands.Close, answers.close, N_("Time was up: the threat struck whoever had not answered"),
     _may_answer("close")),
    ("discard", commands.Discard, surprises.discard, N_("{who} discarded a surprise card"), _may_discard),
    ("key", commands.Key, surprises.key, N_("{who} laid a key on a passage"), _may_play("key")),
    ("lock", commands.Lock, surprises.lock, N_("{who} locked a passage"), _may_play("lock")),
    ("access", commands.Access, surprises.access, N_("{who} laid a passage access card"),
     _may_play("access")),
    ("swap_cards", commands.SwapCards, surprises.swap_cards, N_("{who} swapped two cards of the circuit"),
     _may_play("swap_cards")),
    ("lay", commands.Lay, surprises.lay, N_("{who} laid tacks or oil on the route"), _may_play("lay")),
)}


def count_move(old: State, new: State) -> State:
    """Every accepted command counts one move."""
    return replace(new, moves=old.moves + 1)


def over(state: State) -> bool:
    return state.phase == "over"
