"""The e-ink screen of Crazy Race: the race on five lanes, the trophies, the turn, then the scores."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.gamekit import QR_MIN_HEIGHT, Box, Canvas, TableInfo, marked_name, standard_frame
from companion.games.gewalt.commands import LANES, SECTIONS, STAGES
from companion.games.gewalt.names import CARD_NAMES, COLOURS, explain_roll

TROPHY_WEIGHT = 1.7  # the place cell after each stage line, against a section's 1: its heading "4/5" is read


def player(view: dict, seat: int, _, table: TableInfo) -> str:
    """"❷ B Anna" (mark, lane, name), or "❷ B Blue" when no phone chose a name: as the phones name it."""
    return marked_name(seat, f"{view['letters'][seat]} {table.name(seat, COLOURS, _)}")


def draw(view: dict, canvas: Canvas, _, table: TableInfo) -> None:
    if view["over"]:
        status = _("Winner: {players}", players=", ".join(player(view, s, _, table) for s in view["winners"]))
    else:
        status = _("Turn: {player}", player=player(view, view["turn"], _, table))
    body = standard_frame(canvas, _("Crazy Race (Gewalt)"), status, table)
    if view["over"]:
        _scores(canvas, body, view, _, table)
        return
    small = canvas.size[1] < QR_MIN_HEIGHT
    gap = canvas.px(8)
    race, info = body.rows(4, 1 if small else 1.4, gap=gap)
    _race(canvas, race, view, _, table)
    lines = [line for line in _info_lines(view, _, table) if line][:1 if small else 2]
    if lines:
        # Two rows even for one line, so a lone line is not drawn twice as big as a pair.
        boxes = info.rows(*[1] * (1 if small else 2), gap=canvas.px(2))[:len(lines)]
        size = canvas.common_size(list(zip(boxes, lines, strict=True)))
        for box, line in zip(boxes, lines, strict=True):
            canvas.text(box, line, align="left", max_size=size)


def _info_lines(view: dict, _, table: TableInfo) -> list[str]:
    """What the table needs to read under the race: the input in progress, a pending attack, the turn."""
    lines = []
    entry = table.entry
    if entry:
        lines.append(_entry_line(entry, _))
    pending = view.get("pending")
    if pending and table.on_phone(pending["target"]):
        lines.append(_("{attacker} plays \u201c{card}\u201d on {target}: {target} answers on the phone.",
                       attacker=view["letters"][pending["attacker"]],
                       target=view["letters"][pending["target"]],
                       card=_(CARD_NAMES[pending["card"]])))
    elif pending:
        lines.append(_("{attacker} plays \u201c{card}\u201d on {target}: A lets it stand, B counters.",
                       attacker=view["letters"][pending["attacker"]],
                       target=view["letters"][pending["target"]],
                       card=_(CARD_NAMES[pending["card"]])))
    front = view["front"][view["turn"]]
    if front:
        lines.append(_("{player} has the attack card \u201c{card}\u201d this turn.",
                       player=view["letters"][view["turn"]], card=_(CARD_NAMES[front])))
    roll = view.get("last_roll")
    if roll:
        lines.append(_("{player} moved: {how}", player=view["letters"][roll["seat"]],
                       how=explain_roll(roll, _)))
    elif not entry and not pending and table.on_phone(view["turn"]):
        # ROLL rolls for a phone's seat too; its cards are its phone's alone
        lines.append(_("Press ROLL, or place a section card from the phone."))
    elif not entry and not pending:
        lines.append(_("Press ROLL, or A to place a section card."))
    return lines


def _entry_line(entry: Mapping[str, Any], _) -> str:
    labels = {"lane": _("lane"), "stage": _("stage"), "section": _("section"), "length": _("length"),
              "from_lane": _("from lane"), "from_stage": _("stage"), "from_section": _("section"),
              "card": _("card"), "target": _("target")}
    titles = {"place": _("Place a card"), "discard": _("Discard a section card"), "attack": _("Attack"),
              "drop": _("Discard an action card"), "relocate": _("Move a card")}
    parts = []
    for name, value in entry["values"].items():
        shown = _(CARD_NAMES[value]) if name == "card" else str(value)
        part = f"{labels[name]} {shown}"
        parts.append(f"[{part}]" if name == entry["step"] else part)
    return f"{titles[entry['flow']]}: {', '.join(parts)}"


def _race(canvas: Canvas, box: Box, view: dict, _, table: TableInfo) -> None:
    """A header with each stage's trophies taken, then one row per lane."""
    rows = box.rows(0.8, *[1] * LANES, gap=canvas.px(3))
    label_w = round(box.width * 0.16)
    line_w = max(2, canvas.px(3))
    gap = canvas.px(2)
    stage_w = (box.width - label_w - gap) / STAGES
    trophies = view["trophies"]

    def stage_box(row: Box, stage: int) -> Box:
        x0 = round(box.x0 + label_w + gap + stage * stage_w)
        return Box(x0, row.y0, round(x0 + stage_w), row.y1)

    # Each stage's name centred over its five sections, and the trophies taken ("2/4") over its places'
    # column: one heading per column, never one line running across them.
    header = rows[0]
    heads, counts = [], []
    for s in range(STAGES):
        sections, places = stage_box(header, s).cols(SECTIONS, TROPHY_WEIGHT, gap=gap)
        heads.append((Box(sections.x0 + canvas.px(8), sections.y0, sections.x1 - canvas.px(4), sections.y1),
                       _("Stage {n}", n=s + 1)))
        counts.append((Box(places.x0 + gap, places.y0, places.x1, places.y1),
                       f"{len(trophies[s])}/{view['players']}"))
    size = canvas.common_size(heads, bold=True)
    for b, text in heads:
        canvas.text(b, text, bold=True, max_size=size)
    size = canvas.common_size(counts, bold=True)
    for b, text in counts:
        canvas.text(b, text, bold=True, max_size=size, role="highlight")
    labels = [player(view, lane, _, table) if lane < view["players"] else view["lanes"][lane]
              for lane in range(LANES)]
    label_boxes = [Box(box.x0, row.y0, box.x0 + label_w, row.y1) for row in rows[1:]]
    size = canvas.common_size(list(zip(label_boxes, labels, strict=True)), bold=True, names=True)
    for lane, row in enumerate(rows[1:]):
        canvas.text(label_boxes[lane], labels[lane], align="left", size=size, bold=lane == view["actor"],
                    name=lane < view["players"])
        for stage in range(STAGES):
            _stage_cells(canvas, stage_box(row, stage), view, lane, stage, line_w, gap)


def _stage_cells(canvas: Canvas, box: Box, view: dict, lane: int, stage: int, line_w: int, gap: int) -> None:
    """Five sections (a card's length in the accent colour, the pawn as a disc), the line, the place."""
    cells = box.cols(*[1] * SECTIONS, TROPHY_WEIGHT, gap=gap)
    sections, trophy = cells[:SECTIONS], cells[SECTIONS]
    ink, accent = canvas.palette.rgb("ink"), canvas.palette.rgb("accent")
    racing = lane < view["players"]
    for section, cell in enumerate(sections):
        length = view["lengths"][lane][stage][section]
        carded = {"lane": lane, "stage": stage, "section": section, "length": length} in view["cards"]
        outline = accent if carded else ink
        canvas.draw.rectangle((cell.x0, cell.y0, cell.x1 - 1, cell.y1 - 1), outline=outline,
                              width=max(1, line_w // (1 if carded else 2)))
        pawn = view["pawns"][lane] if racing else None
        if carded:
            inner = cell.inset(line_w)
            canvas.text(Box(inner.x0, inner.y0, inner.x1, inner.y0 + inner.height * 6 // 10), str(length),
                        bold=True, role="accent")
        if pawn and not pawn["finished"] and (pawn["stage"], pawn["section"]) == (stage, section):
            _pawn(canvas, cell, pawn["square"], max(1, length), carded)
    line = Box(trophy.x0, box.y0, trophy.x0 + line_w, box.y1)
    canvas.rule(line)
    if racing and lane in view["trophies"][stage]:
        place = view["trophies"][stage].index(lane) + 1
        canvas.text(Box(line.x1 + 1, trophy.y0, trophy.x1, trophy.y1), str(place), bold=True,
                    role="highlight")


def _pawn(canvas: Canvas, cell: Box, square: int, length: int, carded: bool) -> None:
    """A disc on its square: squares split the section's width; below a card's number if there is one."""
    width = cell.width / length
    r = max(2, min(cell.width // 3, cell.height // (5 if carded else 4)))
    # the disc may be wider than its square: keep it inside the section
    cx = min(max(round(cell.x0 + width * (square + 0.5)), cell.x0 + r + 1), cell.x1 - r - 2)
    cy = cell.y1 - r - max(1, cell.height // 12) if carded else (cell.y0 + cell.y1) // 2
    canvas.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=canvas.palette.rgb("ink"))


def _scores(canvas: Canvas, body: Box, view: dict, _, table: TableInfo) -> None:
    """The rulebook's table: per stage target → place, the +marks of matching bets, and the totals."""
    rows = view["scores"]
    small = canvas.size[1] < QR_MIN_HEIGHT
    lines = body.rows(*[1] * (len(rows) + (1 if small else 2)), gap=canvas.px(3))
    widths = (3, 2, 2, 2, 1.4)
    head = [_("Player"), *[_("Stage {n}", n=s + 1) for s in range(STAGES)], _("Total")]
    # Each player's row is two lines: what every cell says first, then under a stage the bets that matched
    # it ("+A +D"), so the table's type takes the rows' height rather than one long line's width.
    halves = [line.rows(1, 1) if 0 < i <= len(rows) else (line, line) for i, line in enumerate(lines)]
    apart = canvas.px(16)  # columns a word apart: a heading never runs into the next one
    grid = [top.cols(*widths, gap=apart) for top, _bottom in halves]
    under = [bottom.cols(*widths, gap=apart) for _top, bottom in halves]
    texts = [(b, t, True, "ink") for b, t in zip(grid[0], head, strict=True)]
    letters = view["letters"]
    winners = set(view["winners"])
    for i, row in enumerate(rows, start=1):
        seat = row["seat"]
        texts.append((grid[i][0], player(view, seat, _, table), seat in winners, "ink"))
        for stage in range(STAGES):
            kept = row["kept"][stage]
            role = "accent" if kept else "ink"
            target = f"{row['targets'][stage]}\u2192{row['places'][stage]}"
            texts.append((grid[i][1 + stage], target, kept, role))
            if row["marks"][stage]:
                marks = " ".join(f"+{letters[m]}" for m in row["marks"][stage])
                texts.append((under[i][1 + stage], marks, kept, role))
        texts.append((grid[i][4], str(row["total"]), seat in winners, "accent" if seat in winners else "ink"))
    # One size for the whole table; a long name gives way (ellipsis), not the table.
    names = {id(grid[i][0]) for i in range(1, len(rows) + 1)}
    sizes = [canvas.common_size([(b, t)], bold=bold, names=id(b) in names) for b, t, bold, _role in texts]
    size = min(filter(None, sizes), default=None)
    for b, t, bold, role in texts:
        canvas.text(b, t, bold=bold, role=role, align="left", size=size)
    if not small:
        legend = (_("target \u2192 place: the trophy is kept when they match (1 point)"),
                  _("+X: player X bet that place too (1 point each)"))
        parts = lines[-1].rows(1, 1)
        legend_size = canvas.common_size(list(zip(parts, legend, strict=True)), max_size=size)
        for half, text in zip(parts, legend, strict=True):
            canvas.text(half, text, align="left", max_size=legend_size)
