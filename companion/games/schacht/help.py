"""How Crazy Race (Schacht) reads to players: its loco sets' colours, the rulebook's digest, its cards."""

from companion.gamekit import N_, Looks
from companion.games.schacht.colours import COLOURS

LOOKS = Looks(
    colours=COLOURS,
    how=N_("A railway race of 3 or 4 players over 8 stages. Each player has 3 locos (A, B, C) on their "
           "own lane: out along spaces 1 to 5, round the turntable, and back home. Locos reaching the "
           "turntable and home take points cards; the most points wins."
           "\n\nEach stage turns up a stage card with four sides. In three bidding rounds, each player in "
           "turn places one driver card face down beside a side, or passes. Then the sides are evaluated "
           "from the arrow, clockwise: the highest total beside a side wins it (on a tie, whoever placed "
           "there first) and moves that side's loco by its distance. On the free side the winner picks "
           "the loco; on a “?” side, as many spaces as cards lie there, shared among their locos. A loco "
           "jumps over occupied spaces for free. With 3 players, once three sides hold cards the fourth "
           "is taboo."
           "\n\nPlayed cards go to your discards; a player who moved no loco this stage may take one of "
           "them back. Once per game you may recall all your discards. When everyone has recalled and "
           "played out their hand again, the game ends after that stage."),
    cards={
        "stage": N_("Four sides: three show a loco (A, B or C) and a distance, the free side a distance or "
                    "“?”. The arrow marks the side evaluated first."),
        "driver": N_("1, 1, 2, 2, 3, 3, 4 and 6 in each colour. Your total beside a side is your bid "
                     "for it."),
        "turntable": N_("A loco reaching the turntable takes the top card of this pile (5 or 4 points), "
                        "nothing once it is empty."),
        "finish": N_("A loco arriving home takes the top card of this pile (6 down to 3 points); extra "
                     "steps are lost."),
    },
    names={
        "stage": N_("Stage card"),
        "driver": N_("Driver cards"),
        "turntable": N_("Turntable cards"),
        "finish": N_("Finish cards"),
    },
)
