"""The table's address for phones: an IP address, since many phones and guest Wi-Fis cannot resolve .local."""

from __future__ import annotations

import socket

from companion.network.manager import Status


def routed_address() -> str:
    """This machine's address on its default route ("" without one). No packet is sent: connecting a
    UDP socket only picks the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like any outside address, never answered
            return probe.getsockname()[0]
        except OSError:
            return ""


def table_url(configured: str, port: int, status: Status | None = None) -> str:
    """What the join QR code carries: the configured url if any, else http://<IP>:<port>/ with the Wi-Fi's
    address (the hotspot's is fixed), else the routed one, else the .local name as a last resort."""
    if configured:
        return configured
    address = (status.address if status is not None else "") or routed_address()
    host = address if address and not address.startswith("127.") else f"{socket.gethostname()}.local"
    return f"http://{host}:{port}/"
