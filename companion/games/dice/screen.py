"""The e-ink screen of free dice: the roll in big pips, its total, and the last rolls."""

from __future__ import annotations

from companion.gamekit import QR_MIN_HEIGHT, Box, Canvas, TableInfo, die_face, standard_frame
from companion.games.dice.rules import MAX_DICE

SHOWN_EARLIER = 4  # previous rolls listed under the current one


def draw(view: dict, canvas: Canvas, _, table: TableInfo) -> None:
    status = _("Roll {n}", n=view["rolls"]) if view["rolls"] else _("{count} dice", count=view["count"])
    body = standard_frame(canvas, _("Free dice"), status, table)
    gap = canvas.px(10)
    # The pHATs have room for the roll only; taller panels keep the history's place even while it is
    # empty, so the dice do not jump in size after the first roll.
    if canvas.size[1] < QR_MIN_HEIGHT:
        main, history = body, None
    else:
        main, history = body.rows(3, 2, gap=gap)
    last = view["last"]
    if last:
        _roll(canvas, main, last, view["total"], gap)
    else:
        canvas.text(main, _("Press ROLL"), bold=True)
    earlier = view["history"][1:SHOWN_EARLIER + 1]
    if history is not None and earlier:
        _history(canvas, history, _("Previous rolls"), earlier, gap)


def _roll(canvas: Canvas, box: Box, faces: list[int], total: int, gap: int) -> None:
    """The dice left to right, then "= total" in the space that is left."""
    # Dice are sized for the most there can be, so one die is as big as each of three.
    side = min(box.height, int((box.width - gap * MAX_DICE) / (MAX_DICE + 1.3)))
    y0 = box.y0 + (box.height - side) // 2
    x = box.x0
    for value in faces:
        die_face(canvas, Box(x, y0, x + side, y0 + side), value)
        x += side + gap
    canvas.text(Box(x, box.y0, box.x1, box.y1), f"= {total}", bold=True, role="accent", align="left",
                max_size=round(side * 0.8))


def _history(canvas: Canvas, box: Box, label: str, earlier: list[dict], gap: int) -> None:
    """A label over the previous rolls, in one row of four or two rows of two: whichever reads larger."""
    texts = [f"{' '.join(str(d) for d in roll['dice'])} = {roll['total']}" for roll in earlier]
    best = None
    for per_row in (SHOWN_EARLIER, SHOWN_EARLIER // 2):
        lines = box.rows(*[1] * (1 + -(-SHOWN_EARLIER // per_row)), gap=canvas.px(4))
        cells = [cell for line in lines[1:] for cell in line.cols(*[1] * per_row, gap=2 * gap)][:len(texts)]
        size = canvas.common_size(list(zip(cells, texts, strict=True)))
        if size is not None and (best is None or size > best[0]):
            best = (size, lines[0], cells)
    if best is None:
        return
    size, head, cells = best
    canvas.text(head, label, align="left", max_size=size)
    for cell, text in zip(cells, texts, strict=True):
        canvas.text(cell, text, align="left", max_size=size)
