"""Crazy Race (Gewalt) rules: the rulebook's scoring example, the board, turns, action cards, data files."""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest
from enforced import assert_enforced
from gewalt_play import play, play_out, private_view, public_view, random_command, start
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import registry
from companion.gamekit import ScriptedDraws
from companion.gamekit.contract import Command, IllegalMove
from companion.games.gewalt import SPEC, board, data, rules
from companion.games.gewalt.board import FINISHED
from companion.games.gewalt.scoring import places_of, score
from companion.outputs.public import refusal

A, B, C, D = range(4)


def game(players: int = 4, expert: bool = False, seed: int = 1, **changes) -> rules.State:
    state = start({"players": players, "expert": expert}, ScriptedDraws(seed))
    return replace(state, **changes) if changes else state


def hands(state, sections=None, actions=None) -> rules.State:
    """Give every seat the same chosen hand."""
    if sections is not None:
        state = replace(state, sections=(tuple(sections),) * state.players)
    if actions is not None:
        state = replace(state, actions=(tuple(actions),) * state.players)
    return state


def slot(lane, stage, section) -> dict:
    return {"lane": lane, "stage": stage, "section": section}


# --- the rulebook's scoring example -----------------------------------------------------------
def test_the_rulebook_scoring_example():
    targets = [(4, 3, 2), (2, 3, 4), (2, 1, 2), (4, 3, 4)]
    places = [(3, 2, 3), (2, 3, 1), (1, 1, 2), (4, 4, 4)]
    rows = score(targets, places)
    assert [r["total"] for r in rows] == [0, 5, 3, 4]
    # The +marks sit where the rulebook's table puts them (the ruling: B's two are at stage 2).
    assert rows[A]["marks"] == [[], [], []]
    assert rows[B]["marks"] == [[C], [A, D], []]
    assert rows[C]["marks"] == [[], [], [A]]
    assert rows[D]["marks"] == [[A], [], [B]]
    assert [r["kept"] for r in rows] == [[False] * 3, [True, True, False], [False, True, True],
                                         [True, False, True]]


def test_the_scoring_example_from_the_trophies_of_a_finished_race():
    """The same example reached through the game: trophies in crossing order, then the bets."""
    trophies = ((C, B, A, D), (C, A, B, D), (B, C, A, D))
    state = game(bets=((4, 3, 2), (2, 3, 4), (2, 1, 2), (4, 3, 4)), trophies=trophies,
                 pawns=(FINISHED,) * 4, turn=None)
    assert places_of(trophies, 4) == [[3, 2, 3], [2, 3, 1], [1, 1, 2], [4, 4, 4]]
    view = public_view(state)
    assert [r["total"] for r in view["scores"]] == [0, 5, 3, 4]
    assert view["winners"] == [B]


# --- placing section cards ------------------------------------------------------------------
def test_a_card_goes_on_a_free_section_and_the_hand_is_drawn_back_up():
    state = hands(game(), sections=(5, 2, 2, 7))
    new, events = play(state, "play_section", {"length": 5, "slot": slot(2, 1, 3)})
    assert board.length(new.cards, 2, 1, 3) == 5
    assert len(new.sections[A]) == 4 and new.used_section
    assert events[0] == {"type": "section_played", "seat": A, "length": 5, "slot": slot(2, 1, 3)}
    again = pytest.raises(IllegalMove, play, new, "discard_section", {"length": 2})
    assert "already" in str(again.value)


def test_a_section_with_a_pawn_is_refused():
    state = hands(game(), sections=(5, 2, 2, 7))
    with pytest.raises(IllegalMove, match="pawn stands on lane B, stage 1, section 1"):
        play(state, "play_section", {"length": 5, "slot": slot(1, 0, 0)})
    # lane E has no player in a 4-player game: its first section is free
    placed, _ = play(state, "play_section", {"length": 5, "slot": slot(4, 0, 0)})
    assert board.length(placed.cards, 4, 0, 0) == 5


def test_a_refusal_names_the_lane_by_its_letter_as_the_board_in_english_and_french():
    state = hands(game(), sections=(5, 2, 2, 7))
    state, _ = play(state, "play_section", {"length": 5, "slot": slot(3, 1, 3)})
    state, _ = play(state, "roll", dice=[1, 1])
    with pytest.raises(IllegalMove) as taken:
        play(state, "play_section", {"length": 2, "slot": slot(3, 1, 3)})
    with pytest.raises(IllegalMove) as pawn:
        play(state, "play_section", {"length": 2, "slot": slot(1, 0, 0)})
    said = {lang: [refusal(err.value, lang, "gewalt")["error"] for err in (taken, pawn)]
            for lang in ("en", "fr")}
    assert said["en"] == [
        "Lane D, stage 2, section 4 already holds a card: choose a section with no card and no pawn.",
        "A pawn stands on lane B, stage 1, section 1: choose a section with no card and no pawn."]
    assert said["fr"][0].startswith("La voie D, étape 2, section 4 porte déjà une carte\u202f:")
    assert said["fr"][1].startswith("Un pion se trouve sur la voie B, étape 1, section 1\u202f:")
    assert not re.search(r"(?i)\b(lane|voie) \d", " ".join(said["en"] + said["fr"]))  # never a lane number


def test_a_section_with_a_card_is_refused():
    state = hands(game(), sections=(5, 2, 2, 7))
    state, _ = play(state, "play_section", {"length": 5, "slot": slot(2, 1, 3)})
    state, _ = play(state, "roll", dice=[1, 1])
    with pytest.raises(IllegalMove, match="already holds a card"):
        play(state, "play_section", {"length": 2, "slot": slot(2, 1, 3)})


def test_a_card_not_in_the_hand_is_refused_and_bad_args_name_the_field():
    state = hands(game(), sections=(5, 2, 2, 7))
    with pytest.raises(IllegalMove, match="no section card of length 8"):
        play(state, "play_section", {"length": 8, "slot": slot(2, 1, 3)})
    with pytest.raises(IllegalMove, match="slot.lane") as bad:
        play(state, "play_section", {"length": 5, "slot": {"lane": 7, "stage": 0, "section": 0}})
    assert bad.value.params["field"] == "slot.lane"
    with pytest.raises(IllegalMove, match="Unknown command"):
        play(state, "teleport")


def test_relocate_moves_a_placed_card_to_a_free_section():
    state = hands(game(expert=True), sections=(5, 2, 2, 7),
                  actions=("relocate", "double", "counter", "plus_4"))
    state, _ = play(state, "play_section", {"length": 5, "slot": slot(2, 1, 3)})
    new, events = play(state, "relocate", {"source": slot(2, 1, 3), "slot": slot(3, 2, 4)})
    assert board.length(new.cards, 2, 1, 3) == 4 and board.length(new.cards, 3, 2, 4) == 5
    assert "relocate" in new.action_deck.discard and events[0]["type"] == "relocated"
    with pytest.raises(IllegalMove, match="holds no section card"):
        play(state, "relocate", {"source": slot(0, 1, 3), "slot": slot(3, 2, 4)})
    with pytest.raises(IllegalMove, match="pawn stands on lane B, stage 1, section 1"):
        play(state, "relocate", {"source": slot(2, 1, 3), "slot": slot(1, 0, 0)})
    with pytest.raises(IllegalMove, match="already holds a card"):
        play(state, "relocate", {"source": slot(2, 1, 3), "slot": slot(2, 1, 3)})


def test_relocate_cannot_lift_a_card_a_pawn_stands_on():
    cards = board.empty_cards()
    cards = cards[:board.slot_index(1, 0, 2)] + (6,) + cards[board.slot_index(1, 0, 2) + 1:]
    state = hands(game(expert=True, cards=cards, pawns=((0, 0, 0), (0, 2, 1), (0, 0, 0), (0, 0, 0))),
                  actions=("relocate",) * 4)
    with pytest.raises(IllegalMove, match="pawn stands on the card"):
        play(state, "relocate", {"source": slot(1, 0, 2), "slot": slot(3, 0, 0)})


# --- movement -------------------------------------------------------------------------------
def with_cards(state, *placed) -> rules.State:
    cards = list(state.cards)
    for lane, stage, section, length in placed:
        cards[board.slot_index(lane, stage, section)] = length
    return replace(state, cards=tuple(cards))


def test_a_zero_length_section_is_crossed_at_no_cost():
    state = with_cards(game(), (A, 0, 1, 0))
    new, _ = play(state, "roll", dice=[1, 3])  # 4 points: squares 1, 2, 3, then section 3's first
    assert new.pawns[A] == (0, 2, 0)
    assert board.move(state.cards, A, (0, 0, 3), 1) == ((0, 2, 0), [])


def test_a_move_carries_over_two_stage_lines():
    state = with_cards(game(pawns=((0, 4, 2),) + (board.START,) * 3), *[(A, 1, s, 0) for s in range(5)])
    new, events = play(state, "roll", dice=[1, 2])  # 3 points: square 3, stage 1's line, stage 2 (empty), on
    assert new.pawns[A] == (2, 0, 1)
    assert new.trophies == ((A,), (A,), ())
    assert [e for e in events if e["type"] == "trophy"] == [
        {"type": "trophy", "seat": A, "stage": 0, "place": 1},
        {"type": "trophy", "seat": A, "stage": 1, "place": 1}]


def test_trophies_follow_the_order_of_crossings_across_turns():
    state = game(pawns=((0, 4, 0), (0, 4, 3), (0, 0, 0), (0, 4, 3)))
    state, _ = play(state, "roll", dice=[1, 1])  # A: 2 points, still in stage 1
    assert state.trophies[0] == ()
    state, _ = play(state, "roll", dice=[1, 1])  # B crosses first
    state, _ = play(state, "roll", dice=[1, 1])  # C far behind
    state, _ = play(state, "roll", dice=[1, 1])  # D crosses second
    state, _ = play(state, "roll", dice=[1, 1])  # A crosses third
    assert state.trophies[0] == (B, D, A)
    assert state.pawns[A] == (1, 0, 0)  # square 3, then over the line onto the first square


def test_the_finish_discards_the_cards_skips_the_seat_and_the_last_crossing_ends_the_game():
    state = hands(game(players=3, pawns=((2, 4, 2), (2, 4, 3), (0, 0, 0)),
                       trophies=((A, B, C), (B, A, C), ())), sections=(1, 2, 3, 4))
    state, events = play(state, "roll", dice=[6, 6])  # 12 points, 2 are enough: the rest is lost
    assert state.pawns[A] == FINISHED and state.sections[A] == () and state.trophies[2] == (A,)
    assert {"type": "finished", "seat": A} in events
    assert state.section_deck.discard[-4:] == (1, 2, 3, 4)
    state, _ = play(state, "roll", dice=[1, 1])  # B finishes too
    assert state.turn == C
    state, _ = play(state, "roll", dice=[1, 1])  # C plays on alone: the turn comes back to C
    assert state.turn == C and not rules.over(state)
    with pytest.raises(IllegalMove, match="Player 3 must act now, not you"):
        play(state, "roll", seat=A)
    state = replace(state, pawns=(FINISHED, FINISHED, (2, 4, 3)))
    state, events = play(state, "roll", dice=[1, 1])
    assert rules.over(state) and state.trophies[2] == (A, B, C)
    assert events[-1]["type"] == "game_over"
    view = public_view(state)
    assert view["over"] and view["scores"] is not None and rules.legal(state, None) == []
    with pytest.raises(IllegalMove, match="game is over: start a new game"):
        play(state, "roll")


def test_a_seat_may_act_only_in_its_turn():
    state = game()
    with pytest.raises(IllegalMove, match="Player 1 must act now, not you"):
        play(state, "roll", seat=B)
    assert play(state, "roll", seat=A, dice=[2, 3])[0].pawns[A] == (0, 1, 1)
    assert rules.legal(state, B) == [] and "roll" in rules.legal(state, A)


# --- action cards ---------------------------------------------------------------------------
def expert(**changes) -> rules.State:
    return hands(game(expert=True, **changes), sections=(3, 3, 3, 3),
                 actions=("double", "skip_turn", "counter", "relocate"))


def attack(state, card: str, target: int = B, answer: str = "allow"):
    """Seat A attacks `target` with `card`, the target answers, A rolls 1+1: B's turn next."""
    state = replace(state, actions=(((card, "counter", "counter", "relocate"),) + state.actions[1:]))
    state, _ = play(state, "attack", {"card": card, "target": target})
    state, _ = play(state, answer)
    return state


def test_attack_is_offered_only_while_someone_may_be_attacked():
    # B has finished, C and D already have an attack card in front of them: A may attack nobody.
    state = replace(expert(), pawns=(expert().pawns[A], FINISHED, *expert().pawns[C:]),
                    front=(None, None, "double", "no_roll"))
    assert rules.targets(state, A) == [] and "attack" not in rules.legal(state, A)
    assert "relocate" in rules.legal(state, A)  # the other action cards are still offered
    with pytest.raises(IllegalMove) as refused:
        play(state, "attack", {"card": "double", "target": B})
    said = {lang: refusal(refused.value, lang, "gewalt")["error"] for lang in ("en", "fr")}
    assert said == {"en": "Nobody can be attacked now: the other players have finished or already have an "
                          "attack card in front of them.",
                    "fr": "Personne ne peut être attaqué maintenant\u202f: les autres joueurs ont fini ou "
                          "ont déjà une carte d’attaque devant eux."}
    # C's attack card gone, C is the one player A may attack, as A's page is told
    freed = replace(state, front=(None, None, None, "no_roll"))
    assert rules.targets(freed, A) == [C] and private_view(freed, A)["targets"] == [C]
    assert "attack" in rules.legal(freed, A)


def roll_as_b(state, card: str, dice=(3, 4)):
    state = attack(state, card)
    assert state.front[B] == card
    state, _ = play(state, "roll", dice=[1, 1])
    assert state.turn == B
    return play(state, "roll", dice=list(dice))


@pytest.mark.parametrize(("card", "dice", "points", "rolled"), [
    ("double", (3, 4), 14, [3, 4]),
    ("no_roll", (3, 4), 0, []),
    ("move_4", (3, 4), 4, []),
    ("move_10", (3, 4), 10, []),
    ("minus_4", (3, 4), 3, [3, 4]),
    ("minus_4", (1, 2), 0, [1, 2]),  # never below 0
    ("plus_4", (3, 4), 11, [3, 4]),
])
def test_attack_cards_change_the_roll(card, dice, points, rolled):
    state, events = roll_as_b(expert(), card, dice)
    assert events[0] == {"type": "rolled", "seat": B, "dice": rolled, "effect": card, "points": points}
    assert state.pawns[B] == board.move(state.cards, B, board.START, points)[0]
    assert state.front[B] is None and card in state.action_deck.discard  # worked once, then discarded
    assert public_view(state)["last_roll"]["points"] == points


def test_extra_turn_plays_twice_in_a_row():
    state, events = roll_as_b(expert(), "extra_turn")
    assert {"type": "extra_turn", "seat": B} in events and state.turn == B and state.extra
    state, _ = play(state, "roll", dice=[1, 1])
    assert state.turn == C


def test_skip_turn_passes_the_turn_by():
    state = attack(expert(), "skip_turn")
    state, events = play(state, "roll", dice=[1, 1])
    assert {"type": "skipped", "seat": B} in events and state.turn == C
    assert state.pawns[B] == board.START and state.front[B] is None


def test_no_cards_refuses_every_card_for_one_turn():
    state = attack(expert(), "no_cards")
    state, _ = play(state, "roll", dice=[1, 1])
    assert rules.legal(state, None) == ["roll"]
    for kind, args in [("play_section", {"length": 3, "slot": slot(4, 2, 2)}),
                       ("discard_section", {"length": 3}), ("discard_action", {"card": "double"}),
                       ("attack", {"card": "double", "target": C})]:
        with pytest.raises(IllegalMove, match="no cards"):
            play(state, kind, args)
    state, _ = play(state, "roll", dice=[1, 1])
    assert "play_section" in rules.legal(state, None)  # C may play again


def test_one_attack_card_at_a_time_in_front_of_a_player():
    state = attack(expert(), "double")
    state, _ = play(state, "roll", dice=[1, 1])  # B's turn; B attacks C, then C... back to A
    for _ in range(3):
        state, _ = play(state, "roll", dice=[1, 1])
    assert state.turn == A and state.front[B] is None
    state = replace(state, front=(None, "plus_4", None, None), actions=(("double",) * 4,) + state.actions[1:])
    with pytest.raises(IllegalMove, match="already has an attack card"):
        play(state, "attack", {"card": "double", "target": B})
    with pytest.raises(IllegalMove, match="opponent"):
        play(state, "attack", {"card": "double", "target": A})
    with pytest.raises(IllegalMove, match="opponent"):
        play(state, "attack", {"card": "double", "target": 4})


def test_a_counter_cancels_the_attack_and_is_replaced_at_the_end_of_the_counterers_turn():
    state = expert()
    mine, theirs = ("double", "plus_4", "move_4", "move_10"), ("counter", "skip_turn", "relocate", "no_roll")
    state = replace(state, actions=(mine, theirs) + state.actions[2:])
    state, _ = play(state, "attack", {"card": "double", "target": B})
    assert state.pending == (A, B, "double") and rules.legal(state, None) == ["allow", "counter"]
    assert rules.legal(state, A) == [] and rules.legal(state, B) == ["allow", "counter"]
    with pytest.raises(IllegalMove, match="Player 2 must act now, not you"):  # B answers first
        play(state, "roll", seat=A)
    with pytest.raises(IllegalMove, match="counter the attack card or let it stand"):
        play(state, "roll")
    state, events = play(state, "counter", seat=B)
    assert events == [{"type": "countered", "seat": B, "attacker": A, "card": "double"}]
    assert state.front[B] is None and state.counters[B][A] == 1
    assert {"double", "counter"} <= set(state.action_deck.discard)
    assert len(state.actions[B]) == 3  # not replaced yet
    assert len(state.actions[A]) == 4  # the attacker drew a replacement at once
    # Everyone, the attacker first, is told who countered which card, until the end of the attacker's turn.
    assert public_view(state)["countered"] == {"attacker": A, "target": B, "card": "double"}
    state, _ = play(state, "roll", dice=[1, 1])
    assert state.turn == B and len(state.actions[B]) == 3
    assert public_view(state)["countered"] is None
    state, _ = play(state, "roll", dice=[1, 1])
    assert len(state.actions[B]) == 4  # the end of B's turn


def test_the_history_names_who_countered_or_let_the_attack_stand():
    from companion.i18n import translator

    fr = translator("fr", registry.get("gewalt"))
    assert fr(SPEC.history_lines["counter"], who="Zoé") == "Zoé a contré la carte d’attaque"
    assert fr(SPEC.history_lines["allow"], who="Zoé") == "Zoé a laissé passer la carte d’attaque"


def test_counters_against_one_opponent_stop_after_two():
    state = replace(expert(), counters=((0,) * 4, (2, 0, 0, 0), (0,) * 4, (0,) * 4))
    state = replace(state, actions=(("double",) * 4, ("counter",) * 4) + state.actions[2:])
    new, _ = play(state, "attack", {"card": "double", "target": B})
    assert new.pending is None and new.front[B] == "double"  # no counter window any more
    # against another opponent B may still counter
    state = replace(state, turn=C, actions=state.actions[:2] + (("double",) * 4, state.actions[3]))
    new, _ = play(state, "attack", {"card": "double", "target": B})
    assert new.pending == (C, B, "double")
    assert play(new, "counter")[0].counters[B][C] == 1


def test_a_counter_without_a_counter_card_or_without_an_attack_is_refused():
    state = replace(expert(), actions=(("double",) * 4, ("plus_4",) * 4) + expert().actions[2:])
    state, _ = play(state, "attack", {"card": "double", "target": B})
    with pytest.raises(IllegalMove, match="no counter card"):
        play(state, "counter")
    state, _ = play(state, "allow")
    state = replace(state, actions=(("counter",) * 4,) * 4)
    with pytest.raises(IllegalMove, match="cannot stop a section card"):
        play(state, "counter")
    state, _ = play(state, "play_section", {"length": 3, "slot": slot(1, 1, 1)})
    with pytest.raises(IllegalMove, match="cannot stop a section card"):
        play(state, "counter", seat=A)
    with pytest.raises(IllegalMove, match="Player 1 must act now, not you"):
        play(state, "counter", seat=B)


def test_one_action_card_and_one_section_card_per_turn_in_either_order():
    state = expert()
    state, _ = play(state, "discard_action", {"card": "relocate"})
    with pytest.raises(IllegalMove, match="already played or discarded an action card"):
        play(state, "discard_action", {"card": "double"})
    state, _ = play(state, "play_section", {"length": 3, "slot": slot(4, 0, 0)})
    assert rules.legal(state, None) == ["roll"]
    with pytest.raises(IllegalMove, match="expert game"):
        play(game(), "discard_action", {"card": "double"})


def test_an_empty_deck_reshuffles_its_discards():
    state = hands(game(), sections=(5, 2, 2, 7))
    state = replace(state, section_deck=rules.Deck((), (8, 8, 0)))
    new, _ = play(state, "discard_section", {"length": 5})
    # the pile was empty: the discards (now with the 5) became the pile, and one was drawn
    assert len(new.sections[A]) == 4 and len(new.section_deck.pile) == 3 and new.section_deck.discard == ()
    assert sorted(new.section_deck.pile + new.sections[A][3:]) == [0, 5, 8, 8]
    card, deck = rules.Deck((), ()).draw(ScriptedDraws())
    assert card is None and deck == rules.Deck((), ())


# Rulebook, expert game: "Après avoir joué ou défaussé une carte d'action, le joueur pioche une carte de
# remplacement. Lorsque la pioche est épuisée, on mélange la défausse pour former une nouvelle pioche."
# The played or discarded card is in the discards before the replacement is drawn.
TWENTY_ACTIONS = "\n".join(line for line in SPEC.bundled("cards").text.splitlines()
                           if line.split("=")[0].strip() not in data.ACTIONS) + "\n" + "\n".join(
    f"{kind} = {count}" for kind, count in (("double", 8), ("relocate", 6), ("counter", 6)))


def five_on_twenty_actions() -> rules.State:
    """5 players on a 20-card action deck: every card is dealt, the pile starts exhausted."""
    state = start({"players": 5, "expert": True}, ScriptedDraws(3), TWENTY_ACTIONS)
    assert state.action_deck == rules.Deck((), ()) and sum(map(len, state.actions)) == 20
    return state


def test_a_discarded_action_card_is_reshuffled_when_the_pile_is_exhausted():
    state = five_on_twenty_actions()
    card = state.actions[A][0]
    new, _ = play(state, "discard_action", {"card": card})
    # The pile was empty: the discards, holding just that card, became the pile and refilled the hand.
    assert len(new.actions[A]) == data.HAND and sorted(new.actions[A]) == sorted(state.actions[A])
    assert new.action_deck == rules.Deck((), ())


def test_a_played_relocate_card_is_reshuffled_when_the_pile_is_exhausted():
    state = replace(five_on_twenty_actions(), sections=((5, 2, 2, 7),) * 5)
    state = replace(state, actions=(("relocate", "double", "double", "counter"),) + state.actions[1:])
    state, _ = play(state, "play_section", {"length": 5, "slot": slot(2, 1, 3)})
    new, _ = play(state, "relocate", {"source": slot(2, 1, 3), "slot": slot(3, 2, 4)})
    assert sorted(new.actions[A]) == ["counter", "double", "double", "relocate"]


def test_an_attack_card_lies_in_front_of_its_target_so_it_cannot_come_back_at_once():
    state = five_on_twenty_actions()
    state = replace(state, actions=(("double",) * 4,) + state.actions[1:], counters=((2,) * 5,) * 5)
    new, _ = play(state, "attack", {"card": "double", "target": B})
    assert new.front[B] == "double" and len(new.actions[A]) == 3 and new.action_deck == rules.Deck((), ())


# --- the data file --------------------------------------------------------------------------
def test_the_bundled_decks_are_marked_reconstructed_and_have_the_boxs_counts():
    decks = data.load(SPEC.bundled("cards").text, "data.toml")
    assert decks.reconstructed
    assert len(decks.sections) == 56 and set(decks.sections) <= set(range(9))
    assert len(decks.actions) == 27 and set(decks.actions) == set(data.ACTIONS)
    assert len(decks.bets) == 20 and all(1 <= t <= 4 for bet in decks.bet_rows(4) for t in bet)
    assert all(1 <= t <= 3 for bet in decks.bet_rows(3) for t in bet)


@pytest.mark.parametrize(("text", "field"), [
    ("bets = []\n[sections]\n0 = 30\n[actions]\ndouble = 30\n", "bets"),
    ("bets = [{three=[1,2,3], four=[1,2,3], five=[1,2,6]}]\n[sections]\n[actions]\n", "bets[0].five[2]"),
    ("bets = []\n[sections]\n9 = 3\n[actions]\n", "sections.9"),
    ("bets = []\n[sections]\n[actions]\nfly = 3\n", "actions.fly"),
    ("bets = []\n[sections]\n2 = -1\n[actions]\n", "sections.2"),
    ("bets = [\n", None),
])
def test_a_bad_data_file_is_refused_with_its_name_and_field(text, field):
    with pytest.raises(IllegalMove) as refused:
        start({"players": 4}, ScriptedDraws(), text)
    message = str(refused.value)
    assert "mybox.toml" in message
    if field:
        assert f"'{field}'" in message


def test_a_replacement_data_file_is_used():
    bets = ", ".join(["{three=[1,1,1], four=[2,2,2], five=[5,5,5]}"] * 5)
    text = f"bets = [{bets}]\n[sections]\n8 = 20\n[actions]\ndouble = 20\n"
    state = start({"players": 4, "expert": True}, ScriptedDraws(), text, "x.toml")
    assert state.bets == ((2, 2, 2),) * 4 and state.sections[A] == (8,) * 4
    assert state.actions[B] == ("double",) * 4
    assert not state.reconstructed


# --- invariants under random legal play -----------------------------------------------------
SECRET_KEYS = {"bet", "bets", "sections_hand", "hand"}


def check_public(state, total_sections: int, total_actions: int) -> None:
    view = public_view(state)
    if not rules.over(state):
        assert view["scores"] is None and "bets" not in view
        for key in SECRET_KEYS:
            assert key not in view
    # no card appears or vanishes
    placed = sum(1 for c in state.cards if c != board.NO_CARD)
    held = sum(len(h) for h in state.sections)
    assert placed + held + len(state.section_deck.pile) + len(state.section_deck.discard) == total_sections
    fronts = sum(1 for f in state.front if f) + (1 if state.pending else 0)
    held = sum(len(h) for h in state.actions)
    assert fronts + held + len(state.action_deck.pile) + len(state.action_deck.discard) == total_actions
    assert all(len(h) <= data.HAND for h in state.sections + state.actions)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), expert_game=st.booleans(), seed=st.integers(0, 2**32))
def test_random_legal_play_ends_with_every_pawn_finished_and_sound_scores(players, expert_game, seed):
    draws = ScriptedDraws(seed)
    state = start({"players": players, "expert": expert_game}, draws)
    total_actions = 27 if expert_game else 0
    checked = []

    def each(s):
        check_public(s, 56, total_actions)
        if not rules.over(s):
            # the bets never show before the end: other bets, the same public view
            other = replace(s, bets=tuple(tuple(reversed(b)) for b in s.bets[1:] + s.bets[:1]))
            assert public_view(other) == public_view(s)
            checked.append(s.moves)

    state = play_out(state, random.Random(seed), draws, each=each)
    assert all(p == FINISHED for p in state.pawns)
    for order in state.trophies:
        assert sorted(order) == list(range(players))  # places 1..n, each once
    view = public_view(state)
    assert all(0 <= row["total"] <= 3 * players for row in view["scores"])
    assert [row["targets"] for row in view["scores"]] == [list(b) for b in state.bets]
    assert len(checked) > players * 5


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), expert_game=st.booleans(), choices=st.data())
def test_the_table_refuses_exactly_the_kinds_legal_leaves_out(players, expert_game, choices):
    """At every step of a random game, from its start to its end (tests/enforced.py)."""
    rng = choices.draw(st.randoms(use_true_random=False))
    draws = ScriptedDraws(rng.randrange(2**32))
    state = start({"players": players, "expert": expert_game}, draws)
    assert_enforced(SPEC, state, players)
    state = play_out(state, rng, draws, each=lambda s: assert_enforced(SPEC, s, players))
    assert rules.over(state)


PLAYED_ACTION = {"action_discarded", "relocated", "attacked"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), extra=st.integers(0, 7), choices=st.data())
def test_an_action_card_played_or_discarded_is_replaced_whenever_any_card_is_left(players, extra, choices):
    """On a deck of 20 to 27 action cards, a card played or discarded is replaced unless no card is left."""
    text = TWENTY_ACTIONS.replace("double = 8", f"double = {8 + extra}")
    rng = choices.draw(st.randoms(use_true_random=False))
    draws = ScriptedDraws(rng.randrange(2**32))
    state = start({"players": players, "expert": True}, draws, text)
    for _ in range(3000):
        if rules.over(state):
            break
        try:
            before = state
            state, events = SPEC.play(state, random_command(state, rng), draws)
        except IllegalMove:
            continue
        for event in events:
            if event["type"] in PLAYED_ACTION:
                seat, deck = event["seat"], state.action_deck
                replaced = len(state.actions[seat]) == len(before.actions[seat])
                assert replaced or not (deck.pile or deck.discard), (event, before.action_deck, deck)
    assert rules.over(state)


def test_private_view_holds_only_that_seats_secrets():
    state = game(expert=True)
    mine = private_view(state, B)
    assert mine["bet"] == list(state.bets[B]) and mine["sections"] == sorted(state.sections[B])
    assert mine["actions"] == sorted(state.actions[B])


def test_a_refusal_names_no_secret():
    """The message of a refused command is public: it never shows another seat's hand or bet."""
    state = game(expert=True)
    for command in [Command("play_section", {"length": 1, "slot": slot(1, 0, 0)}, B),
                    Command("counter", {}, C), Command("roll", {}, D)]:
        with pytest.raises(IllegalMove) as refused:
            SPEC.play(state, command, ScriptedDraws())
        for seat in range(4):
            if seat != A:
                assert str(list(state.bets[seat])) not in str(refused.value)


def test_a_recorded_game_replays_to_the_same_state():
    """Every random number comes from the draws, so the record rebuilds the game exactly."""
    from companion.core.session import advance, replay
    from companion.gamekit.draws import Draws
    from companion.storage.store import Record

    rng = random.Random(4)
    draws = Draws()
    start = {"game": "gewalt", "options": {"players": 5, "expert": True}}
    session, _ = advance(None, "new_game", None, start, draws)
    records = [Record(1, "new_game", None, start, draws.taken)]
    while not rules.over(session.state):
        command = random_command(session.state, rng)
        draws = Draws()
        try:
            session, _ = advance(session, command.kind, None, dict(command.args), draws)
        except IllegalMove:
            continue
        records.append(Record(len(records) + 1, command.kind, None, dict(command.args), draws.taken))
    rebuilt, version = replay(records)
    assert rebuilt.state == session.state and version == len(records)
