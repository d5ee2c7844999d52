"""Die faces drawn as pips, for any screen that shows dice."""

from __future__ import annotations

from companion.render.layout import Box, Canvas, Element

# Pip positions on a 3x3 grid (column, row), the classic faces.
PIPS = {
    1: [(1, 1)],
    2: [(0, 0), (2, 2)],
    3: [(0, 0), (1, 1), (2, 2)],
    4: [(0, 0), (2, 0), (0, 2), (2, 2)],
    5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
    6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
}


def die_face(canvas: Canvas, box: Box, value: int, role: str = "ink") -> Element:
    """A square die showing `value`, as large as `box` allows, centred in it."""
    side = min(box.width, box.height)
    x0 = box.x0 + (box.width - side) // 2
    y0 = box.y0 + (box.height - side) // 2
    square = Box(x0, y0, x0 + side, y0 + side)
    colour = canvas.palette.rgb(role)
    line = max(1, side // 24)
    canvas.draw.rounded_rectangle((x0, y0, x0 + side - 1, y0 + side - 1), radius=side // 8,
                                  outline=colour, width=line)
    cell = side / 4
    r = max(1, round(side / 12))
    for col, row in PIPS[value]:
        cx, cy = x0 + cell * (col + 1), y0 + cell * (row + 1)
        canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)
    return canvas._add("die", str(value), square)
