"""The dashboard's MQTT side: takes every table's messages into its board and acknowledges them."""

from __future__ import annotations

import json
import logging
import queue
import threading

from companion.venue import topics
from companion.venue.board import Board
from companion.venue.link import Broker, client

log = logging.getLogger(__name__)
BATCH = 500  # messages kept in one transaction at most


class Collector:
    """Subscribes to the venue's tables; a malformed message is logged with what was wrong, and dropped."""

    def __init__(self, board: Board, broker: Broker, venue: str, on_change=None):
        self.board, self.venue = board, venue
        self.on_change = on_change or (lambda name: None)
        self.connected = threading.Event()
        self._client = client(broker, f"dashboard-{venue}")
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = lambda *_: self.connected.clear()
        self._client.on_message = self._on_message
        self._host, self._port = broker.host, broker.port
        self._arrived: queue.Queue = queue.Queue()
        self._keeper = threading.Thread(target=self._keep, name="venue-keeper", daemon=True)

    def start(self) -> Collector:
        self._keeper.start()
        self._client.connect_async(self._host, self._port, keepalive=10)
        self._client.loop_start()
        return self

    def stop(self) -> None:
        self._client.disconnect()
        self._client.loop_stop()
        if self._keeper.is_alive():
            self._arrived.put(None)
            self._keeper.join(10)

    def _keep(self) -> None:
        """Keep what arrived, a burst in one transaction, then acknowledge it: an acknowledgement always
        follows the commit of what it acknowledges."""
        while (first := self._arrived.get()) is not None:
            batch = [first]
            while len(batch) < BATCH:
                try:
                    more = self._arrived.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._arrived.put(None)
                    break
                batch.append(more)
            try:
                acks = self.board.take_all(batch)
            except Exception:
                log.exception("could not keep %d messages: the tables will send them again", len(batch))
                continue
            for name, seq in acks.items():
                self._client.publish(topics.table(self.venue, name, "ack"), json.dumps({"seq": seq}), qos=1)
                self.on_change(name)

    def _on_connect(self, _client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            log.warning("the venue's broker refused the dashboard: %s", reason)
            return
        self._client.subscribe([(topics.table(self.venue, "+", "update"), 1),
                                (topics.table(self.venue, "+", "status"), 1)])
        self.connected.set()

    def _on_message(self, _client, _userdata, message) -> None:
        where = topics.parse(message.topic)
        if where is None or where[0] != self.venue:
            log.warning("ignored a message on %s: not a table's topic of venue %s", message.topic, self.venue)
            return
        _, name, leaf = where
        try:
            data = json.loads(message.payload)
            if leaf == "status":
                self.board.mark(name, data["online"] is True)
            elif leaf == "update":
                seq, version, update = data["seq"], data["version"], data["update"]
                whole = type(seq) is int and type(version) is int and seq >= 1
                if not whole or not isinstance(update, dict):
                    raise TypeError("seq and version must be whole numbers from 1, update an object")
                self._arrived.put((name, seq, version, update))
                return
            else:
                return
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("ignored a malformed message from table %s on %s (%s): a table sends JSON with seq, "
                        "version and update", name, message.topic, exc)
            return
        self.on_change(name)
