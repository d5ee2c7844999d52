"""The dashboard's pages: every table live, results and standings, the director's corrections, the
projector's board; the same stack as the table's phones (Flask, waitress, Server-Sent Events)."""

from __future__ import annotations

import secrets
from importlib.resources import files

from flask import Flask, Response, g, jsonify, render_template, request

from companion.i18n import LANGUAGES, N_, pick_language, translator
from companion.venue.board import CorrectionError
from companion.webapp.events import RETRY_MS, message

KEEPALIVE = 15.0
BY = ("places", "points")
BAD_DIRECTOR = N_("This director's link is not valid: use the link `companion venue` printed.")


def create_app(dashboard, keepalive: float = KEEPALIVE) -> Flask:
    web = files("companion.web")
    app = Flask(__name__, template_folder=str(web / "templates"), static_folder=str(web / "static"),
                static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = 16 * 1024
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    def lang() -> str:
        if "lang" not in g:
            chosen = request.args.get("lang")
            g.lang = chosen if chosen in LANGUAGES else pick_language(request.headers.get("Accept-Language"),
                                                                       dashboard.language)
        return g.lang

    def _(msgid: str, **params) -> str:
        return translator(lang())(msgid, **params)

    app.jinja_env.globals["_"] = _

    def state() -> dict:
        by = request.args.get("by") if request.args.get("by") in BY else "places"
        game = request.args.get("game") or None
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
        return jsonify(state())

    @app.get("/api/venue/events")
    def events():
        snapshot = state()
        args = dict(request.args)

        def stream():
            seen = dashboard.changes.version
            yield f"retry: {RETRY_MS}\n\n".encode() + message("venue", snapshot, seen)
            while not dashboard.changes.closed:
                now = dashboard.changes.wait(seen, keepalive)
                if now == seen:
                    yield b": keepalive\n\n"
                    continue
                seen = now
                with app.test_request_context(query_string=args):
                    yield message("venue", state(), seen)

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
        response.headers.setdefault("Referrer-Policy", "no-referrer")  # the director's link is a capability
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
        return response

    return app
