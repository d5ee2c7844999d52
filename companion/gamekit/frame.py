"""The frame every screen shares: a title bar, a body, and a column with the join QR code."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.gamekit.colours import SEAT_MARKS
from companion.gamekit.contract import GameSpec, TableInfo
from companion.i18n import translator
from companion.render.layout import Box, Canvas
from companion.render.palette import Palette

if TYPE_CHECKING:
    from companion.devices.panels import PanelModel

# Panels lower than this (the pHATs, 104 and 122 px) get no QR column: a scannable code would
# leave no room for the game. Every panel at least this high shows one.
QR_MIN_HEIGHT = 200

PAWN_MARKS = SEAT_MARKS  # a pawn on the glass bears its seat's mark


def pawn_mark(seat: int) -> str:
    return PAWN_MARKS[seat]


def marked_name(seat: int, name: str) -> str:
    """A player as the glass names them: pawn mark and name ("❷ Bob")."""
    return f"{PAWN_MARKS[seat]} {name}"


JOIN_KEY_MARK = "."  # between the code and the key in a join link's last part (never in either)


def join_link(table: TableInfo) -> str:
    """What the QR code holds: the table's join page with its code and the key no one can guess, so a
    scan skips the typing and never waits on wrong codes typed by strangers (docs/security.md)."""
    base = table.url if table.url.endswith("/") else table.url + "/"
    if not table.join_code:
        return base
    return f"{base}j/{table.join_code}{JOIN_KEY_MARK}{table.join_key}" if table.join_key else \
        f"{base}j/{table.join_code}"


def standard_frame(canvas: Canvas, title: str, status: str, table: TableInfo) -> Box:
    """Draw the title, status (and the time of the state shown) and, room permitting, the join QR code,
    the address and the join code.

    Returns the free body box. The same code lays out every panel, from the 212x104 pHAT to the
    1600x1200 Spectra: sizes are fractions of the panel, and text is fitted by measuring.
    """
    if table.at:  # when the table reached this state: a glass that lags shows an older time
        status = f"{status} · {table.at}" if status else table.at
    small = canvas.size[1] < QR_MIN_HEIGHT
    margin = canvas.px(12)
    area = canvas.bounds.inset(margin)
    if small and table.wifi and not any(table.names):
        area = _small_wifi_code(canvas, area, table.wifi, margin)
    share = 0.2 if small else 0.13
    head_h = max(canvas.text_height(Canvas.MIN_TEXT, bold=True), round(area.height * share))
    head = Box(area.x0, area.y0, area.x1, area.y0 + head_h)
    _title_and_status(canvas, head, title, status, margin)
    gap = max(2, margin // 2)
    line = Box(area.x0, head.y1 + gap, area.x1, head.y1 + gap + canvas.px(2))
    canvas.rule(line)
    rest = Box(area.x0, line.y1 + gap, area.x1, area.y1)
    if table.notice:
        rest = _notice(canvas, rest, table.notice, gap)
    if small:
        return rest
    if table.wifi:
        return _wifi_and_join(canvas, rest, table, margin)
    return _qr_column(canvas, rest, table, margin)


def _notice(canvas: Canvas, rest: Box, notice: str, gap: int) -> Box:
    """The table's one line (its venue unreachable) at the foot, the whole width; returns the box above."""
    line_h = max(canvas.text_height(Canvas.MIN_TEXT), canvas.px(20))
    foot = Box(rest.x0, rest.y1 - line_h, rest.x1, rest.y1)
    canvas.text(foot, notice, role="accent", align="left")
    return Box(rest.x0, rest.y0, rest.x1, foot.y0 - gap)


def _title_and_status(canvas: Canvas, head: Box, title: str, status: str, gap: int) -> None:
    """Title left, status right, sharing the width in proportion to their lengths at one size."""
    reference = 100
    widths = [max(1, canvas.text_width(t, reference, bold)) for t, bold in ((title, True), (status, False))]
    title_box, status_box = head.cols(*widths, gap=gap) if status else (head, None)
    size = canvas.common_size([(title_box, title)], bold=True)
    if status_box is not None:
        size = min(filter(None, (size, canvas.common_size([(status_box, status)]))), default=None)
        canvas.text(status_box, status, role="accent", align="right", max_size=size)
    canvas.text(title_box, title, bold=True, align="left", max_size=size)


def _small_wifi_code(canvas: Canvas, area: Box, payload: str, margin: int) -> Box:
    """On a pHAT, until a phone has taken a seat: the Wi-Fi code the whole height of the panel at the
    right (a phone must be on the table's network before anything else works); returns the area left."""
    side = canvas.qr_side(payload, min(area.height, round(area.width * 0.5)))
    if not side:
        return area
    canvas.qr(Box(area.x1 - side, area.y0, area.x1, area.y0 + side), payload)
    return Box(area.x0, area.y0, area.x1 - side - margin, area.y1)


def _wifi_and_join(canvas: Canvas, rest: Box, table: TableInfo, margin: int) -> Box:
    """While the table is the network: its Wi-Fi code above the join code where both fit; else the Wi-Fi
    code alone until a phone has taken a seat (it must join the Wi-Fi before the link can open), then the
    join code. Returns the free body box."""
    line_h = max(canvas.text_height(Canvas.MIN_TEXT), canvas.px(20))
    half = (rest.height - canvas.px(8)) // 2
    wifi_side = canvas.qr_side(table.wifi, min(half - 2 * line_h, round(rest.width * 0.28)))
    join_room = Box(rest.x0, rest.y1 - half, rest.x1, rest.y1)
    join_side = canvas.qr_side(join_link(table), min(half - 3 * line_h, round(rest.width * 0.28)))
    if wifi_side and join_side:
        top = _wifi_code(canvas, Box(rest.x1 - wifi_side, rest.y0, rest.x1, rest.y0 + half), table.wifi,
                         wifi_side, line_h)
        body = _qr_column(canvas, Box(rest.x0, max(top, join_room.y0), rest.x1, rest.y1), table, margin)
        return Box(rest.x0, rest.y0, min(body.x1, rest.x1 - wifi_side - margin), rest.y1)
    if any(table.names):
        return _qr_column(canvas, rest, table, margin)
    side = canvas.qr_side(table.wifi, min(rest.height - 2 * line_h, round(rest.width * 0.45)))
    if not side:
        return rest
    _wifi_code(canvas, Box(rest.x1 - side, rest.y0, rest.x1, rest.y1), table.wifi, side, line_h)
    return Box(rest.x0, rest.y0, rest.x1 - side - margin, rest.y1)


def _wifi_code(canvas: Canvas, column: Box, payload: str, side: int, line_h: int) -> int:
    """The Wi-Fi code at the top of `column`, its name and password under it for phones that cannot scan
    it; returns the y under them."""
    canvas.qr(Box(column.x0, column.y0, column.x1, column.y0 + side), payload)
    top = column.y0 + side + canvas.px(2)
    ssid, password = _wifi_fields(payload)
    for text in (ssid, password):
        canvas.text(Box(column.x0, top, column.x1, top + line_h), text, bold=text == ssid, align="center")
        top += line_h
    return top + canvas.px(4)


def _wifi_fields(payload: str) -> tuple[str, str]:
    """The name and password in a WIFI: payload, unescaped, to print beside its code."""
    fields, key, value, escaped = {}, "", "", False
    for char in payload.removeprefix("WIFI:"):
        if escaped:
            value, escaped = value + char, False
        elif char == "\\":
            escaped = True
        elif char == ":" and not key:
            key, value = value, ""
        elif char == ";":
            fields[key], key, value = value, "", ""
        else:
            value += char
    return fields.get("S", ""), fields.get("P", "")


def _qr_column(canvas: Canvas, rest: Box, table: TableInfo, margin: int) -> Box:
    """The QR code, the address and the join code under it, at the right of `rest`; returns the rest."""
    url = join_link(table)
    line_h = max(canvas.text_height(Canvas.MIN_TEXT), canvas.px(20))
    code_h = 2 * line_h if table.join_code else 0  # read out across the table: twice the address's size
    url_h = line_h + code_h
    room = rest.height - url_h - canvas.px(4)
    side = canvas.qr_side(url, min(room, round(rest.width * 0.28), round(rest.height * 0.62)))
    if not side:
        # A long address needs more modules: take the smallest scannable size if the panel has it.
        side = canvas.qr_side(url, min(room, round(rest.width * 0.45)))
    if not side:
        return rest
    column = Box(rest.x1 - side, rest.y0, rest.x1, rest.y1)
    canvas.qr(Box(column.x0, column.y0, column.x1, column.y0 + side), url)
    top = column.y0 + side + canvas.px(4)
    address = Box(column.x0, top, column.x1, top + line_h)
    canvas.text(address, table.url.split("://", 1)[-1].rstrip("/"), align="center")
    if table.join_code:
        code = Box(column.x0, top + line_h, column.x1, top + line_h + code_h)
        canvas.text(code, table.join_code, bold=True, role="accent", align="center")
    return Box(rest.x0, rest.y0, column.x0 - margin, rest.y1)


def draw(spec: GameSpec, view: dict[str, Any], model: PanelModel, lang: str, table: TableInfo | str
         ) -> Canvas:
    """The frame of the game `spec` (installed or not) showing public `view` on panel `model`, in `lang`."""
    canvas = Canvas(model.size, Palette(model.inks, model.glass))
    info = table if isinstance(table, TableInfo) else TableInfo(table)
    spec.screen(view, canvas, translator(lang, spec), info)
    return canvas
