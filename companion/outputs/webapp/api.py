"""The JSON API under /api: state, commands, live events, export, and the device twin."""

from __future__ import annotations

import ipaddress
import json
import secrets
import socket
from functools import cache
from itertools import islice
from math import ceil
from typing import Any

import msgspec
from flask import Blueprint, Response, current_app, jsonify, request

from companion.core import registry
from companion.core.session import HOST_COMMANDS, NEW_GAME
from companion.core.table.links import SEAT_GONE
from companion.gamekit.contract import Command, IllegalMove
from companion.outputs.public import refusal
from companion.outputs.webapp import _, another_sites_refused, request_game, request_language
from companion.outputs.webapp.events import PANEL_STUCK, Hub, Stream
from companion.outputs.webapp.openapi import (
    ClaimHostBody,
    CommandBody,
    JoinBody,
    LanguageBody,
    NameBody,
    NetworkBody,
    PressBody,
    QrBody,
    document,
)
from companion.outputs.webapp.runtime import Runtime
from companion.serving.slots import TooManyStreams, requester

bp = Blueprint("api", __name__, url_prefix="/api")

CALL_TIMEOUT = 10.0  # seconds a phone waits for the table before being told to retry
EXPORT_BATCH = 500  # records per piece of the streamed export
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
EXAMPLES: dict[type, str] = {
    CommandBody: '{"kind": "roll"}', PressBody: '{"button": "roll", "hold": false}',
    JoinBody: '{"code": "K7QF", "seat": 0, "name": "Ada"}', ClaimHostBody: '{"code": "K7QF"}',
    NameBody: '{"name": "Ada"}', LanguageBody: '{"language": "en"}', QrBody: '{"text": "http://table/seat/…"}',
    NetworkBody: '{"mode": "hotspot"}',
}


class ApiError(Exception):
    """An answer other than success: a status and a message already in the request's language."""

    def __init__(self, status: int, message: str, **extra: Any):
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def error_response(status: int, message: str, **extra: Any) -> Response:
    response = jsonify({"ok": False, "error": message, **extra})
    response.status_code = status
    return response


@bp.app_errorhandler(ApiError)
def _api_error(exc: ApiError) -> Response:
    return error_response(exc.status, exc.message, **exc.extra)


def runtime() -> Runtime:
    return current_app.extensions["companion"]


def hub() -> Hub:
    return current_app.extensions["companion.hub"]


MAX_NESTING = 16  # a command's args are a few levels deep; deeper is a mistake or an attack


def decode(kind: type):
    """The request body as a `kind` struct, or a 400 saying what was wrong and what to send."""
    data = request.get_data()
    if not data.strip():
        raise ApiError(400, _("The request body is empty: send JSON like {example}.", example=EXAMPLES[kind]))
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ApiError(400, _("The request body is not UTF-8 text (a bad byte at position {at}): send JSON "
                              "like {example}.", at=exc.start, example=EXAMPLES[kind])) from None
    if nesting(data) > MAX_NESTING:
        raise ApiError(400, _("The request body is nested more than {limit} levels deep: send JSON like "
                              "{example}.", limit=MAX_NESTING, example=EXAMPLES[kind]))
    try:
        return msgspec.json.decode(data, type=kind)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise ApiError(400, _("The request body is not valid: {detail}. Send JSON like {example}.",
                              detail=str(exc), example=EXAMPLES[kind])) from None


def nesting(data: bytes) -> int:
    """How deep JSON `data` nests its arrays and objects, counted without parsing it (strings skipped)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest


def same_token(given: str | None, expected: str) -> bool:
    # Compared as bytes: compare_digest refuses non-ASCII str, and a header may hold anything.
    return given is not None and given != "" and \
        secrets.compare_digest(given.encode("utf-8", "replace"), expected.encode())


def seat_of(token: str) -> int | None:
    return runtime().table.seat_for_token(token)


def host_token_given() -> str | None:
    return request.headers.get("X-Host-Token")


def is_host(token: str | None) -> bool:
    """Whether `token` is the host's. The first use of a host link claims the host: a link printed by
    the simulator or kept from before a restart is the host as surely as a claim from /join."""
    table = runtime().table
    if token is None or not same_token(token, table.host_token()):
        return False
    if not table.roster.host_claimed():
        try:
            table.seating(lambda roster, count: roster.host_used(token))
        except (IllegalMove, TimeoutError):
            pass  # shutting down or busy: the next use claims it; the token is the host's all the same
    return True


def stale_host_token() -> bool:
    """Whether the request carries a host token that is no longer the host's (a long press on D)."""
    given = host_token_given()
    return bool(given) and not same_token(given, runtime().table.host_token())


def require_host(token: str | None, action: str) -> None:
    # The messages are read in a browser's banner: no header names or action keys in them
    # (`action` goes along for programs; the OpenAPI document names the header).
    if not token:
        raise ApiError(403, _("Only the host can do this: open the host link in this browser."),
                       action=action)
    if not is_host(token):
        raise ApiError(403, _("This host link is no longer valid: a long press on D on the device made a new "
                              "one. Open the new host link, or ask the host."), action=action)


@bp.before_app_request
def _at_a_human_pace():
    """Every change a phone sends takes one send from its bucket (docs/security.md): a seat's by its
    link, the host's by its link, any other by its address. The device's own buttons are not paced."""
    if request.method != "POST" or not request.path.startswith("/api/") \
            or request.path == "/api/device/press":
        return None
    table = runtime().table
    seat_token, host_token = request.headers.get("X-Seat-Token"), host_token_given()
    seat = seat_of(seat_token) if seat_token else None
    if seat is not None:
        key = f"seat {seat}"
    elif same_token(host_token, table.host_token()):
        key = "host"
    else:
        key = f"address {request.remote_addr}"
    pace = current_app.extensions["companion.pace"]
    wait = pace.take(key) if pace.rate else 0.0
    if wait:
        raise ApiError(429, _("This phone sent too much too fast: wait {seconds} s, then try again. Nothing "
                              "was changed.", seconds=ceil(wait)), retry_after=ceil(wait))
    return None


# --- the game ------------------------------------------------------------------------------
@bp.get("/state")
def state():
    moment = runtime().table.moment
    return {
        "version": moment.version,
        "game": moment.game,
        "title": _(moment.title) if moment.title else None,
        "public": moment.public,
        "legal": list(moment.table_legal),
        "host": is_host(host_token_given()),
    }


@bp.post("/command")
def command():
    body: CommandBody = decode(CommandBody)
    table = runtime().table
    host = host_token_given() or body.host_token
    seat_token = request.headers.get("X-Seat-Token")
    seat = None
    if body.kind in HOST_COMMANDS or seat_token is None:
        require_host(host, body.kind)
    else:
        seat = seat_of(seat_token)
        if seat is None:
            raise ApiError(403, _("This seat link is not valid: open your seat's link again, "
                                  "or ask the host for a new one."))
    try:
        result = table.call(Command(body.kind, body.args, seat), timeout=CALL_TIMEOUT, host=seat is None,
                            token=seat_token if seat is not None else host)
    except TimeoutError:
        raise ApiError(503, _("The table did not answer in time: wait a moment and try again.")) from None
    if result.ok:
        return {"ok": True, "version": result.version}
    # A new game's refusal (a bad option, a bad data file) is that game's to word.
    starting = body.args.get("game") if body.kind == NEW_GAME else None
    wording = starting if isinstance(starting, str) and starting in registry.names() else request_game()
    refused = refusal(result.error, request_language(), wording, table.moment.seats)
    return error_response(409, refused["error"], msgid=refused["msgid"], version=result.version)


@bp.get("/export")
def export():
    require_host(host_token_given(), "export")
    table = runtime().table
    moment = table.moment
    head = json.dumps({"ok": True, "version": moment.version, "game": moment.game,
                       "complete": table.record_is_open})
    records = table.export(moment.version)

    def body():
        """The record a batch of rows at a time: a game of any length is sent in bounded memory."""
        yield head[:-1] + ', "records": ['
        comma = ""
        while batch := list(islice(records, EXPORT_BATCH)):
            yield comma + ",".join(map(json.dumps, batch))
            comma = ","
        yield "]}"
    return Response(body(), mimetype="application/json")


@bp.get("/record")
def game_record():
    """The finished game's record, to keep: for every phone once the game is over (its secrets are
    then open), for none before. `?format=bgstats` gives the file BG Stats imports."""
    from companion.outputs import records

    table = runtime().table
    try:  # a game that is over, or the one the host ended (kept as abandoned, as the export shows it)
        record = table.exports.finished()
    except records.RecordError:
        raise ApiError(409, _("The game is not over yet: its record can be downloaded once it ends.")) \
            from None
    bgstats = request.args.get("format") == "bgstats"
    body = records.bgstats(record) if bgstats else record
    name = f"{record['id']}.{'bgsplay' if bgstats else 'json'}"
    response = jsonify(body)
    response.headers["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@bp.get("/events")
def events():
    return _stream(None)


@bp.get("/seat/<token>")
def seat_view(token: str):
    seat = _seat_or_404(token)
    moment = runtime().table.moment
    return {"version": moment.version, "game": moment.game, "seat": seat,
            "private": moment.secrets.view(seat), "legal": list(moment.seat_legal(seat))}


@bp.get("/seat/<token>/events")
def seat_events(token: str):
    return _stream(_seat_or_404(token), token)


def _seat_or_404(token: str) -> int:
    seat = seat_of(token)
    if seat is None:
        # A link the host took back says how (its page drops the seat and says so); `gone` is null if unknown.
        why = runtime().table.links.seat_gone(token)
        raise ApiError(404, _(SEAT_GONE[why]), gone=why)
    return seat


def _stream(seat: int | None, token: str | None = None) -> Response:
    # A live page holds a slot of its address's few: another site's page must not take them.
    refused = another_sites_refused()
    if refused is not None:
        return refused
    client, channel = requester(request.environ)
    try:
        stream: Stream = hub().open(request_language(), seat, client, channel, token)
    except TooManyStreams as exc:
        raise ApiError(503, _(exc.msgid, **exc.params)) from None
    return Response(stream, mimetype="text/event-stream", headers=SSE_HEADERS, direct_passthrough=True)


# --- the device twin -----------------------------------------------------------------------
def device_state() -> dict:
    rt = runtime()
    board, display = rt.board, rt.display
    snap: dict[str, Any] = board.snapshot() if board is not None else {"dice": [], "status": False,
                                                                       "buttons": []}
    return {
        "board": board is not None,
        "simulated": bool(getattr(board, "simulated", False)),
        "dice": list(snap.get("dice", [])),
        "status": bool(snap.get("status", False)),
        "buttons": list(snap.get("buttons", [])),
        "frame": bool(display is not None and display.png),
        "frame_version": rt.frame_version,
        "panel": panel_state(rt),
    }


def panel_state(rt) -> dict | None:
    """The e-ink panel: its model, the speed of its last refresh, refreshes today, how long the last one
    took, and its fault (why it stopped answering), or None."""
    refresher, display = rt.refresher, rt.display
    if refresher is None or display is None:
        return None
    last = refresher.last_seconds
    stuck = refresher.fault is not None
    return {"model": display.model.name, "speeds": list(display.model.speeds), "speed": refresher.last_speed,
            "refreshes_today": refresher.refreshes_today,
            "last_refresh_seconds": None if last is None else round(last, 1), "fault": refresher.fault,
            "message": _(PANEL_STUCK) if stuck else None}


def device_open() -> bool:
    """Whether this request may see the device (its frame holds the join code, its LED dice a value
    being entered) and press its buttons: the host may; so may anyone at the simulator's own keyboard,
    whichever of the machine's addresses the browser used."""
    if is_host(host_token_given()):
        return True
    board = runtime().board
    return bool(getattr(board, "simulated", False)) and own_machine(request.remote_addr)


def is_loopback(address: str | None) -> bool:
    try:
        return ipaddress.ip_address(address or "").is_loopback
    except ValueError:
        return False


def own_machine(address: str | None) -> bool:
    """Whether a request comes from this machine: loopback, or one of its own network addresses (a
    browser on the simulator's desktop that opened the address printed for phones)."""
    return is_loopback(address) or (address or "") in own_addresses()


@cache
def own_addresses() -> frozenset[str]:
    """This machine's addresses, as its own name resolves (looked up once)."""
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None)
    except OSError:
        return frozenset()
    return frozenset(str(info[4][0]) for info in infos)


def require_device(action: str) -> None:
    if not device_open():
        raise ApiError(403, _("The device's screen and buttons are the host's: open the host link in this "
                              "browser. Everyone else reads the screen at the table."), action=action)


@bp.get("/device")
def device():
    require_device("device")
    response = jsonify(device_state())
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/device/frame.png")
def frame():
    require_device("frame")
    display = runtime().display
    png = display.png if display is not None else b""
    if not png:
        raise ApiError(404, _("No e-ink frame has been shown yet: wait for the panel's first refresh."))
    return Response(png, mimetype="image/png", headers={"Cache-Control": "no-store"})


@bp.post("/device/press")
def press():
    require_device("press")
    body: PressBody = decode(PressBody)
    board = runtime().board
    if board is None:
        raise ApiError(409, _("No device is attached to this table, so there is no button to press."))
    if not getattr(board, "simulated", False):
        raise ApiError(403, _("These are a real device's buttons: press them on the device itself."))
    names = list(board.snapshot().get("buttons", []))
    if body.button not in names:
        raise ApiError(400, _("Unknown button {button}: choose one of {names}.",
                              button=body.button, names=", ".join(names)))
    board.press(body.button, hold=body.hold)
    return {"ok": True, **device_state()}


@bp.get("/openapi.json")
def openapi():
    return document()
