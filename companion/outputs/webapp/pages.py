"""The phone pages: the public scoreboard, a seat's private page, the device twin, and error pages."""

from __future__ import annotations

import logging

from flask import Blueprint, Response, current_app, render_template, request
from werkzeug.exceptions import HTTPException, MethodNotAllowed

from companion.core import registry
from companion.core.seats import MAX_SEATS
from companion.core.table.links import SEAT_GONE
from companion.gamekit.frame import JOIN_KEY_MARK
from companion.i18n import LANGUAGES, N_, translator
from companion.outputs.public import public_payload
from companion.outputs.webapp import _, ngettext, request_game, request_language
from companion.outputs.webapp.api import device_open, device_state, error_response, seat_of
from companion.outputs.webapp.gamefiles import assets, translated_help
from companion.outputs.webapp.schemas import generated_pages

log = logging.getLogger(__name__)
bp = Blueprint("pages", __name__)


class PageError(Exception):
    """A page that cannot be shown, with a status and a message already in the reader's language."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def _moment():
    return current_app.extensions["companion"].table.moment


def _spec(moment):
    """The spec of the game in `moment`, if it is the game this request began with (else None)."""
    return registry.find(moment.game) if moment.game == request_game() else None


def _context() -> dict:
    moment = _moment()
    game = request_game()
    spec = _spec(moment)
    return {
        "lang": request_language(),
        "languages": LANGUAGES,
        "game": game,
        "title": _(spec.title) if spec else _("No game"),
        "assets": assets(game if spec else None),
        "snapshot": public_payload(moment, request_language()),
        "history_lines": _history_lines(spec),
    }


def _generated(page: str) -> dict | None:
    """What the generated `page` (seat, scoreboard) of a game that ships none shows: the shapes of its
    views and commands, labelled in the reader's language."""
    spec = _spec(_moment())
    if spec is None or not assets(spec.name)[f"{page}_generated"]:
        return None
    return generated_pages(spec, translator(request_language(), spec))


def _history_lines(spec) -> dict[str, str]:
    """Each command kind's history line in the reader's language, `{who}` left for the page to fill."""
    table = {"new_game": N_("New game"), "end_game": N_("Game over: back to {game}"),
             "undo": N_("Undone: {what}")}
    lines = {**table, **(spec.history_lines if spec else {})}
    title = _(spec.title) if spec else ""
    return {kind: _(msgid, who="{who}", what="{what}", game=title) for kind, msgid in lines.items()} | {
        "the_device": _("The device")}


@bp.get("/")
def scoreboard():
    return render_template("scoreboard.html", generated=_generated("scoreboard"), **_context())


@bp.get("/join")
@bp.get("/j/<code>")
def join(code: str = ""):
    """Where the e-ink's QR code leads: pick a free seat with a name, or become the host. The link's last
    part is the code and the QR code's key (`CODE.KEY`), or a code alone."""
    code, _, key = code.partition(JOIN_KEY_MARK)
    response = Response(render_template("join.html", code=code.upper()[:16], key=key[:64], **_context()))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/network-help")
def network_help():
    """What to do when a phone falls back to mobile data, or will not join the table's Wi-Fi."""
    return render_template("network-help.html", **_context())


@bp.get("/host")
def host():
    """The host's controls; the page itself is public, its API calls need the host token."""
    taken = [ngettext("{n} seat taken", "{n} seats taken", n) for n in range(MAX_SEATS + 1)]
    return render_template("host.html", seats_taken=taken, **_context())


@bp.get("/device")
def device():
    # The page is a shell for anyone; its state comes with the host's token, or on the simulator's
    # own machine.
    return render_template("device.html", device=device_state() if device_open() else None, **_context())


@bp.get("/seat/<token>")
def seat(token: str):
    number = seat_of(token)
    if number is None:
        # A link the host took back says how, as its open page would have (freed, or a new link).
        why = current_app.extensions["companion"].table.links.seat_gone(token)
        raise PageError(404, _(SEAT_GONE[why]) if why else
                        _("This seat link is not valid. Ask the host for your seat's link, "
                          "or scan the QR code on the table."))
    context = _context()
    moment = _moment()
    running = moment.game
    context["rules_help"] = translated_help(running, translator(request_language(), registry.find(running)))
    context["snapshot"] |= {"seat": number, "private": moment.secrets.view(number),
                            "legal": list(moment.seat_legal(number))}
    response = Response(render_template("seat.html", seat=number, token=token, generated=_generated("seat"),
                                        **context))
    response.headers["Cache-Control"] = "no-store"  # the page holds this seat's secrets
    return response


def refuse_host() -> Response:
    """The answer to a request naming another host than the table (see webapp/trust.py)."""
    url = current_app.extensions["companion"].url
    message = _("This table answers to its own address only: open {url} instead.", url=url)
    if request.path == "/api" or request.path.startswith("/api/"):
        return error_response(400, message)
    return Response(render_template("error.html", status=400, message=message, lang=request_language(),
                                    languages=LANGUAGES), status=400)


def handle_error(exc: Exception) -> Response:
    """Every error: JSON under /api, a readable page elsewhere; 500 only for our own bugs."""
    api = request.path == "/api" or request.path.startswith("/api/")
    if isinstance(exc, PageError):
        status, message = exc.status, exc.message
    elif isinstance(exc, HTTPException):
        status, message = exc.code or 500, _http_message(exc)
    else:
        # The route, not the path: a seat's path is its secret link.
        route = request.url_rule.rule if request.url_rule else "?"
        log.exception("error serving %s %s", request.method, route)
        status, message = 500, _("Something went wrong on the table: reload the page and try again.")
    if api:
        response = error_response(status, message)
    else:
        response = Response(render_template("error.html", status=status, message=message,
                                            lang=request_language(), languages=LANGUAGES), status=status)
    if isinstance(exc, MethodNotAllowed) and exc.valid_methods:
        response.headers["Allow"] = ", ".join(exc.valid_methods)
    return response


def _http_message(exc: HTTPException) -> str:
    path, method = request.path, request.method
    if exc.code == 404:
        if path.startswith("/api"):
            return _("There is no {path} in this API: see /api/openapi.json for the routes.", path=path)
        return _("This page does not exist. Go back to the scoreboard.")
    if exc.code == 405 and isinstance(exc, MethodNotAllowed):
        allowed = ", ".join(m for m in (exc.valid_methods or []) if m not in ("HEAD", "OPTIONS"))
        return _("{path} does not accept {method}: use {allowed}.", path=path, method=method, allowed=allowed)
    if exc.code == 413:
        return _("The request body is too big: send at most {limit} bytes.",
                 limit=current_app.config["MAX_CONTENT_LENGTH"])
    return f"{exc.code} {exc.name}: {exc.description}"
