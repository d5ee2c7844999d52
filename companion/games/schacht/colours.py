"""The seats' colours of Crazy Race (Schacht): the four locomotive sets of the box."""

from companion.gamekit import N_, Colour

COLOURS = (
    Colour("lilac", N_("Lilac"), "#9b59b6"),
    Colour("orange", N_("Orange"), "#e67e22"),
    Colour("green", N_("Green"), "#27ae60"),
    Colour("blue", N_("Blue"), "#2f6fce"),
)
