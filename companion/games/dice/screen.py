"""The e-ink screen of free dice: the roll in big pips, its total, and the last rolls."""

from __future__ import annotations

from companion.render.dice import die_face
from companion.render.frame import standard_frame
from companion.render.layout import Canvas


def draw(view: dict, canvas: Canvas, _, url: str) -> None:
    status = _("Roll {n}", n=view["rolls"]) if view["rolls"] else _("{count} dice", count=view["count"])
    body = standard_frame(canvas, _("Free dice"), status, url)
    gap = canvas.px(10)
    main, history = body.rows(3, 2, gap=gap)
    faces, total = main.cols(3, 1, gap=gap)
    last = view["last"]
    if last:
        for box, value in zip(faces.cols(*[1] * len(last), gap=gap), last, strict=True):
            die_face(canvas, box.inset(gap // 2), value)
        canvas.text(total, f"= {view['total']}", bold=True, role="accent")
    else:
        canvas.text(faces, _("Press ROLL"), bold=True)
    earlier = view["history"][1:]
    if earlier:
        label, rows = history.rows(1, 3, gap=canvas.px(4))
        canvas.text(label, _("Previous rolls"), align="left")
        shown = earlier[:4]
        for box, roll in zip(rows.cols(*[1] * len(shown), gap=gap), shown, strict=True):
            dice = " ".join(str(d) for d in roll["dice"])
            canvas.text(box, f"{dice} = {roll['total']}", align="left")
