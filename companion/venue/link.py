"""The MQTT client of one side of a venue (a table's sender, the dashboard): paho-mqtt, TLS if asked."""

from __future__ import annotations

import logging
from dataclasses import dataclass

import paho.mqtt.client as mqtt


@dataclass(frozen=True)
class Broker:
    """Where the venue's broker is and how to log in to it."""

    host: str = "127.0.0.1"
    port: int = 1883
    username: str = ""
    password: str = ""
    tls: bool = False
    ca_file: str = ""  # the broker's CA, if not one the system trusts


def client(broker: Broker, client_id: str) -> mqtt.Client:
    """A client with a persistent session (QoS 1 messages queued for it while away are kept)."""
    made = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=client_id, clean_session=False)
    if broker.username:
        made.username_pw_set(broker.username, broker.password)
    if broker.tls:
        made.tls_set(ca_certs=broker.ca_file or None)
    # paho annotates whole seconds, but waits any number of them.
    made.reconnect_delay_set(min_delay=0.2, max_delay=5)  # type: ignore[arg-type]
    made.max_inflight_messages_set(100)
    made.max_queued_messages_set(0)
    # Each callback guards itself; should one ever miss, paho logs the fault instead of ending its thread.
    made.suppress_exceptions = True
    made.enable_logger(logging.getLogger(__name__))
    return made
