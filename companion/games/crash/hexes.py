"""The hex board drawn on the e-ink: cells, garages, junkyards with counts, cars with facing arrows."""

from __future__ import annotations

import math
from dataclasses import dataclass

from companion.gamekit import Box, Canvas, pawn_mark
from companion.games.crash.board import DIRECTIONS
from companion.games.crash.names import COLOURS

SQRT3 = math.sqrt(3)
# Screen directions (y grows downwards) of the six neighbours, as board.STEPS puts them.
VECTORS = {d: (math.sin(math.radians(a)), -math.cos(math.radians(a)))
           for d, a in zip(DIRECTIONS, (0, 60, 120, 180, 240, 300), strict=True)}
DISC = 0.5  # a car's disc, against the hex's radius; the arrow runs from ARROW_BASE to ARROW_TIP
ARROW_BASE, ARROW_TIP, ARROW_HALF = 0.58, 0.8, 0.16
NUMBER = 0.36  # half the side of the square a car's number is fitted in: clear of every arrow


@dataclass(frozen=True)
class Layout:
    """Where axial cell (q, r) lands: hexes of radius `size` pixels, cell (0, 0) centred at (x, y)."""

    size: float
    x: float
    y: float

    def centre(self, q: int, r: int) -> tuple[float, float]:
        return self.x + 1.5 * self.size * q, self.y + SQRT3 * self.size * (r + q / 2)

    def corners(self, q: int, r: int, scale: float = 1.0) -> list[tuple[float, float]]:
        cx, cy = self.centre(q, r)
        s = self.size * scale
        return [(cx + s * math.cos(math.radians(a)), cy + s * math.sin(math.radians(a)))
                for a in range(0, 360, 60)]

    def square(self, q: int, r: int, half: float) -> Box:
        """The box of half-side `half` (in hex radii) centred on the cell."""
        cx, cy = self.centre(q, r)
        h = self.size * half
        return Box(math.ceil(cx - h), math.ceil(cy - h), math.floor(cx + h), math.floor(cy + h))


def extent(cells: list[tuple[int, int]]) -> tuple[float, float, float, float]:
    """The board's bounding box in hex radii: left, top, right, bottom (cell (0, 0) at the origin)."""
    xs = [1.5 * q for q, _ in cells]
    ys = [SQRT3 * (r + q / 2) for q, r in cells]
    return min(xs) - 1, min(ys) - SQRT3 / 2, max(xs) + 1, max(ys) + SQRT3 / 2


def aspect(view: dict) -> float:
    """Width over height of the drawn board (garages included)."""
    left, top, right, bottom = extent(_all_cells(view))
    return (right - left) / (bottom - top)


def _all_cells(view: dict) -> list[tuple[int, int]]:
    return [(c["q"], c["r"]) for c in view["cells"]] + [(g["q"], g["r"]) for g in view["garages"]]


def fit(box: Box, view: dict) -> Layout:
    """The largest layout of the board and its garages inside `box`, centred."""
    left, top, right, bottom = extent(_all_cells(view))
    size = min((box.width - 2) / (right - left), (box.height - 2) / (bottom - top))
    x = box.x0 + (box.width - size * (right - left)) / 2 - size * left
    y = box.y0 + (box.height - size * (bottom - top)) / 2 - size * top
    return Layout(size, x, y)


def seat_ink(canvas: Canvas, seat: int) -> tuple[int, int, int]:
    """The seat's ink on this panel, shared out between both seats (`Palette.seats`): black when none
    is left."""
    return canvas.palette.seats([colour.ink for colour in COLOURS])[seat]


def draw_board(canvas: Canvas, box: Box, view: dict, moved: set[tuple[int, int]],
               chosen: tuple[int, int] | None) -> None:
    """Every cell, garage, junkyard and car; cars in `moved` get a thick accent border, the `chosen`
    one (seat, car) a thick highlight border."""
    layout = fit(box, view)
    ink = canvas.palette.rgb("ink")
    line = max(1, round(layout.size / 14))
    for garage in view["garages"]:
        canvas.draw.polygon(layout.corners(garage["q"], garage["r"], 0.8), outline=ink, width=1)
    for cell in view["cells"]:
        q, r = cell["q"], cell["r"]
        if cell["junkyard"] is None:
            canvas.draw.polygon(layout.corners(q, r), outline=ink, width=line)
    for junkyard in view["junkyards"]:
        q, r = junkyard["q"], junkyard["r"]
        canvas.draw.polygon(layout.corners(q, r), fill=seat_ink(canvas, junkyard["owner"]), outline=ink,
                            width=line)
        # the owner's mark with the count: on a panel that draws both seats black, the colour says nothing
        canvas.text(layout.square(q, r, 0.5), f"{pawn_mark(junkyard['owner'])}{junkyard['count']}", bold=True,
                    role="paper")
    for car in view["cars"]:
        if car["q"] is None:
            continue
        key = (car["seat"], car["car"])
        border = "highlight" if key == chosen else "accent" if key in moved else None
        if border:
            canvas.draw.polygon(layout.corners(car["q"], car["r"], 0.93), outline=canvas.palette.rgb(border),
                                width=max(2, round(layout.size / 6)))
        _car(canvas, layout, car)


def _car(canvas: Canvas, layout: Layout, car: dict) -> None:
    """North's cars are filled discs, South's rings, so a panel without their colours tells them apart."""
    q, r, seat = car["q"], car["r"], car["seat"]
    ink = seat_ink(canvas, seat)
    cx, cy = layout.centre(q, r)
    d = layout.size * DISC
    if seat == 0:
        canvas.draw.ellipse((cx - d, cy - d, cx + d, cy + d), fill=ink)
    else:
        ring = max(2, round(layout.size / 8))
        canvas.draw.ellipse((cx - d, cy - d, cx + d, cy + d), outline=ink, width=ring)
    canvas.text(layout.square(q, r, NUMBER), str(car["car"]), bold=True, role="paper" if seat == 0 else "ink")
    _arrow(canvas, layout, q, r, car["facing"], ink, f"{seat}:{car['car']}:{car['facing']}")


def _arrow(canvas: Canvas, layout: Layout, q: int, r: int, facing: str, ink, label: str) -> None:
    cx, cy = layout.centre(q, r)
    dx, dy = VECTORS[facing]
    s = layout.size
    tip = (cx + dx * s * ARROW_TIP, cy + dy * s * ARROW_TIP)
    bx, by = cx + dx * s * ARROW_BASE, cy + dy * s * ARROW_BASE
    side = (-dy * s * ARROW_HALF, dx * s * ARROW_HALF)
    points = [tip, (bx + side[0], by + side[1]), (bx - side[0], by - side[1])]
    canvas.draw.polygon(points, fill=ink)
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    # Two arrows meeting across an edge stay apart by a tenth of a radius: whole pixels must not overlap.
    canvas._add("arrow", label, Box(math.floor(min(xs)), math.floor(min(ys)), math.floor(max(xs)) + 1,
                                    math.floor(max(ys)) + 1))
