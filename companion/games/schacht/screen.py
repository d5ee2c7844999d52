"""The e-ink screen of Crazy Race: the stage card with its face-down cards, the four lanes and the points."""

from __future__ import annotations

from companion.gamekit import Box, Canvas, TableInfo, marked_name, pawn_mark, standard_frame
from companion.games.schacht.colours import COLOURS

KEYS = "ABCD"  # the buttons that choose the top, right, bottom and left side
OUT, HOME = "\u25b6", "\u25c0"  # which way a loco faces: away from the start, or home


def seat_ink(canvas: Canvas, view: dict, seat: int) -> tuple[int, int, int]:
    """The seat's ink on this panel, shared out among the seats in play (`Palette.seats`): black where
    none is left, its initial and name telling it apart."""
    return canvas.palette.seats([colour.ink for colour in COLOURS[:view["players"]]])[seat]


def draw(view: dict, canvas: Canvas, _, table: TableInfo) -> None:
    # each seat as the phones name it ("❷ Zoé"); a card back bears the seat's mark, as on the phones
    names = [marked_name(s, table.name(s, COLOURS, _)) for s in range(view["players"])]
    initials = [pawn_mark(s) for s in range(view["players"])]
    if view["phase"] == "bid":
        status = _("Stage {n}/{total}, round {r}/{rounds}", n=view["stage"], total=view["stages"],
                   r=view["round"], rounds=view["rounds"])
    else:
        status = _("Stage {n}/{total}", n=view["stage"], total=view["stages"])
    body = standard_frame(canvas, _("Crazy Race (Schacht)"), status, table)
    gap = canvas.px(8)
    headline = _headline(view, names, table.entry, _)
    if body.height < 150:  # the pHATs: who is to play and the lanes
        head, lanes = body.rows(1, 3, gap=max(1, gap // 3))
        canvas.text(head, headline, bold=True, role="accent", align="left")
        _lanes(canvas, lanes, view, initials, names, max(1, gap // 3))
        return
    lines = _results(view, names, _)
    if body.width < 420:  # narrow panels: the lanes go across the whole width, under the card
        top, lanes = body.rows(1.25, 1, gap=gap)
        card, info = top.cols(1, 1.1, gap=gap)
        head, foot = info.rows(1, 0.8 * len(lines), gap=gap)
    else:
        card, info = body.cols(3.4, 5, gap=2 * gap)
        head, lanes, foot = info.rows(1, 2.2 + 0.45 * view["players"], 0.6 + 0.6 * len(lines), gap=gap)
    _card(canvas, card, view, initials, table.entry)
    canvas.text(head, headline, bold=True, role="accent", align="left")
    _lanes(canvas, lanes, view, initials, names, max(1, gap // 2))
    rows = foot.rows(*[1] * len(lines), gap=max(1, gap // 3))
    size = canvas.common_size(list(zip(rows, lines, strict=True)))
    for row, line in zip(rows, lines, strict=True):
        canvas.text(row, line, align="left", max_size=size)


def _headline(view: dict, names: list[str], entry, _) -> str:
    phase, who = view["phase"], view["turn"]
    if phase == "bid":
        if entry and entry.get("side") is not None:
            return _("{name}: a card beside {key}", name=names[who], key=KEYS[entry["side"]])
        return _("{name} to play", name=names[who])
    if phase == "decide":
        deciding = view["deciding"]
        if deciding["split"]:
            return _("{name}: share {n} spaces", name=names[who], n=deciding["steps"])
        return _("{name}: which loco moves {n}?", name=names[who], n=deciding["steps"])
    if phase == "takeback":
        return _("{name} may take a card back", name=names[who])
    if phase == "review":
        return _("ROLL: next stage card")
    winners = view["final"]["winners"]
    if len(winners) == 1:
        return _("{name} wins!", name=names[winners[0]])
    return _("Shared win: {names}", names=", ".join(names[s] for s in winners))


def _results(view: dict, names: list[str], _) -> list[str]:
    """The points piles while bidding; once sides are revealed, one line per side with cards."""
    if view["phase"] == "bid" or not view["revealed"]:
        piles = view["piles"]
        lines = [f"{label}: {_pile_top(piles[key])} ({_('{n} left', n=piles[key]['left'])})"
                 for key, label in (("turntable", _("Turntable")), ("finish", _("Finish")))]
        out = [names[s] for s, empty in enumerate(view["out"]) if empty]
        if out:
            lines.append(_("No cards left: {names}", names=", ".join(out)))
        return lines
    lines = []
    for result in view["revealed"]:
        if result["winner"] is None:
            continue
        who = result["winner"]
        head = f"{KEYS[result['side']]}: {names[who]} {result['totals'][who]}"
        if result["pending"]:
            lines.append(f"{head} \u2192 ?")
        elif result["lost"]:
            lines.append(f"{head} \u2192 " + _("move lost"))
        else:
            moves = " ".join(f"{m['loco']}+{m['steps']}" for m in result["moves"])
            got = " ".join(f"+{p['value']}" for p in result["points"] if p["value"] is not None)
            lines.append(f"{head} \u2192 {moves}" + (f" ({got})" if got else ""))
    if view["phase"] == "over" and view["final"]["penalties"]:
        lines.append(_("Penalties: {list}", list=", ".join(f"{names[s]} -{v}" for s, v in
                                                           view["final"]["penalties"])))
    return lines or [_("No card was played this stage")]


def _pile_top(pile: dict) -> str:
    return "-" if pile["top"] is None else str(pile["top"])


# --- the stage card ---------------------------------------------------------------------------------
def _card(canvas: Canvas, area: Box, view: dict, initials: list[str], entry) -> None:
    side = min(area.width, area.height)
    x0, y0 = area.x0 + (area.width - side) // 2, area.y0 + (area.height - side) // 2
    square = Box(x0, y0, x0 + side, y0 + side)
    strip = round(side * 0.19)
    gap = canvas.px(4)
    card = square.inset(strip)
    ink = canvas.palette.rgb("ink")
    canvas.draw.rounded_rectangle((card.x0, card.y0, card.x1 - 1, card.y1 - 1), radius=canvas.px(10),
                                  outline=ink, width=canvas.px(3))
    inner = card.inset(canvas.px(6))
    w, h = inner.width, inner.height
    regions = [
        Box(inner.x0 + w // 4, inner.y0, inner.x1 - w // 4, inner.y0 + h // 3),
        Box(inner.x1 - w // 3, inner.y0 + h // 3, inner.x1, inner.y1 - h // 3),
        Box(inner.x0 + w // 4, inner.y1 - h // 3, inner.x1 - w // 4, inner.y1),
        Box(inner.x0, inner.y0 + h // 3, inner.x0 + w // 3, inner.y1 - h // 3),
    ]
    centre = Box(inner.x0 + w // 3, inner.y0 + h // 3, inner.x1 - w // 3, inner.y1 - h // 3)
    for index, (region, face) in enumerate(zip(regions, view["card"]["sides"], strict=True)):
        _side_face(canvas, region, face, vertical=index in (1, 3))
    _arrow(canvas, centre.inset(canvas.px(4)), view["card"]["arrow"])
    strips = [
        Box(card.x0, square.y0, card.x1, card.y0 - gap),
        Box(card.x1 + gap, card.y0, square.x1, card.y1),
        Box(card.x0, card.y1 + gap, card.x1, square.y1),
        Box(square.x0, card.y0, card.x0 - gap, card.y1),
    ]
    revealed = {r["side"]: r for r in view["revealed"]}
    chosen = entry.get("side") if entry else None
    for index, box in enumerate(strips):
        _strip(canvas, box, index, view, revealed.get(index), initials, chosen == index)


def _side_face(canvas: Canvas, region: Box, face: dict, vertical: bool) -> None:
    """A side's loco pictogram (hollow on the free side: the winner chooses) and its distance."""
    icon, label = region.rows(1, 1) if vertical else region.cols(1, 1)
    _loco_icon(canvas, icon.inset(canvas.px(2)), face["loco"])
    text = f"{face['loco']} {face['distance']}" if face["loco"] else str(face["distance"])
    canvas.text(label, text, bold=True)


def _loco_icon(canvas: Canvas, box: Box, model: str) -> None:
    width = min(box.width, round(box.height * 1.4))
    height = round(width / 1.4)
    x0, y0 = box.x0 + (box.width - width) // 2, box.y0 + (box.height - height) // 2
    ink = canvas.palette.rgb("ink")
    fill = ink if model else None
    line = max(1, width // 14)
    wheel = max(2, height // 4)
    body_bottom = y0 + height - wheel
    canvas.draw.rectangle((x0, y0 + height // 3, x0 + width * 2 // 3, body_bottom), outline=ink, fill=fill,
                          width=line)
    canvas.draw.rectangle((x0 + width * 2 // 3, y0, x0 + width - 1, body_bottom), outline=ink, fill=fill,
                          width=line)
    canvas.draw.rectangle((x0 + width // 8, y0 + height // 8, x0 + width // 4, y0 + height // 3), fill=ink)
    for cx in (x0 + width // 5, x0 + width // 2, x0 + width * 4 // 5):
        canvas.draw.ellipse((cx - wheel // 2, body_bottom, cx + wheel // 2, body_bottom + wheel - 1),
                            fill=ink)
    canvas._add("loco", model or "free", Box(x0, y0, x0 + width, y0 + height))


def _arrow(canvas: Canvas, box: Box, side: int) -> None:
    """A filled arrow in the card's middle, pointing at the side evaluated first."""
    s = min(box.width, box.height)
    cx, cy, r = box.x0 + box.width // 2, box.y0 + box.height // 2, s // 2
    shapes = {  # (tip, base left, base right, shaft end) per direction
        0: [(cx, cy - r), (cx - r, cy), (cx - r // 3, cy), (cx - r // 3, cy + r), (cx + r // 3, cy + r),
            (cx + r // 3, cy), (cx + r, cy)],
    }
    points = shapes[0]
    for _turn in range(side):  # rotate a quarter turn clockwise per side
        points = [(cx - (y - cy), cy + (x - cx)) for x, y in points]
    canvas.draw.polygon(points, fill=canvas.palette.rgb("accent"))
    canvas._add("arrow", KEYS[side], Box(cx - r, cy - r, cx + r + 1, cy + r + 1))


def _strip(canvas: Canvas, box: Box, index: int, view: dict, result: dict | None, initials: list[str],
           chosen: bool) -> None:
    """Beside a side: its button letter, then the face-down cards as backs in their owners' colours
    (never their values), or once the side is evaluated, each player's revealed total."""
    vertical = index in (1, 3)
    parts = box.rows(1, 3) if vertical else box.cols(1, 5)
    key_box, rest = parts
    canvas.text(key_box, KEYS[index] + ("\u25c6" if chosen else ""), bold=True,
                role="accent" if chosen else "ink")
    if view["taboo"] == index:
        canvas.text(rest, "\u2715", role="accent")
        return
    if result is not None and result["winner"] is not None:
        labels = [(s, f"{initials[s]}{total}") for s, total in enumerate(result["totals"])
                  if result["cards"][s]]
        winner = result["winner"]
    else:
        labels = [(s, initials[s]) for s in view["bids"][index]]
        winner = None
    if not labels:
        return
    cells = rest.rows(*[1] * len(labels)) if vertical else rest.cols(*[1] * len(labels))
    long = max(len(text) for _, text in labels)
    for (seat, text), cell in zip(labels, cells, strict=True):
        thin = min(cell.width, cell.height)
        aspect = 0.75 if long == 1 else 1.2
        bw = min(cell.width, round((cell.height if not vertical else thin * 1.6) * aspect))
        bh = min(cell.height, round(bw / aspect))
        back = Box(cell.x0 + (cell.width - bw) // 2, cell.y0 + (cell.height - bh) // 2,
                   cell.x0 + (cell.width + bw) // 2, cell.y0 + (cell.height + bh) // 2)
        if back.width < 3 or back.height < 3:
            continue
        canvas.draw.rounded_rectangle((back.x0, back.y0, back.x1 - 1, back.y1 - 1), radius=max(1, bw // 6),
                                      fill=seat_ink(canvas, view, seat),
                                      outline=canvas.palette.rgb("accent" if seat == winner else "ink"),
                                      width=canvas.px(3) if seat == winner else 1)
        canvas.text(back.inset(max(1, bw // 8)), text, bold=True, role="paper")


# --- the lanes --------------------------------------------------------------------------------------
def _lanes(canvas: Canvas, box: Box, view: dict, initials: list[str], names: list[str], gap: int) -> None:
    """One row per player: name, the start/finish zone, spaces 1 to 5, the turntable, then points."""
    rows = box.rows(*[1] * view["players"], gap=gap)
    ink = canvas.palette.rgb("ink")
    name_w, points_w = round(box.width * 0.3), round(box.width * 0.08)
    cell = max(4, min(rows[0].height, (box.width - name_w - points_w - 3 * gap) * 2 // 15))
    tall = max(cell, min(rows[0].height, round(cell * 1.5)))  # taller spaces fit larger loco labels
    labels, zones, locos, scores = [], [], [], []
    for seat, row in enumerate(rows):
        top = row.y0 + (row.height - tall) // 2
        name = Box(row.x0, row.y0, row.x0 + name_w, row.y1)
        swatch_side = max(2, min(cell // 2, name.width // 6))
        sy = row.y0 + (row.height - swatch_side) // 2
        canvas.draw.rectangle((name.x0, sy, name.x0 + swatch_side - 1, sy + swatch_side - 1),
                              fill=seat_ink(canvas, view, seat))
        marker = "\u2605" if seat == view["first"] else ""
        labels.append((Box(name.x0 + swatch_side + gap, row.y0, name.x1, row.y1), f"{names[seat]}{marker}",
                       seat == view["turn"]))
        x = name.x1 + gap
        zone = Box(x, top, x + cell * 3 // 2, top + tall)
        x = zone.x1 + gap
        spaces = [Box(x + i * cell, top, x + (i + 1) * cell, top + tall) for i in range(6)]
        for i, space in enumerate(spaces):
            shape = (space.x0, space.y0, space.x1 - 1, space.y1 - 1)
            if i == 5:
                canvas.draw.ellipse(shape, outline=ink, width=max(1, canvas.px(2)))
            else:
                canvas.draw.rectangle(shape, outline=ink, width=1)
        at_start = "".join(loco["loco"] for loco in view["lanes"][seat] if loco["progress"] == 0)
        home = "".join(loco["loco"] for loco in view["lanes"][seat] if loco["finished"])
        zone_lines = [at_start and f"{at_start}{OUT}", home and f"\u2713{home}"]
        zones.append((zone, "\n".join(filter(None, zone_lines))))
        for loco in view["lanes"][seat]:
            if loco["space"] is not None:
                label = f"{loco['loco']}\n{HOME if loco['home'] else OUT}"
                locos.append((spaces[loco["space"] - 1].inset(max(1, cell // 12)), label))
        scores.append((Box(spaces[-1].x1 + gap, row.y0, row.x1, row.y1), str(view["points"][seat])))
    name_size = canvas.common_size([(b, t) for b, t, _ in labels], bold=True, names=True)
    for b, text, bold in labels:
        canvas.text(b, text, bold=bold, align="left", size=name_size, name=True)
    for group in (zones, locos):
        size = canvas.common_size([(b, t) for b, t in group if t], bold=True)
        for b, text in group:
            canvas.text(b, text, bold=True, max_size=size)
    score_size = canvas.common_size(scores, bold=True)
    for b, text in scores:
        canvas.text(b, text, bold=True, role="accent", align="right", max_size=score_size)
