"""Joining and seats under /api: claim a seat or the host, and the host's seat, game and language controls."""

from __future__ import annotations

from math import ceil

import msgspec
from flask import Blueprint, Response, current_app, request, url_for

from companion.core import registry
from companion.core.table.links import HOST_LINK_GONE
from companion.gamekit.colours import SEAT_COLOURS, SEAT_MARKS
from companion.gamekit.contract import IllegalMove, TableInfo
from companion.gamekit.frame import join_link
from companion.i18n import translator
from companion.outputs.public import public_seats, refusal, seat_label
from companion.outputs.webapp import _, request_game, request_language
from companion.outputs.webapp.api import ApiError, decode, host_token_given, require_host, runtime, same_token
from companion.outputs.webapp.openapi import ClaimHostBody, JoinBody, LanguageBody, NameBody, QrBody
from companion.outputs.webapp.schemas import translated

bp = Blueprint("seating", __name__, url_prefix="/api")


def _seating(change, action: str | None = None):
    """Run a seat change on the table's thread; a refusal becomes a 409 in the reader's language.

    A host's change (`action`) is made only if its link is still the host's when its turn comes: a long
    press on D may come between the check here and the table's thread."""
    if action is not None:
        token = host_token_given()
        require_host(token, action)
        change = _while_host(token, change)
    table = runtime().table
    try:
        return table.seating(change)
    except IllegalMove as exc:
        refused = refusal(exc, request_language(), request_game(), table.moment.seats)
        raise ApiError(409, refused["error"], msgid=refused["msgid"]) from None
    except TimeoutError:
        raise ApiError(503, _("The table did not answer in time: wait a moment and try again.")) from None


def _while_host(token: str | None, change):
    def made_by_the_host(roster, count):
        if not same_token(token, roster.host_token()):
            raise IllegalMove(HOST_LINK_GONE)
        return change(roster, count)
    return made_by_the_host


def _seat_link(seat: int, token: str) -> dict:
    return {"ok": True, "seat": seat, "token": token, "link": url_for("pages.seat", token=token)}


@bp.get("/seats")
def seats():
    table = runtime().table
    moment = table.moment
    return {"seats": public_seats(moment, translator(request_language(), registry.find(moment.game))),
            "host_claimed": table.roster.host_claimed()}


def _checked_code(code: str, key: str) -> None:
    """The join code, checked before anything else: wrong ones from one address slow it down.

    A scanned QR code's key is checked alone, never counted: no one guesses 128 bits, so strangers typing
    wrong codes never keep a phone that scans from joining."""
    if key:
        _checked_key(key)
        return
    attempts = current_app.extensions["companion.codes"]
    address = request.remote_addr or ""
    wait, table_wide = attempts.admit(address)
    if wait and table_wide:
        raise ApiError(429, _("Too many wrong codes were typed at this table: scan the QR code on the "
                              "table's screen, or wait {seconds} s and type the code again.",
                              seconds=ceil(wait)),
                       retry_after=ceil(wait))
    if wait:
        raise ApiError(429, _("Too many wrong codes from this device: wait {seconds} s, then read the code "
                              "off the table's screen again.", seconds=ceil(wait)),
                       retry_after=ceil(wait))
    try:
        runtime().table.roster.check_code(code)
    except IllegalMove as exc:
        attempts.failed(address)
        refused = refusal(exc, request_language(), request_game())
        raise ApiError(409, refused["error"], msgid=refused["msgid"]) from None
    attempts.succeeded(address)


def _checked_key(key: str) -> None:
    try:
        runtime().table.roster.check_code("", key)
    except IllegalMove as exc:
        refused = refusal(exc, request_language(), request_game())
        raise ApiError(409, refused["error"], msgid=refused["msgid"]) from None


@bp.post("/join")
def join():
    body: JoinBody = decode(JoinBody)
    _checked_code(body.code, body.key)

    def claim(roster, count):
        # Again on the writer thread: a long press on D may have changed the code and key.
        roster.check_code(body.code, body.key)
        return roster.claim(body.seat, body.name, count)
    return _seat_link(body.seat, _seating(claim))


@bp.post("/host/claim")
def claim_host():
    body: ClaimHostBody = decode(ClaimHostBody)
    _checked_code(body.code, body.key)
    token = _seating(lambda roster, count: roster.claim_host(body.code, body.key))
    return {"ok": True, "token": token, "link": url_for("pages.scoreboard", host=token)}


@bp.get("/host")
def host():
    """What only the host sees: the join code to read out, the join link the glass's QR code holds (its
    key spares a scan the typed codes' wait), the table's language, the address phones reach the
    table at (a seat's link given to another phone starts with it, as the join QR code does), and the
    running game and its options (the new game form starts from them: a quick restart keeps them)."""
    require_host(host_token_given(), "host")
    rt = runtime()
    roster = rt.table.roster
    link = join_link(TableInfo(rt.url, roster.join_code(), join_key=roster.join_key()))
    moment = rt.table.moment
    return {"ok": True, "join_code": roster.join_code(), "join_link": link,
            "language": roster.language(rt.language), "url": rt.url,
            "game": moment.game, "options": dict(moment.options)}


@bp.post("/seats/<int:seat>/assign")
def assign(seat: int):
    body: NameBody = decode(NameBody)
    token = _seating(lambda roster, count: roster.assign(seat, body.name, count), "assign")
    return _seat_link(seat, token)


@bp.post("/seats/<int:seat>/free")
def free(seat: int):
    _seating(lambda roster, count: roster.free(seat, count), "free")
    return {"ok": True, "seat": seat}


@bp.post("/seats/<int:seat>/reissue")
def reissue(seat: int):
    return _seat_link(seat, _seating(lambda roster, count: roster.reissue(seat, count), "reissue"))


@bp.post("/language")
def language():
    body: LanguageBody = decode(LanguageBody)
    _seating(lambda roster, count: roster.set_language(body.language), "language")
    return {"ok": True, "language": body.language}


@bp.get("/games")
def game_list():
    """Every game the host can start: its seats, colours, options (as JSON Schema) and data files."""
    from companion.outputs.webapp import request_language

    out = []
    for name in registry.names():
        try:
            spec = registry.get(name)
        except ValueError:
            continue  # a broken game package is logged by the registry; the others stay startable
        tr = translator(request_language(), spec)
        schema = translated(msgspec.json.schema(spec.options), tr) if spec.options is not None else {}
        out.append({"name": name, "title": tr(spec.title), "seats": list(spec.seats),
                    "seat_labels": _seat_labels(spec, tr),
                    "colours": [{"key": c.key, "label": tr(c.label), "ink": c.ink} for c in spec.colours],
                    "options": schema,
                    "data": [{"key": d.key, "title": tr(d.title), "bundled": d.bundled} for d in spec.data]})
    return {"games": out}


def _seat_labels(spec, tr) -> list[str]:
    """Each seat `spec` can have as every page names it ("❶ North · Blue"): an option that is a seat (the
    first player) offers these, counted from 1 and never by its number from 0."""
    labels = []
    for seat in range(spec.seats[1]):
        colour = spec.colours[seat] if seat < len(spec.colours) else SEAT_COLOURS[seat]
        facts = {"seat": seat, "label": colour.label,
                 "place": spec.seat_names[seat] if seat < len(spec.seat_names) else ""}
        labels.append(f"{SEAT_MARKS[seat]}\u00a0{seat_label(facts, tr)}")
    return labels


@bp.post("/qr")
def qr():
    """A QR code of a link, for the host to hand a seat to another phone (POST: links are secrets)."""
    require_host(host_token_given(), "qr")
    body: QrBody = decode(QrBody)
    from companion.render.qr import qr_svg

    return Response(qr_svg(body.text), mimetype="image/svg+xml", headers={"Cache-Control": "no-store"})
