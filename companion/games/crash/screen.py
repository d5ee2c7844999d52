"""The e-ink screen of Crash!: the hex board beside the turn, dice and junkyards; a summary on the pHATs."""

from __future__ import annotations

from companion.gamekit import (
    PAWN_MARKS,
    QR_MIN_HEIGHT,
    Box,
    Canvas,
    TableInfo,
    die_face,
    marked_name,
    standard_frame,
)
from companion.games.crash.hexes import aspect, draw_board, seat_ink
from companion.games.crash.names import COLOURS, DIRECTION_NAMES, car_label

BOARD_SHARE = 0.62  # the most of the body's width the board takes


def draw(view: dict, canvas: Canvas, _, table: TableInfo) -> None:
    match = view["match"]
    if match["games"] > 1:
        status = _("Game {game}/{games}, turn {turn}", game=match["game"], games=match["games"],
                   turn=view["turns"])
    else:
        status = _("Turn {turn}", turn=view["turns"])
    body = standard_frame(canvas, _("Crash!"), status, table)
    small = canvas.size[1] < QR_MIN_HEIGHT
    if small or view["mode"] == "dice":
        _summary(canvas, body, view, _, table, small)
        return
    gap = canvas.px(12)
    width = min(round(body.width * BOARD_SHARE), round(body.height * aspect(view)))
    board = Box(body.x0, body.y0, body.x0 + width, body.y1)
    info = Box(board.x1 + gap, body.y0, body.x1, body.y1)
    entry = table.entry or {}
    steer = entry.get("steer")
    chosen = (view["turn"], steer["car"]) if steer else None
    draw_board(canvas, board, view, {(m["seat"], m["car"]) for m in view["moved"]}, chosen)
    _info(canvas, info, view, _, table)


def _info(canvas: Canvas, box: Box, view: dict, _, table: TableInfo) -> None:
    """The headline, what to do now, the dice and their marks, cars and junkyards, the last move."""
    gap = canvas.px(6)
    lines = [line for line in (_doing(view, _, table), _moved_line(view, _)) if line]
    head, doing, dice, captions, players, last = box.rows(1.2, 1.6, 1.6, 0.7, 2.6, 1.6, gap=gap)
    canvas.text(head, headline(view, _, table), bold=True, role="accent", align="left")
    texts = [(doing, lines[0])] + ([(last, lines[1])] if len(lines) > 1 else [])
    size = _wrapped_size(canvas, texts)
    for area, text in texts:
        _paragraph(canvas, area, text, size)
    _dice(canvas, dice, captions, view, _)
    _players(canvas, players, view, _, table)


def headline(view: dict, _, table: TableInfo) -> str:
    """Whose turn and what they do, or the result."""
    name = table.name(view["turn"], COLOURS, _)
    result, match = view["result"], view["match"]
    if result is not None and match["over"] and match["games"] > 1:
        # a match's end reads as one score, its games won, as the phones say it (not the last game's)
        if match["winner"] is None:
            return _("Draw, {a}\u2013{b}", a=match["wins"][0], b=match["wins"][1])
        winner = match["winner"]
        return _("{name} wins {a}\u2013{b}!", name=table.name(winner, COLOURS, _), a=match["wins"][winner],
                 b=match["wins"][1 - winner])
    if result is not None:
        counts = result["junkyards"]
        if result["winner"] is None:
            return _("Draw, {a}\u2013{b}", a=counts[0], b=counts[1])
        winner = result["winner"]
        return _("{name} wins {a}\u2013{b}!", name=table.name(winner, COLOURS, _), a=counts[winner],
                 b=counts[1 - winner])
    if view["phase"] == "roll":
        return _("{name} rolls", name=name)
    return _("{name} steers", name=name)


def _doing(view: dict, _, table: TableInfo) -> str:
    """What the buttons do now, the input in progress, or how the game ended."""
    entry = table.entry or {}
    if view["result"] is not None:
        return _ended(view, _, table)
    if entry.get("steer"):
        steer = entry["steer"]
        car = car_label(view["turn"], steer["car"], _)
        if steer["move"]:
            return _("{car} moves forward: D confirms, ROLL drops the die.", car=car)
        if steer["facing"]:
            direction = DIRECTION_NAMES[steer["facing"]]
            return _("{car} turns {direction}: D confirms, ROLL drops the die.", car=car,
                     direction=_(direction))
        return _("{car}: A turns left, B right, C moves forward.", car=car)
    if entry.get("ending"):
        return _("Dice are left: D again ends the turn, ROLL keeps playing.")
    if entry.get("mark_out"):
        return mark_out_line(entry["mark_out"], _, table)
    if view["mode"] == "dice":
        if view["phase"] == "roll":
            return _("ROLL: steering dice. A: mark a car out.")
        return _("Steer by hand. A: mark a car out. D: end the turn.")
    if view["phase"] == "roll":
        if view["moved"]:
            return _("Copy the marked cars to the board, then ROLL.")
        return _("ROLL: steering dice.")
    return _("A, B, C: take a die. D: end the turn.")


def _ended(view: dict, _, table: TableInfo) -> str:
    result, match = view["result"], view["match"]
    if result["reason"] == "stalled":
        parts = [_.ngettext("Stopped: {n} turn without a car out.", "Stopped: {n} turns without a car out.",
                            view["stall_turns"])]
    else:
        empty = [p["seat"] for p in view["players"] if p["in_play"] == 0]
        parts = [_("{name} has no car left.", name=table.name(empty[0], COLOURS, _))] if empty else []
    if match["games"] > 1 and not match["over"]:
        parts.append(_("Games won: {a}\u2013{b}.", a=match["wins"][0], b=match["wins"][1]))
        parts.append(_("ROLL: next game."))
    elif match["games"] > 1:  # the headline gives the games won
        if match["winner"] is None:
            parts.append(_("The match is a draw."))
        else:
            parts.append(_("{name} wins the match.", name=table.name(match["winner"], COLOURS, _)))
    return " ".join(parts)


def mark_out_line(marking: dict, _, table: TableInfo) -> str:
    car = car_label(marking["seat"], marking["car"] + 1, _)
    if marking["where"] == 0:
        return _("Mark {car} out, off the board: D confirms.", car=car)
    return _("Mark {car} out, into {name}'s junkyard: D confirms.", car=car,
             name=table.name(marking["where"] - 1, COLOURS, _))


def _moved_line(view: dict, _) -> str:
    """The cars the last command moved or pushed, and where those that left play went."""
    cars = {(c["seat"], c["car"]): c for c in view["cars"]}
    parts = []
    for ref in view["moved"]:
        car = cars[(ref["seat"], ref["car"])]
        label = car_label(car["seat"], car["car"], _)
        if car["status"] == "captured":
            colour = COLOURS[car["by"]].label
            parts.append(_("{car} into junkyard {colour}", car=label, colour=_(colour)))
        elif car["status"] == "out":
            parts.append(_("{car} out", car=label))
        else:
            parts.append(label)
    return _("Moved: {cars}", cars=", ".join(parts)) if parts else ""


def _wrapped_size(canvas: Canvas, texts: list[tuple[Box, str]]) -> int | None:
    """One size for a few paragraphs, each wrapped over as many lines as read largest."""
    sizes = [_wrap(canvas, box, text)[0] for box, text in texts]
    return min(filter(None, sizes), default=None)


def _wrap(canvas: Canvas, box: Box, text: str, max_size: int | None = None) -> tuple[int | None, list[str]]:
    """The largest size at which `text`, split into 1 to 4 lines at spaces, fits `box`, and those lines."""
    words = text.split()
    best: tuple[int | None, list[str]] = (None, [text])
    for count in range(1, min(4, len(words)) + 1):
        lines = _split(words, count)
        rows = box.rows(*[1] * count)
        size = canvas.common_size(list(zip(rows, lines, strict=True)), max_size=max_size)
        if size is not None and (best[0] is None or size > best[0]):
            best = (size, lines)
    return best


def _split(words: list[str], count: int) -> list[str]:
    """`words` in `count` lines of about equal length."""
    total = sum(len(w) + 1 for w in words)
    lines: list[str] = []
    current: list[str] = []
    length = 0
    for word in words:
        if current and length + len(word) > total / count * (len(lines) + 1) and len(lines) < count - 1:
            lines.append(" ".join(current))
            current = []
        current.append(word)
        length += len(word) + 1
    lines.append(" ".join(current))
    return lines + [""] * (count - len(lines))


def _paragraph(canvas: Canvas, box: Box, text: str, size: int | None) -> None:
    _fitted, lines = _wrap(canvas, box, text, size)
    lines = [line for line in lines if line]
    for row, line in zip(box.rows(*[1] * len(lines)), lines, strict=True):
        canvas.text(row, line, align="left", max_size=size)


def _dice(canvas: Canvas, faces: Box, captions: Box | None, view: dict, _) -> None:
    """The three steering dice: used ones struck through, lost ones crossed; captions say which were
    rolled again and from what."""
    dice = view["dice"]
    if not dice:
        if view["result"] is None:  # the dice are to be rolled
            canvas.text(faces, "\u2013 \u2013 \u2013", bold=True, align="left")
        return
    gap = canvas.px(10)
    side = min(faces.height, (faces.width - 2 * gap) // 3)
    cells = [Box(faces.x0 + i * (side + gap), faces.y0, faces.x0 + i * (side + gap) + side, faces.y1)
             for i in range(3)]
    accent = canvas.palette.rgb("accent")
    width = max(2, side // 10)
    for die, cell in zip(dice, cells, strict=True):
        square = die_face(canvas, cell, die["value"]).box
        corners = (square.x0, square.y0, square.x1 - 1, square.y1 - 1)
        if die["state"] == "used":
            canvas.draw.line((corners[0], corners[3], corners[2], corners[1]), fill=accent, width=width)
        elif die["state"] == "lost" or (not die["usable"] and view["mode"] == "board"):
            canvas.draw.line(corners, fill=accent, width=width)
            canvas.draw.line((corners[0], corners[3], corners[2], corners[1]), fill=accent, width=width)
    if captions is None:
        return
    boxes = [Box(cell.x0, captions.y0, cell.x1, captions.y1) for cell in cells]
    # The marks already say used and lost: where the words do not fit, only the first rolls are named.
    for words in (True, False):
        texts = [(box, _caption(die, _, words)) for box, die in zip(boxes, dice, strict=True)]
        size = canvas.common_size([t for t in texts if t[1]])
        if size is not None:
            for box, text in texts:
                canvas.text(box, text, max_size=size)
            return


def _caption(die: dict, _, words: bool) -> str:
    state = {"used": _("used"), "lost": _("lost")}.get(die["state"], "") if words else ""
    again = f"\u21bb{die['first']}" if die["rerolled"] else ""
    return " ".join(part for part in (again, state) if part)


def _players(canvas: Canvas, box: Box, view: dict, _, table: TableInfo) -> None:
    """A small table: each player's colour and name, cars still in play, cars in their junkyard."""
    rows = box.rows(0.9, 1, 1, gap=canvas.px(3))
    words = [_("cars"), _("junkyard")]
    # Wide columns for the counts, so their names are read (they were 12 px beside 30 px names); where
    # even then they do not fit, the board's signs stand for them and the names keep the width.
    for widths in ((2.4, 1.75, 1.85), (3, 1.4, 1.6)):
        cells = [row.cols(*widths, gap=canvas.px(6)) for row in rows]
        if canvas.common_size(list(zip(cells[0][1:], words, strict=True))) is not None:
            break
    _headers(canvas, cells[0][1:], words)
    texts = [(cells[seat + 1][column], str(player[key])) for seat, player in enumerate(view["players"])
             for column, key in ((1, "in_play"), (2, "captured"))]
    counts = canvas.common_size(texts, bold=True)
    # each seat's mark in its ink, where a plain swatch was: colour and mark in one, and a long name's cut
    # never eats the mark ("❶ Di…"). As large as the names' type where the names still fit whole beside it.
    for side in (canvas.px(20), canvas.px(14)):
        marks, names = [], []
        for seat in range(len(view["players"])):
            name_box = cells[seat + 1][0]
            room = max(3, min(name_box.height * 3 // 4, side)) + canvas.px(2)
            mark_box = Box(name_box.x0, name_box.y0, name_box.x0 + room, name_box.y1)
            marks.append((mark_box, PAWN_MARKS[seat], seat_ink(canvas, seat)))
            names.append((Box(mark_box.x1 + canvas.px(2), name_box.y0, name_box.x1, name_box.y1),
                           table.name(seat, COLOURS, _), seat == view["actor"]))
        size = min(filter(None, (counts, canvas.common_size([(b, t) for b, t, _bold in names], bold=True,
                                                              names=True))), default=None)
        if canvas.all_fit([(b, t) for b, t, _bold in names], size, bold=True):
            break
    for area, text in texts:
        canvas.text(area, text, bold=True, max_size=size)
    for area, mark, ink in marks:
        canvas.text(area, mark, bold=True, ink=ink, max_size=size)
    for area, text, bold in names:
        canvas.text(area, text, align="left", bold=bold, size=size, name=True)


def _headers(canvas: Canvas, boxes: list[Box], words: list[str]) -> None:
    """The columns' names, or where they do not fit, the board's own signs: a car's disc, a junkyard."""
    items = list(zip(boxes, words, strict=True))
    size = canvas.common_size(items)
    if size is not None:
        for area, word in items:
            canvas.text(area, word, max_size=size)
        return
    ink = canvas.palette.rgb("ink")
    for index, area in enumerate(boxes):
        r = max(2, min(area.width, area.height) // 2 - 1)
        cx, cy = area.x0 + area.width // 2, area.y0 + area.height // 2
        if index == 0:
            canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=ink)
        else:
            canvas.draw.regular_polygon((cx, cy, r), 6, fill=ink)
        canvas._add("sign", words[index], Box(cx - r, cy - r, cx + r + 1, cy + r + 1))


def _summary(canvas: Canvas, body: Box, view: dict, _, table: TableInfo, small: bool) -> None:
    """Turn, phase, dice, junkyards and cars left, for the pHATs and for dice-only play (no board)."""
    gap = max(1, canvas.px(6))
    if small:
        head, dice, players = body.rows(1, 1.3, 2, gap=gap)
        doing = None
    else:
        head, doing, dice, players = body.rows(1, 1.3, 1.6, 2.4, gap=gap)
    canvas.text(head, headline(view, _, table), bold=True, role="accent", align="left")
    if doing is not None:
        _paragraph(canvas, doing, _doing(view, _, table), _wrap(canvas, doing, _doing(view, _, table))[0])
    _dice(canvas, dice, None, view, _)
    seats = range(len(view["players"]))
    rows = players.rows(1, 1, gap=gap)
    lines, size = canvas.lines_naming(rows, lambda shown: [
        _player_line(view, seat, _, table, small, shown) for seat in seats])
    bold = [seat == view["actor"] for seat in seats]
    if not small and any((canvas.fit(line, row, heavy) or 0) < canvas.table_size
                         for row, line, heavy in zip(rows, lines, bold, strict=False)):
        # the table's type size before one line a player: the name on one line, its cars on the next
        rows = players.rows(*[1] * 2 * len(seats), gap=gap)
        lines, size = canvas.lines_naming(rows, lambda shown: [
            text for seat in seats
            for text in (marked_name(seat, shown(table.name(seat, COLOURS, _))), _details(view, seat, _))])
        bold = [b for b in bold for _twice in (0, 1)]
    for row, line, heavy in zip(rows, lines, bold, strict=True):
        canvas.text(row, line, align="left", bold=heavy, max_size=size)


def _details(view: dict, seat: int, _) -> str:
    """A player's cars in play and junkyard, under its name (dice-only play)."""
    playing = " ".join(str(c["car"]) for c in view["cars"] if c["seat"] == seat
                       and c["status"] in ("board", "waiting"))
    return _("cars {cars} in play, junkyard {junkyard}", cars=playing or "\u2013",
             junkyard=view["players"][seat]["captured"])


def _player_line(view: dict, seat: int, _, table: TableInfo, small: bool, shown=str) -> str:
    player = view["players"][seat]
    name = marked_name(seat, shown(table.name(seat, COLOURS, _)))
    if small or view["mode"] != "dice":
        return _("{name}: {cars} cars, junkyard {junkyard}", name=name, cars=player["in_play"],
                 junkyard=player["captured"])
    playing = " ".join(str(c["car"]) for c in view["cars"] if c["seat"] == seat
                       and c["status"] in ("board", "waiting"))
    return _("{name}: cars {cars} in play, junkyard {junkyard}", name=name, cars=playing or "\u2013",
             junkyard=player["captured"])
