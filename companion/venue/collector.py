"""The dashboard's MQTT side: takes every table's messages into its board and acknowledges them."""

from __future__ import annotations

import json
import logging
import queue
import threading

from companion.venue import intake, topics
from companion.venue.board import Arrived, Board
from companion.venue.link import Broker, client

log = logging.getLogger(__name__)
BATCH = 500  # messages kept in one transaction at most


class Collector:
    """Subscribes to the venue's tables (a league's: every venue's, each kept as "venue/table"); a message
    its door refuses is set aside (acknowledged at its place in the table's stream, so the stream goes on),
    one log line a minute per table saying how many."""

    def __init__(self, board: Board, broker: Broker, venue: str, on_change=None, league: bool = False):
        self.board, self.venue, self.league = board, venue, league
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
            except Exception as exc:  # the disk, not a message: every message was checked at the door
                self.board.quiet.set_aside("(all)", f"{len(batch)} messages", f"{exc}: the tables will send "
                                           "them again")
                continue
            for (name, store), seq in acks.items():
                if self.league:  # back through the venue's bridge; its table tells it from its venue's
                    venue, table = name.split("/", 1)
                    self._client.publish(topics.table(venue, table, "ack"),
                                         json.dumps({"seq": seq, "store": store, "by": topics.LEAGUE}), qos=1)
                else:
                    self._client.publish(topics.table(self.venue, name, "ack"),
                                         json.dumps({"seq": seq, "store": store}), qos=1)
                self.on_change(name)

    def _on_connect(self, _client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            log.warning("the venue's broker refused the dashboard: %s", reason)
            return
        venue = "+" if self.league else self.venue  # a league's: every venue bridged to its broker
        self._client.subscribe([(topics.table(venue, "+", "update"), 1),
                                (topics.table(venue, "+", "status"), 1)])
        self.connected.set()

    def _on_message(self, _client, _userdata, message) -> None:
        # paho's own thread: whatever a message holds, nothing may escape (it would end the thread, and
        # the broker would hand the same message to the next dashboard).
        try:
            self._read(message.topic, message.payload)
        except Exception as exc:
            self.board.quiet.set_aside("(unknown)", f"a message on {message.topic!r:.80}",
                                       f"{type(exc).__name__}: {exc}")

    def _read(self, topic: str, payload: bytes) -> None:
        where = topics.parse(topic)
        if where is None or (where[0] != self.venue and not self.league):
            self.board.quiet.set_aside("(unknown)", f"a message on {topic!r:.80}",
                                       f"not a table's topic of venue {self.venue}")
            return
        venue, name, leaf = where
        if self.league:  # two venues' t1 are two tables of the league
            name = f"{venue}/{name}"
        try:
            if leaf == "status":
                changed = self.board.mark(name, intake.status(payload))
                if self.board.heard(name) or changed:  # a heartbeat alone changes no page
                    self.on_change(name)
            elif leaf == "update":
                sent = intake.envelope(payload)
            else:
                return
        except intake.Refused as exc:  # not even its place in the stream can be read: dropped
            shape = "JSON with seq, version, store and update" if leaf == "update" else '{"online": true}'
            self.board.quiet.set_aside(name, f"a message on {leaf}", f"{exc}; a table sends {shape}")
            return
        if leaf != "update":
            return
        self.board.heard(name)  # the keeper tells the pages once it is kept
        try:
            update, refused = intake.update(sent.update), None
        except intake.Refused as exc:  # set aside at its place: the board acknowledges it
            update, refused = None, str(exc)
        self._arrived.put(Arrived(name, sent.seq, sent.version, update, sent.store, sent.first, refused))
