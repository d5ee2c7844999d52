"""How Crash! reads to players: its seats' colours and places, and the rulebook's digest as the rules help."""

from companion.gamekit import N_, Looks
from companion.games.crash.names import COLOURS, SEAT_NAMES

LOOKS = Looks(
    colours=COLOURS,
    seat_names=SEAT_NAMES,
    how=N_("Two players push bumper cars around a hexagonal board. The first player with no car left "
           "on the board loses the game; the fuller junkyard wins, whatever the colours."
           "\n\nYour turn has two phases. First, each of your cars still in play moves one cell the way "
           "it faces, car 1 first. A car moving into another pushes it one cell the same way, and pushes "
           "chain. A car leaving the board is out; a car entering a junkyard is captured by that "
           "junkyard's owner."
           "\n\nThen roll the three steering dice. Each die names one of your cars (a die naming a car "
           "out of play is rolled once more). Each die gives that car one manoeuvre: turn it to face "
           "another way, or move it one cell forward, pushing as before. Manoeuvres are optional, in any "
           "order; end your turn when you are done."),
)
