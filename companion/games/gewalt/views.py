"""What Crazy Race shows: the public race (no bet, no hand before the end) and each seat's secrets."""

from __future__ import annotations

from companion.games.gewalt import board
from companion.games.gewalt.commands import LANES, SECTIONS, STAGES
from companion.games.gewalt.rules import LETTERS, State, actor, final_scores, legal, over
from companion.games.gewalt.scoring import winners


def _pawn(position: board.Position) -> dict:
    if position == board.FINISHED:
        return {"finished": True, "stage": None, "section": None, "square": None}
    stage, section, square = position
    return {"finished": False, "stage": stage, "section": section, "square": square}


def public_view(state: State) -> dict:
    lengths = [[[board.length(state.cards, lane, stage, section) for section in range(SECTIONS)]
                for stage in range(STAGES)] for lane in range(LANES)]
    cards = [{"lane": lane, "stage": stage, "section": section,
              "length": state.cards[board.slot_index(lane, stage, section)]}
             for lane in range(LANES) for stage in range(STAGES) for section in range(SECTIONS)
             if state.cards[board.slot_index(lane, stage, section)] != board.NO_CARD]
    attacker, target, card = state.pending if state.pending else (None, None, None)
    view = {
        "players": state.players,
        "letters": LETTERS[:state.players],
        "expert": state.expert,
        "reconstructed": state.reconstructed,
        "moves": state.moves,
        "over": over(state),
        "turn": state.turn,
        "actor": actor(state),
        "extra": state.extra,
        "pawns": [_pawn(p) for p in state.pawns],
        "lengths": lengths,
        "cards": cards,
        "trophies": [list(order) for order in state.trophies],
        "front": list(state.front),
        "pending": None if state.pending is None else {"attacker": attacker, "target": target, "card": card},
        "counters": [list(row) for row in state.counters],
        "hands": [{"sections": len(s), "actions": len(a)} for s, a in zip(state.sections, state.actions,
                                                                          strict=True)],
        "decks": {"sections": len(state.section_deck.pile),
                  "sections_discard": len(state.section_deck.discard),
                  "actions": len(state.action_deck.pile),
                  "actions_discard": len(state.action_deck.discard)},
        "used": {"section": state.used_section, "action": state.used_action},
        "legal": legal(state, None),
        "last_roll": None,
        "scores": None,
        "winners": [],
    }
    if state.last_roll is not None:
        seat, dice, effect, points = state.last_roll
        view["last_roll"] = {"seat": seat, "dice": list(dice), "effect": effect, "points": points}
    if over(state):  # the bets are revealed only now
        rows = final_scores(state)
        view["scores"] = rows
        view["winners"] = winners(rows)
    return view


def private_view(state: State, seat: int) -> dict:
    if not 0 <= seat < state.players:
        return {}
    return {
        "seat": seat,
        "letter": LETTERS[seat],
        "bet": list(state.bets[seat]),
        "sections": sorted(state.sections[seat]),
        "actions": sorted(state.actions[seat]),
        "owed": state.owed[seat],
        "legal": legal(state, seat),
    }
