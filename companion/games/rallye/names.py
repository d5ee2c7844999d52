"""Player-facing names of Le rallye hasardeux: seat colours, route effects, surprise cards, icons."""

from __future__ import annotations

from companion.gamekit import N_, SEAT_COLOURS

COLOURS = SEAT_COLOURS

# The icon a face-up card shows, the same on the e-ink and the phones: glyphs DejaVu Sans draws.
ICONS = {
    "none": "\u2014",  # a plain road
    "others_back": "\u21c7",  # the others back
    "all_back": "\u21da",  # everyone back
    "others_back_me_forward": "\u21c4",  # the others back, me forward
    "ford_4": "\u22484",
    "ford_5": "\u22485",
    "one_back": "\u21e0",  # one player back
    "swap_last": "\u21c6\u25bc",  # swap with the last
    "swap_first": "\u21c6\u25b2",  # swap with the first
    "swap_any": "\u21c6?",
    "reverse": "\u21ba",
}
SURPRISE_ICON = "\u2605"
START_ICON = "\u2691"
ENTRANCE_ICON, EXIT_ICON = "\u2193", "\u2191"  # down into the passage, up out of it
OPEN_ICON = "\u25ce"  # the manhole of an open passage
KEY_ICON = "\u26b7"
ACCESS_ICON = "+"
HAZARD_ICONS = {"tacks": "\u2736", "oil_roll": "\u25cf?", "oil_5": "\u25cf5"}

EFFECT_NAMES = {
    "none": N_("Plain road"),
    "others_back": N_("The others move back"),
    "all_back": N_("Everyone moves back"),
    "others_back_me_forward": N_("The others back, me forward"),
    "ford_4": N_("Ford (4)"),
    "ford_5": N_("Ford (5)"),
    "one_back": N_("One player moves back"),
    "swap_last": N_("Swap with the last"),
    "swap_first": N_("Swap with the first"),
    "swap_any": N_("Swap with any player"),
    "reverse": N_("Backwards next turn"),
}
EFFECT_TEXTS = {
    "none": N_("A plain road: nothing happens."),
    "others_back": N_("Roll: all the others move back that many; I stay."),
    "all_back": N_("Roll: everyone, me included, moves back that many."),
    "others_back_me_forward": N_("Roll: the others move back that many; I move forward that many."),
    "ford_4": N_("Next turn I must roll 4 or more to cross, else I move back by the roll."),
    "ford_5": N_("Next turn I must roll 5 or more to go on, else I stay stuck and draw a surprise card."),
    "one_back": N_("Roll: a player I choose moves back that many; I stay."),
    "swap_last": N_("I swap places with the last player, the nearest to the start whatever their lap."),
    "swap_first": N_("I swap places with the first player, the furthest from the start whatever their lap."),
    "swap_any": N_("I swap places with any player but the first."),
    "reverse": N_("Next turn I move backwards, unless an effect sends me back first: then forwards."),
}
EXACT_FORD_TEXTS = {
    "ford_4": N_("Next turn I must roll exactly 4 to cross, else I move back by the roll."),
    "ford_5": N_("Next turn I must roll exactly 5 to go on, else I stay stuck and draw a surprise card."),
}
SURPRISE_TEXT = N_("Surprise symbol: I draw a surprise card first.")

CARD_NAMES = {
    "passage_access": N_("Passage access"),
    "protection": N_("Protection"),
    "key": N_("Key"),
    "tacks": N_("Tacks"),
    "oil_roll": N_("Oil (roll)"),
    "oil_5": N_("Oil (5)"),
    "shield_tacks": N_("Shield against tacks"),
    "shield_oil": N_("Shield against oil"),
    "swap": N_("Swap two cards"),
    "lock": N_("Lock"),
}
CARD_TEXTS = {
    "passage_access": N_("Lay it on an open entrance: the cards just before and after it lead into the "
                         "passage too, for everyone, until it is locked again."),
    "protection": N_("Discard it to ignore one backward move, oil or tacks."),
    "key": N_("Opens one padlock of a passage. The first passage opened must be an exit."),
    "tacks": N_("Lay it on the route: whoever reaches it is blocked for 2 turns, and so is anyone passing "
                "while they sit there."),
    "oil_roll": N_("Lay it on the route: whoever reaches it rolls and moves back that many. The last player "
                   "keeps it."),
    "oil_5": N_("Lay it on the route: whoever reaches it moves back 5. The last player keeps it."),
    "shield_tacks": N_("Discard it to ignore tacks."),
    "shield_oil": N_("Discard it to ignore oil."),
    "swap": N_("Discard it to swap two cards of the circuit, passages included; both are turned over."),
    "lock": N_("Lay it on an open passage to lock it again. At least one exit stays open."),
}
THREATS = {
    "back": N_("a backward move"),
    "oil_roll": N_("oil (roll)"),
    "oil_5": N_("oil (5)"),
    "tacks": N_("tacks"),
}
STATUSES = {
    "ford_4": N_("in a ford (4)"),
    "ford_5": N_("stuck in a ford (5)"),
    "reverse": N_("backwards next turn"),
    "tacks": N_("on tacks"),
    "caught": N_("held by tacks"),
}


def effect_text(effect: str, surprise: bool, exact: bool, _) -> str:
    """What a route card does, in the reader's language (the symbol's draw first, as it is resolved)."""
    text = _(EXACT_FORD_TEXTS[effect] if exact and effect in EXACT_FORD_TEXTS else EFFECT_TEXTS[effect])
    return f"{_(SURPRISE_TEXT)} {text}" if surprise else text

