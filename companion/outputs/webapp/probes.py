"""Port 80 on the table's hotspot: the answers that keep each phone OS on a network without internet,
and a redirect to the table's page for everything else (docs/network.md says why each answer)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, Response, redirect, request
from werkzeug.wrappers import Response as ResponseBase

APPLE_SUCCESS = "<HTML><HEAD><TITLE>Success</TITLE></HEAD><BODY>Success</BODY></HTML>"
# Firefox's captive-portal check wants exactly this body, status 200 (its captivedetect.canonicalContent).
FIREFOX_CANONICAL = '<meta http-equiv="refresh" content="0;url=https://support.mozilla.org/kb/captive-portal"/>'
# (host, path) -> (status, body, content type). A probe's answer is given only to its own name and path:
# every other request on port 80 is sent to the table's page, and no table data is ever served here.
PROBES: dict[tuple[str, str], tuple[int, str, str]] = {
    **{(host, path): (204, "", "text/plain") for host in (
        # www.gstatic.com: Chrome's own check, on every OS (CaptivePortalDetector::kDefaultURL)
        "connectivitycheck.gstatic.com", "connectivitycheck.android.com", "clients1.google.com",
        "clients3.google.com", "www.google.com", "play.googleapis.com", "www.gstatic.com")
        for path in ("/generate_204", "/gen_204")},
    **{(host, path): (200, APPLE_SUCCESS, "text/html") for host in (
        "captive.apple.com", "www.apple.com", "www.appleiphonecell.com", "www.itools.info",
        "www.ibook.info", "www.airport.us", "www.thinkdifferent.us") for path in (
        "/hotspot-detect.html", "/library/test/success.html")},
    ("www.msftconnecttest.com", "/connecttest.txt"): (200, "Microsoft Connect Test", "text/plain"),
    ("www.msftncsi.com", "/ncsi.txt"): (200, "Microsoft NCSI", "text/plain"),
    ("detectportal.firefox.com", "/success.txt"): (200, "success\n", "text/plain"),
    ("detectportal.firefox.com", "/canonical.html"): (200, FIREFOX_CANONICAL, "text/html"),
    ("nmcheck.gnome.org", "/check_network_status.txt"): (200, "NetworkManager is online\n", "text/plain"),
    ("connectivity-check.ubuntu.com", "/"): (204, "", "text/plain"),
}


def probe_answer(host_header: str, path: str) -> tuple[int, str, str] | None:
    """The answer a connectivity probe expects, if (host, path) is one; None otherwise."""
    host = host_header.strip().lower().rstrip(".")
    if host.endswith(":80"):
        host = host[:-3]
    return PROBES.get((host.rstrip("."), path))


def create_probe_app(table_url: Callable[[], str]) -> Flask:
    """The port-80 app: probes answered, anything else redirected to `table_url()` (read per request:
    the address changes with the network mode)."""
    # No static folder: Flask would root it in the working directory (no module is named companion.probes)
    # and serve its ./static, while port 80 serves nothing but the answers below and the redirect.
    app = Flask("companion.probes", static_folder=None)

    @app.route("/", defaults={"path": ""}, methods=["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"])
    @app.route("/<path:path>", methods=["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS"])
    def answer(path: str):
        found = probe_answer(request.headers.get("Host", ""), "/" + path)
        if found is not None and request.method in ("GET", "HEAD"):
            status, body, kind = found
            response: ResponseBase = Response(body, status=status, content_type=kind)
        else:
            response = redirect(table_url(), code=302)
        response.headers["Cache-Control"] = "no-store"  # a probe's answer must not be kept
        return response

    return app
