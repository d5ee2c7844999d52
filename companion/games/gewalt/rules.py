"""Rules of Crazy Race (Gewalt): section cards, the dice race, trophies, secret bets, action cards."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Annotated, Any

import msgspec

from companion.gamekit import N_, IllegalMove, Move, allowed_moves, put, without
from companion.games.gewalt import board, commands, data
from companion.games.gewalt.board import FINISHED, NO_CARD
from companion.games.gewalt.scoring import places_of, score, winners

LETTERS = "ABCDE"  # lanes (seat i runs in lane i) and players are named by letter, as on the board and in
# the rulebook's scoring example: every output says "lane B", never a number
MAX_COUNTERS = 2  # counters against one opponent per game
DICE_INSTEAD = {"move_4": 4, "move_10": 10, "no_roll": 0}
DICE_CHANGE: dict[str | None, int] = {"minus_4": -4, "plus_4": 4}  # looked up by effect, None too
# A card drawn from a pile whose order the state keeps: undone and played again, the same card would come,
# so its holder would choose knowing the next card. A move that draws cannot be undone.
DREW = "drew"


class GewaltOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Setup options: 3-5 players, the expert game, and an optional replacement data file."""

    players: Annotated[int, msgspec.Meta(ge=3, le=5, title=N_("Players"))] = 4
    expert: Annotated[bool, msgspec.Meta(title=N_("Expert game (action cards)"))] = False


@dataclass(frozen=True)
class Deck:
    """A face-down pile and its discards; an empty pile is refilled by shuffling the discards."""

    pile: tuple = ()
    discard: tuple = ()

    def draw(self, draws) -> tuple[Any, Deck]:  # a card as the deck holds it (a number or a name), or None
        if not self.pile:
            if not self.discard:
                return None, self
            self = Deck(tuple(draws.shuffled(self.discard)), ())
        return self.pile[0], Deck(self.pile[1:], self.discard)

    def thrown(self, *cards) -> Deck:
        return Deck(self.pile, self.discard + tuple(cards))


@dataclass(frozen=True)
class State:
    """The whole game. Tuples everywhere: undo keeps every earlier state, so states share structure."""

    players: int
    expert: bool
    reconstructed: bool
    bets: tuple[tuple[int, ...], ...]  # secret until the end
    sections: tuple[tuple[int, ...], ...]  # section hands, secret
    actions: tuple[tuple[str, ...], ...]  # action hands, secret
    section_deck: Deck
    action_deck: Deck
    cards: tuple[int, ...] = board.empty_cards()
    pawns: tuple[board.Position, ...] = ()
    trophies: tuple[tuple[int, ...], ...] = ((), (), ())
    turn: int | None = 0
    used_section: bool = False
    used_action: bool = False
    front: tuple[str | None, ...] = ()  # the attack card in front of each seat
    pending: tuple[int, int, str] | None = None  # (attacker, target, card) waiting for counter/allow
    countered: tuple[int, int, str] | None = None  # (attacker, target, card) last countered, this turn
    counters: tuple[tuple[int, ...], ...] = ()  # counters[by][against]
    owed: tuple[int, ...] = ()  # action cards a seat draws at the end of its own turn (after a counter)
    extra: bool = False  # the current turn is the second of an extra turn
    last_roll: tuple | None = None  # (seat, dice, effect, points)
    moves: int = 0


def setup(options: GewaltOptions, draws, loaded) -> State:
    players, expert = options.players, options.expert
    decks: data.Decks = loaded["cards"]
    bets = tuple(draws.shuffled(decks.bet_rows(players))[:players])
    pile = tuple(draws.shuffled(decks.sections))
    sections = tuple(pile[i * data.HAND:(i + 1) * data.HAND] for i in range(players))
    section_deck = Deck(pile[players * data.HAND:])
    actions, action_deck = ((),) * players, Deck()
    if expert:
        pile = tuple(draws.shuffled(decks.actions))
        actions = tuple(pile[i * data.HAND:(i + 1) * data.HAND] for i in range(players))
        action_deck = Deck(pile[players * data.HAND:])
    return State(players=players, expert=expert, reconstructed=decks.reconstructed, bets=bets,
                 sections=sections, actions=actions, section_deck=section_deck, action_deck=action_deck,
                 pawns=(board.START,) * players, front=(None,) * players,
                 counters=((0,) * players,) * players, owed=(0,) * players)


# --- who may act ---------------------------------------------------------------------------------
def over(state: State) -> bool:
    return state.turn is None


def actor(state: State) -> int | None:
    """The seat that must act now: the target of a pending attack, else the player whose turn it is."""
    return state.pending[1] if state.pending else state.turn


def legal(state: State, seat: int | None) -> list[str]:
    """The command kinds `seat` (None: the table) may send now."""
    return allowed_moves(MOVES, state, seat, over)


# When each move is allowed, and what its sender is told when it is not: from public facts only. Only
# the seat that must act may move; another is told (by the table) to wait for it before these words.
def playing(state: State) -> int:
    """The seat whose turn it is: a game that is over, the only one without, allows no move."""
    if state.turn is None:
        raise ValueError("the game is over: nobody's turn")
    return state.turn


def attack(state: State) -> tuple[int, int, str]:
    """The attack card waiting for its target's answer: (attacker, target, card)."""
    if state.pending is None:
        raise ValueError("no attack card waits for an answer")
    return state.pending


def _on_turn(state: State, seat: int | None) -> bool:
    return seat in (None, actor(state))


def _may_answer(state: State, seat: int | None):
    """Counter or allow: the target of an attack card just played answers it."""
    return state.pending is not None and _on_turn(state, seat) or N_(
        "A counter only cancels an attack card just played against you; it cannot stop a section card or "
        "an earlier attack.")


def _first(state: State) -> IllegalMove | None:
    """What comes before any card this turn: an attack card to answer, an attack "no cards" in front."""
    if state.pending:
        return IllegalMove("Player {player} must first counter the attack card or let it stand.",
                           player=LETTERS[attack(state)[1]])
    if state.front[playing(state)] == "no_cards":
        return IllegalMove("The attack card \"no cards\" is in front of you: you may play or discard no "
                           "card this turn. Press ROLL.")
    return None


def targets(state: State, seat: int) -> list[int]:
    """The players `seat` may place an attack card in front of now: the others still racing with no attack
    card in front of them (public facts: the board shows both)."""
    return [target for target in range(state.players) if target != seat and state.pawns[target] != FINISHED
            and state.front[target] is None]


def _may_attack(state: State, seat: int | None):
    """An attack card: an action card, and someone it may be placed in front of."""
    said = _may_action(state, seat)
    if said is True and not targets(state, playing(state)):
        return N_("Nobody can be attacked now: the other players have finished or already have an attack "
                  "card in front of them.")
    return said


def _may_roll(state: State, seat: int | None):
    return not state.pending and _on_turn(state, seat) or _first(state) or False


def _may_section(state: State, seat: int | None):
    """Play or discard a section card: once a turn."""
    if _first(state):
        return _first(state)
    if state.used_section:
        return N_("You have already played or discarded a section card this turn.")
    return bool(state.sections[playing(state)]) and _on_turn(state, seat)  # else an empty hand


def _may_action(state: State, seat: int | None):
    """Attack, relocate or discard an action card: in the expert game, once a turn."""
    if _first(state):
        return _first(state)
    if not state.expert:
        return N_("Action cards belong to the expert game: start an expert game to use them.")
    if state.used_action:
        return N_("You have already played or discarded an action card this turn.")
    return bool(state.actions[playing(state)]) and _on_turn(state, seat)  # else an empty hand


# --- commands -----------------------------------------------------------------------------------
def _play_section(state: State, seat: int, args: commands.PlaySection, draws):
    _hold_section(state, seat, args.length)
    slot = args.slot
    _check_free(state, slot)
    cards = put(state.cards, board.slot_index(slot.lane, slot.stage, slot.section), args.length)
    events = [{"type": "section_played", "seat": seat, "length": args.length,
               "slot": msgspec.to_builtins(slot)}]
    state = replace(state, cards=cards, used_section=True,
                    sections=put(state.sections, seat, without(state.sections[seat], args.length)))
    return _draw_section(state, seat, draws, events), events


def _discard_section(state: State, seat: int, args: commands.DiscardSection, draws):
    _hold_section(state, seat, args.length)
    state = replace(state, used_section=True, section_deck=state.section_deck.thrown(args.length),
                    sections=put(state.sections, seat, without(state.sections[seat], args.length)))
    events = [{"type": "section_discarded", "seat": seat}]
    return _draw_section(state, seat, draws, events), events


def _hold_section(state: State, seat: int, length: int) -> None:
    if length not in state.sections[seat]:
        raise IllegalMove("You hold no section card of length {length}: choose one from your hand.",
                          length=length)


def _check_free(state: State, slot: commands.Slot) -> None:
    where = {"lane": LETTERS[slot.lane], "stage": slot.stage + 1, "section": slot.section + 1}
    if state.cards[board.slot_index(slot.lane, slot.stage, slot.section)] != NO_CARD:
        raise IllegalMove("Lane {lane}, stage {stage}, section {section} already holds a card: choose a "
                          "section with no card and no pawn.", **where)
    if board.has_pawn(state.pawns, slot.lane, slot.stage, slot.section):
        raise IllegalMove("A pawn stands on lane {lane}, stage {stage}, section {section}: choose a section "
                          "with no card and no pawn.", **where)


def _draw_section(state: State, seat: int, draws, events: list[dict]) -> State:
    card, deck = state.section_deck.draw(draws)
    if card is None:
        return replace(state, section_deck=deck)
    events.append(drew(seat))
    hand = state.sections[seat] + (card,)
    return replace(state, section_deck=deck, sections=put(state.sections, seat, hand))


def _draw_actions(state: State, seat: int, count: int, draws, events: list[dict]) -> State:
    for _ in range(count):
        card, deck = state.action_deck.draw(draws)
        state = replace(state, action_deck=deck)
        if card is not None:
            events.append(drew(seat))
            state = replace(state, actions=put(state.actions, seat, state.actions[seat] + (card,)))
    return state


def drew(seat: int) -> dict:
    """The event of a card drawn into `seat`'s hand: which card, only its holder learns (see DREW)."""
    return {"type": DREW, "seat": seat}


def _take_action(state: State, seat: int, card: str, draws, events: list[dict], discarded: bool = True
                 ) -> State:
    """`card` leaves the hand (for the discards unless it is an attack laid in front of an opponent),
    the turn's action card is used, then a replacement is drawn."""
    if card not in state.actions[seat]:
        raise IllegalMove("You hold no action card {card}: choose one from your hand.", card=card)
    hand = without(state.actions[seat], card)
    state = replace(state, used_action=True, actions=put(state.actions, seat, hand))
    if discarded:
        # The card reaches the discards before the draw, so an exhausted pile reshuffles it too.
        state = replace(state, action_deck=state.action_deck.thrown(card))
    return _draw_actions(state, seat, 1, draws, events)


def _attack(state: State, seat: int, args: commands.Attack, draws):
    target = args.target
    if target == seat or target >= state.players:
        raise IllegalMove("Place an attack card in front of an opponent: choose another player in the game.")
    if state.pawns[target] == FINISHED:
        raise IllegalMove("Player {player} has finished the race: attack a player still racing.",
                          player=LETTERS[target])
    if state.front[target] is not None:
        raise IllegalMove("Player {player} already has an attack card in front of them: only one at a time.",
                          player=LETTERS[target])
    events = [{"type": "attacked", "seat": seat, "target": target, "card": args.card}]
    state = _take_action(replace(state, countered=None), seat, args.card, draws, events, discarded=False)
    if state.counters[target][seat] >= MAX_COUNTERS:
        return replace(state, front=put(state.front, target, args.card)), events
    # The target may counter: the window opens whether or not they hold a counter, so it tells nothing.
    return replace(state, pending=(seat, target, args.card)), events


def _allow(state: State, seat: int, args, draws):
    attacker, target, card = attack(state)
    return (replace(state, pending=None, front=put(state.front, target, card)),
            [{"type": "allowed", "seat": target, "attacker": attacker, "card": card}])


def _counter(state: State, seat: int, args, draws):
    attacker, target, card = attack(state)
    if "counter" not in state.actions[target]:
        raise IllegalMove("You hold no counter card: let the attack card stand.")
    hand = without(state.actions[target], "counter")
    counters = put(state.counters, target, put(state.counters[target], attacker,
                                                  state.counters[target][attacker] + 1))
    state = replace(state, pending=None, countered=state.pending, actions=put(state.actions, target, hand),
                    counters=counters,
                    action_deck=state.action_deck.thrown(card, "counter"),
                    owed=put(state.owed, target, state.owed[target] + 1))
    return state, [{"type": "countered", "seat": target, "attacker": attacker, "card": card}]


def _relocate(state: State, seat: int, args: commands.Relocate, draws):
    src = args.source
    where = {"lane": LETTERS[src.lane], "stage": src.stage + 1, "section": src.section + 1}
    card = state.cards[board.slot_index(src.lane, src.stage, src.section)]
    if card == NO_CARD:
        raise IllegalMove("Lane {lane}, stage {stage}, section {section} holds no section card to move: "
                          "choose a placed card.", **where)
    if board.has_pawn(state.pawns, src.lane, src.stage, src.section):
        raise IllegalMove("A pawn stands on the card at lane {lane}, stage {stage}, section {section}: "
                          "move a card with no pawn on it.", **where)
    _check_free(state, args.slot)
    events = [{"type": "relocated", "seat": seat, "length": card, "source": msgspec.to_builtins(src),
               "slot": msgspec.to_builtins(args.slot)}]
    state = _take_action(state, seat, "relocate", draws, events)
    cards = put(state.cards, board.slot_index(src.lane, src.stage, src.section), NO_CARD)
    cards = put(cards, board.slot_index(args.slot.lane, args.slot.stage, args.slot.section), card)
    return replace(state, cards=cards), events


def _discard_action(state: State, seat: int, args: commands.DiscardAction, draws):
    events = [{"type": "action_discarded", "seat": seat}]
    return _take_action(state, seat, args.card, draws, events), events


def points(effect: str | None, draws) -> tuple[tuple[int, ...], int]:
    """The dice rolled and the squares moved under the attack card `effect` (None: a plain roll)."""
    if effect in DICE_INSTEAD:
        return (), DICE_INSTEAD[effect]
    dice = (draws.die(6), draws.die(6))
    total = sum(dice)
    if effect == "double":
        return dice, 2 * total
    return dice, max(0, total + DICE_CHANGE.get(effect, 0))


def _roll(state: State, seat: int, args, draws):
    effect = state.front[seat]
    dice, moved = points(effect, draws)
    position, crossed = board.move(state.cards, seat, state.pawns[seat], moved)
    events = [{"type": "rolled", "seat": seat, "dice": list(dice), "effect": effect, "points": moved}]
    trophies = list(state.trophies)
    for stage in crossed:
        trophies[stage] = trophies[stage] + (seat,)
        events.append({"type": "trophy", "seat": seat, "stage": stage, "place": len(trophies[stage])})
    state = replace(state, pawns=put(state.pawns, seat, position), trophies=tuple(trophies),
                    last_roll=(seat, dice, effect, moved))
    if position == FINISHED:
        # A finished pawn's cards are discarded, and it owes no draw any more.
        state = replace(state, section_deck=state.section_deck.thrown(*state.sections[seat]),
                        action_deck=state.action_deck.thrown(*state.actions[seat]),
                        sections=put(state.sections, seat, ()), actions=put(state.actions, seat, ()),
                        owed=put(state.owed, seat, 0))
        events.append({"type": "finished", "seat": seat})
    return _end_turn(state, seat, draws, events)


def _end_turn(state: State, seat: int, draws, events: list[dict]):
    effect = state.front[seat]
    if effect is not None:  # an attack card works for one turn, then is discarded
        state = replace(state, front=put(state.front, seat, None),
                        action_deck=state.action_deck.thrown(effect))
    owed = state.owed[seat]
    if owed:  # a counter card is replaced only now, at the end of the countering player's turn
        state = _draw_actions(replace(state, owed=put(state.owed, seat, 0)), seat, owed, draws, events)
    state = replace(state, used_section=False, used_action=False, extra=False, countered=None)
    if effect == "extra_turn" and state.pawns[seat] != FINISHED:
        events.append({"type": "extra_turn", "seat": seat})
        return replace(state, extra=True), events
    return _next_turn(state, seat, events)


def _next_turn(state: State, seat: int, events: list[dict]):
    """The next racing seat after `seat`; a "skip turn" card in front of it costs it that turn."""
    if all(p == FINISHED for p in state.pawns):
        rows = final_scores(state)
        events.append({"type": "game_over", "winners": winners(rows)})
        return replace(state, turn=None), events
    while True:
        seat = (seat + 1) % state.players
        if state.pawns[seat] == FINISHED:
            continue
        if state.front[seat] == "skip_turn":
            state = replace(state, front=put(state.front, seat, None),
                            action_deck=state.action_deck.thrown("skip_turn"))
            events.append({"type": "skipped", "seat": seat})
            continue
        return replace(state, turn=seat), events


MOVES = {
    # Dice everyone saw, a counter card shown and a card drawn cannot be undone: nobody chooses again
    # knowing them.
    # ROLL rolls for a phone's seat too
    "roll": Move(commands.Roll, _roll, line=N_("{who} rolled and moved"), allowed=_may_roll,
                 public=True, rolls={"rolled"}, reveals={"rolled"}, drawn={DREW}),
    "play_section": Move(commands.PlaySection, _play_section, line=N_("{who} placed a section card"),
                         allowed=_may_section, drawn={DREW}),
    "discard_section": Move(commands.DiscardSection, _discard_section,
                            line=N_("{who} discarded a section card"), allowed=_may_section, drawn={DREW}),
    "attack": Move(commands.Attack, _attack, line=N_("{who} played an attack card"), allowed=_may_attack,
                   drawn={DREW}),
    "relocate": Move(commands.Relocate, _relocate, line=N_("{who} moved a section card"),
                     allowed=_may_action, drawn={DREW}),
    "discard_action": Move(commands.DiscardAction, _discard_action, line=N_("{who} discarded an action card"),
                           allowed=_may_action, drawn={DREW}),
    "allow": Move(commands.Allow, _allow, line=N_("{who} let the attack card stand"), allowed=_may_answer),
    "counter": Move(commands.Counter, _counter, line=N_("{who} countered the attack card"),
                    allowed=_may_answer, reveals={"countered"}),
}


def count_move(old: State, new: State) -> State:
    """Every accepted command counts one move."""
    return replace(new, moves=old.moves + 1)


def final_scores(state: State) -> list[dict]:
    return score(state.bets, places_of(state.trophies, state.players))
