"""Twin builders for the games that hide something: a state the game could be in where only one seat's secrets
differ (for Le rallye hasardeux, also one where only the table's own face-down cards and pile differ).

tests/test_secret_games.py compares every output of a state and its twin; tests/test_kit_games.py hands these
to the conformance kit (companion.gamekit.testing.check_game).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from schacht_play import private_view

from companion.core import registry
from companion.gamekit import put
from companion.games.gewalt import data as gewalt_data
from companion.games.gewalt import rules as gewalt_rules
from companion.games.gewalt.rules import Deck
from companion.games.rallye import deck as rallye_deck
from companion.games.rallye import state as rallye_state
from companion.games.schacht import rules as schacht_rules
from companion.games.schacht.rules import Placement

# --- Crazy Race (Gewalt): bets, section and action hands ------------------------------------------------
GEWALT_SECRETS = ("bet", "sections", "actions")


def _trade_some(hand, hidden, rng: random.Random) -> tuple[list, list]:
    """Some of `hand`'s cards traded with face-down ones of `hidden`, values differing: the first always."""
    hand, hidden = list(hand), list(hidden)
    order = list(range(len(hand)))
    rng.shuffle(order)
    for n, i in enumerate(order):
        choices = [j for j, card in enumerate(hidden) if card != hand[i]]
        if choices and (n == 0 or rng.random() < 0.5):
            j = rng.choice(choices)
            hand[i], hidden[j] = hidden[j], hand[i]
    return hand, hidden


def _swap_some(hand: tuple, deck: Deck, rng: random.Random) -> tuple[tuple, Deck]:
    """Some of `hand`'s cards traded with face-down ones of the deck (pile or discards), values differing."""
    hand, rest = _trade_some(hand, [*deck.pile, *deck.discard], rng)
    pile = len(deck.pile)
    return tuple(hand), Deck(tuple(rest[:pile]), tuple(rest[pile:]))


def gewalt_secrets(state, seat: int) -> list[str]:
    """What of `seat` is secret now: its bet until the end, its hands while it holds cards."""
    held = [what for what in ("sections", "actions") if getattr(state, what)[seat]]
    return [] if gewalt_rules.over(state) else ["bet", *held]


def gewalt_bets(players: int) -> tuple:
    """Every bet card's row for `players` players, from the bundled data file."""
    return gewalt_data.load(registry.get("gewalt").bundled("cards").text, "data.toml").bet_rows(players)


def gewalt_twin(state, seat: int, rng: random.Random, what: list[str] | None = None):
    """`state` with some of `seat`'s secrets changed (`what`, else a random choice of them), or None.

    The bet becomes another bet card not dealt; hand cards are traded with face-down deck cards, so
    every count the table sees (hands, piles, discards) stays the same. Trades can undo each other, so
    a twin whose seat would see nothing changed is drawn again: the check must be able to fail.
    """
    secret = gewalt_secrets(state, seat)
    if not secret:
        return None
    before = registry.get("gewalt").private_json(state, seat)
    for _ in range(30):
        chosen = what or [w for w in secret if rng.random() < 0.6] or [rng.choice(secret)]
        changes = {}
        if "bet" in chosen:
            spare = Counter(gewalt_bets(state.players)) - Counter(state.bets)
            bets = [bet for bet in spare.elements() if bet != state.bets[seat]]
            changes["bets"] = put(state.bets, seat, rng.choice(bets))
        if "sections" in chosen:
            hand, deck = _swap_some(state.sections[seat], state.section_deck, rng)
            changes |= {"sections": put(state.sections, seat, hand), "section_deck": deck}
        if "actions" in chosen:
            hand, deck = _swap_some(state.actions[seat], state.action_deck, rng)
            changes |= {"actions": put(state.actions, seat, hand), "action_deck": deck}
        twin = replace(state, **changes)
        if registry.get("gewalt").private_json(twin, seat) != before:
            return twin
    return None


def gewalt_table_twin(state, rng: random.Random):
    """`state` with its face-down section and action piles in another order (the table's own secret: the
    next cards anyone draws); None when neither pile holds two different cards."""
    decks = {what: getattr(state, what) for what in ("section_deck", "action_deck")}
    may_differ = {what: len(set(deck.pile)) > 1 for what, deck in decks.items()}
    if not any(may_differ.values()):
        return None
    for _ in range(30):
        piles = {what: Deck(tuple(rng.sample(deck.pile, len(deck.pile))), deck.discard)
                 for what, deck in decks.items()}
        if all(piles[what].pile != decks[what].pile for what in decks if may_differ[what]):
            return replace(state, **piles)
    raise AssertionError("no twin of the order of Gewalt's piles in 30 draws")


# --- Crazy Race (Schacht): hands, discards, face-down cards, take-back choices -----------------------------
def schacht_twin(state, seat: int, rng: random.Random, took: int = 0, kept: int = 0):
    """`state` with `seat`'s hidden cards dealt differently, or None when nothing of it is hidden.

    Seat X's driver cards are its hand, its discards and its face-down cards beside sides not yet
    evaluated; a twin deals the same cards differently over those places, the face-down cards keeping
    their sides and their order. A take-back choice is secret too: for each one X made since its last
    recall (`took` a card back, `kept` none) the twin may have chosen the other way, one card more or
    fewer in hand, as long as X still has cards in hand exactly when it has (that the table sees) and
    discards exactly when it has: the device offers the seat to act its recall only if it has discards,
    as the face-down pile in front of a player shows at a real table.
    Cards a seat waiting for its take-back played this stage stay in its discards (it chooses among them).
    """
    revealed = {o.side for o in state.outcomes}
    reserved = Counter(schacht_rules.played(state, seat)) if seat in state.takeback else Counter()
    free = list((Counter(state.discards[seat]) - reserved).elements())
    hidden = [(side, i) for side, placed in enumerate(state.bids) if side not in revealed
              for i, p in enumerate(placed) if p.seat == seat]
    hand = list(state.hands[seat])
    pool = [*hand, *free, *(state.bids[side][i].value for side, i in hidden)]
    low, high = len(hand) - took, len(hand) + min(kept, len(free))
    low, high = (max(low, 1), high) if hand else (0, 0)
    before = private_view(state, seat)
    for _ in range(30):
        rng.shuffle(pool)
        size = rng.randint(low, max(low, high))
        new_hand, rest = sorted(pool[:size]), pool[size:]
        new_free, new_bids = rest[:len(rest) - len(hidden)], rest[len(rest) - len(hidden):]
        bids = [list(side) for side in state.bids]
        for (side, i), value in zip(hidden, new_bids, strict=True):
            bids[side][i] = Placement(seat, value)
        twin = replace(state, hands=put(state.hands, seat, tuple(new_hand)),
                       discards=put(state.discards, seat, tuple(sorted([*new_free, *reserved.elements()]))),
                       bids=tuple(tuple(side) for side in bids))
        if private_view(twin, seat) != before and bool(twin.discards[seat]) == bool(state.discards[seat]):
            return twin
    return None


def schacht_table_twin(state, rng: random.Random):
    """`state` with the stage cards still to come in another order and, with shuffled piles, the points
    cards under each pile's top too (the table's own secrets); None when nothing is left to reorder."""
    parts = {"order": (state.order[:state.stage + 1], state.order[state.stage + 1:])}
    if "shuffled_piles" in state.variants:
        parts |= {pile: (getattr(state, pile)[:1], getattr(state, pile)[1:])
                  for pile in ("turntable", "finish")}
    hidden = {what: rest for what, (_, rest) in parts.items() if len(set(rest)) > 1}
    if not hidden:
        return None
    for _ in range(30):
        changes = {what: parts[what][0] + tuple(rng.sample(rest, len(rest))) for what, rest in hidden.items()}
        if all(changes[what] != getattr(state, what) for what in hidden):
            return replace(state, **changes)
    raise AssertionError("no twin of Schacht's stage order and piles in 30 draws")


# --- Le rallye hasardeux: the hands, and the table's own face-down route cards and surprise pile ----------
def rallye_twin(state, seat: int, rng: random.Random):
    """`state` with some of `seat`'s surprise cards traded with face-down ones of the pile (other types), so
    every count the table sees stays the same; None if the hand is empty or the pile has nothing else."""
    hand = state.hands[seat]
    if not hand:
        return None
    for _ in range(30):
        new_hand, pile = _trade_some(hand, state.pile, rng)
        if new_hand != list(hand):
            return replace(state, hands=put(state.hands, seat, tuple(new_hand)), pile=tuple(pile))
    return None


def rallye_hidden(state) -> tuple:
    """The table's own secret: the face of each face-down route card by position, and the pile in order."""
    faces = tuple((p, state.route.plain[state.circuit[p]]) for p in rallye_state.plain_positions(state)
                  if not state.face_up[p])
    return faces, state.pile


def rallye_table_twin(state, rng: random.Random):
    """`state` with the face-down route cards dealt again (with the cards left in the box) and the pile
    shuffled again: faces and order differ wherever they can; None when there is nothing hidden at all."""
    hidden = [p for p in rallye_state.plain_positions(state) if not state.face_up[p]]
    boxed = [c for c in state.spare if c < rallye_deck.PLAIN_CARDS]
    ids = [state.circuit[p] for p in hidden] + boxed
    faces = {state.route.plain[c] for c in ids}
    may_differ = (bool(hidden) and len(faces) > 1, len(set(state.pile)) > 1)
    if not any(may_differ):
        return None
    for _ in range(60):
        rng.shuffle(ids)
        circuit = list(state.circuit)
        for p, card in zip(hidden, ids, strict=False):
            circuit[p] = card
        spare = tuple(ids[len(hidden):]) + tuple(c for c in state.spare if c >= rallye_deck.PLAIN_CARDS)
        twin = replace(state, circuit=tuple(circuit), spare=spare,
                       pile=tuple(rng.sample(state.pile, len(state.pile))))
        real, other = rallye_hidden(state), rallye_hidden(twin)
        if all(real[i] != other[i] for i in range(2) if may_differ[i]):
            return twin
    raise AssertionError("no twin of the table's secret in 60 draws")
