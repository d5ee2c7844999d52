"""Le rallye hasardeux under random legal play: games end, laps, hands and cards keep their rules, and
nothing anyone is shown depends on a face-down card or on the surprise pile's order."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import msgspec
import pytest
from enforced import assert_enforced
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rallye_play import data, play_out

from companion.gamekit import ScriptedDraws, put
from companion.gamekit.contract import Command, IllegalMove
from companion.games.rallye import SPEC, rules, views
from companion.games.rallye.deck import PLAIN_CARDS
from companion.games.rallye.state import HAND_LIMIT, is_plain, trimming

LIMIT = 4000  # commands: far above the longest game these options make (see rallye_play.groups)
SURPRISE_DECK = Counter(data()["surprises"].cards)


def options(draw) -> rules.RallyeOptions:
    return rules.RallyeOptions(
        players=draw(st.integers(2, 6)), route_cards=draw(st.sampled_from([10, 12, 15, 16])),
        laps=draw(st.integers(1, 2)), first=0, auto_passages=draw(st.booleans()),
        ford_exact=draw(st.booleans()), backward_stop=draw(st.booleans()))


def surprise_cards(state: rules.State) -> Counter:
    """Every surprise card, wherever it is: pile, discards, hands, on the circuit."""
    cards = Counter(state.pile) + Counter(state.discard) + Counter(c for hand in state.hands for c in hand)
    cards += Counter(kind for _, kind in state.hazards)
    cards += Counter({"key": sum(state.keys), "passage_access": sum(state.access)})
    return cards


def check_step(before: rules.State, after: rules.State, command: Command, events: list[dict]) -> None:
    # a lap changes only by crossing the start line: up going forward, down going back
    for seat in range(after.players):
        crossings = [e["direction"] for e in events if e["type"] == "crossed" and e["seat"] == seat]
        assert after.laps[seat] - before.laps[seat] == sum(crossings)
        assert after.laps[seat] >= 0
    # at most one card over the limit, and only while that seat must lay or discard it
    over = [s for s in range(after.players) if len(after.hands[s]) > HAND_LIMIT]
    assert len(over) <= 1 and all(len(h) <= HAND_LIMIT + 1 for h in after.hands)
    if over and not rules.over(after):
        assert rules.actor(after) == over[0] == trimming(after)
    if after.pending is None and not after.agenda:
        assert all(len(h) <= HAND_LIMIT for h in after.hands)  # each resolution ends within the limit
    # cards are conserved
    assert surprise_cards(after) == SURPRISE_DECK
    route = sorted(after.circuit[1:] + after.spare + tuple(PLAIN_CARDS + i for i in after.row))
    assert route == list(range(46))
    public = views.public_view(after)
    assert msgspec.convert(msgspec.to_builtins(public), views.PublicView) == public
    for seat in range(after.players):
        private = views.private_view(after, seat)
        assert msgspec.convert(msgspec.to_builtins(private), views.PrivateView) == private


def twin(state: rules.State) -> rules.State:
    """The same game but for the secrets no seat owns: face-down faces rotated, the pile reversed."""
    hidden = [p for p in range(1, len(state.circuit)) if is_plain(state, p) and not state.face_up[p]]
    boxed = [c for c in state.spare if c < PLAIN_CARDS]
    ids = [state.circuit[p] for p in hidden] + boxed
    ids = ids[1:] + ids[:1]
    circuit = list(state.circuit)
    for p, card in zip(hidden, ids, strict=False):
        circuit[p] = card
    spare = tuple(ids[len(hidden):]) + tuple(c for c in state.spare if c >= PLAIN_CARDS)
    return replace(state, circuit=tuple(circuit), spare=spare, pile=tuple(reversed(state.pile)))


PROBES = [("roll", {}), ("decline", {}), ("discard", {}), ("choose", {"seat": 1}), ("exit", {"card": 2}),
          ("stay", {}), ("key", {"passage": 3}), ("lock", {"passage": 3}), ("access", {"passage": 3}),
          ("swap_cards", {"first": 1, "second": 2}), ("lay", {"card": "tacks", "at": 3}),
          ("cancel", {"card": "protection"}), ("place_passage", {"card": 1})]


class Zeros:
    """Draws that are always the lowest: enough to see whether a probe is accepted."""

    def below(self, n: int) -> int:
        return 0

    def die(self, sides: int = 6) -> int:
        return 1

    def shuffled(self, items) -> list:
        return list(items)


def answer(state: rules.State, command: Command):
    try:
        SPEC.play(state, command, Zeros())
    except IllegalMove as refused:
        return refused.msgid, refused.params
    return "accepted"


def same_for(state: rules.State, other: rules.State, seats: list[int | None]) -> None:
    """Everything `seats` (None: the table) are shown, and the answer to each probe they send."""
    assert views.public_view(other) == views.public_view(state)
    assert rules.actor(other) == rules.actor(state)
    for seat in seats:
        assert rules.legal(other, seat) == rules.legal(state, seat)
        if seat is not None:
            assert views.private_view(other, seat) == views.private_view(state, seat)
        for kind, args in PROBES:
            command = Command(kind, args, seat)
            assert answer(other, command) == answer(state, command)


def check_secrets(state: rules.State) -> None:
    """No seat owns the face-down faces and the pile's order: nobody's outputs depend on them. A seat's
    hand is its own: nobody else's outputs depend on it, not even during a cancel question."""
    same_for(state, twin(state), [None, *range(state.players)])
    pending = state.pending
    # the seat asked to cancel, else the turn's player: whoever's hand matters most now
    seat = pending.seat if pending is not None else state.turn
    hand = state.hands[seat]
    if hand:
        other_hand = tuple("key" if card == "protection" else "protection" for card in hand)
        other = replace(state, hands=put(state.hands, seat, other_hand))
        same_for(state, other, [None, *(s for s in range(state.players) if s != seat)])


@pytest.mark.slow
@settings(deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.data_too_large])
@given(st.data())
def test_random_legal_play_ends_and_keeps_the_rules(choices):
    chosen = options(choices.draw)
    draws = ScriptedDraws(choices.draw(st.integers(0, 2**32 - 1)))
    state = rules.setup(chosen, draws, data())
    steps = []

    def choose(n: int) -> int:
        return choices.draw(st.integers(0, n - 1)) if n > 1 else 0

    def each(before, after, command, events):
        check_step(before, after, command, events)
        steps.append(command.kind)
        if len(steps) % 11 == 0 or after.pending is not None:
            check_secrets(after)

    state = play_out(state, choose, draws, limit=LIMIT, each=each)
    assert rules.over(state) and sorted(state.ranking) == list(range(chosen.players))
    assert_enforced(SPEC, state, chosen.players)  # nothing is legal any more, for anyone
    assert views.public_view(state).ranking == list(state.ranking)
    assert steps.count("roll") >= 1


@pytest.mark.slow
@settings(deadline=None, max_examples=30)
@given(st.data())
def test_nothing_shown_depends_on_hidden_faces_from_the_first_command(choices):
    """Setup and placement too: the twin check on every state of a short game's opening."""
    chosen = options(choices.draw)
    draws = ScriptedDraws(choices.draw(st.integers(0, 2**32 - 1)))
    play_checking(rules.setup(chosen, draws, data()), draws, choices, check_secrets, moves=40)


class Stop(Exception):
    """Ends a game early once enough of it has been checked."""


def play_checking(state, draws, choices, check, moves: int) -> None:
    """Random legal play from `state`, each choice a hypothesis draw, `check`ing every state of its first
    `moves` commands."""
    check(state)

    def choose(n: int) -> int:
        return choices.draw(st.integers(0, n - 1)) if n > 1 else 0

    def each(before, after, command, events):
        check(after)
        if after.moves >= moves:
            raise Stop

    try:
        play_out(state, choose, draws, limit=LIMIT, each=each)
    except Stop:
        pass


@settings(deadline=None, max_examples=10, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_the_table_refuses_exactly_the_kinds_legal_leaves_out(choices):
    """At every step of a random rally's first 100 commands (tests/enforced.py); the property above checks
    its end."""
    chosen = options(choices.draw)
    draws = ScriptedDraws(choices.draw(st.integers(0, 2**32 - 1)))
    play_checking(rules.setup(chosen, draws, data()), draws, choices,
                  lambda state: assert_enforced(SPEC, state, chosen.players), moves=100)
