"""Crazy Race (Schacht): the rulebook's worked examples and every rule, on the pure rules."""

from __future__ import annotations

from dataclasses import replace

import pytest
from schacht_play import private_view, public_view, start

from companion.gamekit.contract import Command, IllegalMove
from companion.gamekit.draws import Draws
from companion.games.schacht import SPEC
from companion.games.schacht.data import Side, Stage, load
from companion.games.schacht.rules import Placement, actor, final_result, legal
from companion.games.schacht.track import FINISH, TURNTABLE, facing_home, space, travel

BUNDLED = SPEC.bundled("stages").text

LILAC, ORANGE, GREEN, BLUE = range(4)


def card(*sides, arrow=0) -> Stage:
    """A stage card from (loco, distance) pairs clockwise from the top; distance None is "?"."""
    return Stage(tuple(Side(loco, distance) for loco, distance in sides), arrow)


def game(players=3, stage=None, first=0, lanes=None, **options) -> object:
    """A fresh game whose every stage card is `stage`, with `first` to play and locos at `lanes`."""
    state = start({"players": players, **options}, Draws())
    if stage is not None:
        state = replace(state, deck=replace(state.deck, stages=(stage,) * 8))
    state = replace(state, first=first)
    if lanes is not None:
        state = replace(state, lanes=tuple(tuple(lane) for lane in lanes))
    return state


def play(state, *commands):
    """Apply (kind, args, seat) commands in order; returns the state and every event."""
    events = []
    for kind, args, seat in commands:
        state, more = SPEC.play(state, Command(kind, args, seat), Draws())
        events += more
    return state, events


def place(seat, side, value):
    return ("place", {"side": side, "value": value}, seat)


def pass_(seat):
    return ("pass", {}, seat)


def move(seat, *moves):
    return ("move", {"moves": [{"loco": loco, "steps": steps} for loco, steps in moves]}, seat)


def refused(state, kind, args, seat, fragment=""):
    with pytest.raises(IllegalMove) as err:
        SPEC.play(state, Command(kind, args, seat), Draws())
    assert fragment in err.value.msgid
    return err.value


# --- the rulebook's worked example (3 players) -----------------------------------------------------
# The figure on page 5 is missing, so the positions are the simplest ones the text describes.
EXAMPLE_CARD = card(("", 2), ("A", 4), ("B", 2), ("C", 1), arrow=0)
EXAMPLE_LANES = [
    (5, 4, 0),  # lilac: B on 4, A on 5 in front of it
    (4, 0, 0),  # orange: A on 4, two spaces from the turntable
    (TURNTABLE, 7, 9),  # green: A stopped on the turntable (facing home), others on 5 and 3 going home
]
EXAMPLE_BIDS = [  # orange is first player; 3 rounds
    place(ORANGE, 0, 3), place(GREEN, 1, 1), place(LILAC, 0, 1),
    pass_(ORANGE), place(GREEN, 2, 1), place(LILAC, 0, 2),
    pass_(ORANGE), place(GREEN, 2, 2), place(LILAC, 2, 4),
]


def example():
    return game(3, EXAMPLE_CARD, first=ORANGE, lanes=EXAMPLE_LANES)


def test_worked_example_top_side_tie_goes_to_who_placed_first_and_waits_for_the_loco_choice():
    state, _ = play(example(), *EXAMPLE_BIDS)
    view = public_view(state)
    assert state.phase == "decide" and actor(state) == ORANGE
    assert [r["side"] for r in view["revealed"]] == [0]  # only the arrow's side is open yet
    top = view["revealed"][0]
    assert top["cards"][LILAC] == [1, 2] and top["cards"][ORANGE] == [3]
    assert top["totals"][LILAC] == top["totals"][ORANGE] == 3 and top["winner"] == ORANGE
    assert view["deciding"] == {"seat": ORANGE, "side": 0, "steps": 2, "split": False,
                                "locos": ["A", "B", "C"]}


def test_worked_example_evaluation_and_both_movements_reproduce_exactly():
    state, _ = play(example(), *EXAMPLE_BIDS, move(ORANGE, ("A", 2)))
    view = public_view(state)
    top, right, bottom, left = view["revealed"]
    # Orange: 4 -> 5 -> turntable, turned, takes the highest turntable card.
    assert top["moves"] == [{"loco": "A", "steps": 2, "from": 4, "to": TURNTABLE, "turned": True,
                             "finished": False}]
    assert top["points"] == [{"seat": ORANGE, "pile": "turntable", "value": 5, "from": None}]
    # Green: the 1 alone wins the right side; A, facing home, jumps both other locos and finishes.
    assert right["winner"] == GREEN and right["totals"][GREEN] == 1
    assert right["moves"] == [{"loco": "A", "steps": 4, "from": TURNTABLE, "to": FINISH, "turned": False,
                               "finished": True}]
    assert right["points"] == [{"seat": GREEN, "pile": "finish", "value": 6, "from": None}]
    # Lilac 4 beats green 1+2: B jumps A on 5, turns (a card), jumps A again, lands on 4 facing home.
    assert bottom["totals"][LILAC] == 4 and bottom["totals"][GREEN] == 3 and bottom["winner"] == LILAC
    assert bottom["moves"] == [{"loco": "B", "steps": 2, "from": 4, "to": 8, "turned": True,
                                "finished": False}]
    assert view["lanes"][LILAC][1] == {"loco": "B", "progress": 8, "space": 4, "home": True,
                                       "finished": False}
    assert bottom["points"] == [{"seat": LILAC, "pile": "turntable", "value": 5, "from": None}]
    assert left["winner"] is None and view["taboo"] == 3
    assert view["points"] == [5, 5, 6]
    assert view["piles"]["turntable"]["cards"] == [5, 5, 4, 4, 4, 4]
    assert view["piles"]["finish"]["cards"] == [5, 5, 4, 4, 3]
    # Everyone moved a loco: no take-back, the cards are discarded and the stage is over.
    assert state.phase == "review" and state.takeback == ()
    assert state.discards == ((1, 2, 4), (3,), (1, 1, 2))


def test_the_fourth_side_is_taboo_with_three_players_once_three_sides_hold_cards():
    state, _ = play(example(), *EXAMPLE_BIDS[:8])
    assert public_view(state)["open"] == [0, 1, 2] and public_view(state)["taboo"] == 3
    before = state
    refused(state, "place", {"side": 3, "value": 4}, LILAC, "taboo")
    assert state == before
    assert private_view(state, LILAC)["placements"] == [0, 1, 2]


def test_the_taboo_side_follows_from_play():
    stage = card(("", 2), ("A", 4), ("B", 2), ("C", 1))
    state, _ = play(game(3, stage), place(0, 3, 1), place(1, 2, 1), place(2, 1, 1))
    assert public_view(state)["taboo"] == 0
    refused(state, "place", {"side": 0, "value": 1}, 0, "taboo")


def test_four_players_have_no_taboo_side():
    stage = card(("", 2), ("A", 4), ("B", 2), ("C", 1))
    state, _ = play(game(4, stage), place(0, 0, 1), place(1, 1, 1), place(2, 2, 1), place(3, 3, 1))
    assert public_view(state)["taboo"] is None and state.bids[3] == (Placement(3, 1),)


def test_a_pass_is_not_elimination():
    stage = card(("", 2), ("A", 4), ("B", 2), ("C", 1))
    state, _ = play(game(3, stage), pass_(0), pass_(1), pass_(2), place(0, 1, 6))
    assert state.bids[1] == (Placement(0, 6),) and state.round == 2


# --- the digest's movement example and the track ---------------------------------------------------
def test_digest_movement_jump_turntable_jump_back_lands_on_its_start_space_facing_home():
    trip = travel((5, 4, 0), loco=1, steps=2)
    assert (trip.start, trip.end, trip.turned, trip.finished) == (4, 8, True, False)
    assert space(trip.end) == 4 and facing_home(trip.end)


def test_jumping_costs_no_step_in_either_direction():
    assert travel((0, 1, 2), 0, 1).end == 3  # out: jumps 1 and 2
    assert travel((11, 10, 8), 2, 2).end == FINISH  # home: jumps space 2, then space 1, then finishes


def test_the_turntable_costs_a_step_and_a_loco_stops_there_only_with_no_steps_left():
    assert travel((5, 0, 0), 0, 1).end == TURNTABLE
    trip = travel((5, 0, 0), 0, 2)
    assert trip.turned and trip.end == 7 and space(trip.end) == 5


def test_an_occupied_turntable_is_jumped_but_the_loco_still_turns_and_scores():
    trip = travel((4, TURNTABLE, 0), 0, 2)
    # 4 -> 5 (step 1) -> the turntable is occupied: jumped, but turned -> 5 on the way home (step 2).
    assert trip.turned and trip.end == 7 and facing_home(trip.end)


def test_extra_steps_at_the_finish_are_lost():
    trip = travel((11, 0, 0), 0, 4)
    assert trip.finished and trip.end == FINISH


# --- evaluation rules --------------------------------------------------------------------------------
PLAIN = card(("", 2), ("A", 3), ("B", 1), ("C", 4), arrow=1)
PASS_TWO_ROUNDS = [pass_(s) for s in range(3)] * 2



def test_sides_are_evaluated_from_the_arrow_clockwise():
    state = game(4, PLAIN)
    state, _ = play(state, place(0, 0, 1), place(1, 1, 1), place(2, 2, 1), place(3, 3, 1),
                    *[pass_(s) for s in range(4)] * 2)
    assert [r["side"] for r in public_view(state)["revealed"]] == [1, 2, 3, 0]


def test_the_highest_total_wins_even_if_placed_later():
    state, _ = play(game(3, PLAIN), place(0, 1, 1), place(1, 1, 2), pass_(2), *PASS_TWO_ROUNDS)
    right = public_view(state)["revealed"][0]
    assert right["winner"] == 1 and right["moves"][0]["loco"] == "A" and state.lanes[1][0] == 3


def test_a_tie_goes_to_whoever_placed_the_first_card_on_that_side():
    state, _ = play(game(3, PLAIN, first=0), place(0, 1, 2), place(1, 1, 1), pass_(2),
                    pass_(0), place(1, 1, 1), pass_(2), pass_(0), pass_(1), pass_(2))
    right = public_view(state)["revealed"][0]
    assert right["totals"][:2] == [2, 2] and right["winner"] == 0


def test_the_free_side_winner_chooses_one_loco_for_the_whole_distance():
    state, _ = play(game(3, PLAIN), place(0, 0, 6), pass_(1), pass_(2), *PASS_TWO_ROUNDS)
    assert state.phase == "decide" and legal(state, 0) == ["move"] and legal(state, 1) == []
    assert private_view(state, 0)["decide"]["steps"] == 2 and private_view(state, 1)["decide"] is None
    two = {"moves": [{"loco": "A", "steps": 1}, {"loco": "B", "steps": 1}]}
    refused(state, "move", two, 0, "Move one loco")
    refused(state, "move", {"moves": [{"loco": "A", "steps": 3}]}, 0, "Move one loco")
    refused(state, "move", {"moves": [{"loco": "A", "steps": 2}]}, 1, "must act now, not you")
    state, _ = play(state, move(None, ("C", 2)))  # the table acts for the winner
    assert state.lanes[0] == (0, 0, 2) and state.phase == "review"


def test_the_free_side_moves_the_last_loco_by_itself():
    state = game(3, PLAIN, lanes=[(FINISH, FINISH, 3), (0, 0, 0), (0, 0, 0)])
    state, _ = play(state, place(0, 0, 6), pass_(1), pass_(2), *PASS_TWO_ROUNDS)
    assert state.lanes[0] == (FINISH, FINISH, 5) and state.phase == "review"


def test_question_mark_counts_every_card_on_the_side_and_the_winner_splits_it():
    stage = card(("", None), ("A", 3), ("B", 1), ("C", 4), arrow=0)
    state, _ = play(game(3, stage), place(0, 0, 6), place(1, 0, 1), place(2, 0, 2),
                    place(0, 0, 1), pass_(1), pass_(2), pass_(0), pass_(1), pass_(2))
    assert state.phase == "decide" and public_view(state)["deciding"]["steps"] == 4
    assert public_view(state)["deciding"]["split"] is True
    refused(state, "move", {"moves": [{"loco": "A", "steps": 3}]}, 0, "Share exactly")
    twice = {"moves": [{"loco": "A", "steps": 2}, {"loco": "A", "steps": 2}]}
    refused(state, "move", twice, 0, "at most once")
    state, _ = play(state, move(0, ("A", 1), ("B", 3)))
    assert state.lanes[0] == (1, 4, 0)  # A to 1 first, then B jumps it: 2, 3, 4
    assert [m["loco"] for m in public_view(state)["revealed"][0]["moves"]] == ["A", "B"]


def test_question_mark_on_a_loco_side_moves_only_that_loco():
    stage = card(("A", None), ("", 3), ("B", 1), ("C", 4), arrow=0)
    state, _ = play(game(3, stage), place(0, 0, 1), place(1, 0, 1), place(2, 0, 1),
                    *PASS_TWO_ROUNDS)
    assert public_view(state)["revealed"][0]["winner"] == 0 and state.lanes[0] == (3, 0, 0)


def test_a_move_for_a_loco_that_has_finished_is_lost():
    state = game(3, PLAIN, lanes=[(FINISH, 0, 0), (0, 0, 0), (0, 0, 0)])
    state, events = play(state, place(0, 1, 4), pass_(1), pass_(2), *PASS_TWO_ROUNDS)
    right = public_view(state)["revealed"][0]
    assert right["winner"] == 0 and right["lost"] and right["moves"] == []
    assert state.lanes[0] == (FINISH, 0, 0) and {"type": "lost", "seat": 0, "side": 1} in events


def test_empty_points_piles_give_nothing():
    state = replace(game(3, PLAIN, lanes=[(4, 11, 0), (0, 0, 0), (0, 0, 0)]), turntable=(), finish=())
    state, _ = play(state, place(0, 1, 4), pass_(1), pass_(2), pass_(0), pass_(1), pass_(2),
                    pass_(0), pass_(1), pass_(2))  # A: 4 -> 5 -> turntable -> 5 home
    assert state.lanes[0][0] == 7 and state.points[0] == ()
    assert public_view(state)["revealed"][0]["points"] == [{"seat": 0, "pile": "turntable", "value": None,
                                                            "from": None}]


# --- after the stage ---------------------------------------------------------------------------------
def test_a_player_who_moved_no_loco_may_take_back_one_card_they_played():
    state, _ = play(game(3, PLAIN, first=0), place(0, 1, 1), place(1, 1, 6), place(2, 2, 1),
                    place(0, 1, 2), pass_(1), pass_(2), pass_(0), pass_(1), pass_(2))
    # Seat 0 lost the right side to 6 and moved nothing; seat 1 and 2 moved.
    assert state.phase == "takeback" and state.takeback == (0,) and state.discards[0] == (1, 2)
    assert legal(state, 0) == ["take_back", "recall"] and legal(state, 1) == ["recall"]
    assert public_view(state)["takeback"] == [{"seat": 0, "cards": [1, 2]}]
    refused(state, "take_back", {"value": 6}, 0, "did not play")
    refused(state, "take_back", {"value": 2}, 1, "must act now, not you")
    state, _ = play(state, ("take_back", {"value": 2}, 0))
    assert state.hands[0] == (1, 2, 2, 3, 3, 4, 6) and state.discards[0] == (1,)
    assert state.phase == "review"


def test_take_back_may_be_declined():
    state, _ = play(game(3, PLAIN, first=0), place(0, 1, 1), place(1, 1, 6), pass_(2),
                    *PASS_TWO_ROUNDS)
    state, events = play(state, ("take_back", {}, None))
    assert state.discards[0] == (1,) and events == [{"type": "kept_none", "seat": 0}]


def test_recall_takes_all_discards_back_once_per_game_at_any_moment():
    state = replace(game(3, PLAIN, first=0), hands=((4, 6),) * 3, discards=((1, 1, 2),) * 3)
    state, events = play(state, ("recall", {}, 2))  # not seat 2's turn: recall is at any moment
    assert state.hands[2] == (1, 1, 2, 4, 6) and state.discards[2] == () and state.recalled[2]
    assert events == [{"type": "recalled", "seat": 2}] and actor(state) == 0
    assert "recall" not in legal(state, 2) and "recall" in legal(state, 1)
    refused(state, "recall", {}, 2, "must act now, not you")  # seat 2 has nothing to do: it waits
    state, _ = play(state, pass_(0), pass_(1))
    refused(state, "recall", {}, 2, "already")  # its turn now, and the reason is the recall it made
    fresh = game(3, PLAIN)
    refused(fresh, "recall", {}, 0, "no discarded cards")


def test_the_game_ends_early_once_everyone_has_recalled_and_played_out():
    state = replace(game(3, PLAIN, first=0), hands=((1,), (1,), (1,)), recalled=(True, True, True))
    state, _ = play(state, place(0, 1, 1), place(1, 2, 1), place(2, 3, 1))
    assert state.phase == "over" and state.stage == 0 and state.final.early
    assert public_view(state)["final"]["early"] is True and legal(state, None) == []
    refused(state, "next", {}, None, "game is over")


def test_the_early_end_evaluates_the_stage_then_ends_with_no_take_back():
    # Rulebook, "Cas particuliers": "Si tous les joueurs ont déjà repris leurs cartes Chauffeur et les ont
    # toutes jouées une deuxième fois, le jeu se termine de manière prématurée. L'étape en cours est encore
    # évaluée."
    state = replace(game(3, PLAIN, first=0), hands=((1,), (6,), (2,)), recalled=(True, True, True))
    state, events = play(state, place(0, 1, 1), place(1, 1, 6), place(2, 2, 2))
    # Seat 0 lost the right side and moved no loco: the stage is evaluated (both sides move) ...
    assert [e["type"] for e in events if e["type"] == "moved"] == ["moved", "moved"]
    assert 0 not in state.moved and state.discards[0] == (1,)
    # ... and the game is over at once: no take-back, no further stage.
    assert state.phase == "over" and state.takeback == () and state.final.early and state.stage == 0
    assert legal(state, 0) == [] and legal(state, None) == []
    refused(state, "take_back", {"value": 1}, 0, "game is over")
    refused(state, "next", {}, None, "game is over")


def test_a_seat_with_nothing_to_do_is_passed_by_itself():
    state = replace(game(3, PLAIN, first=0), hands=((1,), (), (1,)), recalled=(False, True, False))
    state, _ = play(state, place(0, 1, 1))
    assert actor(state) == 2  # seat 1 has no card and no recall left
    assert public_view(state)["out"] == [True, True, False]


def test_the_game_ends_after_eight_stages():
    state = game(3, PLAIN, first=0)
    for stage in range(8):
        state, _ = play(state, *[pass_((stage + s) % 3) for s in range(9)])
        if stage < 7:
            assert state.phase == "review"
            state, _ = play(state, ("next", {}, 1))
            assert actor(state) == (stage + 1) % 3  # the first player passes to the left
    assert state.phase == "over" and not state.final.early and state.stage == 7


def test_final_tie_on_points_goes_to_the_furthest_rearmost_loco():
    state = replace(game(3, PLAIN), points=((5, 4), (6, 3), (2,)),
                    lanes=((FINISH, 3, 8), (4, 9, 10), (FINISH, FINISH, FINISH)))
    final = final_result(state)
    assert final.scores == (9, 9, 2) and final.winners == (1,)
    tied = replace(state, lanes=((4, FINISH, 8), (4, 9, 10), (0, 0, 0)))
    assert final_result(tied).winners == (0, 1)


# --- variants ----------------------------------------------------------------------------------------
def test_variant_next_lower_score_wins_a_tie_for_most_points():
    state = replace(game(3, PLAIN, next_lower_wins=True), points=((9,), (9,), (7,)))
    assert final_result(state).winners == (2,)


def test_variant_end_penalty_hits_the_two_rearmost_players():
    state = replace(game(4, PLAIN, end_penalty=True), points=((5, 4), (6, 3), (5, 5), (4,)),
                    lanes=((1, FINISH, 8), (1, 9, 10), (3, 6, 6), (FINISH,) * 3))
    final = final_result(state)
    # Seats 0 and 1 tie for the rearmost loco: each loses its highest card; seat 2 its lowest.
    assert sorted(final.penalties) == [(0, 5), (1, 6), (2, 5)]
    assert final.scores == (4, 3, 5, 4)


def test_variant_shuffled_piles_show_only_the_top_card():
    state = game(3, PLAIN, shuffled_piles=True)
    piles = public_view(state)["piles"]
    assert piles["turntable"]["cards"] == [] and piles["turntable"]["top"] == state.turntable[0]
    assert sorted(state.turntable) == [4, 4, 4, 4, 5, 5, 5, 5]


def test_variant_fewer_points_cards_drops_the_lowest():
    state = game(3, PLAIN, fewer_points=True)
    assert state.turntable == (5, 5, 5, 5, 4, 4) and state.finish == (6, 5, 5, 4)


def test_variant_second_loco_home_takes_a_random_card_from_another_player():
    state = replace(game(3, PLAIN, steal_second_home=True), points=((), (4,), ()),
                    lanes=((FINISH, 0, 11), (0, 0, 0), (0, 0, 0)))
    state, _ = play(state, place(0, 3, 1), *[pass_(s) for s in (1, 2)], *PASS_TWO_ROUNDS)
    assert state.points == ((4,), (), ()) and state.finish == (6, 5, 5, 4, 4, 3)
    left = next(r for r in public_view(state)["revealed"] if r["side"] == 3)
    assert left["points"] == [{"seat": 0, "pile": "stolen", "value": 4, "from": 1}]


# --- commands and data -------------------------------------------------------------------------------
def test_a_bad_argument_is_refused_naming_the_field():
    state = game(3, PLAIN)
    err = refused(state, "place", {"side": 5, "value": 1}, 0, "argument")
    assert err.params["field"] == "side"
    err = refused(state, "place", {"side": 1}, 0, "argument")
    assert err.params["field"] == "value"
    refused(state, "fly", {}, 0, "Unknown command")
    refused(state, "place", {"side": 1, "value": 1}, 7, "must act now, not you")  # no such seat


def test_a_card_not_in_hand_is_refused_without_naming_anything_secret():
    state = replace(game(3, PLAIN, first=0), hands=((1, 2), (6,), (6,)))
    err = refused(state, "place", {"side": 1, "value": 6}, 0, "no driver card of that value")
    assert err.params == {} and "6" not in str(err)


def test_the_default_data_file_marks_what_is_reconstructed():
    deck = load(BUNDLED, "stages.toml")
    assert deck.drivers == (1, 1, 2, 2, 3, 3, 4, 6) and len(deck.stages) == 8
    assert set(deck.reconstructed) == {"stages", "turntable", "finish", "fewer_points_drop"}
    for stage in deck.stages:
        assert sorted(s.loco for s in stage.sides) == ["", "A", "B", "C"]


@pytest.mark.parametrize(("change", "key"), [
    (lambda t: t.replace("drivers = [1, 1, 2, 2, 3, 3, 4, 6]", "drivers = [1, 9]"), "drivers[1]"),
    (lambda t: t.replace('{ loco = "", distance = 2 }', '{ loco = "", distance = 7 }', 1),
     "stages[0].sides[0].distance"),
    (lambda t: t.replace('{ loco = "A", distance = 4 }', '{ loco = "B", distance = 4 }', 1),
     "stages[0].sides"),
    (lambda t: t.replace("arrow = 0", "arow = 0", 1), "stages[0].arow"),
    (lambda t: t.split("[[stages]]")[0] + "[[stages]]" + t.split("[[stages]]")[1], "stages"),
])
def test_a_bad_data_file_is_refused_naming_the_file_and_field(change, key):
    with pytest.raises(IllegalMove) as err:
        start({"players": 3}, Draws(), change(BUNDLED))
    assert "mybox.toml" in str(err.value) and key in str(err.value)


def test_a_data_file_that_is_not_toml_is_refused_naming_it():
    with pytest.raises(IllegalMove, match="mybox.toml"):
        start({"players": 3}, Draws(), "drivers = [")


def test_a_users_data_file_replaces_the_default():
    text = BUNDLED.replace("finish = [6, 5, 5, 4, 4, 3]", "finish = [9, 1]")
    state = start({"players": 4}, Draws(), text, "mine.toml")
    assert state.finish == (9, 1) and state.players == 4


def test_setup_draws_replay_to_the_same_game():
    live = Draws()
    state = start({"players": 4, "shuffled_piles": True}, live)
    again = start({"players": 4, "shuffled_piles": True}, Draws(live.taken))
    assert again == state and sorted(state.order) == list(range(8))
