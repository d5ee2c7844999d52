"""Colour roles for screens, mapped onto whatever inks a panel has."""

from __future__ import annotations

import colorsys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from companion.render.delta_e import delta_e

HUE_REACH = 45  # degrees: a seat colour further than this from every free ink's hue is drawn in black
GREY = 0.2  # saturation under which a seat colour has no hue to match
# The least CIEDE2000 between two seats' inks as the glass shows them, and between a seat's ink and black
# when a seat is left black. 20 is a difference seen at a glance across a table, not only side by side
# (about 2 is "just noticeable"); the Impression 7.3"'s red and orange (10.9) and the Impression 5.7"'s blue
# and black (11.4) fall short of it. docs/panels.md lists each panel's figures.
SEAT_DISTANCE = 20.0

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
    # The colour the glass shows for each ink (inky's measured palette of the panel), where it differs
    # from the pure ink the frame is drawn in: the driver maps each pure ink to one of the panel's own.
    glass: tuple[tuple[str, tuple[int, int, int]], ...] = ()

    def shown(self, ink: str) -> tuple[int, int, int]:
        """The colour the glass shows for `ink` (a name in INKS)."""
        return dict(self.glass).get(ink, INKS[ink])

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
        """The panel ink nearest in hue to one seat's colour (an sRGB hex such as "#9b59b6"), else black.

        Hue, not RGB distance: lilac is nearer red than blue in RGB, and a lilac seat drawn red
        beside phones showing lilac misleads. White never stands for a seat (it is the paper); a
        colour no ink comes near is black, and the seat's mark or name tells it apart.
        """
        return self.seats((ink,))[0]

    def seats(self, colours: Sequence[str]) -> list[tuple[int, int, int]]:
        """The inks the seats in play are drawn in, one per colour in `colours` (sRGB hexes, in seat order).

        The seats share the panel's inks together, no ink twice: as many seats as can get an ink within
        reach of their hue get one, the nearest overall, so two seats that differ on the phones never look
        the same on the glass. Two inks the glass shows less than SEAT_DISTANCE apart are never both seats'
        (nor an ink that close to black while a seat is black). A seat left without one is black, and its
        mark and name tell it apart. Seats of the very same colour share their ink.
        """
        return [INKS[name] for name in _share(self.inks, self.glass, tuple(c.lower() for c in colours))]


@lru_cache(maxsize=256)
def _share(inks: tuple[str, ...], glass: tuple[tuple[str, tuple[int, int, int]], ...],
           colours: tuple[str, ...]) -> tuple[str, ...]:
    """Each colour's ink (by name): most colours inked, then least hue distance in all; black for the rest.

    Only inks the glass shows far enough apart go together (`_apart`)."""
    shown = {name: dict(glass).get(name, INKS[name]) for name in inks}
    apart = _apart(shown)
    distinct = list(dict.fromkeys(colours))
    reach = []  # per distinct colour: (distance, ink) for every ink within reach of its hue
    for colour in distinct:
        hue, saturation = _hue(tuple(int(colour.lstrip("#")[i:i + 2], 16) for i in (0, 2, 4)))
        near = []
        if saturation >= GREY:
            for name in inks:
                if name not in ("white", "black"):
                    ink_hue, _ = _hue(INKS[name])
                    distance = min(abs(hue - ink_hue), 360 - abs(hue - ink_hue))
                    if distance <= HUE_REACH:
                        near.append((distance, name))
        reach.append(sorted(near))
    best: tuple[tuple[int, float], tuple[str, ...]] = ((0, 0.0), ("black",) * len(distinct))

    def search(index: int, taken: tuple[str, ...], inked: int, total: float) -> None:
        nonlocal best
        if index == len(distinct):
            if inked < len(distinct) and "black" in shown and any(
                    not apart[frozenset((name, "black"))] for name in taken if name != "black"):
                return  # a black seat beside an ink the glass shows near black
            if (-inked, total) < (-best[0][0], best[0][1]):
                best = ((inked, total), taken)
            return
        for distance, name in reach[index]:
            if name not in taken and all(apart[frozenset((name, other))]
                                         for other in taken if other != "black"):
                search(index + 1, (*taken, name), inked + 1, total + distance)
        search(index + 1, (*taken, "black"), inked, total)

    search(0, (), 0, 0.0)
    chosen = dict(zip(distinct, best[1], strict=True))
    return tuple(chosen[colour] for colour in colours)


def _apart(shown: dict[str, tuple[int, int, int]]) -> dict[frozenset[str], bool]:
    """For each pair of inks, whether the glass shows them at least SEAT_DISTANCE apart."""
    return {frozenset(pair): delta_e(shown[pair[0]], shown[pair[1]]) >= SEAT_DISTANCE
            for pair in combinations(shown, 2)}


def _hue(rgb: tuple[int, ...]) -> tuple[float, float]:
    """The hue in degrees and the saturation (0 to 1) of an sRGB colour."""
    h, s, _v = colorsys.rgb_to_hsv(*(c / 255 for c in rgb))
    return h * 360, s
