"""The host's view of the venue link under /api: reachable or not, and how much waits to be sent."""

from __future__ import annotations

from flask import Blueprint

from companion.outputs.webapp.api import host_token_given, require_host, runtime

bp = Blueprint("venuelink", __name__, url_prefix="/api")


@bp.get("/venue")
def venue():
    """For the host only: whether the table publishes to a venue, reaches its broker, and what waits."""
    require_host(host_token_given(), "venue")
    link = runtime().venue
    if link is None:
        return {"ok": True, "venue": None}
    sender = link.sender
    return {"ok": True, "venue": sender.venue, "table": sender.name, "reachable": sender.connected,
            "waiting": sender.waiting()}
