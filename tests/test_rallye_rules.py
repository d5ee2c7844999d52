"""Le rallye hasardeux rules, scenario by scenario: setup, passages, every route effect and surprise card."""

from __future__ import annotations

from dataclasses import replace

import msgspec
import pytest
from rallye_play import FOLDER, data, new_game, play

from companion.gamekit import ScriptedDraws, put
from companion.gamekit.contract import Command, IllegalMove
from companion.gamekit.draws import Draws
from companion.games.rallye import SPEC, deck, layout, rules, views
from companion.games.rallye.deck import PLAIN_CARDS, Plain
from companion.games.rallye.state import START, Pending, passage_of

A, B, C, D = range(4)


# --- building races -------------------------------------------------------------------------------
EFFECTS = [e for e in deck.EFFECTS if e != "none"]
# The tests' route deck: more blank cards than the box's, two of each effect (one swap of each kind
# with the surprise symbol), so any circuit a test writes out can be laid.
TEST_ROUTE = replace(data()["route"], reconstructed=False, plain=(
    (Plain("none", False),) * 16 + (Plain("none", True),) * 4
    + tuple(Plain(e, i == 0 and e in ("swap_last", "swap_any")) for e in EFFECTS for i in range(2))))


def track(spec: str, players: int = 3, **changes) -> rules.State:
    """A race on a circuit written out after the start line, one token per card: "." a blank card, "*" only
    the surprise symbol, an effect name (with "*" for the symbol), E<n>/X<n> an entrance/exit with n
    padlocks; "^" before a plain card lays it face up. Every surprise card is in the pile, hands empty."""
    route = TEST_ROUTE
    state = new_game(0, players=players, route_cards=10, auto_passages=True)
    free, passages = list(range(PLAIN_CARDS)), list(range(6))
    circuit, face_up = [START], [True]
    for token in spec.split():
        up, token = token.startswith("^"), token.lstrip("^")
        if token[0] in "EX" and token[1:].isdigit():
            kind = "entrance" if token[0] == "E" else "exit"
            i = next(i for i in passages if route.passages[i] == deck.Passage(kind, int(token[1:])))
            passages.remove(i)
            circuit.append(PLAIN_CARDS + i)
            face_up.append(False)
            continue
        surprise = token.endswith("*") and token != "."
        effect = {".": "none", "*": "none"}.get(token, token.rstrip("*"))
        card = next(c for c in free if route.plain[c] == Plain(effect, surprise))
        free.remove(card)
        circuit.append(card)
        face_up.append(up)
    state = replace(state, route=route, circuit=tuple(circuit), face_up=tuple(face_up), row=(),
                    spare=tuple(free) + tuple(PLAIN_CARDS + i for i in passages),
                    pile=state.pile + sum(state.hands, ()), hands=((),) * players, turn=A)
    return replace(state, **changes)


def opened(state: rules.State, *positions: int) -> rules.State:
    for p in positions:
        state = replace(state, opened=put(state.opened, passage_of(state, p), True))
    return state


def give(state: rules.State, seat: int, *cards: str) -> rules.State:
    """`seat` holds `cards` too, taken from the pile."""
    pile = list(state.pile)
    for card in cards:
        pile.remove(card)
    return replace(state, pile=tuple(pile), hands=put(state.hands, seat, state.hands[seat] + cards))


def top(state: rules.State, *cards: str) -> rules.State:
    """`cards` on top of the pile, in this order."""
    pile = list(state.pile)
    for card in cards:
        pile.remove(card)
    return replace(state, pile=tuple(cards) + tuple(pile))


def at(state: rules.State, *places: int, laps: tuple[int, ...] | None = None, **changes) -> rules.State:
    return replace(state, places=places, laps=laps or (0,) * len(places), **changes)


def answer_no(state: rules.State, times: int = 1) -> rules.State:
    for _ in range(times):
        assert state.pending is not None and state.pending.kind == "cancel"
        state, _ = play(state, "decline")
    return state


def kinds(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


EIGHT = ". . . . . . . ."


# --- the data files -----------------------------------------------------------------------------
def test_the_bundled_decks_have_the_boxs_counts_and_are_marked_reconstructed():
    route, surprises = data()["route"], data()["surprises"]
    assert len(route.plain) == 40 and route.reconstructed and surprises.reconstructed
    assert sorted(p.kind for p in route.passages) == ["entrance"] * 3 + ["exit"] * 3
    assert all(1 <= p.padlocks <= 3 for p in route.passages)
    assert {p.effect for p in route.plain} == set(deck.EFFECTS)
    assert len(surprises.cards) == 47 and set(surprises.cards) == set(deck.SURPRISES)
    assert not route.start_surprise


ROUTE = FOLDER.joinpath("route.toml").read_text(encoding="utf-8")
SURPRISES = FOLDER.joinpath("surprises.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(("loader", "text", "key", "reason"), [
    (deck.load_route, ROUTE.replace("count = 11", "count = 10", 1), "plain", "39 plain cards"),
    (deck.load_route, ROUTE.replace('effect = "reverse"', 'effect = "teleport"'), "plain[11].effect",
     "unknown effect 'teleport'"),
    (deck.load_route, ROUTE.replace("padlocks = 3", "padlocks = 0"), "passages[2].padlocks", "0 padlocks"),
    (deck.load_route, ROUTE.replace('kind = "exit"', 'kind = "entrance"', 1), "passages",
     "4 cards of kind entrance"),
    (deck.load_route, ROUTE.replace('kind = "exit"', 'kind = "bridge"', 1), "passages[3].kind",
     "unknown kind 'bridge'"),
    (deck.load_route, ROUTE.replace("count = 11", "count = eleven"), None, "not valid TOML"),
    (deck.load_route, ROUTE.replace("count = 8", "count = 0"), "plain[1].count", ">= 1"),
    (deck.load_surprises, SURPRISES.replace("key = 12", "key = 11"), "cards", "46 surprise cards"),
    (deck.load_surprises, SURPRISES.replace("lock = 5", "banana = 5"), "cards.banana", "unknown field"),
    (deck.load_surprises, SURPRISES.replace("lock = 5", "lock = -5"), "cards.lock", ">= 0"),
])
def test_a_bad_data_file_is_refused_with_its_name_field_and_reason(loader, text, key, reason):
    with pytest.raises(IllegalMove) as refused:
        loader(text, "mybox.toml")
    assert refused.value.params["name"] == "mybox.toml"
    assert reason in str(refused.value)
    if key is not None:
        assert refused.value.params["key"] == key


def test_a_replacement_deck_is_used():
    text = ROUTE.replace('effect = "none"\nsurprise = true', 'effect = "reverse"\nsurprise = true')
    route = deck.load_route(text, "mine.toml")
    assert sum(p == Plain("reverse", True) for p in route.plain) == 11
    assert deck.load_surprises("[cards]\nkey = 47\n", "keys.toml").cards == ("key",) * 47


# --- setup and passage placement ------------------------------------------------------------------
@pytest.mark.parametrize(("plain", "passages"), [(10, 2), (15, 2), (16, 4), (30, 4), (31, 6), (40, 6)])
def test_the_passage_count_follows_the_circuits_length_at_the_band_edges(plain, passages):
    assert layout.passage_count(plain) == passages
    state = new_game(3, players=2, route_cards=plain)
    kinds_ = sorted(data()["route"].passages[i].kind for i in state.row)
    assert len(state.row) == passages and len(state.circuit) == plain + 1
    if passages == 2:
        assert kinds_ == ["entrance", "exit"]
    state = new_game(3, players=2, route_cards=plain, auto_passages=True)
    assert state.phase == "race" and len(state.circuit) == plain + passages + 1
    assert sum(passage_of(state, p) is not None for p in range(1, len(state.circuit))) == passages
    assert sorted(state.spare + state.circuit[1:]) == list(range(46))  # every route card somewhere, once


def test_placing_a_passage_counts_along_the_row_wrapping_round():
    state = new_game(5, players=3, route_cards=20, first=B)
    row = state.row
    assert len(row) == 4 and state.phase == "placing" and rules.actor(state) == B
    named_card = state.circuit[7]
    # B names card 7; the die shows 6: counting 1, 2, 3, 4 along the row, then 5, 6 from its start again
    new, events = play(state, "place_passage", {"card": 7}, dice=[6])
    assert layout.counted(row, 6) == 1 and passage_of(new, 7) == row[1]
    assert new.row == (row[0], row[2], row[3])
    assert new.circuit[-1] == named_card and len(new.circuit) == 22 and not new.face_up[-1]
    assert not new.opened[row[1]]  # locked side up
    assert events[0] == {"type": "passage_placed", "position": 7, "die": 6, "counted": 2,
                         "kind": data()["route"].passages[row[1]].kind, "moved_to": 21}
    # the next player places the next one; the count starts again at the row's first card
    assert rules.actor(new) == C
    new, _ = play(new, "place_passage", {"card": 3}, dice=[2], seat=C)
    assert passage_of(new, 3) == row[2]
    new, _ = play(new, "place_passage", {"card": 4}, dice=[5])  # 5 along 2 cards: 1, 2, 1, 2, 1
    assert passage_of(new, 4) == row[0]
    new, events = play(new, "place_passage", {"card": 5}, dice=[3])
    assert passage_of(new, 5) == row[3] and new.phase == "race" and new.turn == B
    assert events[-1] == {"type": "race_started", "seat": B}


def test_placement_refuses_the_start_line_a_passage_and_other_commands():
    state = new_game(5, players=3, route_cards=20)
    with pytest.raises(IllegalMove, match="not the start line and not a passage"):
        play(state, "place_passage", {"card": 0})
    with pytest.raises(IllegalMove, match="from 1 to 20"):
        play(state, "place_passage", {"card": 25})
    state, _ = play(state, "place_passage", {"card": 4}, dice=[1])
    with pytest.raises(IllegalMove, match="not a passage"):
        play(state, "place_passage", {"card": 4})
    with pytest.raises(IllegalMove, match="must act now, not you"):
        play(state, "place_passage", {"card": 5}, seat=A)
    with pytest.raises(IllegalMove, match="being placed"):
        play(state, "roll")
    assert rules.legal(state, None) == ["place_passage"] and rules.legal(state, A) == []
    assert rules.legal(state, B) == ["place_passage"]


def test_setup_deals_two_cards_each_and_the_host_picks_the_first_player():
    state = new_game(2, players=5, route_cards=12, auto_passages=True, first=D)
    assert [len(h) for h in state.hands] == [2] * 5 and len(state.pile) == 37
    assert state.turn == D and rules.actor(state) == D and state.places == (0,) * 5
    with pytest.raises(IllegalMove, match="seats 1 to 3"):
        new_game(2, players=3, first=4)
    options = msgspec.convert({"players": 6, "route_cards": 40, "laps": 1}, rules.RallyeOptions)
    assert options.laps == 1 and not options.auto_passages
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"route_cards": 41}, rules.RallyeOptions)
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"players": 2, "snails": 1}, rules.RallyeOptions)


# --- moving and turning cards -------------------------------------------------------------------
def test_a_face_down_card_is_turned_and_applied_and_a_face_up_one_applies_to_the_arriver():
    state = at(track(". . ford_4 " + EIGHT), 0, 0, 0)
    state, events = play(state, "roll", dice=[3])
    assert state.face_up[3] and state.status[A] == "ford_4" and state.turn == B
    assert {"type": "effect", "seat": A, "position": 3, "effect": "ford_4", "surprise": False} in events
    assert views.public_view(state).last_effect == views.EffectView(A, 3, "ford_4", False)
    state = replace(state, places=(4, 0, 0))
    state, _ = play(state, "roll", dice=[3])  # B arrives on the face-up ford
    assert state.status[B] == "ford_4" and state.face_up[3]


def test_a_face_down_card_another_player_stands_on_is_not_turned():
    state = at(track(". . ford_4 " + EIGHT), 0, 3, 0)
    state, events = play(state, "roll", dice=[3])
    assert not state.face_up[3] and state.status[A] == "" and "effect" not in kinds(events)
    assert {"type": "not_turned", "seat": A, "position": 3} in events


def test_a_face_up_card_another_player_stands_on_applies_to_the_arriver_unturned():
    state = at(track(". . ^ford_5 " + EIGHT), 0, 3, 0)
    state, _ = play(state, "roll", dice=[3])
    assert state.face_up[3] and state.status[A] == "ford_5"


def test_the_surprise_symbol_draws_a_card():
    state = top(at(track(". * " + EIGHT), 0, 0, 0), "key")
    state, events = play(state, "roll", dice=[2])
    assert state.hands[A] == ("key",) and {"type": "drew", "seat": A} in events


def test_a_six_draws_an_extra_card_and_a_one_gives_the_last_player_one():
    state = top(at(track(". . . . . . . . . ."), 2, 5, 4), "key", "lock")
    state, _ = play(state, "roll", dice=[6])
    assert state.hands == (("key",), (), ())
    state, _ = play(state, "roll", dice=[1])  # B rolls 1 from 5: A (now at 8) is not last, C at 4 is
    assert state.hands == (("key",), (), ("lock",))


# --- the route effects ---------------------------------------------------------------------------
def test_others_back_moves_the_others_back_and_i_stay():
    state = at(track(". . others_back " + EIGHT), 1, 6, 8)
    state, events = play(state, "roll", dice=[2, 4])
    assert {"type": "effect_roll", "seat": A, "die": 4} in events
    assert state.pending.kind == "cancel" and state.pending.seat == B and state.pending.threat == "back"
    state = answer_no(state, 2)
    assert state.places == (3, 2, 4) and state.turn == B


def test_all_back_moves_everyone_back_me_included():
    state = at(track(". . . . all_back " + EIGHT), 1, 6, 8)
    state, _ = play(state, "roll", dice=[4, 3])
    assert state.pending.seat == A  # clockwise from me
    state = answer_no(state, 3)
    assert state.places == (2, 3, 5)


def test_others_back_me_forward():
    state = at(track(". . others_back_me_forward " + EIGHT), 1, 6, 8)
    state, _ = play(state, "roll", dice=[2, 3])
    state = answer_no(state, 2)
    assert state.places == (6, 3, 5)


def test_a_ford_failed_then_passed():
    state = at(track(". . ford_4 . . . . . . . ."), 0, 9, 9)
    state, _ = play(state, "roll", dice=[3])
    assert state.status[A] == "ford_4"
    state = replace(state, turn=A)
    state, events = play(state, "roll", dice=[2])  # 2 < 4: back by the roll
    assert {"type": "ford_failed", "seat": A, "ford": "ford_4"} in events
    state = answer_no(state)
    assert state.places[A] == 1 and state.status[A] == ""
    state = replace(state, turn=A)
    state, _ = play(state, "roll", dice=[2])  # back onto the face-up ford
    assert state.places[A] == 3 and state.status[A] == "ford_4"
    state = replace(state, turn=A)
    state, _ = play(state, "roll", dice=[5])  # 5 >= 4: across, moving 5
    assert state.places[A] == 8 and state.status[A] == ""


def test_the_exact_ford_option_fails_a_six():
    state = at(track(". . ford_4 " + EIGHT, ford_exact=True, status=("ford_4", "", "")), 3, 9, 9)
    state, _ = play(state, "roll", dice=[6])
    assert state.pending.threat == "back"
    assert answer_no(state).places[A] == 0
    state = at(track(". . ford_4 " + EIGHT, ford_exact=True, status=("ford_4", "", "")), 3, 9, 9)
    assert play(state, "roll", dice=[4])[0].places[A] == 7


def test_the_five_ford_holds_a_player_who_draws_each_turn_until_a_five():
    state = at(track(". . ford_5 " + EIGHT), 0, 9, 9)
    state, _ = play(state, "roll", dice=[3])
    assert state.status[A] == "ford_5"
    for die in (3, 4):
        state, events = play(replace(state, turn=A), "roll", dice=[die])
        assert state.places[A] == 3 and state.status[A] == "ford_5" and "drew" in kinds(events)
    assert len(state.hands[A]) == 2
    state, _ = play(replace(state, turn=A), "roll", dice=[5])
    assert state.places[A] == 8 and state.status[A] == ""


def test_a_player_moved_off_a_ford_leaves_it_behind():
    state = at(track(". . ^ford_5 . . . others_back " + EIGHT, status=("", "ford_5", "")), 4, 3, 9)
    state, _ = play(state, "roll", dice=[3, 2])
    state = answer_no(state, 2)
    assert state.places[B] == 1 and state.status[B] == ""


def test_one_back_the_player_i_choose_moves_back():
    state = at(track(". . one_back " + EIGHT), 1, 6, 8)
    state, _ = play(state, "roll", dice=[2, 5])
    pending = views.public_view(state).pending
    assert pending.kind == "target" and pending.choices == [B, C] and pending.amount == 5
    with pytest.raises(IllegalMove, match="Player 1 cannot be chosen: choose one of players 2, 3"):
        play(state, "choose", {"seat": A})
    state, _ = play(state, "choose", {"seat": C}, seat=A)
    state = answer_no(state)
    assert state.places == (3, 6, 3)


def test_one_back_with_one_other_player_asks_nobody_to_choose():
    state = at(track(". . one_back " + EIGHT, players=2), 1, 6)
    state, _ = play(state, "roll", dice=[2, 5])
    assert state.pending.kind == "cancel" and state.pending.seat == B


def test_swap_with_the_last_player_draws_me_first_then_them_and_the_card_stays_up():
    state = top(at(track(". . . . swap_last* " + EIGHT), 2, 3, 1), "key", "lock")
    state, events = play(state, "roll", dice=[3])
    assert state.places == (1, 3, 5) and state.face_up[5]
    assert state.hands == (("key",), (), ("lock",))
    drew = [e["seat"] for e in events if e["type"] == "drew"]
    assert drew == [A, C]


def test_swap_with_the_last_player_turns_a_face_up_card_i_land_on_face_down():
    # C, at card 2 on its second lap, is the last: nearest the start whatever the lap
    state = at(track(". ^one_back . . swap_last* " + EIGHT), 1, 9, 2, laps=(0, 0, 1))
    state, events = play(state, "roll", dice=[4])
    assert state.places == (2, 9, 5) and state.laps == (0, 0, 1)
    assert not state.face_up[2] and state.face_up[5] and state.status[A] == ""  # moved: no trigger
    assert {"type": "turned_down", "position": 2} in events


def test_swap_with_the_first_player_whatever_the_lap():
    state = at(track(". . swap_first " + EIGHT), 0, 9, 6, laps=(2, 0, 3))
    state, _ = play(state, "roll", dice=[3])
    assert state.places == (9, 3, 6) and state.laps == (2, 0, 3) and state.face_up[3]


def test_the_last_player_landing_on_swap_last_swaps_with_nobody():
    state = at(track(". . swap_last* " + EIGHT), 0, 9, 6)
    state, events = play(top(state, "key"), "roll", dice=[3])
    assert state.places == (3, 9, 6) and "no_swap" in kinds(events) and state.hands[A] == ("key",)


def test_swap_with_any_player_but_the_first():
    state = top(at(track(". . swap_any* " + EIGHT, players=4), 1, 9, 6, 4), "key", "lock")
    state, _ = play(state, "roll", dice=[2])
    assert state.pending.kind == "target" and state.pending.choices == (C, D)  # B is first
    with pytest.raises(IllegalMove, match="cannot be chosen"):
        play(state, "choose", {"seat": B})
    state, events = play(state, "choose", {"seat": D})
    assert state.places == (4, 9, 6, 3) and state.hands[A] == ("key",) and state.hands[D] == ("lock",)


def test_reverse_moves_me_backwards_next_turn():
    state = at(track(". . . reverse " + EIGHT), 0, 9, 9)
    state, _ = play(state, "roll", dice=[4])
    assert state.status[A] == "reverse"
    state, _ = play(replace(state, turn=A), "roll", dice=[2])
    state = answer_no(state)  # the reverse turn is a backward move: asked first (see below)
    assert state.places[A] == 2 and state.status[A] == ""


def test_protection_cancels_the_reverse_turn_and_spends_it():
    """(ruling) « Protégé des retours en arrière »: the reverse turn included; the player stays put."""
    state = give(at(track(". . . . . . . . . .", status=("reverse", "", "")), 5, 1, 1), A, "protection")
    asked, events = play(state, "roll", dice=[3])
    assert asked.pending == Pending("cancel", A, "back", 3, -1, own=True) and asked.places[A] == 5
    assert views.public_view(asked).pending.cards == ["protection"]
    assert views.private_view(asked, A).plays == [views.PlayView("cancel", "protection")]
    kept, _ = play(asked, "cancel", {"card": "protection"}, seat=A)
    assert kept.places[A] == 5 and kept.status[A] == "" and kept.turn == B and "protection" in kept.discard
    walked, _ = play(asked, "decline")  # no card: the reverse turn walks back and arrives as before
    assert walked.places[A] == 2 and walked.status[A] == "" and walked.turn == B
    stuck = at(track(". . . . . . . . . .", status=("reverse", "", "")), 0, 1, 1)  # nothing behind the line
    stuck, _ = play(stuck, "roll", dice=[3])
    assert stuck.pending is None and stuck.places[A] == 0 and stuck.turn == B


def test_reverse_goes_forwards_after_an_effect_sent_me_back_first():
    state = at(track(". . reverse . . others_back " + EIGHT, status=("", "reverse", "")), 2, 3, 9)
    state, _ = play(state, "roll", dice=[4, 1])
    state = answer_no(state, 2)
    assert state.places[B] == 2 and state.status[B] == ""
    state, _ = play(state, "roll", dice=[2])  # B's turn: forwards
    assert state.places[B] == 4


def test_a_cancelled_backward_move_leaves_the_reverse_in_place():
    state = at(track(". . . . . others_back " + EIGHT, status=("", "reverse", "")), 2, 3, 9)
    state = give(state, B, "protection")
    state, _ = play(state, "roll", dice=[4, 1])
    state, _ = play(state, "cancel", {"card": "protection"}, seat=B)
    assert state.places[B] == 3 and state.status[B] == "reverse"


# --- the cancel window ----------------------------------------------------------------------------
def test_the_cancel_question_is_asked_whether_or_not_the_victim_holds_a_card():
    state = at(track(". . others_back " + EIGHT), 1, 6, 8)
    holding = give(state, B, "protection")
    for s in (state, holding):
        asked, _ = play(s, "roll", dice=[2, 4])
        view = views.public_view(asked)
        assert view.pending == views.PendingView("cancel", B, "back", 4, [], ["protection"], seconds=20,
                                                 asked=[B, C])
        assert rules.legal(asked, None) == ["decline", "close"]
        assert rules.legal(asked, B) == ["cancel", "decline"]
        assert rules.legal(asked, C) == ["cancel", "decline"] and rules.legal(asked, A) == []
    asked, _ = play(holding, "roll", dice=[2, 4])
    assert views.private_view(asked, B).plays == [views.PlayView("cancel", "protection")]
    state, events = play(asked, "cancel", {"card": "protection"}, seat=B)
    assert state.places[B] == 6 and "protection" in state.discard and state.hands[B] == ()
    assert events[0] == {"type": "cancelled", "seat": B, "threat": "back", "card": "protection"}
    assert state.pending.seat == C


def test_the_victims_of_one_effect_are_asked_together_and_the_window_closes_once_all_answered():
    """Issue 24, problem 4: one window for every victim of an effect, not one after another."""
    state = give(at(track(". . others_back " + EIGHT, players=4), 1, 6, 8, 9), D, "protection")
    asked, _ = play(state, "roll", dice=[2, 4])
    assert asked.pending.asked() == (B, C, D) and SPEC.waiting_on(asked) == [B, C, D]
    assert all(rules.legal(asked, s) == ["cancel", "decline"] for s in (B, C, D))
    window = rules.deadline(asked)
    assert window[:2] == (20, Command("close"))
    # any order: D cancels, then C, then B says no; the window closes with the last answer
    state, _ = play(asked, "cancel", {"card": "protection"}, seat=D)
    assert state.pending.asked() == (B, C) and state.places[D] == 9
    assert rules.deadline(state) == window  # the same window: the table's clock runs on
    state, _ = play(state, "decline", seat=C)
    assert state.pending.asked() == (B,) and state.places[C] == 4
    state, _ = play(state, "decline", seat=B)
    assert state.pending is None and state.places[:3] == (3, 2, 4) and state.turn == B
    # the table's default closes the window at once: no for every one still asked
    closed, events = play(asked, "close")
    assert closed.pending is None and closed.places == (3, 2, 4, 5) and closed.turn == B
    assert [e["seat"] for e in events if e["type"] == "declined"] == [B, C, D]
    # the seat policy: the table closes no window in which a phone's seat is asked
    with pytest.raises(IllegalMove, match="Seat 3 plays from its own phone"):
        SPEC.play(asked, Command("close", {}), ScriptedDraws(0), phones={C})
    # one victim alone: its own window, as before
    alone = at(track(". . others_back " + EIGHT, players=3), 1, 0, 8)
    alone, _ = play(alone, "roll", dice=[2, 4])
    assert alone.pending.asked() == (C,) and not alone.pending.seats
    assert rules.deadline(alone) == (20, Command("decline"))


def test_only_the_victim_or_the_table_answers():
    state = give(at(track(". . others_back " + EIGHT), 1, 6, 8), B, "protection")
    asked, _ = play(state, "roll", dice=[2, 4])
    with pytest.raises(IllegalMove, match="must act now, not you"):
        play(asked, "decline", seat=A)
    with pytest.raises(IllegalMove, match="table may only answer no"):
        play(asked, "cancel", {"card": "protection"})
    with pytest.raises(IllegalMove, match="wait for their answer"):
        play(asked, "roll")
    with pytest.raises(IllegalMove, match="Only a protection card cancels a backward move"):
        play(asked, "cancel", {"card": "shield_oil"}, seat=B)
    with pytest.raises(IllegalMove, match="You do not hold that surprise card"):
        play(replace(asked, hands=((), (), ())), "cancel", {"card": "protection"}, seat=B)
    timed_out, _ = play(asked, "decline")  # the platform's timer answers for the victim
    assert timed_out.places[B] == 2


def test_no_question_when_the_victim_cannot_move_back():
    state = at(track(". . others_back " + EIGHT), 1, 0, 8)
    state, _ = play(state, "roll", dice=[2, 4])
    assert state.pending.seat == C  # B stands on the start line on its first lap


# --- the hand limit -------------------------------------------------------------------------------
def test_a_fourth_card_must_be_laid_or_discarded_before_the_game_goes_on():
    state = at(track(". . . . . . . . . ."), 0, 9, 9)
    state = top(give(state, A, "key", "lock", "tacks"), "oil_5")
    state, _ = play(state, "roll", dice=[6])
    assert len(state.hands[A]) == 4 and state.places[A] == 0  # waiting before the move
    assert views.public_view(state).pending == views.PendingView("trim", A, seconds=60)
    assert rules.legal(state, None) == ["discard"]
    assert rules.legal(state, A) == ["discard", "swap_cards", "lay"]
    assert rules.legal(state, B) == []
    with pytest.raises(IllegalMove, match="Player 1 holds 4 surprise cards"):
        play(state, "roll")
    with pytest.raises(IllegalMove, match="Player 1 must act now, not you"):
        play(give(state, B, "swap"), "swap_cards", {"first": 1, "second": 2}, seat=B)
    laid, events = play(state, "lay", {"card": "tacks", "at": 8}, seat=A)
    assert laid.hazards == ((8, "tacks"),) and laid.places[A] == 6 and laid.turn == B
    dropped, _ = play(state, "discard")  # the table's default: the newest card
    assert dropped.hands[A] == ("key", "lock", "tacks") and dropped.discard[-1] == "oil_5"
    dropped, _ = play(state, "discard", {"card": "lock"}, seat=A)
    assert dropped.hands[A] == ("key", "tacks", "oil_5")
    with pytest.raises(IllegalMove, match="only when you hold more than 3"):
        play(dropped, "discard", {"card": "key"}, seat=B)


# --- tacks and oil --------------------------------------------------------------------------------
def test_tacks_block_for_two_turns_and_catch_a_second_player():
    state = at(track(EIGHT + " . ."), 0, 0, 9, hazards=((4, "tacks"),))
    state, events = play(state, "roll", dice=[6])  # A passes card 4: stopped there
    assert state.places[A] == 4 and state.pending.threat == "tacks" and "stopped" in kinds(events)
    state = answer_no(state)
    assert state.status[A] == "tacks" and state.blocked[A] == 2 and state.turn == B
    state, _ = play(state, "roll", dice=[5])  # B passes by while A is blocked: caught too
    state = answer_no(state)
    assert state.places[B] == 4 and state.status[B] == "caught"
    state, _ = play(state, "roll", dice=[2])  # C goes round to the start line
    for _ in range(2):  # A sits out 2 turns, B with it
        state, events = play(state, "roll")
        assert events[0]["type"] == "sits_out" and state.places[A] == 4
        state, events = play(state, "roll")
        assert events[0]["type"] == "sits_out" and state.places[B] == 4
        state, _ = play(state, "roll", dice=[1])
    state, events = play(state, "roll", dice=[3])  # A's 3rd turn: the tacks go, A sets off
    assert state.places[A] == 7 and state.hazards == () and "tacks" in state.discard
    assert state.status == ("", "", "")
    state, _ = play(state, "roll", dice=[2])
    assert state.places[B] == 6


def test_a_shield_lets_the_player_pass_the_tacks_and_finish_the_move():
    state = give(at(track(EIGHT + " . ."), 0, 9, 9, hazards=((4, "tacks"),)), A, "shield_tacks")
    state, _ = play(state, "roll", dice=[6])
    assert views.public_view(state).pending.cards == ["protection", "shield_tacks"]
    state, _ = play(state, "cancel", {"card": "shield_tacks"}, seat=A)
    assert state.places[A] == 6 and state.hazards == ((4, "tacks"),) and state.status[A] == ""


def test_oil_sends_back_by_a_roll_and_is_discarded():
    state = at(track(EIGHT + " . ."), 3, 0, 1, hazards=((6, "oil_roll"),))
    state, events = play(state, "roll", dice=[4])
    assert state.places[A] == 6 and state.pending.threat == "oil_roll"
    state, _ = play(state, "decline", dice=[2])
    assert state.places[A] == 4 and state.hazards == () and state.discard == ("oil_roll",)


def test_oil_is_kept_by_the_player_it_leaves_last():
    state = at(track(EIGHT + " . ."), 3, 7, 6, hazards=((4, "oil_5"),))
    state, _ = play(state, "roll", dice=[2])
    state = answer_no(state)
    assert state.places[A] == 0 and state.hands[A] == ("oil_5",) and state.hazards == ()
    assert "oil_5" not in state.discard


def test_a_shield_against_oil_cancels_it_and_the_oil_stays():
    state = give(at(track(EIGHT + " . ."), 3, 0, 1, hazards=((6, "oil_5"),)), A, "shield_oil")
    state, _ = play(state, "roll", dice=[4])
    state, _ = play(state, "cancel", {"card": "shield_oil"}, seat=A)
    assert state.places[A] == 7 and state.hazards == ((6, "oil_5"),)


def test_tacks_and_oil_go_on_a_free_card_out_of_turn():
    state = give(at(track(EIGHT + " . ."), 3, 0, 1), C, "oil_roll", "tacks")
    with pytest.raises(IllegalMove, match="no pawn"):
        play(state, "lay", {"card": "tacks", "at": 3}, seat=C)
    with pytest.raises(IllegalMove, match="not the start line"):
        play(state, "lay", {"card": "tacks", "at": 0}, seat=C)
    state, events = play(state, "lay", {"card": "oil_roll", "at": 5}, seat=C)
    assert state.hazards == ((5, "oil_roll"),) and state.hands[C] == ("tacks",)
    assert views.public_view(state).circuit[5].hazard == "oil_roll"
    with pytest.raises(IllegalMove, match="no tacks or oil on it"):
        play(state, "lay", {"card": "tacks", "at": 5}, seat=C)
    with pytest.raises(IllegalMove, match="own phone"):
        play(state, "lay", {"card": "tacks", "at": 6})
    with pytest.raises(IllegalMove, match="You do not hold that surprise card"):
        play(state, "lay", {"card": "oil_5", "at": 6}, seat=C)


def test_effect_moves_pass_hazards_by():
    state = at(track(". . . . . others_back " + EIGHT), 3, 9, 8, hazards=((7, "tacks"),))
    state, _ = play(state, "roll", dice=[3, 2])
    state = answer_no(state, 2)
    assert state.places == (6, 7, 6) and state.status == ("", "", "")


# --- passages -------------------------------------------------------------------------------------
def test_keys_open_an_exit_first_then_an_entrance():
    state = give(track(". E1 . . X2 . . . . ."), B, "key", "key", "key")
    with pytest.raises(IllegalMove, match="first passage opened must be an exit"):
        play(state, "key", {"passage": 2}, seat=B)
    with pytest.raises(IllegalMove, match="holds no passage card"):
        play(state, "key", {"passage": 3}, seat=B)
    state, events = play(state, "key", {"passage": 5}, seat=B)  # out of turn: A's turn
    assert state.keys[passage_of(state, 5)] == 1 and not state.opened[passage_of(state, 5)]
    state, events = play(state, "key", {"passage": 5}, seat=B)
    assert state.opened[passage_of(state, 5)] and state.discard == ("key", "key")
    assert {"type": "opened", "position": 5} in events
    card = views.public_view(state).circuit[5]
    assert card.open and card.keys == 0 and card.padlocks == 2 and card.kind == "exit"
    with pytest.raises(IllegalMove, match="open already"):
        play(state, "key", {"passage": 5}, seat=B)
    state, _ = play(state, "key", {"passage": 2}, seat=B)
    assert state.opened[passage_of(state, 2)]


def test_stopping_on_an_open_entrance_takes_the_passage_forwards_on_the_same_lap():
    state = opened(at(track(". E1 . . . . . . X1 . ."), 0, 9, 9, laps=(2, 0, 0)), 2, 9)
    state, events = play(state, "roll", dice=[2])
    assert state.places[A] == 9 and state.laps[A] == 2 and {"type": "passage", "seat": A,
                                                               "position": 9} in events


def test_a_forced_passage_going_backwards_with_a_choice_of_exits():
    state = opened(at(track(". X1 . X2 . . . . E1 . ."), 5, 0, 0, laps=(1, 0, 0)), 2, 4, 9)
    state, _ = play(state, "roll", dice=[4])
    pending = views.public_view(state).pending
    assert pending.kind == "exit" and pending.choices == [2, 4] and not pending.optional
    assert rules.legal(state, None) == ["exit"]
    with pytest.raises(IllegalMove, match="no open exit"):
        play(state, "exit", {"card": 9})
    with pytest.raises(IllegalMove, match="entrance leads into the passage"):
        play(state, "stay")
    state, _ = play(state, "exit", {"card": 2}, seat=A)
    assert state.places[A] == 2 and state.laps[A] == 1 and state.turn == B


def test_an_access_card_opens_the_passage_from_the_next_card_and_one_may_stay():
    state = opened(at(track(". X1 . . ^ford_4 E1 ^ford_5 . . ."), 0, 9, 9), 2, 6)
    state = give(state, C, "passage_access")
    with pytest.raises(IllegalMove, match="no open entrance"):
        play(state, "access", {"passage": 2}, seat=C)
    state, _ = play(state, "access", {"passage": 6}, seat=C)
    assert views.public_view(state).circuit[6].access
    taken, _ = play(state, "roll", dice=[5])
    assert taken.pending.kind == "exit" and taken.pending.optional
    assert rules.legal(taken, None) == ["exit", "stay"]
    out, _ = play(taken, "exit", {"card": 2})
    assert out.places[A] == 2 and out.status[A] == ""
    stayed, _ = play(taken, "stay")
    assert stayed.places[A] == 5 and stayed.status[A] == "ford_4"
    onto, _ = play(state, "roll", dice=[6])  # the entrance itself, one exit open: no question
    assert onto.pending is None and onto.places[A] == 2
    beyond, _ = play(replace(state, places=(2, 9, 9)), "roll", dice=[5])  # the card after the entrance
    assert beyond.pending.kind == "exit" and beyond.pending.optional


def test_a_lock_is_refused_on_the_last_open_exit_and_takes_the_access_card_with_an_entrance():
    state = opened(track(". X1 . E1 . X2 . . . ."), 2, 4)
    state = give(state, B, "lock", "lock", "passage_access")
    state, _ = play(state, "access", {"passage": 4}, seat=B)
    with pytest.raises(IllegalMove, match="At least one exit must stay open"):
        play(state, "lock", {"passage": 2}, seat=B)
    with pytest.raises(IllegalMove, match="no open passage"):
        play(state, "lock", {"passage": 6}, seat=B)
    state, events = play(state, "lock", {"passage": 4}, seat=B)
    assert not state.opened[passage_of(state, 4)] and not state.access[passage_of(state, 4)]
    assert state.discard == ("lock", "passage_access") and events == [{"type": "locked", "seat": B,
                                                                      "position": 4}]
    state = opened(state, 6)  # a second exit open: now the first may be locked
    state, _ = play(state, "lock", {"passage": 2}, seat=B)
    assert not state.opened[passage_of(state, 2)] and state.opened[passage_of(state, 6)]
    assert "lock" not in rules.legal(give(state, C, "lock"), C)  # only the last exit is open


def test_the_swap_card_swaps_two_route_cards_and_turns_both_over():
    state = give(at(track(". ford_4 . . ^reverse X1 . . . . ."), 2, 9, 9), C, "swap")
    with pytest.raises(IllegalMove, match="two different cards of the circuit"):
        play(state, "swap_cards", {"first": 0, "second": 6}, seat=C)
    with pytest.raises(IllegalMove, match="two different cards of the circuit"):
        play(state, "swap_cards", {"first": 2, "second": 2}, seat=C)
    with pytest.raises(IllegalMove, match="positions 0 to 11"):
        play(state, "swap_cards", {"first": 2, "second": 40}, seat=C)
    ford, reverse = state.circuit[2], state.circuit[5]
    state, events = play(state, "swap_cards", {"first": 2, "second": 5}, seat=C)
    assert state.circuit[2] == reverse and state.circuit[5] == ford
    assert not state.face_up[2] and state.face_up[5]  # the face-up one went down, the face-down one up
    assert events == [{"type": "cards_swapped", "seat": C, "first": 2, "second": 5}]
    view = views.public_view(state)
    assert view.circuit[5].effect == "ford_4" and view.circuit[2].effect is None
    assert state.places[A] == 2 and state.status[A] == "" and "swap" in state.discard


def test_surprise_cards_are_played_out_of_turn_but_wait_while_a_question_is_open():
    """(ruling) « À tout moment »: out of turn and between the steps of another's move, except while a
    question waits for one player's answer in its window; the card is played once it is answered."""
    state = give(at(track(". . others_back . . . . . . ."), 1, 6, 8), C, "tacks", "tacks")
    assert "lay" in rules.legal(state, C)  # A’s turn: C plays out of turn
    laid, _ = play(state, "lay", {"card": "tacks", "at": 9}, seat=C)
    assert laid.hazards == ((9, "tacks"),) and laid.turn == A
    asked, _ = play(laid, "roll", dice=[2, 4])  # A arrives on others_back: B is asked first
    assert asked.pending.kind == "cancel" and rules.legal(asked, C) == ["cancel", "decline"]
    with pytest.raises(IllegalMove, match="wait for their answer"):
        play(asked, "lay", {"card": "tacks", "at": 5}, seat=C)
    then = answer_no(asked)  # B answered: C, asked in the same window, still has to answer
    assert then.pending.seat == C and views.private_view(then, C).plays == []
    done = answer_no(then)
    assert done.pending is None and done.turn == B and rules.may_play_cards(done, C)


def test_the_swap_card_moves_and_turns_over_passage_cards_too():
    """(ruling) « N'importe lesquelles »: passages included; a locked one turned over opens (its keys are
    discarded), an open one locks (its access card goes too); the last open exit never closes."""
    state = give(at(track(". ford_4 . E1 . X2 . . . ."), 1, 9, 9), C, "swap", "swap", "swap")
    state = replace(state, keys=put(state.keys, passage_of(state, 6), 1))
    exit_card, ford = state.circuit[6], state.circuit[2]
    assert 6 in views.private_view(state, C).plays[0].targets  # a passage is a place for the swap
    state, _ = play(state, "swap_cards", {"first": 2, "second": 6}, seat=C)
    assert state.circuit[2] == exit_card and state.circuit[6] == ford
    assert state.opened[passage_of(state, 2)] and state.keys[passage_of(state, 2)] == 0
    assert state.discard.count("key") == 1 and state.face_up[6]  # the ford shows, without its effect
    assert state.places[A] == 1 and state.status[A] == ""
    with pytest.raises(IllegalMove, match="At least one exit must stay open"):  # the exit again: it locks
        play(state, "swap_cards", {"first": 2, "second": 8}, seat=C)
    state = replace(opened(state, 4), access=put(state.access, passage_of(state, 4), True))
    entrance = state.circuit[4]
    state, _ = play(state, "swap_cards", {"first": 4, "second": 9}, seat=C)  # the open entrance locks
    assert state.circuit[9] == entrance and not state.opened[passage_of(state, 9)]
    assert not state.access[passage_of(state, 9)] and "passage_access" in state.discard
    assert state.opened[passage_of(state, 2)] and state.hands[C] == ("swap",)


def test_a_swap_opening_an_entrance_before_any_exit_says_so_and_not_that_it_locks_one():
    """Issue 31: with no exit open, a swap turning a locked entrance over would open it; the refusal said the
    swap "would lock the last one" though nothing is locked. It names the real reason."""
    state = give(at(track(". . . E1 . X1 . . . ."), 1, 9, 9), C, "swap")
    with pytest.raises(IllegalMove) as refused:
        play(state, "swap_cards", {"first": 4, "second": 2}, seat=C)
    assert str(refused.value) == ("The first passage opened must be an exit: this swap would open an "
                                          "entrance while no exit is open. Swap other cards.")
    assert "lock" not in str(refused.value)
    state, _ = play(state, "swap_cards", {"first": 6, "second": 2}, seat=C)  # the exit may open first
    assert state.opened[passage_of(state, 2)]


# --- laps, the finish and the ranking --------------------------------------------------------------
def test_a_move_crosses_the_start_line_and_turns_the_lap_counter():
    state = at(track(". . . . . . . . . ."), 8, 0, 0, laps=(1, 0, 0))
    state, events = play(state, "roll", dice=[4])  # 9, 10, the start line, 1
    assert state.places[A] == 1 and state.laps[A] == 2
    assert {"type": "crossed", "seat": A, "lap": 2, "direction": 1} in events


def test_a_backward_move_across_the_start_line_turns_the_lap_counter_back():
    state = at(track(". . others_back . . . . . . ."), 1, 2, 9, laps=(0, 3, 1))
    state, _ = play(state, "roll", dice=[2, 4])
    state, events = play(state, "decline")
    assert state.places[B] == 9 and state.laps[B] == 2
    assert {"type": "crossed", "seat": B, "lap": 2, "direction": -1} in events
    state = answer_no(state)
    assert state.places[C] == 5 and state.laps[C] == 1


def test_backward_moves_stop_at_the_start_line_on_the_first_lap_or_with_the_option():
    state = at(track(". . others_back . . . . . . ."), 1, 2, 9, laps=(0, 0, 0))
    state, _ = play(state, "roll", dice=[2, 4])
    assert answer_no(state).places[B] == 0
    state = at(track(". . others_back . . . . . . .", backward_stop=True), 1, 2, 9, laps=(0, 3, 1))
    state, _ = play(state, "roll", dice=[2, 4])
    state = answer_no(state)
    assert state.places[B] == 0 and state.laps[B] == 3


def test_a_reverse_turn_backwards_across_the_start_line():
    state = at(track(". . . . . . . . . .", status=("reverse", "", "")), 1, 5, 5, laps=(2, 0, 0))
    state, _ = play(state, "roll", dice=[3])
    state, events = play(state, "decline")
    assert state.places[A] == 9 and state.laps[A] == 1


def test_the_first_across_the_line_after_the_last_lap_wins_and_the_others_rank_by_arrival():
    state = at(track(". . . . . . . . . .", laps_to_win=2), 9, 8, 9, laps=(1, 1, 0))
    state = give(state, A, "key")
    state, events = play(state, "roll", dice=[3])
    assert state.ranking == (A,) and {"type": "finished", "seat": A, "place": 1} in events
    assert state.hands[A] == () and "key" in state.discard and state.turn == B
    assert views.public_view(state).pawns[A].finished and rules.legal(state, A) == []
    with pytest.raises(IllegalMove, match="Player 2 must act now, not you"):  # A has nothing left to do
        play(state, "roll", seat=A)
    state, _ = play(state, "roll", dice=[2])  # B reaches the last card, not the line
    assert state.ranking == (A,) and state.laps[B] == 1 and state.places[B] == 10
    state, _ = play(state, "roll", dice=[2])  # C crosses into its 2nd lap
    state, events = play(state, "roll", dice=[1])  # B across: second; C, still racing alone, is third
    assert state.ranking == (A, B, C) and rules.over(state)
    assert events[-1] == {"type": "game_over", "ranking": [A, B, C]}
    assert rules.legal(state, None) == [] and rules.actor(state) is None
    with pytest.raises(IllegalMove, match="game is over: start a new game"):
        play(state, "roll")


def test_a_player_finishing_by_an_effect_moving_them_forwards():
    state = at(track(". . . . . . others_back_me_forward . . .", laps_to_win=1), 4, 0, 0)
    state, _ = play(state, "roll", dice=[3, 6])
    assert state.ranking == (A,) and state.pending is None  # B and C stand on the start line: no question


# --- refusals and views ---------------------------------------------------------------------------
def test_out_of_turn_unknown_and_malformed_commands_are_refused():
    state = at(track(EIGHT + " . ."), 0, 0, 0)
    with pytest.raises(IllegalMove, match="Player 1 must act now, not you"):
        play(state, "roll", seat=B)
    with pytest.raises(IllegalMove, match="Unknown command"):
        play(state, "teleport")
    holding = give(state, B, "tacks")  # B may lay a card now: its args are checked
    with pytest.raises(IllegalMove) as bad:
        play(holding, "lay", {"card": "banana", "at": 3}, seat=B)
    assert bad.value.params["field"] == "card"
    with pytest.raises(IllegalMove) as bad:
        play(holding, "lay", {"card": "tacks", "at": 3, "extra": 1}, seat=B)
    assert bad.value.params["field"] == "extra"
    with pytest.raises(IllegalMove, match="Player 1 must act now, not you"):  # no such seat
        play(state, "roll", seat=4)
    with pytest.raises(IllegalMove, match="nothing to cancel"):
        play(state, "decline")
    with pytest.raises(IllegalMove, match="no choice to make"):
        play(state, "choose", {"seat": 1})
    with pytest.raises(IllegalMove, match="already"):
        play(state, "place_passage", {"card": 3})


def test_the_public_view_shows_backs_for_face_down_cards_and_round_trips():
    state = opened(at(track(". ford_4 ^reverse E2 X1 . . . . ."), 0, 2, 3), 5)
    state = give(replace(state, hazards=((6, "tacks"),)), B, "key", "oil_5")
    view = views.public_view(state)
    assert msgspec.convert(msgspec.to_builtins(view), views.PublicView) == view
    assert view.circuit[0] == views.CardView(0, "start", True)
    assert view.circuit[2] == views.CardView(2, "route", False)
    assert view.circuit[3] == views.CardView(3, "route", True, "reverse", False)
    assert view.circuit[4] == views.CardView(4, "entrance", True, padlocks=2)
    assert view.circuit[5] == views.CardView(5, "exit", True, padlocks=1, open=True)
    assert view.circuit[6].hazard == "tacks"
    assert [p.cards for p in view.pawns] == [0, 2, 0] and view.pile == 45
    assert "ford_4" not in msgspec.json.encode(view).decode()
    assert '"key"' not in msgspec.json.encode(view).decode()
    private = views.private_view(state, B)
    assert msgspec.convert(msgspec.to_builtins(private), views.PrivateView) == private
    assert private.hand == ["key", "oil_5"] and private.legal == ["key", "swap_cards", "lay"]
    assert private.plays == [views.PlayView("key", "key", [4]),
                             views.PlayView("lay", "oil_5", [1, 4, 5, 7, 8, 9, 10])]
    assert views.private_view(state, 5) == views.PrivateView(5)
    placing = new_game(1, players=2, route_cards=12)
    assert views.public_view(placing).pending == views.PendingView("place", A, seconds=60)
    assert sorted(p.kind for p in views.public_view(placing).row) == ["entrance", "exit"]


def test_a_recorded_game_replays_to_the_same_state():
    """Every random number goes through the draws, so the record rebuilds the game exactly."""
    from rallye_play import groups

    draws = Draws()
    options = rules.RallyeOptions(players=3, route_cards=12, laps=1)
    state = rules.setup(options, draws, data())
    record = [(None, draws.taken)]
    while not rules.over(state) and len(record) < 400:
        command = groups(state)[0][0]
        draws = Draws()
        state, _ = SPEC.play(state, command, draws)
        record.append((command, draws.taken))
    replayed = rules.setup(options, Draws(record[0][1]), data())
    for command, taken in record[1:]:
        replayed, _ = SPEC.play(replayed, command, Draws(taken))
    assert replayed == state


def test_the_table_s_draws_are_the_same_whatever_the_hidden_faces():
    """A face-down card is only read once turned: what happens before depends on no hidden face."""
    state = at(track(". . . . . . . . . ."), 0, 0, 0)
    twin = replace(state, circuit=(START,) + tuple(reversed(state.circuit[1:])))
    one, two = ScriptedDraws(4, [2]), ScriptedDraws(4, [2])
    a, _ = SPEC.play(state, Command("roll"), one)
    b, _ = SPEC.play(twin, Command("roll"), two)
    assert one.taken == two.taken and views.public_view(a) == views.public_view(b)


def test_protection_cancels_tacks_and_oil_too():
    state = give(at(track(EIGHT + " . ."), 0, 9, 9, hazards=((2, "tacks"), (5, "oil_5"))), A, "protection",
                 "protection")
    state, _ = play(state, "roll", dice=[6])
    state, _ = play(state, "cancel", {"card": "protection"}, seat=A)
    assert state.places[A] == 5 and state.pending.threat == "oil_5"
    state, _ = play(state, "cancel", {"card": "protection"}, seat=A)
    assert state.places[A] == 6 and state.discard == ("protection", "protection") and state.turn == B


def test_tacks_leave_with_their_first_victim_whatever_moves_it():
    state = at(track(". . . . . . . others_back " + EIGHT, status=("", "tacks", "caught"),
                     blocked=(0, 2, 0), hazards=((4, "tacks"),)), 5, 4, 4)
    state, _ = play(state, "roll", dice=[3, 1])
    state, events = play(state, "decline")  # B is sent back off the tacks: they go, and C is free
    assert state.places[B] == 3 and state.hazards == () and state.status == ("", "", "")
    assert "tacks" in state.discard and {"type": "tacks_removed", "position": 4} in events
    state = answer_no(state)
    assert state.places[C] == 3


def test_an_empty_pile_is_made_again_from_the_shuffled_discards():
    state = at(track(". * " + EIGHT), 0, 0, 0)
    state = replace(state, pile=(), discard=state.pile)
    state, events = play(state, "roll", dice=[2])
    assert len(state.hands[A]) == 1 and len(state.pile) == 46 and state.discard == ()
    assert {"type": "reshuffled", "cards": 47} in events
    empty = replace(at(track(". * " + EIGHT), 0, 0, 0), pile=(), discard=())
    empty, events = play(empty, "roll", dice=[2])
    assert empty.hands[A] == () and {"type": "no_card", "seat": A} in events
