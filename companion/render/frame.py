"""The frame every screen shares: a title bar, a body, and a footer with the join QR code."""

from __future__ import annotations

from companion.render.layout import Box, Canvas


def standard_frame(canvas: Canvas, title: str, status: str, url: str) -> Box:
    """Draw the title, status and QR code of the table's address; return the free body box."""
    margin = canvas.px(12)
    area = canvas.bounds.inset(margin)
    head, rest = area.rows(1, 6, gap=margin)
    title_box, status_box = head.cols(3, 2, gap=margin)
    canvas.text(title_box, title, bold=True, align="left")
    canvas.text(status_box, status, role="accent", align="right")
    line = Box(area.x0, head.y1 + margin // 2, area.x1, head.y1 + margin // 2 + canvas.px(2))
    canvas.rule(line)
    body, side = rest.cols(3, 1, gap=margin)
    qr_side = min(side.width, side.height // 2)
    qr_box, url_box, _ = side.rows(qr_side, max(canvas.px(20), qr_side // 6), side.height, gap=canvas.px(4))
    canvas.qr(qr_box, url)
    canvas.text(url_box, url.split("://", 1)[-1], align="center")
    return Box(body.x0, body.y0, body.x1, body.y1)
