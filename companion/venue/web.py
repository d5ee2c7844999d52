"""The dashboard's pages: every table live, results and standings, the director's corrections, the
projector's board; the same stack as the table's phones (Flask, waitress, Server-Sent Events)."""

from __future__ import annotations

import secrets

from flask import Flask, Response, jsonify, render_template, request

from companion.i18n import N_, translator
from companion.serving.pages import guarded, new_app, reader_language
from companion.serving.sse import message, opening
from companion.venue.board import CorrectionError

KEEPALIVE = 15.0
BY = ("places", "points")
BAD_DIRECTOR = N_("This director's link is not valid: use the link `companion venue` printed.")


def create_app(dashboard, keepalive: float = KEEPALIVE) -> Flask:
    app = new_app(__name__, 16 * 1024)

    def lang() -> str:
        return reader_language(dashboard.language)

    def _(msgid: str, **params) -> str:
        return translator(lang())(msgid, **params)

    app.jinja_env.globals["_"] = _

    def state(asked) -> dict:
        """The dashboard as a page asked for it (`asked`: its query, `by` and `game`)."""
        by = asked.get("by") if asked.get("by") in BY else "places"
        game = asked.get("game") or None
        board = dashboard.board
        return {"venue": dashboard.venue, "tables": board.tables(), "results": board.results(),
                "standings": board.standings(by, game), "by": by, "game": game}

    def is_director(token: str) -> bool:
        return secrets.compare_digest(token.encode("utf-8", "replace"), dashboard.director.encode())

    def page(template: str, **more):
        return render_template(template, lang=lang(), venue=dashboard.venue, **more)

    @app.get("/")
    def tables():
        return page("venue/tables.html", director=None)

    @app.get("/board")
    def board():
        return page("venue/board.html")

    @app.get("/director/<token>")
    def director(token: str):
        if not is_director(token):
            return page("venue/refused.html", reason=_(BAD_DIRECTOR)), 403
        return page("venue/tables.html", director=token)

    @app.get("/api/venue")
    def api_state():
        return jsonify(state(request.args))

    @app.get("/api/venue/events")
    def events():
        args = dict(request.args)
        snapshot = state(args)

        def stream():
            seen = dashboard.changes.version
            yield opening(message("venue", snapshot, seen))
            while not dashboard.changes.closed:
                now = dashboard.changes.wait(seen, keepalive)
                if now == seen:
                    yield b": keepalive\n\n"
                    continue
                seen = now
                yield message("venue", state(args), seen)

        return Response(stream(), mimetype="text/event-stream",
                        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"})

    @app.post("/api/director/<token>/corrections")
    def correct(token: str):
        if not is_director(token):
            return jsonify(error=_(BAD_DIRECTOR)), 403
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify(error=_(N_("Send the correction as a JSON object: result, player, field, value, "
                                      "who and why."))), 400
        try:
            corrected = dashboard.board.correct(body.get("result"), body.get("player"), body.get("field"),
                                                body.get("value"), body.get("who", ""), body.get("why", ""))
        except CorrectionError as exc:
            return jsonify(error=_(exc.msgid, **exc.params)), 400
        dashboard.changes.bump()
        return jsonify(corrected)

    @app.post("/api/director/<token>/voids")
    def void(token: str):
        if not is_director(token):
            return jsonify(error=_(BAD_DIRECTOR)), 403
        body = request.get_json(silent=True)
        if not isinstance(body, dict):
            return jsonify(error=_(N_("Send the void as a JSON object: result, who and why."))), 400
        try:
            voided = dashboard.board.void(body.get("result"), body.get("who", ""), body.get("why", ""))
        except CorrectionError as exc:
            return jsonify(error=_(exc.msgid, **exc.params)), 400
        dashboard.changes.bump()
        return jsonify(voided)

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
        app.logger.exception("the dashboard failed on %s", request.path)
        return jsonify(error=_(N_("The dashboard failed on this request; its log says why."))), 500

    @app.after_request
    def headers(response):
        return guarded(response)

    return app
