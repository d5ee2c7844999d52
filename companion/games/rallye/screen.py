"""The e-ink screen of Le rallye hasardeux: what to press, the circuit, the last effect, the players."""

from __future__ import annotations

from companion.gamekit import (
    QR_MIN_HEIGHT,
    Box,
    Canvas,
    TableInfo,
    die_face,
    marked_name,
    pawn_mark,
    phrase_lines,
    short_name,
    standard_frame,
)
from companion.games.rallye import controls
from companion.games.rallye.names import (
    CARD_NAMES,
    COLOURS,
    EFFECT_NAMES,
    ENTRANCE_ICON,
    EXIT_ICON,
    STATUSES,
    THREATS,
    effect_text,
)
from companion.games.rallye.rules import default_choice
from companion.games.rallye.strip import draw_circuit

STATUS_ICONS = {"tacks": "\u2736", "caught": "\u2736", "ford_4": "\u2248", "ford_5": "\u2248",
                "reverse": "\u21ba"}
TITLE_OVER_TEXT = 2.2  # the effect's name against its text
WIDE = 420  # px: a body at least this wide puts the last effect and the players side by side


def player(view: dict, seat: int, _, table: TableInfo) -> str:
    """"❷ Anna", or "❷ Blue" when no phone chose a name: never a letter, which a button also bears."""
    return marked_name(seat, table.name(seat, COLOURS, _))


def draw(view: dict, canvas: Canvas, _, table: TableInfo) -> None:
    small = canvas.size[1] < QR_MIN_HEIGHT
    body = standard_frame(canvas, _("Le rallye hasardeux"), _status(view, _, table, small), table)
    if canvas.size[1] < QR_MIN_HEIGHT:
        _summary(canvas, body, view, _, table)
        return
    gap = canvas.px(8)
    upper, lower = _regions(canvas, body, gap)
    asking = prompt(view, _, table)
    mark = controls.marked(None, view) if view["phase"] == "placing" else None
    if table.entry and table.entry.get("flow") == "place":
        mark = table.entry["card"]
    if lower.width >= WIDE:
        # a long question (what to press, who is asked) takes more of the height from the circuit
        head, circuit = upper.rows(1 + len(asking) / 90, 5, gap=gap)
        _wrapped(canvas, head, asking, 3, bold=True, role="accent", most_size=canvas.px(36))
        draw_circuit(canvas, circuit, view, mark)
        # the players' lines keep the table's type size: the last effect's column gives them room first
        # (one column of lines, then two: a large table's six lines take half the height)
        shares = ((1.25, 1), (1, 1), (1, 1.6), (1, 2.6))
        tries = [(columns, weights) for columns in (1, 2) for weights in shares]
        best: tuple[Box, tuple[list[Box], list[str], int | None]] | None = None
        for columns, weights in tries:
            boxes = lower.cols(*weights, gap=2 * gap)
            plan = _plan_players(canvas, boxes[1], view, _, table, columns)
            if best is None or (plan[2] or 0) > (best[1][2] or 0):
                best = (boxes[0], plan)
            if plan[2] is not None and plan[2] >= canvas.table_size:
                break
        assert best is not None  # the first try is kept
        left, plan = best
        _story(canvas, left, view, _, table, lines=4)
        _draw_players(canvas, view, plan)
        return
    # narrow panels: the circuit beside the QR code, the words across the whole width under it
    draw_circuit(canvas, upper, view, mark)
    head, story, players = lower.rows(0.5 + len(asking) / 70, 2, 0.6, gap=max(1, gap // 2))
    _wrapped(canvas, head, asking, 3, bold=True, role="accent", most_size=canvas.px(36))
    _story(canvas, story, view, _, table, lines=3)
    _wrapped(canvas, players, " \u00b7 ".join(_short(view, s) for s in _order(view)), 2,
             most_size=canvas.px(24))


def _regions(canvas: Canvas, body: Box, gap: int) -> tuple[Box, Box]:
    """Beside the QR column, and the whole width under it (the QR column ends above the panel's foot)."""
    column = [e.box for e in canvas.elements if e.box.x0 >= body.x1]
    if not column:  # no QR code fits (a very long address): the body alone
        beside, across = body.rows(2, 1, gap=gap)
        return beside, across
    under = max(b.y1 for b in column) + gap
    right = max(b.x1 for b in column)
    if body.y1 - under < body.height // 4:
        beside, across = body.rows(2, 1, gap=gap)
        return beside, across
    return Box(body.x0, body.y0, body.x1, under - gap), Box(body.x0, under, right, body.y1)


def _status(view: dict, _, table: TableInfo, small: bool = False) -> str:
    """Whose turn and lap; on the pHATs by pawn mark only (the prompt under it names the player)."""
    if view["phase"] == "placing":
        return _("Passages to place: {n}", n=len(view["row"]))
    if view["phase"] == "over":
        return _("Winner: {player}", player=player(view, view["ranking"][0], _, table))
    pawn = view["pawns"][view["turn"]]
    who = pawn_mark(view["turn"]) if small else player(view, view["turn"], _, table)
    return _("Turn: {player}, lap {lap}/{laps}", player=who,
             lap=min(pawn["lap"] + 1, view["laps"]), laps=view["laps"])


def prompt(view: dict, _, table: TableInfo) -> str:
    """What the table waits for, and which button does it."""
    pending, phase = view["pending"], view["phase"]
    if phase == "over":
        return _("Ranking: {players}", players=", ".join(
            f"{n}. {player(view, s, _, table)}" for n, s in enumerate(view["ranking"], start=1)))
    who = player(view, view["actor"], _, table)
    kind = pending["kind"] if pending else None
    if kind in ("place", "trim", "target", "exit") and table.on_phone(view["actor"]):
        return _on_phone(view, _, table, who)
    if kind == "place":
        mark = table.entry["card"] if table.entry and table.entry.get("flow") == "place" else \
            controls.marked(None, view)
        return _("{player}: which card does a passage replace? Card {n} (A/B: \u22121/+1, C/D: +6/\u22126); "
                 "ROLL places it.", player=who, n=mark)
    if kind == "trim":
        return _("{player} holds 4 surprise cards: lay or discard one from the phone, or A discards the "
                 "newest ({seconds} s).", player=who, seconds=pending["seconds"])
    if kind == "cancel":
        threat = pending["threat"]
        cards = _(" or ").join(_(CARD_NAMES[c]) for c in pending["cards"])
        if table.on_phone(view["actor"]):  # A would answer for a phone's seat: only its phone may
            return _("{players}: cancel {threat} with {cards}? From the phones ({seconds} s).",
                     players=", ".join(player(view, s, _, table) for s in pending["asked"]),
                     threat=_(THREATS[threat]), cards=cards, seconds=pending["seconds"])
        if len(pending["asked"]) > 1:
            return _("{players}: cancel {threat} with {cards}? From the phones; A answers no for {player} "
                     "({seconds} s).", players=", ".join(player(view, s, _, table) for s in pending["asked"]),
                     threat=_(THREATS[threat]), cards=cards, player=pawn_mark(view["actor"]),
                     seconds=pending["seconds"])
        return _("{player}: cancel {threat} with {cards}? From the phone; A answers no ({seconds} s).",
                 player=who, threat=_(THREATS[threat]), cards=cards, seconds=pending["seconds"])
    if kind in ("target", "exit"):
        return _choices(view, _, table, who)
    return _("{player}: press ROLL.", player=who)


def _on_phone(view: dict, _, table: TableInfo, who: str) -> str:
    """What a seat played from a phone is asked: its choice is made there, never with the buttons."""
    pending = view["pending"]
    kind = pending["kind"]
    if kind == "place":
        return _("{player}: name the card a passage replaces, from the phone ({seconds} s).", player=who,
                 seconds=pending["seconds"])
    if kind == "trim":
        return _("{player} holds 4 surprise cards: lay or discard one from the phone ({seconds} s).",
                 player=who, seconds=pending["seconds"])
    default = default_choice(kind, pending["choices"], pending["optional"])
    return _("{player}: choose from the phone; {answer} after {seconds} s.", player=who,
             answer=_answer(view, default, _, table), seconds=pending["seconds"])


def _choices(view: dict, _, table: TableInfo, who: str) -> str:
    page = controls.page(None) if not table.entry or table.entry.get("flow") != "page" else \
        table.entry["page"]
    answers = controls.choices(view)
    shown = answers[page * controls.PAGE:(page + 1) * controls.PAGE]
    labels = [_("{key}: {answer}", key=letter.upper(), answer=_answer(view, a, _, table))
              for letter, a in zip(controls.LETTERS, shown, strict=False)]
    more = [_("ROLL: more")] if len(answers) > controls.PAGE else []
    pending = view["pending"]
    default = default_choice(pending["kind"], pending["choices"], pending["optional"])
    more.append(_("{answer} after {seconds} s", answer=_answer(view, default, _, table),
                  seconds=pending["seconds"]))
    if pending["kind"] == "exit":
        question = _("{player}, which exit?", player=who)
    elif pending["threat"] == "one_back":
        question = _("{player}, who moves back {n}?", player=who, n=pending["amount"])
    else:
        question = _("{player}, swap with whom?", player=who)
    return f"{question} " + " \u00b7 ".join(labels + more)


def _answer(view: dict, command, _, table: TableInfo) -> str:
    if command.kind == "choose":
        return player(view, command.args["seat"], _, table)
    if command.kind == "stay":
        return _("stay")
    return _("card {n}", n=command.args["card"])


def _story(canvas: Canvas, box: Box, view: dict, _, table: TableInfo, lines: int) -> None:
    """The last die and the last revealed effect in large type, with what it does."""
    die, text = box.cols(1, 4.5, gap=canvas.px(8)) if view["die"] else (None, box)
    if die is not None:
        side = min(die.width, die.height, canvas.px(70))
        die_face(canvas, Box(die.x0, die.y0, die.x0 + side, die.y0 + side), view["die"]["face"])
    effect = view["last_effect"]
    if effect is None:
        if view["phase"] == "placing":
            waiting = " ".join(f"{ENTRANCE_ICON if p['kind'] == 'entrance' else EXIT_ICON}{p['padlocks']}"
                               for p in view["row"])
            _wrapped(canvas, text, _("Passage cards waiting in the row: {cards}", cards=waiting), lines,
                     most_size=canvas.px(24))
        else:
            _wrapped(canvas, text, _("No route card turned yet."), lines, most_size=canvas.px(24))
        return
    title, rest = text.rows(1, 2.2, gap=canvas.px(4))
    where = _("{player}, card {n}:", player=player(view, effect["seat"], _, table), n=effect["position"])
    what = effect_text(effect["effect"], effect["surprise"], view["ford_exact"], _)
    size = _wrapped(canvas, rest, f"{where} {what}", lines, most_size=canvas.px(22), phrases=True)
    # large type, but not so large beside its text that the text looks like a footnote
    name = effect["effect"]
    canvas.text(title, _(EFFECT_NAMES[name]), bold=True, align="left",
                max_size=round(TITLE_OVER_TEXT * size) if size else None)


def _order(view: dict) -> list[int]:
    """The finished players in their order of arrival, then the others by seat."""
    return list(view["ranking"]) + [s for s in range(view["players"]) if s not in view["ranking"]]


def _short(view: dict, seat: int) -> str:
    """A player in a few characters: letter, card and lap ("B 12 2/4"), or its place once arrived."""
    pawn = view["pawns"][seat]
    if pawn["finished"] or view["phase"] == "over":
        return f"{pawn_mark(seat)} #{view['ranking'].index(seat) + 1}"
    return f"{pawn_mark(seat)} {pawn['position']} {min(pawn['lap'] + 1, view['laps'])}/{view['laps']}" \
        + STATUS_ICONS.get(pawn["status"], "")


def _plan_players(canvas: Canvas, box: Box, view: dict, _, table: TableInfo, columns: int = 1):
    """One line per player: card, lap, surprise cards held, and whatever holds them back (shorter lines
    when the long ones would not fit at the table's type size), in one column or two. Returns (rows, lines,
    size)."""
    order = _order(view)
    per = max(4 if columns == 1 else 2, -(-len(order) // columns))
    rows = [row for col in box.cols(*[1] * columns, gap=canvas.px(8))
            for row in col.rows(*[1] * per, gap=canvas.px(2))]
    writers = [lambda shown, full=full: [_player_line(view, s, _, table, full, shown) for s in order]
               for full in (True, False)]
    lines, size = canvas.lines_naming(rows, *writers)
    if size is not None and size < canvas.table_size:  # the short lines, long names cut, at the table's size
        short = [_player_line(view, s, _, table, False, short_name) for s in order]
        at = canvas.common_size(list(zip(rows, short, strict=False)))
        if at is not None and at > size:
            lines, size = short, at
    return rows, lines, size


def _draw_players(canvas: Canvas, view: dict, plan) -> None:
    rows, lines, size = plan
    for seat, row, line in zip(_order(view), rows, lines, strict=False):
        blocked = view["pawns"][seat]["status"] in ("tacks", "caught", "ford_5")
        canvas.text(row, line, align="left", max_size=size, bold=seat == view["actor"],
                    role="accent" if blocked else "ink")


def _player_line(view: dict, seat: int, _, table: TableInfo, full: bool, shown=str) -> str:
    pawn = view["pawns"][seat]
    name = marked_name(seat, shown(table.name(seat, COLOURS, _)))
    if pawn["finished"] or view["phase"] == "over":
        return _("{place}. {player}", place=view["ranking"].index(seat) + 1, player=name)
    lap = min(pawn["lap"] + 1, view["laps"])
    if not full:
        held = f"{pawn['blocked']}" if pawn["status"] == "tacks" and pawn["blocked"] else ""  # turns left
        sign = STATUS_ICONS.get(pawn["status"], "") + held
        return f"{name}: {pawn['position']} ({lap}/{view['laps']}){sign}"
    line = _("{player}: card {n}, lap {lap}/{laps}, cards in hand: {cards}", player=name, n=pawn["position"],
             lap=lap, laps=view["laps"], cards=pawn["cards"])
    status = pawn["status"]
    if status == "tacks":
        return f"{line}, {_(STATUSES[status])} ({held_turns(pawn['blocked'], _)})"
    return f"{line}, {_(STATUSES[status])}" if status else line


def held_turns(turns: int, _) -> str:
    """The turns tacks still hold a player, by the language's plural forms; 0: it leaves next turn."""
    if turns <= 0:
        return _("sets off next turn")
    return _.ngettext("{n} turn to sit out", "{n} turns to sit out", turns)


def _summary(canvas: Canvas, body: Box, view: dict, _, table: TableInfo) -> None:
    """The pHATs: what to press, the last effect, every player's card and lap."""
    effect = view["last_effect"]
    gap = max(1, canvas.px(4))
    weights = (2, 1, 1.6) if effect is not None else (2, 1.6)
    boxes = body.rows(*weights, gap=gap)
    _wrapped(canvas, boxes[0], prompt(view, _, table), 2, bold=True, role="accent")
    if effect is not None:
        name = effect["effect"]
        canvas.text(boxes[1], f"{pawn_mark(effect['seat'])} {effect['position']}: {_(EFFECT_NAMES[name])}",
                    align="left")
    _wrapped(canvas, boxes[-1], " \u00b7 ".join(_short(view, s) for s in _order(view)), 2)


def _wrapped(canvas: Canvas, box: Box, text: str, most: int, *, bold: bool = False, role: str = "ink",
             most_size: int | None = None, phrases: bool = False) -> int | None:
    """`text` over up to `most` lines, as many as make it largest; returns the size drawn at. `phrases`:
    lines break between phrases (`phrase_lines`) unless that would put the text under the table's size."""
    if phrases:
        size = _wrapped_as(canvas, box, text, most, bold, most_size, phrase_lines)
        if size is not None and size >= canvas.table_size:
            return _wrapped_as(canvas, box, text, most, bold, most_size, phrase_lines, role)
    return _wrapped_as(canvas, box, text, most, bold, most_size, _split, role)


def _wrapped_as(canvas: Canvas, box: Box, text: str, most: int, bold: bool, most_size: int | None, split,
                role: str | None = None) -> int | None:
    """`text` split by `split(text, count)` over the line count that makes it largest, drawn in `role`
    (None: only measured); returns the size."""
    best: tuple[int, list[Box], list[str]] | None = None
    for count in range(1, most + 1):
        lines = split(text, count)
        rows = box.rows(*[1] * len(lines))
        fitted = canvas.common_size(list(zip(rows, lines, strict=True)), bold=bold, max_size=most_size)
        if fitted is not None and (best is None or fitted > best[0]):
            best = (fitted, rows, lines)
    size: int | None
    if best is None:  # too long even over every line: the longest line ends in an ellipsis
        lines = split(text, most)
        size, rows = None, box.rows(*[1] * len(lines))
    else:
        size, rows, lines = best
    if role is None:
        return size
    for row, line in zip(rows, lines, strict=True):
        canvas.text(row, line, bold=bold, role=role, align="left", max_size=size)
    return size


def _split(text: str, count: int) -> list[str]:
    """`text` over at most `count` lines of about the same length."""
    words = text.split(" ")
    target = len(" ".join(words)) / count
    lines: list[str] = []
    current: list[str] = []
    for word in words:
        if current and len(" ".join([*current, word])) > target and len(lines) < count - 1:
            lines.append(" ".join(current))
            current = []
        current.append(word)
    return [*lines, " ".join(current)]
