"""How free dice reads to players: the seat pages' rules help."""

from companion.gamekit import N_, Looks

LOOKS = Looks(
    colours=(),  # any number of phones roll: the seats have no colours of their own
    how=N_("Free dice roll for any board game: anyone may roll, from a phone or with ROLL on the device. "
           "Choose 1 to 3 dice; each roll shows the faces and their total, and the last rolls stay listed."
           "\n\nNobody waits for a turn here: roll when your own game says so."),
)
