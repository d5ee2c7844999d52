"""Crash! rules, each as a board scenario: pushes, the rulebook's examples, the end, the match, data files."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from crash_play import (
    BOARD_TEXT,
    NORTH,
    SOUTH,
    arranged,
    board,
    cell_of,
    dice,
    facing_of,
    game,
    play,
    play_out,
    quick_command,
    steering,
)

from companion.gamekit.contract import Command, IllegalMove
from companion.games.crash import SPEC, rules, views
from companion.games.crash.board import CARS, DIRECTIONS, STEPS, car_index, distance, hexagon
from companion.games.crash.commands import Direction

N, S = NORTH, SOUTH
# The rulebook's example needs junkyards at most 3 cells apart (see test_the_rulebook_example_*):
# the same board with them on the 3rd cell of the middle column from each side.
EXAMPLE_BOARD = BOARD_TEXT.replace("cell = [0, 2]", "cell = [0, 1]").replace("cell = [0, -2]",
                                                                             "cell = [0, -1]")


def garaged(seat: int) -> dict:
    """Every car of `seat` waiting in its garage, as `arranged` takes them."""
    return {(seat, g.car): (g.cell, DIRECTIONS[g.facing]) for g in board().garages if g.owner == seat}


def ref(seat: int, number: int) -> int:
    return car_index(seat, number)


# --- the board ---------------------------------------------------------------------------------------
def test_the_bundled_board_is_the_digests_reconstruction():
    data = board()
    assert len(data.cells) == 37 and data.side == 4
    assert sorted(Counter(q for q, _ in data.cells).values()) == [4, 4, 5, 5, 6, 6, 7]
    assert data.junkyards == ((0, 2), (0, -2))  # North (0) owns the one near South, and vice versa
    assert data.reconstructed == ("junkyards", "garages")
    for g in data.garages:
        assert g.cell not in data.cells and distance(g.cell, (0, 0)) == 4
        assert DIRECTIONS[g.facing] == ("s" if g.owner == N else "n")
        assert g.cell[0] != 0  # the middle column has no garage
    north = {g.cell for g in data.garages if g.owner == N}
    assert {g.cell for g in data.garages if g.owner == S} == {(-q, -r) for q, r in north}
    assert list(DIRECTIONS) == list(Direction.__args__)
    assert all(distance(step, (0, 0)) == 1 for step in STEPS)


def test_setup_runs_the_first_players_automatic_phase():
    state = game()
    assert state.turn == N and state.phase == rules.ROLL and state.turns == 1
    assert [cell_of(state, N, n) for n in range(1, 7)] == [(-3, 0), (-2, -1), (-1, -2), (1, -3), (2, -3),
                                                           (3, -3)]
    assert all(rules.waiting(state, ref(S, n)) for n in range(1, 7))  # in play, off the board
    assert rules.in_play(state, S) == 6 and state.moved == tuple(ref(N, n) for n in range(1, 7))
    assert rules.legal(state, None) == ["roll"] == rules.legal(state, N) and rules.legal(state, S) == []
    first_south = game(first=S)
    assert first_south.turn == S and cell_of(first_south, S, 1) == (3, 0)
    assert rules.waiting(first_south, ref(N, 1))


BAD_BOARDS = [
    (("cell = [0, 2]", "cell = [0, 5]"), "junkyards[0].cell", "cell [0, 5] is off the board"),
    (("cell = [0, -2]", "cell = [0, 2]"), "junkyards[1].cell", "already holds a junkyard"),
    (("owner = 1\n\n# Garages", "owner = 0\n\n# Garages"), "junkyards[1].owner", "already owns a junkyard"),
    (("cell = [0, 2]\nowner = 0", "cell = [0, 2]\nowner = 2"), "junkyards[0].owner",
     "owner 2 is not a player"),
    (("cell = [-2, -2]", "cell = [-3, -1]"), "garages[1].cell", "cell [-3, -1] already holds a garage"),
    (("cell = [-2, -2]", "cell = [-2, -1]"), "garages[1].cell", "cell [-2, -1] is on the board"),
    (("car = 2\ncell = [-2, -2]\nfacing = \"s\"", "car = 2\ncell = [-2, -2]\nfacing = \"south\""),
     "garages[1].facing", "'south' is not a direction"),
    (("car = 2\ncell = [-2, -2]\nfacing = \"s\"", "car = 2\ncell = [-2, -2]\nfacing = \"n\""),
     "garages[1].facing", "not a plain board cell"),
    (("owner = 0\ncar = 2", "owner = 0\ncar = 1"), "garages[1].car", "car 1 already has a garage"),
    (("owner = 0\ncar = 2", "owner = 0\ncar = 7"), "garages[1].car", "car 7 does not exist"),
    (("owner = 1\ncar = 6", "owner = 3\ncar = 6"), "garages[11].owner", "owner 3 is not a player"),
    (('reconstructed = ["junkyards", "garages"]', 'reconstructed = ["dice"]'), "reconstructed[0]",
     "'dice' is no part of the board"),
    (("\nside = 4", "\nside = 1"), "side", ">= 2"),
    (("\nside = 4", "\nside = 4\ncolour = 3"), "colour", "unknown field"),
]


@pytest.mark.parametrize("change, key, reason", BAD_BOARDS, ids=[b[1] + ":" + b[2][:20] for b in BAD_BOARDS])
def test_a_bad_board_file_is_refused_with_its_name_key_and_reason(change, key, reason):
    old, new = change
    assert old in BOARD_TEXT
    with pytest.raises(IllegalMove) as refused:
        board(BOARD_TEXT.replace(old, new, 1), "my-board.toml")
    assert refused.value.params["name"] == "my-board.toml"
    assert refused.value.params["key"] == key
    assert reason in str(refused.value)
    assert str(refused.value).startswith(f"Data file my-board.toml: key '{key}': ")


def test_a_board_file_missing_a_garage_or_a_junkyard_or_not_toml_is_refused():
    last = BOARD_TEXT.rindex("[[garages]]")
    with pytest.raises(IllegalMove, match="player 1's car 6 has no garage") as refused:
        board(BOARD_TEXT[:last], "short.toml")
    assert refused.value.params["key"] == "garages"
    first = BOARD_TEXT.index("[[junkyards]]")
    no_junkyards = BOARD_TEXT[:first] + "junkyards = []\n" + BOARD_TEXT[BOARD_TEXT.index("[[garages]]"):]
    with pytest.raises(IllegalMove, match="player 0 owns no junkyard"):
        board(no_junkyards, "x.toml")
    with pytest.raises(IllegalMove, match="x.toml is not valid TOML"):
        board("side = = 4", "x.toml")


def test_the_garages_are_checked_against_the_boards_side():
    text = BOARD_TEXT.replace("\nside = 4", "\nside = 5")
    with pytest.raises(IllegalMove, match="is on the board"):  # the side-4 garages now lie on the board
        board(text)
    assert len(hexagon(5)) == 61


# --- pushes --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("pushed", [(S, S), (N, S), (N, N)])
def test_a_push_chain_of_3_into_a_junkyard_gives_the_last_car_to_its_owner(pushed):
    """North car 1 moves south, pushing two cars; the second enters North's junkyard, whatever its colour."""
    middle, last = (pushed[0], 2), (pushed[1], 5)
    state = arranged(game(), {(N, 1): ((0, -1), "s"), middle: ((0, 0), "ne"), last: ((0, 1), "nw"),
                              (N, 6): ((3, -3), "s"), (S, 6): ((-3, 3), "n")})
    state, events = play(steering(state, 1), "move", {"car": 1})
    assert cell_of(state, N, 1) == (0, 0) and cell_of(state, *middle) == (0, 1)
    assert facing_of(state, *middle) == "ne"  # a pushed car keeps its facing
    assert state.cars[ref(*last)] is None and state.junk[N] == (ref(*last),)
    assert state.moved == (ref(N, 1), ref(*middle), ref(*last))
    assert events[0]["type"] == "move" and [c["to"] for c in events[0]["cars"]] == [[0, 0], [0, 1], None]
    assert events[1] == {"type": "captured", "seat": last[0], "car": 5, "by": N}
    view = views.public_view(state)
    assert view.junkyards[N].count == 1 and view.junkyards[N].cars == [views.CarRef(*last)]
    assert [c.status for c in view.cars if c.moved] == ["board", "board", "captured"]


def test_a_push_chain_of_3_into_a_junkyard_in_the_automatic_phase():
    """South's automatic phase: car 2 drives north up the middle column, two North cars go ahead."""
    state = arranged(game(), {(S, 2): ((0, 1), "n"), (N, 3): ((0, 0), "s"), (N, 4): ((0, -1), "s"),
                              (N, 6): ((3, -3), "s"), (S, 6): ((-3, 3), "n")}, turn=N)
    state, events = play(steering(state), "end")
    assert cell_of(state, S, 2) == (0, 0) and cell_of(state, N, 3) == (0, -1)
    assert state.junk[S] == (ref(N, 4),)  # the junkyard at (0, -2) is South's
    assert {"type": "captured", "seat": N, "car": 4, "by": S} in events


def test_a_push_chain_off_the_edge_puts_the_last_car_out():
    state = arranged(game(), {(N, 1): ((1, 0), "se"), (S, 1): ((2, 0), "s"), (S, 3): ((3, 0), "nw"),
                              (N, 6): ((-3, 0), "s"), (S, 6): ((-3, 3), "n")})
    state, events = play(steering(state, 1), "move", {"car": 1})
    assert cell_of(state, N, 1) == (2, 0) and cell_of(state, S, 1) == (3, 0)
    assert facing_of(state, S, 1) == "s"
    assert state.cars[ref(S, 3)] is None and state.out[-1] == ref(S, 3) and state.junk == ((), ())
    assert events[-1] == {"type": "out", "seat": S, "car": 3}
    view = views.public_view(state)
    assert view.players[S].out == 4 and view.players[S].in_play == 2  # 2, 4 and 5 were out already


def test_a_push_chain_into_a_garage_puts_the_car_out_and_leaves_the_waiting_car():
    """North's first turn: car 5 is pushed into the garage where South's car 1 still waits."""
    state = arranged(game(), {(N, 6): ((3, -1), "s"), (N, 5): ((3, 0), "s"), (N, 1): ((-3, 0), "s"),
                              **garaged(S)})
    state, events = play(steering(state, 6), "move", {"car": 6})
    assert cell_of(state, N, 6) == (3, 0) and state.cars[ref(N, 5)] is None
    assert events[-1] == {"type": "out", "seat": N, "car": 5}
    assert rules.waiting(state, ref(S, 1)) and rules.in_play(state, S) == 6
    state, events = play(state, "end")  # South's car 1 leaves its garage and pushes North's car 6 back
    assert cell_of(state, S, 1) == (3, 0) and cell_of(state, N, 6) == (3, -1)
    assert not any(rules.waiting(state, ref(S, n)) for n in range(1, 7))


def test_a_waiting_car_keeps_the_second_player_in_the_game():
    """(ruling) Cars waiting in their garages are in play: North's first turn cannot end the game."""
    state = game()
    assert rules.in_play(state, S) == 6 and state.phase == rules.ROLL
    view = views.public_view(state)
    assert [c.status for c in view.cars if c.seat == S] == ["waiting"] * 6
    assert all(g.waiting for g in view.garages if g.owner == S)
    assert not any(g.waiting for g in view.garages if g.owner == N)


# --- the automatic phase ---------------------------------------------------------------------------------
def schema_2(data=None):
    """The rulebook's Schéma 2, rebuilt: Red (South) has cars 1, 3 and 6; Blue (North) has 2, 4 and 5.

    Red's car 3 drives north-west, two cells from Red's junkyard; Red's car 1 faces it from the north.
    Blue has just steered; Red's automatic phase is next.
    """
    state = game(data or board(EXAMPLE_BOARD))
    return arranged(state, {(S, 1): ((2, -2), "s"), (S, 3): ((2, -1), "nw"), (S, 6): ((-3, 3), "n"),
                            (N, 2): ((-2, 1), "ne"), (N, 4): ((1, 1), "nw"), (N, 5): ((1, 2), "sw")},
                    junk=[[(S, 2)], [(N, 1)]], turn=N, phase=rules.STEER)


def test_the_rulebook_example_of_the_automatic_order():
    """Car 1 pushes car 3; there is no car 2; then cars 3 and 6 move (Schéma 2 -> Schéma 3)."""
    state, events = play(schema_2(), "end", seat=N)
    assert cell_of(state, S, 1) == (2, -1)
    assert cell_of(state, S, 3) == (1, 0)  # pushed south to (2, 0), then its own move north-west
    assert cell_of(state, S, 6) == (-3, 2)
    drives = [(e["type"], e["car"], [c["car"] for c in e["cars"]]) for e in events if e["type"] == "auto"]
    assert drives == [("auto", 1, [1, 3]), ("auto", 3, [3]), ("auto", 6, [6])]
    assert state.moved == (ref(S, 1), ref(S, 3), ref(S, 6)) and state.turn == S and state.phase == rules.ROLL
    # Had car 3 moved first, it would now sit beside Red's junkyard, facing it: the order deflected it.
    red = state.board.junkyards[S]
    assert distance((1, -1), red) == 1 and distance(cell_of(state, S, 3), red) == 2


def test_the_automatic_order_decides_a_capture():
    """Car 3 faces its own junkyard from the next cell, but car 1 moves first and pushes it aside."""
    cars = {(S, 1): ((1, -3), "s"), (S, 3): ((1, -2), "nw"), (N, 6): ((3, -3), "s")}
    state, _ = play(arranged(game(), cars, turn=N, phase=rules.STEER), "end")
    assert state.junk[S] == () and cell_of(state, S, 3) == (0, -1)
    swapped = {(S, 3): ((1, -3), "s"), (S, 1): ((1, -2), "nw"), (N, 6): ((3, -3), "s")}
    state, _ = play(arranged(game(), swapped, turn=N, phase=rules.STEER), "end")
    assert state.junk[S] == (ref(S, 1),) and cell_of(state, S, 3) == (1, -2)


# --- the steering phase -------------------------------------------------------------------------------
def schema_3():
    """Schéma 3, and Red's roll: 2, 3 and 5; the 2 and the 5 are rolled again and show 3 and 4."""
    state, _ = play(schema_2(), "end")
    return play(state, "roll", rolls=[2, 3, 5, 3, 4])


def test_the_rulebook_steering_roll():
    state, events = schema_3()
    assert state.dice == (rules.Die(3, first=2), rules.Die(3), rules.Die(4, first=5, lost=True))
    assert events == [{"type": "rolled", "seat": S, "dice": [3, 3, 4], "first": [2, None, 5],
                       "lost": [False, False, True]}]
    assert rules.steerable(state) == [3] and rules.legal(state, S) == ["turn", "move", "end"]
    shown = [(d.value, d.first, d.rerolled, d.state, d.usable) for d in views.public_view(state).dice]
    assert shown == [(3, 2, True, "free", True), (3, None, False, "free", True), (4, 5, True, "lost", False)]
    with pytest.raises(IllegalMove, match="No free die shows 1"):
        play(state, "move", {"car": 1})
    with pytest.raises(IllegalMove, match="out of play"):
        play(state, "move", {"car": 4})


def test_the_rulebook_continuation_a_forward_then_towards_the_junkyard():
    state, _ = schema_3()
    state, _ = play(state, "move", {"car": 3})
    state, _ = play(state, "turn", {"car": 3, "facing": "n"})
    assert cell_of(state, S, 3) == (0, 0) and facing_of(state, S, 3) == "n"
    assert rules.legal(state, S) == ["end"]
    state, _ = play(state, "end")  # Blue's automatic phase: car 2 passes, car 4 enters Blue's junkyard
    assert state.junk[N] == (ref(S, 2), ref(N, 4)) and cell_of(state, N, 2) == (-1, 0)
    state, _ = play(state, "roll", rolls=[2, 2, 2])
    state, events = play(state, "end")  # Red's automatic phase: car 3 reaches Red's junkyard
    assert state.junk[S] == (ref(N, 1), ref(S, 3))
    assert {"type": "captured", "seat": S, "car": 3, "by": S} in events


def test_the_rulebook_continuation_b_a_push_sends_blue_5_off_the_board():
    state, _ = schema_3()
    state, _ = play(state, "turn", {"car": 3, "facing": "s"})
    state, events = play(state, "move", {"car": 3})
    assert cell_of(state, S, 3) == (1, 1) and cell_of(state, N, 4) == (1, 2)
    assert state.cars[ref(N, 5)] is None and ref(N, 5) in state.out  # into a garage cell: off the board
    assert state.moved == (ref(S, 3), ref(N, 4), ref(N, 5))
    state, _ = play(state, "end")  # Blue's car 4 has lost the way into its junkyard
    assert state.junk[N] == (ref(S, 2),) and cell_of(state, N, 4) == (0, 2)


def test_the_rulebook_continuation_c_two_cells_forward():
    state, _ = schema_3()
    state, _ = play(state, "move", {"car": 3})
    state, _ = play(state, "move", {"car": 3})
    assert cell_of(state, S, 3) == (-1, 0) and facing_of(state, S, 3) == "nw"
    state, events = play(state, "end")  # Blue's car 2 moves first and pushes Red's car 3 into Red's junkyard
    assert state.junk[S] == (ref(N, 1), ref(S, 3)) and state.junk[N] == (ref(S, 2), ref(N, 4))
    assert [e["car"] for e in events if e["type"] == "captured"] == [3, 4]


def test_the_example_does_not_fit_the_default_junkyards():
    """On the digest's board (junkyards 4 apart) Red's car 3 cannot be one move from Red's junkyard
    in A and in C while next to a Blue car one move from Blue's junkyard (B)."""
    data = board()
    red, blue = data.junkyards[S], data.junkyards[N]
    assert distance(red, blue) == 4
    fits = [c for c in data.cells if distance(c, red) == 2 and distance(c, blue) <= 2]
    assert fits == [(0, 0)]  # only the straight line, where A's turn towards the junkyard is no turn


def test_a_die_is_rolled_again_once_then_lost():
    state = arranged(game(), {(N, 1): ((-3, 0), "s"), (S, 6): ((-3, 3), "n")})
    state, events = play(state, "roll", rolls=[4, 1, 6, 5, 2])
    assert state.dice == (rules.Die(5, first=4, lost=True), rules.Die(1), rules.Die(2, first=6, lost=True))
    assert rules.steerable(state) == [1]
    state, _ = play(arranged(game(), {(N, 1): ((-3, 0), "s"), (S, 6): ((-3, 3), "n")}), "roll",
                    rolls=[2, 3, 4, 5, 6, 2])
    assert all(d.lost for d in state.dice) and rules.legal(state, None) == ["end"]
    with pytest.raises(IllegalMove, match="rolled already"):
        play(state, "roll", rolls=[1, 1, 1])


def test_three_dice_on_one_car_turn_move_turn():
    state = arranged(game(), {(N, 4): ((1, -2), "s"), (S, 6): ((-3, 3), "n")})
    state, _ = play(state, "roll", rolls=[4, 4, 4])
    state, _ = play(state, "turn", {"car": 4, "facing": "se"})
    state, _ = play(state, "move", {"car": 4})
    assert cell_of(state, N, 4) == (2, -2) and state.moved == (ref(N, 4),)
    state, events = play(state, "turn", {"car": 4, "facing": "sw"})
    assert facing_of(state, N, 4) == "sw" and state.moved == ()
    assert events == [{"type": "turned", "seat": N, "car": 4, "facing": "sw"}]
    assert [d.used for d in state.dice] == [True] * 3 and rules.legal(state, N) == ["end"]
    with pytest.raises(IllegalMove, match="No free die can steer a car now: end your turn"):
        play(state, "move", {"car": 4})


def test_manoeuvres_are_optional_and_in_any_order():
    state = arranged(game(), {(N, 2): ((-2, -1), "s"), (N, 6): ((3, -3), "s"), (S, 6): ((-3, 3), "n")})
    state, _ = play(state, "roll", rolls=[6, 2, 6])
    state, _ = play(state, "move", {"car": 6})
    state, _ = play(state, "move", {"car": 2})
    state, _ = play(state, "move", {"car": 6})
    assert cell_of(state, N, 6) == (3, -1) and cell_of(state, N, 2) == (-2, 0)
    state = steering(arranged(game(), {(N, 2): ((-2, -1), "s"), (S, 6): ((-3, 3), "n")}), 2, 2, 2)
    state, _ = play(state, "end")
    assert state.turn == S and state.dice == ()


def test_a_turn_must_change_the_facing():
    state = steering(arranged(game(), {(N, 2): ((-2, -1), "s"), (S, 6): ((-3, 3), "n")}), 2)
    with pytest.raises(IllegalMove, match="already faces s"):
        play(state, "turn", {"car": 2, "facing": "s"})
    state, _ = play(state, "turn", {"car": 2, "facing": "n"})  # any direction, even straight back
    assert facing_of(state, N, 2) == "n"


def test_the_sixty_degree_option_turns_one_edge_per_die():
    state = steering(arranged(game(sixty=True), {(N, 2): ((-2, -1), "s"), (S, 6): ((-3, 3), "n")}), 2, 2)
    assert rules.facings(state, 2) == ["se", "sw"]
    with pytest.raises(IllegalMove, match="car 2 can face se or sw") as refused:
        play(state, "turn", {"car": 2, "facing": "n"})
    assert refused.value.params == {"car": 2, "left": "se", "right": "sw"}
    state, _ = play(state, "turn", {"car": 2, "facing": "se"})
    state, _ = play(state, "turn", {"car": 2, "facing": "ne"})  # two dice: 120 degrees
    assert facing_of(state, N, 2) == "ne"
    assert views.private_view(steering(state, 2), N).facings == {"2": ["n", "se"]}


# --- the end of a game ---------------------------------------------------------------------------------
def test_the_game_ends_as_the_last_car_is_pushed_out_mid_phase():
    """(ruling) North's car 1 pushes a line of two; South's last car leaves the board at the end of it.
    The whole line has moved (a push is one motion), and North's later cars do not move: the game is
    over at once."""
    state = arranged(game(), {(N, 1): ((1, 0), "s"), (N, 2): ((1, 1), "nw"), (S, 4): ((1, 2), "n"),
                              (N, 3): ((-1, -2), "s")},
                     junk=[[(S, 1), (S, 2)], [(N, 4)]], turn=S, phase=rules.STEER)
    state, events = play(state, "end")
    assert cell_of(state, N, 1) == (1, 1) and cell_of(state, N, 2) == (1, 2)
    assert cell_of(state, N, 3) == (-1, -2)  # car 3 never moved
    assert state.phase == rules.OVER and rules.actor(state) is None and rules.legal(state, None) == []
    assert state.result == rules.Result(N, "no_cars")
    assert events[-2:] == [{"type": "game_over", "winner": N, "reason": "no_cars", "junkyards": [2, 1]},
                           {"type": "match_over", "winner": N, "wins": [1, 0]}]
    assert state.moved == (ref(N, 1), ref(N, 2), ref(S, 4))
    with pytest.raises(IllegalMove, match="game is over"):
        play(state, "roll")


def test_the_game_ends_after_a_steering_move_and_the_dice_left_are_void():
    """South's last car is pushed into a garage cell: South has no car left, yet wins 1-0."""
    state = arranged(game(), {(N, 1): ((3, -1), "s"), (S, 2): ((3, 0), "n")}, junk=[[], [(N, 2)]])
    state, _ = play(steering(state, 1, 1, 1), "move", {"car": 1})
    assert state.phase == rules.OVER and state.result == rules.Result(S, "no_cars")
    assert rules.legal(state, N) == [] and views.public_view(state).dice == []


def test_a_draw_when_both_junkyards_hold_as_many_cars():
    state = arranged(game(), {(N, 1): ((3, -1), "s"), (S, 1): ((3, 0), "n"), (N, 6): ((-3, 0), "s")},
                     junk=[[(S, 2)], [(N, 3)]])
    state, events = play(steering(state, 1), "move", {"car": 1})  # South's last car off the bottom edge
    assert state.result == rules.Result(None, "no_cars")
    assert events[-2]["winner"] is None and events[-2]["junkyards"] == [1, 1]
    view = views.public_view(state)
    assert view.result == views.ResultView(None, "no_cars", [1, 1]) and view.match.draws == 1
    assert view.match.winner is None and view.match.over


def test_a_win_on_the_junkyard_count_with_the_opponents_cars_inside():
    """North runs out of cars, yet wins: its junkyard holds three South cars, South's holds two."""
    state = arranged(game(), {(S, 2): ((0, 0), "n"), (N, 6): ((0, -1), "sw"),
                              (S, 4): ((2, 1), "n")},
                     junk=[[(S, 1), (S, 3), (S, 5)], [(N, 1)]], turn=S)
    state, events = play(steering(state, 2), "move", {"car": 2})
    assert state.junk[S] == (ref(N, 1), ref(N, 6)) and rules.in_play(state, N) == 0
    assert state.result == rules.Result(N, "no_cars")
    view = views.public_view(state)
    assert view.players[N].captured == 3 and view.players[N].captured_colours == [0, 3]
    assert view.players[S].captured_colours == [2, 0] and view.players[N].in_play == 0


# --- the stall stop (our ruling) ------------------------------------------------------------------------
def test_a_game_without_steering_loops_for_ever_so_the_stall_stop_ends_it():
    """Proof that Crash! can loop: with no manoeuvres, each column's two cars meet head-on and push each
    other back and forth, so the position repeats every round and no car ever leaves play."""
    state = game(stall_turns=0)
    history = []
    for _ in range(300):
        state, _ = play(state, "roll", rolls=[1, 2, 3])
        state, _ = play(state, "end")
        history.append(state.cars)
    assert state.phase == rules.ROLL and state.out == () and state.junk == ((), ())
    assert history[-1] == history[-3] and history[-2] == history[-4] and history[-1] != history[-2]
    # With the stall stop (on by default), the same play ends in a draw after 30 turns.
    state = game()
    ends = 0
    while state.phase != rules.OVER:
        state, _ = play(state, "roll", rolls=[1, 2, 3])
        state, events = play(state, "end")
        ends += 1
    assert ends == 30 == state.quiet and state.result == rules.Result(None, "stalled")
    assert events[-2]["reason"] == "stalled"


def test_a_car_leaving_play_resets_the_stall_count():
    state = arranged(game(stall_turns=3), {(N, 1): ((3, -1), "s"), (S, 1): ((3, 0), "n"),
                                           (S, 2): ((-2, 3), "n"), (N, 6): ((-3, 0), "s")}, quiet=2)
    state, _ = play(steering(state, 1), "move", {"car": 1})
    assert state.quiet == 0
    state, _ = play(state, "end")
    assert state.quiet == 1 and state.phase == rules.ROLL


@pytest.mark.parametrize("options", [{}, {"sixty": True}, {"dice_only": True}, {"stall_turns": 5}])
def test_every_random_game_ends_within_the_proven_bound(options):
    """At most 11 cars leave play before a player has none, and at most stall_turns - 1 turns end between
    two of them (the next ends the game): no game passes 12 * stall_turns turns."""
    stall = options.get("stall_turns", 30)
    longest = 0
    for seed in range(40):
        rng = random.Random(seed)
        end = play_out(game(**options), rng.choice, dice(*[rng.randint(1, 6) for _ in range(20000)]),
                       limit=5 * 12 * stall + 20)
        assert end.phase == rules.OVER
        assert end.turns <= 12 * stall
        longest = max(longest, end.turns)
    assert longest > 2


def test_the_quick_player_of_the_device_and_browser_tests_ends_every_game_in_a_few_turns():
    """tests/crash_play.quick_command drives each steered car towards the nearest edge."""
    longest = 0
    for seed in range(60):
        rng = random.Random(seed)
        draws = dice(*[rng.randint(1, 6) for _ in range(600)])
        state = game(first=seed % 2)
        for _ in range(200):
            if state.phase == rules.OVER:
                break
            state, _ = SPEC.play(state, quick_command(state), draws)
        assert state.phase == rules.OVER and state.result.reason == "no_cars", seed
        longest = max(longest, state.turns)
    assert longest <= 16


# --- dice only -----------------------------------------------------------------------------------------
def test_dice_only_rolls_for_the_cars_marked_in_play_and_counts_the_junkyards():
    state = game(dice_only=True)
    assert all(car is not None and car.cell is None for car in state.cars) and state.moved == ()
    assert rules.legal(state, None) == ["roll", "mark_out"]
    state, events = play(state, "mark_out", {"owner": N, "car": 2, "by": S})  # the automatic phase did it
    assert state.junk[S] == (ref(N, 2),) and events == [{"type": "captured", "seat": N, "car": 2, "by": S}]
    state, _ = play(state, "roll", rolls=[2, 3, 2, 2, 6])
    assert state.dice == (rules.Die(2, first=2, lost=True), rules.Die(3), rules.Die(6, first=2))
    assert rules.legal(state, None) == ["mark_out", "end"]
    for kind, args in (("turn", {"car": 3, "facing": "n"}), ("move", {"car": 3})):
        with pytest.raises(IllegalMove, match="not tracked"):
            play(state, kind, args)
    with pytest.raises(IllegalMove, match="already out of play"):
        play(state, "mark_out", {"owner": N, "car": 2})
    state, _ = play(state, "end")
    assert state.turn == S and state.phase == rules.ROLL
    for number in range(1, 7):
        state, events = play(state, "mark_out", {"owner": S, "car": number, "by": N if number < 4 else None})
    assert state.result == rules.Result(N, "no_cars") and events[-2]["junkyards"] == [3, 1]
    view = views.public_view(state)
    assert view.mode == "dice" and view.players[S].out == 3 and view.players[S].taken == 3
    assert all(c.q is None for c in view.cars)


def test_mark_out_belongs_to_dice_only_play():
    with pytest.raises(IllegalMove, match="board is tracked"):
        play(game(), "mark_out", {"owner": S, "car": 1})


# --- the match -----------------------------------------------------------------------------------------
def near_end(state, loser: int):
    """`state` one move from its end: the winner's car 1 is to push `loser`'s last car off the board;
    the winner's junkyard holds two cars, the loser's one."""
    winner = 1 - loser
    junk: list[list] = [[], []]
    junk[winner], junk[loser] = [(loser, 1), (loser, 2)], [(winner, 3)]
    cars = {(winner, 1): ((3, -1), "s"), (loser, 6): ((3, 0), "n"), (winner, 2): ((-2, 3), "n")}
    return steering(arranged(state, cars, junk=junk, turn=winner), 1)


def test_a_two_game_match_alternates_the_first_player_and_keeps_running_totals():
    state = game(games=2)
    assert state.first == N and views.public_view(state).match.game == 1
    state, _ = play(near_end(state, S), "move", {"car": 1})
    assert state.phase == rules.OVER and state.match.wins == (1, 0) and not state.match.over
    assert not SPEC.over(state)  # the match goes on: its record is kept once it ends
    assert rules.legal(state, None) == ["next_game"] == rules.legal(state, S)
    with pytest.raises(IllegalMove, match="send next_game"):
        play(state, "roll")
    state, events = play(state, "next_game", seat=S)
    assert state.first == S and state.turn == S and state.turns == 1 and state.result is None
    assert events[0] == {"type": "next_game", "game": 2} and any(e["type"] == "auto" for e in events)
    assert cell_of(state, S, 1) == (3, 0) and rules.waiting(state, ref(N, 1))
    assert state.junk == ((), ()) and state.match.captured == ((0, 2), (1, 0))
    with pytest.raises(IllegalMove, match="not over yet"):
        play(state, "next_game")
    # Game 2: South wins by pushing North's last car out.
    state, events = play(near_end(state, N), "move", {"car": 1}, seat=S)
    assert state.match.wins == (1, 1) and state.match.played == 2 and state.match.over
    assert state.match.captured == ((0, 3), (3, 0))
    view = views.public_view(state).match
    assert (view.games, view.game, view.wins, view.captured, view.over) == (2, 2, [1, 1], [3, 3], True)
    assert view.winner is None  # one game each, three cars each
    assert events[-1] == {"type": "match_over", "winner": None, "wins": [1, 1]}
    assert rules.legal(state, None) == []
    assert SPEC.over(state) and rules.over(state)
    with pytest.raises(IllegalMove, match="game is over: start a new game"):
        play(state, "next_game")


def test_the_match_winner_is_the_one_with_more_games_then_more_cars():
    assert rules.match_winner(rules.Match(2, 0, 2, (2, 0))) == 0
    assert rules.match_winner(rules.Match(2, 0, 2, (1, 1), 0, ((0, 3), (2, 0)))) == 0
    assert rules.match_winner(rules.Match(2, 0, 2, (0, 0), 2, ((1, 0), (0, 2)))) == 1


# --- refusals ------------------------------------------------------------------------------------------
def test_out_of_turn_and_out_of_phase_commands_are_refused():
    state = game()
    with pytest.raises(IllegalMove, match="Player 1 must act now, not you"):
        play(state, "roll", seat=S)
    with pytest.raises(IllegalMove, match="Roll the steering dice first"):
        play(state, "end")
    with pytest.raises(IllegalMove, match="Roll the steering dice first"):
        play(state, "move", {"car": 1})
    rolled, _ = play(state, "roll", rolls=[1, 2, 3], seat=N)
    assert rolled.moves == 1 and rules.actor(rolled) == N


def test_bad_args_name_the_field():
    state, _ = play(game(), "roll", rolls=[1, 2, 3])
    with pytest.raises(IllegalMove, match="argument 'car'") as refused:
        play(state, "move", {"car": 7})
    assert refused.value.params["field"] == "car"
    with pytest.raises(IllegalMove, match="argument 'facing'"):
        play(state, "turn", {"car": 1, "facing": "east"})
    with pytest.raises(IllegalMove, match="Unknown command"):
        play(state, "teleport")
    with pytest.raises(IllegalMove, match="argument 'speed'"):
        play(state, "move", {"car": 1, "speed": 2})


def test_options_are_checked():
    for bad in ({"games": 3}, {"first": 2}, {"stall_turns": -1}, {"colour": "red"}):
        with pytest.raises(msgspec.ValidationError):
            msgspec.convert(bad, rules.CrashOptions)
    assert msgspec.convert({}, rules.CrashOptions) == rules.CrashOptions()


def test_the_views_round_trip_and_name_the_moves():
    state, _ = schema_3()
    view = views.public_view(state)
    assert msgspec.convert(msgspec.to_builtins(view), views.PublicView) == view
    assert view.turn == S and view.phase == "steer" and view.legal == ["turn", "move", "end"]
    on_board = {(c.q, c.r): c.car for c in view.cells if c.car is not None}
    assert on_board[(1, 0)] == views.CarOnCell(S, 3, "nw") and len(on_board) == 6
    assert [c.junkyard for c in view.cells if c.junkyard is not None] == [S, N]
    private = views.private_view(state, S)
    assert private == views.PrivateView(S, True, ["turn", "move", "end"], [3],
                                        {"3": [d for d in DIRECTIONS if d != "nw"]})
    assert views.private_view(state, N) == views.PrivateView(N, False, [], [], {})
    assert len(view.cars) == 2 * CARS and Command("roll").seat is None
