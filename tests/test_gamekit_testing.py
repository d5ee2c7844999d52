"""The conformance kit can fail: each check, handed a game broken the way it looks for, says what is wrong.

Every broken game starts from Twenty-one (tests/tinygame), which passes the kit (tests/test_kit_games.py).
`HANDS` is Twenty-one counted on with cards from a hand nobody else sees: the hidden game the secrecy
checks need, with its twin builder `hands_twin`.
"""

from __future__ import annotations

import enum
import random
import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Literal

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st
from webfixtures import changed

from companion.core import registry
from companion.gamekit import (
    N_,
    Box,
    Command,
    DataFile,
    IllegalMove,
    Result,
    ScriptedDraws,
    Turn,
    put,
)
from companion.gamekit.testing import (
    check_game,
    check_play,
    check_replay,
    check_screens,
    check_spec,
    random_args,
)

sys.path.insert(0, str(Path(__file__).resolve().parent / "tinygame"))
import twentyone  # noqa: E402  (a game shipped as its own package: importable from its folder)

BASE = twentyone.SPEC
ADD = BASE.moves["add"]
Players = Annotated[int, msgspec.Meta(ge=2, le=4, title=N_("Players"))]


def with_add(spec, **changes):
    """`spec` with its one move, add, changed."""
    return replace(spec, moves={"add": replace(spec.moves["add"], **changes)})


def refused_by(spec, **kit) -> str:
    """The message of the AssertionError check_game raises on `spec`."""
    with pytest.raises(AssertionError) as failure:
        check_game(spec, **kit)
    return str(failure.value)


# --- Twenty-one with hands: each seat counts on with its own cards ------------------------------------------
CARDS = 3  # in each hand


@dataclass(frozen=True)
class Hands:
    players: int
    hands: tuple[tuple[int, ...], ...]
    count: int = 0
    turn: int = 0
    loser: int | None = None


class HandsPublic(msgspec.Struct):
    players: int
    count: int
    turn: int
    loser: int | None
    held: list[int]  # how many cards each seat holds


class HandsPrivate(msgspec.Struct):
    seat: int
    hand: list[int]
    peek: list[int] = []  # what a leaking game shows of another seat's hand


def deal(options, draws, data) -> Hands:
    hands = tuple(tuple(sorted(draws.die(3) for _ in range(CARDS))) for _ in range(options.players))
    return Hands(options.players, hands)


def hands_over(state: Hands) -> bool:
    return state.loser is not None or not any(state.hands)


def add(state: Hands, seat: int, args, draws):
    hand = list(state.hands[seat])
    if args.n not in hand:
        raise IllegalMove("You hold no {n}.", n=args.n)
    hand.remove(args.n)
    count = state.count + args.n
    new = replace(state, hands=put(state.hands, seat, tuple(hand)), count=count,
                  loser=seat if count >= twentyone.LOSING else None)
    after = [(seat + step) % state.players for step in range(1, state.players + 1)]
    holding = [s for s in after if new.hands[s]]  # the next seat with cards plays next
    return replace(new, turn=holding[0] if holding else seat), [{"type": "added", "n": args.n}]


def hands_public(s: Hands) -> HandsPublic:
    return HandsPublic(s.players, s.count, s.turn, s.loser, [len(h) for h in s.hands])


def hands_private(state: Hands, seat: int) -> HandsPrivate:
    return HandsPrivate(seat, list(state.hands[seat]))


HANDS = replace(
    with_add(BASE, do=add, allowed=lambda state, seat: not hands_over(state) and seat in (None, state.turn)),
    setup=deal, turn=Turn(actor=lambda state: None if hands_over(state) else state.turn, over=hands_over),
    views=replace(BASE.views, public=hands_public, private=hands_private), hidden=True)


def hands_twin(state: Hands, seat: int | None, rng: random.Random) -> Hands | None:
    """`state` with other cards in `seat`'s hand, as many; None if it holds none (the table hides nothing)."""
    if seat is None or not state.hands[seat]:
        return None
    for _ in range(20):
        hand = tuple(sorted(rng.randint(1, 3) for _ in state.hands[seat]))
        if hand != state.hands[seat]:
            return replace(state, hands=put(state.hands, seat, hand))
    return None


def test_the_games_the_broken_ones_start_from_pass():
    check_game(BASE)
    check_game(HANDS, twin=hands_twin)


# --- secrecy by twins ---------------------------------------------------------------------------------------
def test_a_private_view_showing_another_seats_hand_fails():
    def peeking_view(state: Hands, seat: int) -> HandsPrivate:
        return HandsPrivate(seat, list(state.hands[seat]), list(state.hands[(seat + 1) % state.players]))

    peeking = changed(HANDS, private=peeking_view)
    said = refused_by(peeking, twin=hands_twin)
    assert said.startswith("secrecy: seat ") and "secrets reach" in said and "private view" in said


def test_a_public_view_showing_what_the_hands_add_up_to_fails():
    def adding_view(s: Hands) -> HandsPublic:
        return HandsPublic(s.players, s.count, s.turn, s.loser, [sum(h) for h in s.hands])

    adding = changed(HANDS, public=adding_view)
    assert "secrets reach the public view" in refused_by(adding, twin=hands_twin)


def test_a_refusal_naming_who_holds_the_card_fails():
    def telling(state, seat, args, draws):
        holders = [s for s, hand in enumerate(state.hands) if args.n in hand and s != seat]
        if args.n not in state.hands[seat] and holders:
            raise IllegalMove("Seat {holder} holds it.", holder=holders[0] + 1)
        return add(state, seat, args, draws)

    said = refused_by(with_add(HANDS, do=telling), twin=hands_twin)
    assert "secrets reach the answer to add" in said


def test_the_table_may_not_probe_a_seat_that_plays_from_a_phone():
    check_game(HANDS, twin=hands_twin)  # the table's add for the seat to play reads its hand: not sent
    # A game letting the buttons add for a phone's seat has them read its hand ("You hold no 3").
    said = refused_by(with_add(HANDS, public=True), twin=hands_twin)
    assert "secrets reach the answer to add" in said and "from the table as the buttons" in said


def test_a_twin_of_the_tables_secrets_must_change_nothing_anyone_sees():
    def a_hand(state, seat, rng):  # "the table's" twin changes seat 0's hand: seat 0 sees it
        return hands_twin(state, 0 if seat is None else seat, rng)

    assert "the table's own secrets reach seat 0's private view (hand)" in refused_by(HANDS, twin=a_hand)


def test_a_hidden_game_without_a_twin_fails_saying_what_to_give():
    said = refused_by(HANDS)
    assert said.startswith("secrecy:") and "twin(state, seat, rng)" in said


def test_a_twin_that_changes_nothing_its_seat_sees_fails():
    def others(state, seat, rng):  # another seat's hand: the seat itself sees no difference
        return None if seat is None else hands_twin(state, (seat + 1) % state.players, rng)

    assert "changed nothing seat" in refused_by(HANDS, twin=others)


def test_a_twin_equal_to_its_state_fails():
    assert "equal to the one it was given" in refused_by(HANDS, twin=lambda state, seat, rng: state)


def test_a_twin_that_never_differs_fails():
    assert "returned None for every seat" in refused_by(HANDS, twin=lambda state, seat, rng: None)


# --- undo never reveals -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Piled(Hands):
    """Hands refilled from a face-down pile whose order the state keeps (as a shuffled deck is)."""

    pile: tuple[int, ...] = ()


def deal_piled(options, draws, data) -> Piled:
    dealt = deal(options, draws, data)
    return Piled(dealt.players, dealt.hands, pile=tuple(draws.die(3) for _ in range(6)))


def add_and_draw(state: Piled, seat: int, args, draws):
    """Add a card, then draw the pile's top card into the hand."""
    new, events = add(state, seat, args, draws)
    if not new.pile or new.loser is not None:
        return new, events
    hand = tuple(sorted((*new.hands[seat], new.pile[0])))
    return replace(new, hands=put(new.hands, seat, hand), pile=new.pile[1:]), [*events, {"type": "drew"}]


def piled_twin(state: Piled, seat: int | None, rng: random.Random) -> Piled | None:
    """A seat's other hand, or (the table's secret) the pile in another order."""
    if seat is not None:
        return hands_twin(state, seat, rng)
    if len(set(state.pile)) < 2:
        return None
    for _ in range(20):
        pile = tuple(rng.sample(state.pile, len(state.pile)))
        if pile != state.pile:
            return replace(state, pile=pile)
    return None


PILED = replace(with_add(HANDS, do=add_and_draw), setup=deal_piled)


def test_a_draw_from_the_states_pile_that_may_be_undone_fails():
    said = refused_by(PILED, twin=piled_twin)
    assert said.startswith("undo never reveals: add") and "the table's own secrets in seat" in said
    assert "`drawn`" in said  # how to fix it
    check_game(replace(PILED, moves={"add": replace(PILED.moves["add"], drawn={"drew"})}), twin=piled_twin)


# --- refusals, random legal play ----------------------------------------------------------------------------
def test_a_refusal_that_changes_the_state_fails():
    def sloppy(state, seat, args, draws):
        if args.n == 3:
            object.__setattr__(state, "count", state.count + 1)  # counted before checking
            raise IllegalMove("Three is too many.")
        return ADD.do(state, seat, args, draws)

    said = refused_by(with_add(BASE, do=sloppy))
    assert said.startswith("commands: the state changed when the rules refused add {'n': 3}")


def test_an_accepted_command_that_changes_the_state_it_was_given_fails():
    def in_place(state, seat, args, draws):
        new, events = ADD.do(state, seat, args, draws)
        object.__setattr__(state, "turn", new.turn)
        return new, events

    assert "the state changed when the rules accepted" in refused_by(with_add(BASE, do=in_place))


def test_a_rule_that_crashes_instead_of_refusing_fails():
    def crashing(state, seat, args, draws):
        return ADD.do(state, seat, args, draws) if args.n != 2 else {}["two"]

    said = refused_by(with_add(BASE, do=crashing))
    assert "spec.play raised KeyError" in said and "IllegalMove" in said


def test_events_that_are_not_plain_json_fail():
    def setful(state, seat, args, draws):
        new, _ = ADD.do(state, seat, args, draws)
        return new, [{"type": "added", "seen": {1, 2}}]

    assert "not plain JSON" in refused_by(with_add(BASE, do=setful))


def test_legal_moves_that_stop_before_the_end_fail():
    stuck = with_add(BASE, allowed=lambda state, seat: ADD.allowed(state, seat) and state.count < 10)
    assert "nobody may act" in refused_by(stuck)


def test_a_legal_kind_the_rules_always_refuse_fails_asking_for_moves():
    def late(state, seat, args, draws):
        if state.count >= 10:
            raise IllegalMove("Too late to count.")
        return ADD.do(state, seat, args, draws)

    said = refused_by(with_add(BASE, do=late))
    assert "no command was accepted: the table may send ['add']" in said
    assert "`moves(state, seat, rng)`" in said


def test_a_game_that_never_ends_fails():
    def endless(state, seat, args, draws):
        new, events = ADD.do(state, seat, args, draws)
        return (replace(new, count=0, loser=None) if new.loser is not None else new), events

    said = refused_by(with_add(BASE, do=endless), max_steps=40)
    assert "did not end within 40 commands" in said


def test_moves_are_tried_until_the_rules_accept_one():
    tried = []

    def moves(state, seat, rng):  # a wrong guess first, every time
        tried.append(seat)
        return [Command("add", {"n": 3}, 1 - state.turn), Command("add", {"n": rng.randint(1, 3)}, seat)]

    played = check_play(BASE, {"players": 2}, seed=3, moves=moves)
    assert BASE.over(played.states[-1]) and len(played.steps) >= 7
    turns = [state.turn for state in played.states[:-1]]
    assert all(step.command.seat in (None, turn) for step, turn in zip(played.steps, turns, strict=True))


def test_a_state_without_value_equality_fails():
    class Tally:
        def __init__(self, players):
            self.players, self.count, self.turn, self.loser = players, 0, 0, None

    said = refused_by(replace(BASE, setup=lambda options, draws, data: Tally(options.players)))
    assert "not equal to a copy of itself" in said


def test_options_the_game_refuses_fail():
    with pytest.raises(AssertionError, match="spec.start refused options {'players': 9}"):
        check_play(BASE, {"players": 9})


def test_a_default_the_table_cannot_send_fails():
    hasty = changed(BASE, deadline=lambda state: (5.0, Command("add", {"n": 4})))
    assert "deadline() names add {'n': 4} from the table, which the rules refuse" in refused_by(hasty)


def test_a_result_naming_a_seat_not_in_play_fails():
    assert "result() gave" in refused_by(changed(BASE, result=lambda view: Result(winners=(7,))))


def test_a_view_that_is_not_its_struct_fails():
    def wrong_view(state) -> twentyone.Public:
        return twentyone.Private(0, True)

    wrong = changed(BASE, public=wrong_view)
    assert "the public view is not a Public in plain JSON" in refused_by(wrong)


@pytest.mark.slow  # hypothesis shrinks the failing game: seconds
def test_failures_past_the_first_game_are_found_by_hypothesis():
    """The first game has two players; only a game of four counts wrongly, so hypothesis must find it."""
    def four(state, seat, args, draws):
        if state.players == 4 and args.n == 3:
            object.__setattr__(state, "count", state.count + 3)
            raise IllegalMove("Three is too many.")
        return ADD.do(state, seat, args, draws)

    said = refused_by(with_add(BASE, do=four), options=[{"players": 2}, {"players": 4}])
    assert "the state changed when the rules refused" in said and "'players': 4" in said


# --- replay -------------------------------------------------------------------------------------------------
def test_rules_using_their_own_randomness_do_not_replay():
    own = random.Random(7)  # not the draws the table records

    def shuffling(state, seat, args, draws):
        new, events = ADD.do(state, seat, args, draws)
        return (replace(new, turn=own.randrange(new.players)) if new.loser is None else new), events

    played = check_play(with_add(BASE, do=shuffling), {"players": 4}, seed=1)
    with pytest.raises(AssertionError, match=r"replay: the state after command \d+ .* differs from the one "
                                             r"played in turn\nTo fix: take every random number from the"):
        check_replay(played)


@pytest.mark.parametrize(("when_played", "said"), [
    (True, r"command 1 \(add .*\) took 0 of its 1 recorded draws"),
    (False, r"add .* asked for more draws than when it was played"),
])
def test_rules_that_draw_differently_on_replay_fail(when_played, said):
    drawing = [when_played]

    def moody(state, seat, args, draws):
        if drawing[0]:
            draws.below(6)
        return ADD.do(state, seat, args, draws)

    played = check_play(with_add(BASE, do=moody), {"players": 2}, seed=2)
    drawing[0] = not when_played
    with pytest.raises(AssertionError, match=f"replay: {said}"):
        check_replay(played)


def test_a_replay_of_rules_that_draw_is_the_same_game():
    played = check_play(HANDS, {"players": 3}, seed=5)
    assert len(played.start_draws) == 3 * CARDS
    check_replay(played)


# --- the e-ink screen ---------------------------------------------------------------------------------------
def test_a_screen_that_fails_on_long_names_fails():
    def short_names_only(view, canvas, tr, table):
        if any(len(name) > 16 for name in table.names):
            raise ValueError("name too long")
        BASE.screen(view, canvas, tr, table)

    said = refused_by(changed(BASE, screen=short_names_only))
    assert said.startswith("e-ink screen: spec.screen raised ValueError: name too long on panel ")
    assert "Léocadie-Éléonore" in said


def test_a_screen_that_draws_nothing_fails():
    blank = changed(BASE, screen=lambda view, canvas, tr, table: None)
    assert "spec.screen drew nothing" in refused_by(blank)


def test_a_screen_drawing_past_the_panels_edge_fails():
    def overflowing(view, canvas, tr, table):
        BASE.screen(view, canvas, tr, table)
        width = canvas.size[0]
        canvas.text(Box(width - 20, 0, width + 200, 40), "Bien trop long pour tenir")

    view = BASE.public_json(BASE.start({}, ScriptedDraws(0))[1])
    check_screens(BASE, [view], 2)
    with pytest.raises(AssertionError, match="drew .* outside the panel"):
        check_screens(changed(BASE, screen=overflowing), [view], 2)


# --- the spec -----------------------------------------------------------------------------------------------
class Untitled(msgspec.Struct, forbid_unknown_fields=True):
    players: Players = 2
    fast: bool = False




def load_nothing(text: str, name: str):
    return text


@pytest.mark.parametrize(("change", "said"), [
    ({"name": "Twenty One"}, "is not a lowercase identifier"),
    ({"package": "no_such_package_here"}, "does not import"),
    ({"moves": {"add": replace(ADD, line="")}}, "no history line for ['add']"),
    ({"moves": {"add": replace(ADD, line="{who} counted {n}")}}, "use {who} alone"),
    ({"moves": {"add": replace(ADD, label=N_("Count on, quietly"))}},
     "no French for the label of command add"),
    ({"looks": replace(BASE.looks, colours=BASE.colours[:2])}, "2 colours for up to 4 seats"),
    ({"looks": replace(BASE.looks, colours=(*BASE.colours[:3], replace(BASE.colours[3], key="amber",
                                                                     label=BASE.colours[0].label)))},
     "repeat: two seats would read the same"),
    ({"seats": (2, 3)}, "the players option goes from 2 to 4, seats=(2, 3)"),
    ({"seats": (3, 9)}, "seats=(3, 9) is not (min, max)"),
    ({"options": Untitled}, "option fast has no title"),
    ({"moves": {"add": replace(ADD, args=dict)}}, "the command add is <class 'dict'>, not a msgspec Struct"),
    ({"title": "Twenty-two"}, "no French for title 'Twenty-two'"),
    ({"moves": {"add": replace(ADD, line=N_("{who} counted on, quietly"))}},
     "no French for the history line of add"),
    ({"data": (DataFile("deck", "deck.toml", N_("Players"), load_nothing),)},
     "data file deck (deck.toml) does not load"),
])
def test_an_incomplete_spec_fails_saying_what_is_missing(change, said):
    with pytest.raises(AssertionError, match="To fix: ") as failure:
        check_spec(replace(BASE, **change))
    assert said in str(failure.value)


def test_options_without_defaults_fail():
    class Required(msgspec.Struct):
        players: Players

    with pytest.raises(AssertionError, match="the options have no valid defaults"):
        check_spec(replace(BASE, options=Required))


def test_a_game_without_a_catalog_of_its_own_fails():
    with pytest.raises(AssertionError, match=r"no French catalog locale/fr/LC_MESSAGES/twentytwo\.mo"):
        check_spec(replace(BASE, name="twentytwo"))


# --- made-up args -------------------------------------------------------------------------------------------
class Suit(enum.Enum):
    HEARTS = "hearts"
    SPADES = "spades"


class Card(msgspec.Struct, forbid_unknown_fields=True):
    suit: Suit
    rank: Annotated[int, msgspec.Meta(gt=0, lt=14)]


class Varied(msgspec.Struct, forbid_unknown_fields=True):
    """Every kind of field an author's command may have."""

    name: Annotated[str, msgspec.Meta(min_length=2, max_length=12)]
    cards: Annotated[list[Card], msgspec.Meta(max_length=3)]
    share: Annotated[float, msgspec.Meta(ge=0.0, le=1.0)]
    pair: tuple[int, Literal["up", "down"]]
    anything: int
    again: bool | None = None


SCHEMAS = [schema for name in registry.names() for schema in registry.get(name).commands.values()]


@given(data=st.data())
def test_made_up_args_are_valid_for_their_struct(data):
    schema = data.draw(st.sampled_from([*SCHEMAS, twentyone.Add, Varied]))
    args = random_args(schema, random.Random(data.draw(st.integers(0, 2**32 - 1))))
    through_json = msgspec.json.decode(msgspec.json.encode(args))
    assert msgspec.convert(args, schema) == msgspec.convert(through_json, schema)
