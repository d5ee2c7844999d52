"""Colour roles for screens, mapped onto whatever inks a panel has."""

from __future__ import annotations

from dataclasses import dataclass

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
