"""Colour roles for screens, mapped onto whatever inks a panel has."""

from __future__ import annotations

import colorsys
from dataclasses import dataclass

HUE_REACH = 45  # degrees: a seat colour further than this from every ink's hue is drawn in black
GREY = 0.2  # saturation under which a seat colour has no hue to match

# Pure inks as inky's drivers name them; the driver quantizes to its own native values.
INKS = {
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "red": (255, 0, 0),
    "yellow": (255, 255, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "orange": (255, 140, 0),
}


@dataclass(frozen=True)
class Palette:
    """The inks of one panel. Screens ask for roles; a black-and-white panel gets black for all."""

    inks: tuple[str, ...]

    def rgb(self, role: str) -> tuple[int, int, int]:
        """The RGB of a role: paper, ink, accent (a warning colour) or highlight (a second colour)."""
        choices = {
            "paper": ("white",),
            "ink": ("black",),
            # Yellow on white cannot be read, so text roles never fall back to it.
            "accent": ("red", "orange", "black"),
            "highlight": ("blue", "green", "red", "black"),
        }[role]
        return self.nearest(choices)

    def nearest(self, inks: tuple[str, ...]) -> tuple[int, int, int]:
        """The RGB of the first of `inks` this panel has, else black."""
        for ink in inks:
            if ink in self.inks:
                return INKS[ink]
        return INKS["black"]

    def seat(self, ink: str) -> tuple[int, int, int]:
        """The panel ink nearest in hue to a seat's colour (an sRGB hex such as "#9b59b6"), else black.

        Hue, not RGB distance: lilac is nearer red than blue in RGB, and a lilac seat drawn red
        beside phones showing lilac misleads. White never stands for a seat (it is the paper); a
        colour no ink comes near is black, and the seat's initial or name tells it apart.
        """
        hue, saturation = _hue(tuple(int(ink.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)))
        best = "black"
        reach: float = HUE_REACH  # narrows to the nearest ink's distance
        if saturation >= GREY:
            for name in self.inks:
                if name in ("white", "black"):
                    continue
                ink_hue, _ = _hue(INKS[name])
                distance = min(abs(hue - ink_hue), 360 - abs(hue - ink_hue))
                if distance <= reach:
                    best, reach = name, distance
        return INKS[best]


def _hue(rgb: tuple[int, ...]) -> tuple[float, float]:
    """The hue in degrees and the saturation (0 to 1) of an sRGB colour."""
    h, s, _v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return h * 360, s
