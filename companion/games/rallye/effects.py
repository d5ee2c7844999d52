"""A move by a player's own roll, its arrival, and the ten route effects, as steps of the agenda."""

from __future__ import annotations

from dataclasses import replace

from companion.gamekit import put
from companion.games.rallye.circuit import can_go_back, crossed, finish, land, relocate, shift, step
from companion.games.rallye.state import (
    Pending,
    State,
    clockwise,
    firsts,
    hazard_at,
    kind_at,
    lasts,
    nearest,
    open_exits,
    passage_of,
    pawns_at,
    roll_die,
)

STATUS_EFFECTS = ("ford_4", "ford_5", "reverse")
ROLLED_BACK = ("others_back", "all_back", "others_back_me_forward", "one_back")


def push(state: State, *tasks: tuple) -> State:
    """`tasks` go before the rest of the agenda, in their order."""
    return replace(state, agenda=tasks + state.agenda)


def ask(state: State, seat: int, threat: str, amount: int, direction: int = -1, at: int = 0) -> State:
    """Open a cancel window for `seat`: asked whether or not it holds a card that cancels the threat."""
    return replace(state, pending=Pending("cancel", seat, threat, amount, direction, at))


def draw(state: State, draws, events: list[dict], seat: int) -> State:
    """`seat` draws the top surprise card; an empty pile is made again from the shuffled discards."""
    if seat in state.ranking:
        return state
    pile, discard = state.pile, state.discard
    if not pile:
        pile, discard = tuple(draws.shuffled(discard)), ()
        events.append({"type": "reshuffled", "cards": len(pile)})
    if not pile:
        events.append({"type": "no_card", "seat": seat})
        return replace(state, discard=discard)
    events.append({"type": "drew", "seat": seat})  # never which card: the hand is that seat's secret
    return replace(state, pile=pile[1:], discard=discard,
                   hands=put(state.hands, seat, state.hands[seat] + (pile[0],)))


def walk(state: State, draws, events: list[dict], seat: int, steps: int, direction: int) -> State:
    """A move by `seat`'s own roll: tacks and oil on the way stop it; the card it ends on is arrived at."""
    # (ruling) Tacks and oil catch only moves by a player's own roll (forward, or backward on a reverse
    # turn), as route cards do: a player moved by an effect or a passage passes them by. The player they
    # stop does not arrive on the card beneath ("impossible d'aller plus loin"); one who cancels them
    # goes on with the rest of the move, and they stay for the next.
    if seat in state.ranking:
        return state
    place, lap = state.places[seat], state.laps[seat]
    while steps > 0:
        moved = step(state, place, lap, direction)
        if moved is None:
            break
        place, lap, across = moved
        steps -= 1
        if across and crossed(state, seat, lap, across, events):
            return finish(relocate(state, seat, place, lap, events), seat, events)
        hazard = hazard_at(state, place)
        if hazard is not None:
            state = relocate(state, seat, place, lap, events)
            events.append({"type": "moved", "seat": seat, "position": place, "lap": lap})
            events.append({"type": "stopped", "seat": seat, "position": place, "hazard": hazard})
            return ask(state, seat, hazard, steps, direction, place)
    state = relocate(state, seat, place, lap, events)
    events.append({"type": "moved", "seat": seat, "position": place, "lap": lap})
    return push(state, ("arrive", seat))


def access_near(state: State, position: int) -> bool:
    """An access card lies on an open entrance just before or after `position`."""
    size = len(state.circuit)
    for near in ((position - 1) % size, (position + 1) % size):
        passage = passage_of(state, near)
        if passage is not None and kind_at(state, near) == "entrance" and state.opened[passage] \
                and state.access[passage]:
            return True
    return False


def arrive(state: State, draws, events: list[dict], seat: int) -> State:
    """`seat`'s own move ends here: a passage, the start line, or a route card to turn and apply."""
    if seat in state.ranking:
        return state
    at = state.places[seat]
    passage = passage_of(state, at)
    # (ruling) Only a player's own move takes a passage: one moved there by an effect triggers nothing.
    if passage is not None and kind_at(state, at) == "entrance" and state.opened[passage]:
        return enter(state, seat, False, events)
    if access_near(state, at):
        # (ruling) The access card lets a player take the passage ("j'accède"); it does not force them:
        # they may stay, and then arrive on their card as usual.
        return enter(state, seat, True, events)
    return settle(state, seat, at, events)


def settle(state: State, seat: int, at: int, events: list[dict]) -> State:
    """The arrival on the card itself: the start line's symbol if it has one, a plain card revealed."""
    if at == 0:
        return push(state, ("draw", seat)) if state.route.start_surprise else state
    if passage_of(state, at) is not None:
        return state
    return reveal(state, seat, at, events)


def enter(state: State, seat: int, optional: bool, events: list[dict]) -> State:
    """Into the passage: straight to the one open exit, or the player chooses among several."""
    # (ruling) With several open exits the player chooses; one open exit needs no question.
    exits = open_exits(state)
    if not exits:  # cannot happen: an entrance opens only after an exit, and one exit always stays open
        return state if not optional else settle(state, seat, state.places[seat], events)
    if len(exits) == 1 and not optional:
        return through(state, seat, exits[0], events)
    return replace(state, pending=Pending("exit", seat, choices=tuple(exits), optional=optional))


def through(state: State, seat: int, exit_at: int, events: list[dict]) -> State:
    """Out at `exit_at` on the same lap: a passage never turns the lap counter."""
    events.append({"type": "passage", "seat": seat, "position": exit_at})
    return relocate(state, seat, exit_at, state.laps[seat], events)


def reveal(state: State, seat: int, at: int, events: list[dict]) -> State:
    """A plain card arrived at: turned up if face down and nobody else stands on it, then applied."""
    # (ruling) On a card another player stands on, a face-down card stays down (no effect, no symbol) and a
    # face-up card applies to the arriver, unturned: the rulebook's "l'effet s'applique à lui".
    if not state.face_up[at]:
        if pawns_at(state, at, but=seat):
            events.append({"type": "not_turned", "seat": seat, "position": at})
            return state
        state = replace(state, face_up=put(state.face_up, at, True))
    card = state.route.plain[state.circuit[at]]
    events.append({"type": "effect", "seat": seat, "position": at, "effect": card.effect,
                   "surprise": card.surprise})
    state = replace(state, last_effect=(seat, at, card.effect, card.surprise))
    # (ruling) The symbol's card is drawn before the effect, as the rulebook says of the swaps. Draws follow
    # the order of their causes, which is clockwise wherever several players draw at once.
    tasks = (("draw", seat),) if card.surprise else ()
    return push(state, *tasks, ("effect", seat, card.effect, at, card.surprise))


def effect(state: State, draws, events: list[dict], seat: int, name: str, at: int, surprise: bool) -> State:
    """One of the ten route effects, for `seat` who arrived at `at`."""
    if seat in state.ranking or name == "none":
        return state
    if name in STATUS_EFFECTS:
        return replace(state, status=put(state.status, seat, name))
    others = clockwise(state, seat)[1:]
    if name in ROLLED_BACK:
        state, die = roll_die(state, draws, seat, "effect")
        events.append({"type": "effect_roll", "seat": seat, "die": die})
        if name == "one_back":  # (ruling) rolled first, then the player chosen, in the card's order
            return target(state, seat, name, die, others, at, surprise, events)
        victims = clockwise(state, seat) if name == "all_back" else others
        tasks: tuple[tuple, ...] = (("back_all", tuple(victims), die),)
        if name == "others_back_me_forward":
            tasks += (("forward", seat, die),)
        return push(state, *tasks)
    if name == "swap_any":
        # (ruling) "The first" is every player on the card furthest from the start, ties included.
        top = firsts(state)
        return target(state, seat, name, 0, [s for s in others if s not in top], at, surprise, events)
    group = lasts(state) if name == "swap_last" else firsts(state)
    # (ruling) A player already the last (for swap_last) or the first (for swap_first) swaps with nobody;
    # ties go to the first tied player clockwise from the player (see state.nearest).
    if seat in group:
        events.append({"type": "no_swap", "seat": seat})
        return state
    return swap(state, seat, nearest(state, group, seat), at, surprise, events)


def target(state: State, seat: int, name: str, amount: int, candidates: list[int], at: int, surprise: bool,
           events: list[dict]) -> State:
    """The player `seat` picks for one_back or swap_any: asked only if there is a choice."""
    # (ruling) No candidate: nothing happens; one: no question.
    if not candidates:
        events.append({"type": "no_target", "seat": seat})
        return state
    if len(candidates) == 1:
        return targeted(state, seat, name, candidates[0], amount, at, surprise, events)
    return replace(state, pending=Pending("target", seat, name, amount, at=at, choices=tuple(candidates),
                                          surprise=surprise))


def targeted(state: State, seat: int, name: str, chosen: int, amount: int, at: int, surprise: bool,
             events: list[dict]) -> State:
    events.append({"type": "targeted", "seat": seat, "target": chosen, "effect": name})
    if name == "one_back":
        return push(state, ("back", chosen, amount))
    return swap(state, seat, chosen, at, surprise, events)


def swap(state: State, seat: int, partner: int, at: int, surprise: bool, events: list[dict]) -> State:
    """`seat` and `partner` change places; each keeps its own lap."""
    # (ruling) A swap exchanges cards, not laps ("whatever their lap"), so it never crosses the line, and
    # it is no backward move: protection does not stop it. The card stays face up under the partner (the
    # rulebook says so of swap_last and swap_any; the same for swap_first), then the partner draws if it
    # shows the symbol.
    mine, theirs = (state.places[seat], state.laps[seat]), (state.places[partner], state.laps[partner])
    events.append({"type": "swapped_places", "seat": seat, "with": partner})
    state = land(state, partner, mine[0], theirs[1], events, keep_face=True)
    state = land(state, seat, theirs[0], mine[1], events)
    return push(state, ("draw", partner)) if surprise else state


def back(state: State, draws, events: list[dict], seat: int, steps: int) -> State:
    """An effect sends `seat` back: first the cancel window (none if it cannot move back at all)."""
    # (ruling) Protection cancels every backward move an effect imposes: route effects 1-3 and 6, a failed
    # 4-ford, the reverse turn (see `reverse`), oil, tacks' hold. Not a swap nor a passage (part of the
    # circuit, not an effect). The window opens whether or not the victim holds protection, and not at all
    # when the move could change nothing.
    if seat in state.ranking or not can_go_back(state, seat):
        return state
    return ask(state, seat, "back", steps)


def back_all(state: State, draws, events: list[dict], seats: tuple[int, ...], steps: int) -> State:
    """An effect sends several players back: one window asks them all together."""
    # (ruling) The victims of one effect answer at once, each from its own phone, in one answer window that
    # closes as soon as every one asked has answered (or its time is up: no for whoever has not). Each
    # move back is its own (an effect's move triggers nothing), so the order of the answers changes nothing.
    asked = tuple(s for s in seats if s not in state.ranking and can_go_back(state, s))
    if len(asked) <= 1:
        return push(state, *(("back", s, steps) for s in asked))
    return replace(state, pending=Pending("cancel", asked[0], "back", steps, -1, seats=asked,
                                                opened=state.moves))


def reverse(state: State, draws, events: list[dict], seat: int, steps: int) -> State:
    """The reverse turn: `seat` walks back by its roll, unless it cancels that with protection."""
    if seat in state.ranking:
        return state
    if not can_go_back(state, seat):  # nothing lies behind: the move changes nothing, no question
        return push(state, ("walk", seat, steps, -1))
    return replace(state, pending=Pending("cancel", seat, "back", steps, -1, own=True))


def forward(state: State, draws, events: list[dict], seat: int, steps: int) -> State:
    if seat in state.ranking:
        return state
    return shift(state, seat, steps, 1, events)


def passed_ford(state: State, seat: int, die: int) -> bool:
    need = 4 if state.status[seat] == "ford_4" else 5
    return die == need if state.ford_exact else die >= need
