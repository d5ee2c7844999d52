"""The host's network controls under /api: what the Wi-Fi is doing, and the switch to the hotspot or back."""

from __future__ import annotations

from flask import Blueprint, request

from companion.outputs.webapp import _
from companion.outputs.webapp.api import ApiError, decode, host_token_given, require_host, runtime
from companion.outputs.webapp.openapi import NetworkBody

bp = Blueprint("network", __name__, url_prefix="/api")


@bp.route("/network", methods=["GET", "POST"])
def network():
    """GET: the network's state; POST: a switch. Both for the host only."""
    require_host(host_token_given(), "network")
    return switch() if request.method == "POST" else state()


def state():
    """The mode, the address phones use, and the hotspot's name and password (the panel
    shows them to the table; a stranger on the Wi-Fi never gets them over the API). `problem`: why the
    last switch failed, or why the state cannot be read ("unknown" mode), in the reader's language."""
    from companion.network.manager import NetworkError

    rt = runtime()
    part = rt.networking
    if part is None or part.network is None:
        return {"ok": True, "managed": False, "mode": "unmanaged", "url": rt.url}
    settings = part.config.network
    failed = part.problem
    out = {"ok": True, "managed": True, "url": rt.url,
           "hotspot": {"ssid": settings.ssid, "password": settings.password},
           "switching": part.switching, "problem": failed.said(_) if failed is not None else ""}
    try:
        status = part.network.status()
    except NetworkError as exc:
        return out | {"mode": "unknown", "problem": exc.said(_)}
    return out | {"mode": status.mode, "network": status.network, "address": status.address}


def switch():
    """Switch between joining the venue's Wi-Fi ("client") and being the network ("hotspot")."""
    body: NetworkBody = decode(NetworkBody)
    from companion.network.manager import NetworkError

    part = runtime().networking
    if part is None or part.network is None:
        raise ApiError(409, _("This table does not manage its network: set [network] mode in its config "
                              "(docs/network.md)."))
    try:
        part.switch(body.mode)
    except NetworkError:
        raise ApiError(409, _("The network is already switching: wait a moment.")) from None
    return {"ok": True, "mode": body.mode, "switching": True}, 202
