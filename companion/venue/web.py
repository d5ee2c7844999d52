"""The dashboard's pages: every table live, results and standings, the director's corrections, the
projector's board; the same stack as the table's phones (Flask, waitress, Server-Sent Events)."""

from __future__ import annotations

import secrets

from flask import Flask, Response, jsonify, render_template, request

from companion.core import registry
from companion.gamekit.colours import SEAT_COLOURS
from companion.i18n import N_, plural_forms, translator
from companion.serving.pages import guarded, new_app, reader_language
from companion.serving.slots import TooManyStreams, requester
from companion.venue.board import MOST, WINDOW, CorrectionError

KEEPALIVE = 15.0
BY = ("places", "points")
COLOUR_LABELS = {colour.label for colour in SEAT_COLOURS}  # what a result names an unnamed seat by
BAD_DIRECTOR = N_("This director's link is not valid: use the link `companion venue` printed.")
BAD_NUMBER = N_("{name}: give a whole number from {low} to {high}, as the page's links do.")


def localized(update: dict | None, lang: str) -> dict | None:
    """A table's update in the reader's language: a table sends its game's title and its seats' colours
    in English (publishing.MESSAGE_LANGUAGE); the dashboard names them from the game's key and each
    seat's label (a msgid), as the table's own pages do."""
    if not isinstance(update, dict):
        return update
    spec = registry.find(update["game"]) if isinstance(update.get("game"), str) else None
    tr = translator(lang, spec)
    seats = update.get("seats")
    seats = seats if isinstance(seats, list) else []
    named = [{**seat, "label": tr(seat["label"])}
             if isinstance(seat, dict) and isinstance(seat.get("label"), str) else seat for seat in seats]
    title = tr(spec.title) if spec is not None else update.get("title")
    return {**update, "title": title, "seats": named}


def titled(game: str, players: list[str], lang: str) -> dict:
    """A result's game title and players in the reader's language (an unnamed seat is its colour)."""
    spec = registry.find(game)
    tr = translator(lang, spec)
    return {"title": tr(spec.title) if spec is not None else game,
            "players": [tr(p) if p in COLOUR_LABELS else p for p in players]}


class BadParameter(ValueError):
    """A query parameter that is not a whole number within its bounds."""

    def __init__(self, name: str, low: int, high: int):
        super().__init__(f"{name}: a whole number from {low} to {high}")
        self.name, self.low, self.high = name, low, high


def create_app(dashboard, keepalive: float = KEEPALIVE) -> Flask:
    app = new_app(__name__, 16 * 1024)

    def lang() -> str:
        return reader_language(dashboard.language)

    def _(msgid: str, **params) -> str:
        return translator(lang())(msgid, **params)

    app.jinja_env.globals["_"] = _
    # A count's forms for n = 0, 1 and 2 or more, for the page's script to pick from.
    app.jinja_env.globals["plural_forms"] = lambda singular, plural: plural_forms(lang())(singular, plural)

    def shown_results(rows: list[dict], reader: str) -> list[dict]:
        return [{**row, **titled(row["game"], row["players"], reader)} for row in rows]

    def shown_standings(rows: list[dict], reader: str) -> list[dict]:
        tr = translator(reader)
        return [{**row, "player": tr(row["player"]) if row["player"] in COLOUR_LABELS else row["player"]}
                for row in rows]

    def chosen(asked) -> tuple[str, str | None]:
        """The standings a page asked for (`by` and `game`)."""
        return asked.get("by") if asked.get("by") in BY else "places", asked.get("game") or None

    def state(asked, reader: str, since: int | None = None) -> dict:
        """The dashboard as a page asked for it (`asked`: its query, `by` and `game`), in `reader`'s
        language (a stream draws it after its request has gone: the language is taken once, at the
        start): a bounded snapshot, or with `since` what changed after that version (board.since)."""
        by, game = chosen(asked)
        drawn = dashboard.board.since(since, by, game)
        drawn["tables"] = [{**row, "update": localized(row["update"], reader)} for row in drawn["tables"]]
        drawn["results"] = shown_results(drawn["results"], reader)
        if "standings" in drawn:
            drawn["standings"] = shown_standings(drawn["standings"], reader)
        return {"venue": dashboard.venue, **drawn, "by": by, "game": game}

    def number(name: str, low: int, high: int) -> int | None:
        """A whole-number query parameter within bounds, None if absent; BadParameter if not."""
        given = request.args.get(name)
        if given is None:
            return None
        if not given.isascii() or not given.isdigit() or not low <= int(given) <= high:
            raise BadParameter(name, low, high)
        return int(given)

    def is_director(token: str) -> bool:
        return secrets.compare_digest(token.encode("utf-8", "replace"), dashboard.director.encode())

    def page(template: str, **more):
        more.setdefault("by", "places")
        more.setdefault("window", WINDOW)
        return render_template(template, lang=lang(), venue=dashboard.venue, **more)

    @app.get("/")
    def tables():
        return page("venue/tables.html", director=None)

    @app.get("/board")
    def board():
        by = request.args.get("by") if request.args.get("by") in BY else "places"
        return page("venue/board.html", by=by)

    @app.get("/director/<token>")
    def director(token: str):
        if not is_director(token):
            return page("venue/refused.html", reason=_(BAD_DIRECTOR)), 403
        return page("venue/tables.html", director=token)

    @app.get("/api/venue")
    def api_state():
        return jsonify(state(request.args, lang(), number("since", 0, 2**63 - 1)))

    @app.get("/api/venue/results")
    def older_results():
        """The results before result `before` (newest first), `limit` of them (WINDOW unless given)."""
        before = number("before", 1, 2**63 - 1)
        limit = number("limit", 1, MOST) or WINDOW
        rows = dashboard.board.results(limit + 1, before)
        return jsonify(results=shown_results(rows[:limit], lang()), older=len(rows) > limit)

    @app.get("/api/venue/standings")
    def more_standings():
        """The standings rows from `offset` on (by, game as the page's), `limit` of them."""
        by, game = chosen(request.args)
        offset = number("offset", 0, 2**31) or 0
        limit = number("limit", 1, MOST) or WINDOW
        rows = dashboard.board.standings(by, game, limit + 1, offset)
        return jsonify(standings=shown_standings(rows[:limit], lang()), more=len(rows) > limit)

    @app.errorhandler(BadParameter)
    def bad_parameter(error: BadParameter):
        return jsonify(error=_(BAD_NUMBER, name=error.name, low=error.low, high=error.high)), 400

    @app.get("/api/venue/events")
    def events():
        args, reader = dict(request.args), lang()
        client, channel = requester(request.environ)
        try:
            live = dashboard.pages.open(client, lambda since: state(args, reader, since), keepalive, channel)
        except TooManyStreams as exc:
            return jsonify(error=_(exc.msgid, **exc.params)), 503
        return Response(live, mimetype="text/event-stream", direct_passthrough=True,
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    def director_change(token: str, shape: str, change):
        """A director's change to the board: refused without the director's link, or with what was
        wrong in the body (`shape` says what it holds); else made, and every live page told."""
        if not is_director(token):
            return jsonify(error=_(BAD_DIRECTOR)), 403
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify(error=_(shape)), 400
        try:
            changed = change(body)
        except CorrectionError as exc:
            return jsonify(error=_(exc.msgid, **exc.params)), 400
        dashboard.changes.bump()
        return jsonify(changed)

    @app.post("/api/director/<token>/corrections")
    def correct(token: str):
        return director_change(token, N_("Send the correction as a JSON object: result, player, field, "
                                         "value, who and why."),
                               lambda body: dashboard.board.correct(
                                   body.get("result"), body.get("player"), body.get("field"),
                                   body.get("value"), body.get("who", ""), body.get("why", "")))

    @app.post("/api/director/<token>/voids")
    def void(token: str):
        return director_change(token, N_("Send the void as a JSON object: result, who and why."),
                               lambda body: dashboard.board.void(body.get("result"), body.get("who", ""),
                                                                 body.get("why", "")))

    @app.errorhandler(404)
    def not_found(_error):
        wrong = N_("No such page: the dashboard is at /, the projector's board at /board.")
        return jsonify(error=_(wrong)), 404

    @app.errorhandler(413)
    def too_big(_error):
        return jsonify(error=_(N_("This request is too big: a correction is a few hundred bytes."))), 413

    @app.errorhandler(Exception)
    def failed(error):
        if hasattr(error, "code") and isinstance(error.code, int) and error.code < 500:
            return jsonify(error=str(error)), error.code
        # The route, not the path: a director's path is its link.
        app.logger.exception("the dashboard failed on %s %s", request.method,
                             request.url_rule.rule if request.url_rule else "?")
        return jsonify(error=_(N_("The dashboard failed on this request; its log says why."))), 500

    @app.after_request
    def headers(response):
        return guarded(response)

    return app
