"""The seat palette: the colours every game's seats take theirs from, with the label a page shows, and
the seats' marks."""

from __future__ import annotations

from dataclasses import dataclass

from companion.i18n import N_


@dataclass(frozen=True)
class Colour:
    """A seat's colour: `key` for code and CSS, `label` a msgid, `ink` an sRGB hex for pages.

    The e-ink shares the panel's inks out among the seats in play, nearest in hue, no ink twice
    (`Palette.seats`), else black: the seat's mark and name always go with it, so colour is never the
    only cue.
    """

    key: str
    label: str
    ink: str


RED = Colour("red", N_("Red"), "#c62828")
BLUE = Colour("blue", N_("Blue"), "#1565c0")
GREEN = Colour("green", N_("Green"), "#2e7d32")
YELLOW = Colour("yellow", N_("Yellow"), "#f9a825")
PURPLE = Colour("purple", N_("Purple"), "#6a1b9a")
ORANGE = Colour("orange", N_("Orange"), "#ef6c00")

# In seat order: the table's own colours while a game has none (free dice), and most games' too.
SEAT_COLOURS = (RED, BLUE, GREEN, YELLOW, PURPLE, ORANGE)



def table_colours(game: tuple[Colour, ...]) -> tuple[Colour, ...]:
    """Every seat's colour at a table playing a game whose own colours are `game`: the game's, then for the
    seats it leaves out the palette's it does not use already (by key or label), so no two seats of a
    game share a colour's name: Crazy Race (Schacht)'s sixth seat is not a second Orange."""
    used = {c.key for c in game} | {c.label for c in game}
    rest = [c for c in SEAT_COLOURS if c.key not in used and c.label not in used]
    return (*game, *rest)[:len(SEAT_COLOURS)]


# A seat's mark, the same on every output: a numbered disc, never a letter, so on the glass it cannot be
# read as one of the buttons A-D ("A: B Bob" read as "press B"); the number is the seat's "player 2".
SEAT_MARKS = "\u2776\u2777\u2778\u2779\u277a\u277b"  # ❶ to ❻, glyphs DejaVu Sans draws
