"""What Crazy Race shows: the public view (e-ink, LEDs, every phone) and each seat's private view."""

from __future__ import annotations

from companion.games.schacht.data import ANY, MODELS
from companion.games.schacht.rules import (
    ROUNDS,
    State,
    actor,
    can_recall,
    legal,
    open_sides,
    played,
    taboo,
)
from companion.games.schacht.track import FINISH, facing_home, space


def public_view(state: State) -> dict:
    """Everything the table sees. Face-down cards appear as their owners only, never their values,
    until their side is evaluated; hand sizes stay hidden (a seat only says when it has none)."""
    card = state.card
    pending = next((o for o in state.outcomes if o.pending), None)
    return {
        "players": state.players,
        "phase": state.phase,
        "stage": state.stage + 1,
        "stages": len(state.order),
        "round": state.round,
        "rounds": ROUNDS,
        "turn": actor(state),
        "first": state.first,
        "card": {"arrow": card.arrow, "order": list(card.order()),
                 "sides": [{"loco": s.loco, "distance": ANY if s.distance is None else s.distance}
                           for s in card.sides]},
        "bids": [[p.seat for p in side] for side in state.bids],
        "open": open_sides(state) if state.phase == "bid" else [],
        "taboo": taboo(state),
        "revealed": [_outcome(o) for o in state.outcomes],
        "deciding": None if pending is None else {
            "seat": pending.winner, "side": pending.side, "steps": pending.steps,
            "split": card.sides[pending.side].distance is None,
            "locos": [MODELS[i] for i, p in enumerate(state.lanes[pending.winner]) if p != FINISH]},
        "takeback": [{"seat": s, "cards": sorted(set(played(state, s)))} for s in state.takeback],
        "lanes": [[_loco(MODELS[i], p) for i, p in enumerate(lane)] for lane in state.lanes],
        "points": [sum(p) for p in state.points],
        "points_cards": [list(p) for p in state.points],
        "piles": {name: {"top": pile[0] if pile else None, "left": len(pile),
                         "cards": [] if "shuffled_piles" in state.variants else list(pile)}
                  for name, pile in (("turntable", state.turntable), ("finish", state.finish))},
        "out": [not hand for hand in state.hands],
        "recalled": list(state.recalled),
        "values": sorted(set(state.deck.drivers)),
        "variants": sorted(state.variants),
        "reconstructed": list(state.deck.reconstructed),
        "final": None if state.final is None else {
            "scores": list(state.final.scores), "winners": list(state.final.winners),
            "penalties": [list(p) for p in state.final.penalties], "early": state.final.early},
    }


def private_view(state: State, seat: int) -> dict:
    """One seat's own secrets and choices: its hand, discards, its cards on each side this stage."""
    if not 0 <= seat < state.players:
        return {}
    pending = next((o for o in state.outcomes if o.pending), None)
    mine = actor(state) == seat
    return {
        "seat": seat,
        "hand": list(state.hands[seat]),
        "discards": list(state.discards[seat]),
        "recalled": state.recalled[seat],
        "can_recall": can_recall(state, seat),
        "sides": [[p.value for p in side if p.seat == seat] for side in state.bids],
        "placements": open_sides(state) if state.phase == "bid" and mine and state.hands[seat] else [],
        "my_turn": mine,
        "decide": None if pending is None or pending.winner != seat else {
            "side": pending.side, "steps": pending.steps,
            "split": state.card.sides[pending.side].distance is None,
            "locos": [MODELS[i] for i, p in enumerate(state.lanes[seat]) if p != FINISH]},
        "take_back": sorted(set(played(state, seat))) if state.phase == "takeback" and mine else [],
        "legal": legal(state, seat),
    }


def _loco(model: str, progress: int) -> dict:
    return {"loco": model, "progress": progress, "space": space(progress), "home": facing_home(progress),
            "finished": progress == FINISH}


def _outcome(o) -> dict:
    return {
        "side": o.side, "cards": [list(c) for c in o.cards], "totals": [sum(c) for c in o.cards],
        "winner": o.winner, "steps": o.steps, "lost": o.lost, "pending": o.pending,
        "moves": [{"loco": MODELS[t.loco], "steps": t.steps, "from": t.start, "to": t.end,
                   "turned": t.turned, "finished": t.finished} for t in o.travels],
        "points": [{"seat": p.seat, "pile": p.pile, "value": p.value, "from": p.source} for p in o.points],
    }
