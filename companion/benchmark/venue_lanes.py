"""Many benchmark tables' senders over one MQTT connection: each table keeps its own topics, outbox, stream
and acknowledgements, and is published as its own Sender publishes it, without a thread of its own."""

from __future__ import annotations

import json
import logging
import select
import threading
import time
from dataclasses import dataclass, field

import paho.mqtt.client as paho

from companion.outputs.venue.outbox import Outbox
from companion.outputs.venue.sender import RESEND_AFTER, WINDOW, envelope
from companion.venue import topics
from companion.venue.link import Broker, client

log = logging.getLogger(__name__)
LEAVES = ("status", "snapshot", "update")  # what a table writes (access.acl)
SCAN = 0.5  # seconds between two looks for a stream the dashboard stopped acknowledging


class _Poll:
    """select.select as paho calls it, on poll(): select() cannot watch a descriptor past 1024, and the
    stores of hundreds of tables hold thousands of them (paho would then drop every connection it makes)."""

    error = OSError

    @staticmethod
    def select(rlist, wlist, _xlist, timeout=None):
        try:
            wanted: dict[int, tuple[object, int]] = {}
            for objects, mask in ((rlist, select.POLLIN), (wlist, select.POLLOUT)):
                for obj in objects:
                    fd = obj.fileno()
                    if fd < 0:
                        raise ValueError("a closed socket")
                    wanted[fd] = (obj, wanted.get(fd, (obj, 0))[1] | mask)
        except AttributeError:  # the socket is gone (None): paho's select raises the same
            raise TypeError("no socket") from None
        poller = select.poll()
        for fd, (_, mask) in wanted.items():
            poller.register(fd, mask)
        ready = poller.poll(None if timeout is None else int(timeout * 1000))
        readable = select.POLLIN | select.POLLHUP | select.POLLERR
        return ([wanted[fd][0] for fd, got in ready if got & readable and wanted[fd][1] & select.POLLIN],
                [wanted[fd][0] for fd, got in ready if got & select.POLLOUT], [])



@dataclass
class _Stream:
    """One table's side of the lane: what the dashboard acknowledged and what was published since."""

    outbox: Outbox
    acked: int = 0
    published: int = 0
    progress: float = field(default_factory=time.monotonic)


def acl(venue: str, login: str, tables: list[str]) -> str:
    """The broker's ACL section of one lane: it writes and reads exactly what its tables would."""
    lines = [f"user {login}"]
    for name in tables:
        lines += [f"topic write {topics.table(venue, name, leaf)}" for leaf in LEAVES]
        lines.append(f"topic read {topics.table(venue, name, 'ack')}")
    return "\n".join(lines) + "\n\n"


class Lane:
    """One connection and one thread for many tables: a table's commit wakes the lane (`wake(name)`), which
    publishes the table's unsent messages (at most Sender.WINDOW ahead of the dashboard's acknowledgement,
    resent from the first unacknowledged after RESEND_AFTER seconds without progress, and after a
    reconnection), its retained snapshot, and its retained status online."""

    def __init__(self, broker: Broker, venue: str, outboxes: dict[str, Outbox]):
        paho.select = _Poll  # type: ignore[assignment]  # in the bench's process only, not the dashboard's
        self.venue = venue
        self.connected = self.started = False
        self._streams = {name: _Stream(outbox) for name, outbox in outboxes.items()}
        self._dirty: set[str] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = False
        self._client = client(broker, broker.username)
        self._client.on_connect = self._on_connect
        self._client.on_disconnect = self._on_disconnect
        self._client.on_message = self._on_ack
        self._host, self._port = broker.host, broker.port
        self._thread = threading.Thread(target=self._run, name=f"bench-lane-{broker.username}", daemon=True)

    def start(self) -> Lane:
        self.started = True
        self._client.connect_async(self._host, self._port, keepalive=10)
        self._client.loop_start()
        self._thread.start()
        return self

    def wake(self, name: str) -> None:
        with self._lock:
            self._dirty.add(name)
        self._wake.set()

    def waiting(self) -> int:
        """Messages of this lane's tables the dashboard has not acknowledged yet."""
        return sum(stream.outbox.waiting() for stream in self._streams.values())

    def stop(self) -> None:
        if not self.started:
            return
        self._stop = True
        self._wake.set()
        self._thread.join(5)
        if self.connected:
            for name in self._streams:
                self._client.publish(topics.table(self.venue, name, "status"), json.dumps({"online": False}),
                                     qos=1, retain=True)
        self._client.disconnect()
        self._client.loop_stop()

    # --- paho's thread ------------------------------------------------------------------
    def _on_connect(self, _client, _userdata, _flags, reason, _properties) -> None:
        if reason.is_failure:
            log.warning("the broker refused the lane: %s", reason)
            return
        self._client.subscribe([(topics.table(self.venue, name, "ack"), 1) for name in self._streams])
        for name in self._streams:
            self._client.publish(topics.table(self.venue, name, "status"), json.dumps({"online": True}),
                                 qos=1, retain=True)
        with self._lock:
            self.connected = True
            for stream in self._streams.values():
                stream.published = stream.acked  # what was in flight may be lost: send it again
            self._dirty.update(self._streams)
        self._wake.set()

    def _on_disconnect(self, *_args) -> None:
        with self._lock:
            self.connected = False

    def _on_ack(self, _client, _userdata, message) -> None:
        try:
            where = topics.parse(message.topic)
            ack = json.loads(message.payload)
            stream = self._streams[where[1]] if where else None
            if stream is None or ack["store"] != stream.outbox.stream:
                return
            with self._lock:
                if ack["seq"] <= stream.acked:
                    return
                stream.acked = ack["seq"]
                stream.progress = time.monotonic()
                stream.published = max(stream.published, stream.acked)
                self._dirty.add(where[1])  # type: ignore[index]
            stream.outbox.acknowledged(ack["seq"])
            self._wake.set()
        except Exception as exc:  # paho's thread must go on
            log.warning("lane: could not take the acknowledgement on %s (%s)", message.topic, exc)

    # --- the lane's thread --------------------------------------------------------------
    def _run(self) -> None:
        scanned, pending = 0.0, False
        while not self._stop:
            self._wake.clear()  # before the dirty set is taken: a wake after this is not lost
            now = time.monotonic()
            with self._lock:
                dirty, self._dirty = self._dirty, set()
                connected = self.connected
                if now - scanned >= SCAN:  # stalled streams looked for twice a second, not at every wake
                    scanned, pending = now, False
                    for name, stream in self._streams.items():
                        if stream.published > stream.acked:
                            pending = True
                            if now - stream.progress > RESEND_AFTER:  # the dashboard missed some
                                stream.published, stream.progress = stream.acked, now
                                dirty.add(name)
            if connected:
                for name in dirty:
                    self._publish(name, self._streams[name])
                pending = pending or bool(dirty)
            else:
                with self._lock:
                    self._dirty |= dirty
            self._wake.wait(SCAN if pending else None)

    def _publish(self, name: str, stream: _Stream) -> None:
        with self._lock:
            published, acked = stream.published, stream.acked
        messages = stream.outbox.after(published, WINDOW - (published - acked))
        if not messages:
            return
        first = stream.outbox.first()
        for message in messages:
            self._client.publish(topics.table(self.venue, name, "update"),
                                 envelope(message, stream.outbox.stream, first), qos=1)
        newest = messages[-1]
        fits = len(newest.body.encode()) <= topics.MESSAGE_LIMIT
        self._client.publish(topics.table(self.venue, name, "snapshot"), newest.body if fits else "null",
                             qos=1, retain=True)
        with self._lock:
            if stream.published == published:
                stream.published = newest.seq
                if published == acked:
                    stream.progress = time.monotonic()
