"""The circuit on the e-ink: numbered cards in travel order, wrapping over rows; backs, faces, passages."""

from __future__ import annotations

from dataclasses import dataclass

from companion.gamekit import Box, Canvas, pawn_mark
from companion.games.rallye.names import (
    ACCESS_ICON,
    ENTRANCE_ICON,
    EXIT_ICON,
    HAZARD_ICONS,
    ICONS,
    KEY_ICON,
    OPEN_ICON,
    START_ICON,
    SURPRISE_ICON,
)

CARD_ASPECT = 0.75  # width over height of the cell a card is drawn in (the blank cards stand upright)
HATCH = 5  # reference px between the lines of a card's back


@dataclass(frozen=True)
class Grid:
    """How the cards wrap: columns, rows and each cell's size."""

    cols: int
    rows: int
    width: float
    height: float


def grid(count: int, box: Box, gap: int) -> Grid:
    """The wrapping that gives the largest cards of about CARD_ASPECT in `box`."""
    best: tuple[float, Grid] | None = None
    for cols in range(1, count + 1):
        rows = -(-count // cols)
        width = (box.width - gap * (cols - 1)) / cols
        height = (box.height - gap * (rows - 1)) / rows
        if width <= 0 or height <= 0:
            continue
        score = min(width / CARD_ASPECT, height)
        if best is None or score > best[0]:
            best = (score, Grid(cols, rows, width, height))
    assert best is not None, f"no grid of {count} cards fits {box}"
    return best[1]


def cell(box: Box, layout: Grid, index: int, gap: int) -> Box:
    """Position `index` of the circuit: left to right, row by row (the e-ink reads like a page)."""
    row, col = divmod(index, layout.cols)
    x0 = box.x0 + round(col * (layout.width + gap))
    y0 = box.y0 + round(row * (layout.height + gap))
    return Box(x0, y0, x0 + int(layout.width), y0 + int(layout.height))


def draw_circuit(canvas: Canvas, box: Box, view: dict, mark: int | None = None) -> None:
    """Every card of the circuit with its number; `mark` outlines the card the placing mark is on."""
    cards = view["circuit"]
    gap = canvas.px(4)
    layout = grid(len(cards), box, gap)
    pawns: dict[int, list[int]] = {}
    for pawn in view["pawns"]:
        if not pawn["finished"]:
            pawns.setdefault(pawn["position"], []).append(pawn["seat"])
    pad = canvas.px(3)
    line = canvas.text_height(Canvas.MIN_TEXT)
    # A roomy card has a row for its pawns' letters; a small one shows its pawns as dots on its foot.
    rows = (0.27, 0.4, 0.33) if layout.height - 2 * pad >= 3.3 * line else (0.45, 0.55)
    inner = Box(0, 0, max(1, int(layout.width) - 2 * pad), max(1, int(layout.height) - 2 * pad))
    parts = inner.rows(*rows)
    sizes = {"number": canvas.fit("46\u2605", parts[0]),
             "face": canvas.fit("\u21c6\u25bc", parts[1], bold=True)}
    if len(parts) == 3:
        # pawn marks as large as their row lets them: one pawn's mark is read from across the table
        sizes["pawns"] = canvas.fit("\u2776", parts[2], bold=True)
    for card in cards:
        where = cell(box, layout, card["position"], gap)
        _card(canvas, where, card, pawns.get(card["position"], []), view["actor"], rows, sizes,
              card["position"] == mark)


def _card(canvas: Canvas, box: Box, card: dict, seats: list[int], actor: int | None,
          rows: tuple[float, ...], sizes: dict, marked: bool) -> None:
    line = max(1, canvas.px(2))
    ink = canvas.palette.rgb("accent" if marked else "ink")
    canvas.draw.rectangle((box.x0, box.y0, box.x1 - 1, box.y1 - 1), outline=ink,
                          width=line * (3 if marked else 1))
    inner = box.inset(canvas.px(3) + (2 * line if marked else 0))
    parts = inner.rows(*rows)
    number = str(card["position"]) + (SURPRISE_ICON if card["kind"] == "route" and card["surprise"] else "")
    hazard = HAZARD_ICONS.get(card["hazard"] or "", "")
    face: Box | None
    top, face = parts[0], parts[1]
    faces = None  # a face-down card has none
    left, right = parts[0].cols(1, 1)
    roomy = canvas.fit(number, left) is not None and canvas.fit(ENTRANCE_ICON, right, True) is not None
    arrow = not hazard and card["kind"] in ("entrance", "exit") and not card["open"] and roomy
    if arrow:
        # a closed passage's arrow beside its number, so its keys and padlocks ("1/2⚷") take the face's
        # whole width: at a tenth of an inch they could not be read from a seat
        hazard, faces = _faces(card)[-1], _locks(card)
    if hazard:
        # tacks or oil beside the number; on a card too small for that, beside (or instead of) the face
        top, right = parts[0].cols(1, 1)
        if canvas.fit(hazard[0], right) is None or canvas.fit(number, top) is None:
            top = parts[0]
            face, right = parts[1].cols(1, 1)
            shown = card["kind"] != "route" or card["face_up"]
            if canvas.fit(hazard[0], right) is None or shown and not canvas.fit(_faces(card)[-1], face, True):
                face, right = None, parts[1]
        canvas.text(right, _fitting(canvas, right, (hazard, hazard[0])), role=_face_role(card) if arrow
                    else "accent", align="right", max_size=sizes["number"], bold=arrow)
    canvas.text(top, number, align="left", max_size=sizes["number"])
    if face is not None:  # no room for the face: the card's number and hazard say enough
        if card["kind"] == "route" and not card["face_up"]:
            _back(canvas, face)
        else:
            canvas.text(face, _fitting(canvas, face, faces or _faces(card), bold=True), bold=True,
                        role=_face_role(card), max_size=sizes["face"])
    if not seats:
        return
    text = "".join(pawn_mark(s) for s in seats)
    if len(parts) == 3 and canvas.fit(text, parts[2], bold=True) is not None:
        canvas.text(parts[2], text, bold=True, role="highlight" if actor in seats else "ink",
                    max_size=sizes["pawns"])
    elif len(parts) == 3:  # too many marks for the row: as many discs, as large as the row lets them be
        _discs(canvas, parts[2], len(seats))
    else:
        _discs(canvas, Box(inner.x0, inner.y1, inner.x1, box.y1 - line), len(seats))


def _fitting(canvas: Canvas, box: Box, texts: tuple[str, ...], bold: bool = False) -> str:
    """The first of `texts` (longest first) that fits `box`; the last one else."""
    return next((t for t in texts if canvas.fit(t, box, bold) is not None), texts[-1])


def _faces(card: dict) -> tuple[str, ...]:
    """What a face-up card shows, longest first: its icon; a passage its arrow with the keys laid and its
    padlocks, or its manhole once open (with + for an access card)."""
    kind = card["kind"]
    if kind == "start":
        return (START_ICON,)
    if kind == "route":
        return (ICONS[card["effect"]] if card["effect"] != "none" or not card["surprise"] else "",)
    arrow = ENTRANCE_ICON if kind == "entrance" else EXIT_ICON
    if card["open"]:
        return arrow + OPEN_ICON + (ACCESS_ICON if card["access"] else ""), arrow + OPEN_ICON, arrow
    keys = f"{arrow}{card['keys']}/{card['padlocks']}"
    return keys + KEY_ICON, keys, arrow


def _locks(card: dict) -> tuple[str, ...]:
    """A closed passage's keys laid and padlocks, longest first, without its arrow."""
    keys = f"{card['keys']}/{card['padlocks']}"
    return keys + KEY_ICON, keys


def _face_role(card: dict) -> str:
    """Entrances in the accent ink (the rulebook's red), open exits in the highlight ink (its green)."""
    if card["kind"] == "entrance":
        return "accent"
    if card["kind"] == "exit":
        return "highlight"
    return "ink"


def _back(canvas: Canvas, box: Box) -> None:
    """A card's back: diagonal lines, so a face-down card is never mistaken for a blank road."""
    ink = canvas.palette.rgb("ink")
    step = max(3, canvas.px(HATCH))
    w, h = box.width, box.height
    for k in range(-h, w, step):
        t0, t1 = max(0, -k), min(h, w - k)
        if t1 > t0:
            canvas.draw.line((box.x0 + k + t0, box.y0 + t0, box.x0 + k + t1 - 1, box.y0 + t1 - 1), fill=ink)


def _discs(canvas: Canvas, box: Box, count: int) -> None:
    """Pawns too many or too small for their letters: one dot each (the players' line says whose)."""
    r = max(1, min(box.height // 2, box.width // (2 * count + 1) - 1))
    cy = (box.y0 + box.y1) // 2
    for i in range(count):
        cx = box.x0 + r + 1 + i * (2 * r + 2)
        canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=canvas.palette.rgb("ink"))
