"""How Crazy Race (Gewalt) reads to players: its pawns' colours, the rulebook's digest, each action card."""

from companion.gamekit import N_, Looks
from companion.games.gewalt.names import CARD_NAMES, COLOURS

LOOKS = Looks(
    colours=COLOURS,
    how=N_("A dice race of 3 to 5 players, each on their own lane of three stages. Everyone holds a "
           "secret bet card: the place they aim for at each stage's finish line. Crossing a line earns "
           "the trophy for the place you crossed it in. At the end you keep it only if it is the place "
           "you bet on (1 point), plus 1 point for each opponent who bet that place too."
           "\n\nOn your turn you may first play a section card from your hand onto any section with no "
           "pawn and no card (its length replaces the section's), or discard one; then you draw back up "
           "to 4. Then roll both dice and move that many squares. A move that crosses a stage's line "
           "goes on into the next stage."
           "\n\nExpert game: you also hold 4 action cards. Before rolling you may play or discard one "
           "action card as well as one section card, in either order, and draw back up. An attack card "
           "lies in front of an opponent and works on their next turn; nobody has more than one in "
           "front of them. The race ends when the last pawn finishes; then the bets are shown."),
    cards={
        "extra_turn": N_("Attack: the target plays two turns in a row."),
        "skip_turn": N_("Attack: the target misses their next turn."),
        "no_roll": N_("Attack: the target does not roll and does not move on their next turn."),
        "double": N_("Attack: the target moves twice their dice."),
        "no_cards": N_("Attack: the target may play or discard no card on their next turn."),
        "move_4": N_("Attack: the target moves 4 squares instead of rolling."),
        "move_10": N_("Attack: the target moves 10 squares instead of rolling."),
        "minus_4": N_("Attack: the target takes 4 off their dice (never below 0)."),
        "plus_4": N_("Attack: the target adds 4 to their dice."),
        "relocate": N_("For yourself: move a section card already placed, with no pawn on it, to another "
                       "free section."),
        "counter": N_("For yourself: cancel an attack card just played on you; both cards are discarded. "
                      "It is replaced at the end of your own turn, and works at most twice against the "
                      "same opponent."),
    },
    names=CARD_NAMES,
)
