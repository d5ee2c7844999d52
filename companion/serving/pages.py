"""What every page of both servers shares: the reader's language, the app's folders and its headers."""

from __future__ import annotations

from importlib.resources import files

from flask import Flask, Response, g, request
from flask.json.provider import DefaultJSONProvider

from companion.i18n import LANGUAGES, pick_language

LANG_COOKIE = "lang"


def new_app(name: str, max_body: int) -> Flask:
    """A Flask app on the shared templates and static files (web/), JSON kept in the order it is built."""
    web = files("companion.web")
    app = Flask(name, template_folder=str(web / "templates"), static_folder=str(web / "static"),
                static_url_path="/static")
    app.config["MAX_CONTENT_LENGTH"] = max_body
    json = app.json
    assert isinstance(json, DefaultJSONProvider)  # Flask's own, as no json_provider_class is set
    json.ensure_ascii = False
    json.sort_keys = False
    return app


def reader_language(default: str) -> str:
    """This request's language: `?lang=`, then the cookie, then Accept-Language, then `default`."""
    if "lang" not in g:
        chosen = request.args.get("lang") or request.cookies.get(LANG_COOKIE)
        g.lang = chosen if chosen in LANGUAGES else pick_language(request.headers.get("Accept-Language"),
                                                                   default if default in LANGUAGES else "fr")
    return g.lang


def guarded(response: Response) -> Response:
    """The headers every answer carries; a `?lang=` choice is kept in a cookie for the next page."""
    # Seat, host and director links carry capabilities in the URL: never hand them on as a Referer.
    response.headers.setdefault("Referrer-Policy", "no-referrer")
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # No page is meant to be framed: a frame on another site could make its buttons be clicked unseen.
    response.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    response.headers.setdefault("X-Frame-Options", "DENY")
    lang = request.args.get("lang")
    if lang in LANGUAGES and request.cookies.get(LANG_COOKIE) != lang:
        response.set_cookie(LANG_COOKIE, lang, max_age=365 * 24 * 3600, samesite="Lax")
    return response
