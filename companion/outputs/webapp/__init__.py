"""The phone-facing web app: a Flask factory wiring pages, the JSON API and the SSE hub to a runtime."""

from __future__ import annotations

from typing import TYPE_CHECKING

from flask import Flask, current_app, g, request

from companion.core import registry
from companion.i18n import plural_forms, plural_translator, translator
from companion.outputs.webapp.pace import Pace
from companion.serving.pages import guarded, new_app, reader_language

if TYPE_CHECKING:
    from companion.outputs.webapp.runtime import Runtime

MAX_BODY = 64 * 1024  # a command is a few hundred bytes; anything bigger is a mistake or an attack


def request_language() -> str:
    """The language of this request: `?lang=`, then the cookie, then Accept-Language, then the table's."""
    return reader_language(current_app.extensions["companion"].language)


def request_game() -> str | None:
    """The game running when this request began: its pages and strings are the ones it gets."""
    if "game" not in g:
        g.game = current_app.extensions["companion"].table.moment.game
    return g.game


def _(msgid: str, **params) -> str:
    """`msgid` in this request's language, with `{name}` fields filled (pages, API and templates).

    The running game's own catalog comes first, so its templates and refusals are translated too.
    """
    return translator(request_language(), registry.find(request_game()))(msgid, **params)


def ngettext(singular: str, plural: str, n: int, **params) -> str:
    """`singular` or `plural` by the reader's language's plural rule, with `{n}` and `params` filled."""
    return plural_translator(request_language(), registry.find(request_game()))(singular, plural, n, **params)


def forms(singular: str, plural: str) -> list[str]:
    """A plural's forms for n = 0, 1 and more in the reader's language, for a page's script to pick."""
    return plural_forms(request_language(), registry.find(request_game()))(singular, plural)


def create_app(runtime: Runtime, *, keepalive: float = 15.0, max_streams: int = 24,
               per_client: int = 6, paced: Pace | None = None) -> Flask:
    """The app serving `runtime` (table, board, display, language, url).

    `keepalive` is the seconds between SSE comments; `max_streams` caps the public live pages (each
    seat has its own few), `per_client` the live pages of one address; serve() sizes waitress's
    threads from them. `paced` holds what phones send to a human pace (None: the default one).
    """
    from jinja2 import ChoiceLoader

    from companion.outputs.webapp import api, events, gamefiles, network, pages, seating, trust, venuelink

    app = new_app(__name__, MAX_BODY)
    app.extensions["companion"] = runtime
    app.extensions["companion.codes"] = trust.CodeAttempts()
    app.extensions["companion.pace"] = paced if paced is not None else Pace()
    names = trust.host_names(runtime.url)
    hub = events.Hub(runtime.table, keepalive=keepalive, max_streams=max_streams,
                     per_client=per_client).start()
    app.extensions["companion.hub"] = hub
    app.jinja_env.add_extension("jinja2.ext.i18n")
    # Old-style callables: `_` is our own function, so `{name}` fields work as they do in Python.
    app.jinja_env.install_gettext_callables(_, ngettext, newstyle=False)  # type: ignore[attr-defined]  # added by the i18n extension
    app.jinja_env.globals["_"] = _
    app.jinja_env.globals["plural_forms"] = forms
    assert app.jinja_env.loader is not None  # Flask's own, over the template folder
    app.jinja_env.loader = ChoiceLoader([app.jinja_env.loader, gamefiles.GameTemplates()])

    app.register_blueprint(api.bp)
    app.register_blueprint(gamefiles.bp)
    app.register_blueprint(seating.bp)
    app.register_blueprint(network.bp)
    app.register_blueprint(venuelink.bp)
    app.register_blueprint(pages.bp)
    app.register_error_handler(Exception, pages.handle_error)
    app.wsgi_app = _answered_first(app.wsgi_app, runtime.table.foreground)  # type: ignore[method-assign]  # Flask's documented way to wrap it

    @app.before_request
    def _our_name_only():
        # A page elsewhere may point its own name at the device: its requests then carry that name.
        if not trust.allowed_host(request.host, names):
            return pages.refuse_host()
        if request.method in trust.CHANGES and request.routing_exception is None:  # a wrong route is told so
            return _cross_site_refused()

    @app.after_request
    def _headers(response):
        if api.stale_host_token():
            # A long press on D replaced the host link: the browser drops the dead one (companion.js).
            response.headers["X-Host-Token-Stale"] = "1"
        return guarded(response)

    return app


def another_sites_refused():
    """The 403 for a request a page of another site sent through a browser at the table, else None."""
    from companion.outputs.webapp import trust
    from companion.outputs.webapp.api import error_response

    our_origin = f"{request.scheme}://{request.host}"
    if trust.from_our_own_page(request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site"),
                               our_origin):
        return None
    return error_response(403, _("This request comes from a page of another site: the table answers its "
                                 "own pages only. Open {url} instead.",
                                 url=current_app.extensions["companion"].url))


def _cross_site_refused():
    """A change must come as JSON from the table's own pages: a page on another site can send neither
    (a JSON body from there needs the table's leave, which it never gives), so it cannot use a phone's
    or the simulator's machine's standing to press buttons or send commands. None when it may go on."""
    from companion.outputs.webapp.api import error_response

    refused = another_sites_refused()
    if refused is not None:
        return refused
    if request.mimetype != "application/json":
        return error_response(415, _("Send the request as JSON, with its Content-Type header set to "
                                     "application/json."))
    return None


def _answered_first(wsgi_app, foreground):
    """Each request counts as work a player waits on until its answer is ready, so the e-ink render
    steps aside for it. A live page's answer is its stream, ready at once: the stream itself counts
    each update it carries (events.Stream)."""

    def counted(environ, start_response):
        with foreground.working():
            return wsgi_app(environ, start_response)

    return counted
