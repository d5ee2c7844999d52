"""A table's sender thread: publishes its outbox in order, QoS 1, and forgets a message only when the
dashboard (not the broker) acknowledges it, and, for a table whose venue is in a league, the league's too."""

from __future__ import annotations

import json
import logging
import threading
import time
from datetime import UTC, datetime

from companion.outputs.venue.outbox import Message, Outbox
from companion.venue import topics
from companion.venue.link import Broker, client

log = logging.getLogger(__name__)
WINDOW = 200  # messages published ahead of the dashboard's acknowledgement
RESEND_AFTER = 3.0  # seconds without an acknowledgement before the unacknowledged are sent again
UNREACHABLE_AFTER = 5.0  # seconds without the broker before the table says so (a start's connection is not)


class Sender:
    """One thread; it sleeps while nothing waits to be sent (no polling at idle)."""

    def __init__(self, outbox: Outbox, broker: Broker, venue: str, name: str, league: str = "",
                 heartbeat: float = topics.HEARTBEAT):
        self.outbox, self.venue, self.name = outbox, venue, name
        self.heartbeat = heartbeat  # seconds between two "still here" at idle (the dashboard's bound)
        self._spoke = time.monotonic()  # when this table last published anything
        self.connected = False
        self._down_since = time.monotonic()  # since when it has not been connected
        self._wake = threading.Event()
        self._stop = False
        self._acked = 0  # the highest seq the dashboard acknowledged
        self._published = 0  # the highest seq published since the last (re)send
        self._progress = time.monotonic()
        self._lock = threading.Lock()
        self._league = None  # the league's acknowledgements, for a table whose venue is in one
        if league:
            from companion.outputs.venue.league import LeagueAcks

            self._league = LeagueAcks(self._progress, RESEND_AFTER, WINDOW)
        self._client = client(broker, f"table-{venue}-{name}")
        self._client.will_set(self._topic("status"), json.dumps({"online": False}), qos=1, retain=True)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_ack
        self._host, self._port = broker.host, broker.port
        self._thread = threading.Thread(target=self._run, name="venue-sender", daemon=True)

    def _topic(self, leaf: str) -> str:
        return topics.table(self.venue, self.name, leaf)

    def start(self) -> Sender:
        self._client.connect_async(self._host, self._port, keepalive=10)
        self._client.loop_start()
        self._thread.start()
        return self

    def wake(self, _update=None) -> None:
        """A command was committed (a table subscriber): its message may go now."""
        self._wake.set()

    def stop(self) -> None:
        self._stop = True
        self._wake.set()
        self._thread.join(5)
        if self.connected:
            self._client.publish(self._topic("status"), json.dumps({"online": False}), qos=1, retain=True)
        self._client.disconnect()
        self._client.loop_stop()

    def unreachable(self) -> bool:
        """Whether the broker has been out of reach for UNREACHABLE_AFTER seconds (the glass says so)."""
        return not self.connected and time.monotonic() - self._down_since >= UNREACHABLE_AFTER

    def waiting(self) -> int:
        """How many messages the dashboard has not acknowledged yet (the host page and e-ink say it)."""
        return self.outbox.waiting()

    # --- paho's thread ------------------------------------------------------------------
    def _on_connect(self, _client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            log.warning("the venue's broker refused the table: %s", reason)
            return
        self._client.subscribe(self._topic("ack"), qos=1)
        self._say_online()
        with self._lock:
            self.connected = True
            self._published = self._acked  # what was in flight may be lost: send it again
            if self._league is not None:
                self._league.reconnected()
        self._wake.set()

    def _say_online(self) -> None:
        """The retained status, with when (the table's clock): at each connection and as the heartbeat."""
        at = datetime.now(UTC).isoformat(timespec="seconds")
        self._client.publish(self._topic("status"), json.dumps({"online": True, "at": at}), qos=1,
                             retain=True)
        self._spoke = time.monotonic()

    def _on_disconnect(self, *_args) -> None:
        with self._lock:
            if self.connected:
                self._down_since = time.monotonic()
            self.connected = False

    def _on_ack(self, _client, _userdata, message) -> None:
        try:  # paho's thread: nothing may escape it (a full disk, say), or the thread ends
            self._acknowledged(message)
        except Exception as exc:
            log.warning("could not take the acknowledgement on %s (%s): the dashboard sends it again",
                        message.topic, exc)

    def _acknowledged(self, message) -> None:
        try:
            ack = json.loads(message.payload)
            seq, store = ack["seq"], ack["store"]
            if type(seq) is not int or type(store) is not str:
                raise TypeError(seq)
        except (ValueError, KeyError, TypeError, RecursionError):
            log.warning("ignored a malformed acknowledgement on %s", message.topic)
            return
        if store != self.outbox.stream:
            return  # it acknowledges another store's messages (this table's before a new store): not ours
        with self._lock:
            if ack.get("by") is not None:  # the league's dashboard, through the venue's bridge
                if (ack["by"] != topics.LEAGUE or self._league is None
                        or not self._league.acknowledged(seq, time.monotonic())):
                    return
            elif seq > self._acked:
                self._acked = seq
                self._progress = time.monotonic()
                self._published = max(self._published, seq)
            else:
                return
            # In a league, a message leaves the outbox once both dashboards have it.
            kept = self._acked if self._league is None else min(self._acked, self._league.acked)
        if kept:
            self.outbox.acknowledged(kept)
        self._wake.set()

    def _envelope(self, message: Message, first: int | None) -> str:
        return envelope(message, self.outbox.stream, first)

    # --- the sender's thread ------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop:
            with self._lock:
                connected, acked, published = self.connected, self._acked, self._published
                stalled = published > acked and time.monotonic() - self._progress > RESEND_AFTER
                if stalled:  # the dashboard missed some (it was away, or dropped a gap): from the first
                    self._published = published = acked
                    self._progress = time.monotonic()
                again = self._league.due(published, time.monotonic()) if self._league and connected else None
            if connected and time.monotonic() - self._spoke >= self.heartbeat:
                self._say_online()  # idle for a heartbeat: the dashboard must hear the table is alive
            messages = self.outbox.after(published, WINDOW - (published - acked)) if connected else []
            first = self.outbox.first() if messages or again else None
            # The league missed some (its bridge or its broker was away): to it again.
            league = self._league
            if again is not None and league is not None:
                for message in self.outbox.after(*again):
                    self._client.publish(self._topic("update"), self._envelope(message, first), qos=1)
                    with self._lock:
                        league.published(message.seq)
            newest = None
            for message in messages:
                self._client.publish(self._topic("update"), self._envelope(message, first), qos=1)
                newest = message
            if newest is not None:  # past the limit the broker would refuse it: the newest is then none
                self._spoke = time.monotonic()
                fits = len(newest.body.encode()) <= topics.MESSAGE_LIMIT
                self._client.publish(self._topic("snapshot"), newest.body if fits else "null", qos=1,
                                     retain=True)
                with self._lock:
                    if self._published == published:
                        self._published = newest.seq
                        if published == acked:
                            self._progress = time.monotonic()
                    if self._league is not None:
                        self._league.published(newest.seq)
            with self._lock:
                pending = self._published > self._acked or bool(
                    self._league and self._league.waiting(self._published))
            # Asleep until a commit, an acknowledgement or a connection; a timer only while some wait,
            # and, while connected, until the next heartbeat is due (disconnected: none, nothing to say).
            timeout = RESEND_AFTER if pending or (connected and messages) else None
            if connected:
                beat = max(0.0, self._spoke + self.heartbeat - time.monotonic())
                timeout = beat if timeout is None else min(timeout, beat)
            self._wake.wait(timeout)
            self._wake.clear()


def envelope(message: Message, stream: str, first: int | None) -> str:
    """A message of outbox `stream` as the dashboard reads it (companion/venue/intake.py); an update over
    the size a message may have goes as a stand-in the dashboard sets aside, so the stream goes on."""
    head = f'{{"seq":{message.seq},"version":{message.version},"store":"{stream}"'
    head += f',"first":{first}' if first is not None else ""
    whole = f'{head},"update":{message.body}}}'
    if len(whole.encode()) <= topics.MESSAGE_LIMIT:
        return whole
    log.warning("message %d (version %d) is over the %d bytes a venue message may have: the dashboard is "
                "told so instead", message.seq, message.version, topics.MESSAGE_LIMIT)
    return f'{head},"update":null}}'
