"""How Le rallye hasardeux reads to players: its pawns' colours, the rulebook's digest, its cards."""

from companion.gamekit import N_, Looks
from companion.games.rallye.names import CARD_NAMES, CARD_TEXTS, COLOURS

LOOKS = Looks(
    colours=COLOURS,
    how=N_("A race of 2 to 6 players round a circuit of face-down route cards. The first to cross the "
           "start line after the last lap wins; the others rank in order of arrival."
           "\n\nOn your turn, roll and move that many cards. A face-down card you stop on is turned up "
           "and its effect applies to you; a face-up one applies again. Players moved by an effect do "
           "not trigger the card they land on. A surprise symbol draws you a surprise card. Rolling a 6 "
           "draws you one more; rolling a 1 gives the last player one."
           "\n\nSurprise cards may be played at any moment, even out of turn. You may hold 3: an extra "
           "one is laid on the circuit or discarded. Keys open the padlocks of secret passages: stop on "
           "an open entrance and you come out at an open exit, on the same lap."),
    cards=CARD_TEXTS,
    names=CARD_NAMES,
)
