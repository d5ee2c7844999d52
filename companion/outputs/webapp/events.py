"""The SSE hub: one bounded queue per open page, fed from the table without ever blocking it."""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
from collections.abc import Callable

from companion.core.moment import Moment
from companion.core.seats import MAX_SEATS
from companion.core.table import Table
from companion.core.table.links import SEAT_GONE
from companion.i18n import N_, translator
from companion.outputs.public import public_payload, refusal
from companion.serving.slots import TooManyStreams, admit, end_on_hang_up
from companion.serving.sse import message, opening

log = logging.getLogger(__name__)
_CLOSE = object()
PANEL_STUCK = N_("The e-ink panel has stopped answering: switch the device off for a minute, then on again. "
                 "The game goes on here and on every phone.")


class Stream:
    """One open page. Iterating yields SSE bytes; close() (called by the server) frees its slot.

    A class, not a generator, so close() frees the slot even if the server never started iterating.
    """

    def __init__(self, hub: Hub, seat: int | None, lang: str, size: int, client: str = "",
                 token: str | None = None):
        self.hub, self.seat, self.lang, self.client = hub, seat, lang, client
        self.token = token  # a seat's page: the link it was opened with, checked before each message
        self.queue: queue.Queue = queue.Queue(maxsize=size)
        self.resync = False  # set by the table thread when this page fell behind
        self._sent = (-1, -1)  # the (version, seating) this page was sent last
        self._fault: str | None = None  # the panel's fault this page was told last (the table's status)
        self._started = False
        self._closed = False
        # Each queued moment is work a player waits on (hub.foreground) until this page has been handed
        # it: `_holding` is the one handed out last, settled when the server asks for the next.
        self._holding = False
        self._lock = threading.Lock()  # an offer and the close that drains the queue, one at a time

    # --- fed on the table thread: must never block ---------------------------------------
    def offer(self, moment: Moment) -> None:
        with self._lock:
            if self._closed:
                return
            self.hub.foreground.begin()
            try:
                self.queue.put_nowait(moment)
            except queue.Full:
                self.hub.foreground.end()
                self.resync = True

    def end(self) -> None:
        try:
            self.queue.put_nowait(_CLOSE)
        except queue.Full:
            self.resync, self._closed = True, True

    # --- iterated on a waitress worker thread ---------------------------------------------
    def __iter__(self) -> Stream:
        return self

    def __next__(self) -> bytes:
        if self._closed:
            raise StopIteration
        if not self._started:
            self._started = True
            return opening(self._snapshot())
        while True:
            self._settle()
            try:
                item = self.queue.get(timeout=self.hub.keepalive)
            except queue.Empty:
                return b": keepalive\n\n"
            if item is not _CLOSE:
                self._holding = True
            if self._closed:
                self.close()
                raise StopIteration
            if not self.holds():
                self.close()
                return self._gone()
            if item is _CLOSE:
                self.close()
                raise StopIteration
            if self.resync:
                self.resync = False
                self._drain()
                return self._snapshot()
            out = self._format(item)
            if out:
                return out

    def holds(self) -> bool:
        """Whether this page may still be told what it was opened for: a seat's page while its link is
        the seat's (the host frees the seat, gives it or makes it a new link: the page ends)."""
        return self.token is None or self.hub.holds(self.seat, self.token)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._settle()
            self._drain()
        self.hub._remove(self)

    def _settle(self) -> None:
        """The moment handed out last is with the server now: nobody waits on this page for it."""
        if self._holding:
            self._holding = False
            self.hub.foreground.end()

    def _drain(self) -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                item = self.queue.get_nowait()
                if item is _CLOSE:
                    self._closed = True
                else:
                    self.hub.foreground.end()

    def _payload(self, moment: Moment) -> dict:
        data = public_payload(moment, self.lang)
        if self.seat is not None:
            try:
                private = moment.secrets.view(self.seat)
            except Exception as exc:  # e.g. a new game with fewer seats; the page still gets the public view
                # Only the type: the message of a failed private view may quote the secret.
                log.error("private view of seat %d failed: %s", self.seat, type(exc).__name__)
                private = {}
            data |= {"seat": self.seat, "private": private, "legal": list(moment.seat_legal(self.seat))}
        return data

    def _snapshot(self) -> bytes:
        moment = self.hub.table.moment
        # Checked after reading the table's moment: a seat change is made before the moment that shows it,
        # so a link that still holds now held when `moment` was made.
        if not self.holds():
            self.close()
            return self._gone()
        self._sent = (moment.version, moment.seating)
        snapshot = message("snapshot", self._payload(moment), moment.version)
        self._fault = moment.status.panel_fault
        return snapshot + self._panel() if self._fault is not None else snapshot

    def _gone(self) -> bytes:
        """The last message of a seat's page whose link the host took back: how, in its words, so the page
        drops the seat at once instead of reconnecting to a link that no longer opens anything."""
        why = self.hub.table.links.seat_gone(self.token or "")
        return message("gone", {"gone": why, "message": translator(self.lang)(SEAT_GONE[why])})

    def _panel(self) -> bytes:
        """The panel's fault for this page: the table keeps playing, the glass needs a power cycle."""
        return message("panel", {"fault": self._fault is not None,
                                 "message": translator(self.lang)(PANEL_STUCK)})

    def _format(self, moment: Moment) -> bytes | None:
        if moment.rejected is not None:
            # A refusal is told to whoever could have sent it: a seat its own; the public pages only the
            # device's (its buttons are in everyone's view). A phone's refusal goes back in its own
            # answer, so the host's refused commands never show on the scoreboards.
            if self.seat is None:
                mine = moment.pressed is not None
            else:
                mine = moment.command is not None and moment.command.seat == self.seat
            if not mine:
                return None
            return message("rejected", {"version": moment.version,
                                        **refusal(moment.rejected, self.lang, moment.game, moment.seats)})
        # A seat change keeps the version and bumps `seating`: it is news to every page all the same.
        if (moment.version, moment.seating) <= self._sent:
            return None  # already in the snapshot this page got
        self._sent = (moment.version, moment.seating)
        told = self.hub.public_message(moment, self.lang) if self.seat is None else \
            message("update", self._payload(moment), moment.version)
        if moment.status.panel_fault != self._fault:  # the table keeps playing; the glass needs a power cycle
            self._fault = moment.status.panel_fault
            told += self._panel()
        return told


class Hub:
    """Subscribes once to the table and fans each moment out to every open stream."""

    def __init__(self, table: Table, *, keepalive: float = 15.0, max_streams: int = 24, per_client: int = 6,
                 per_seat: int = 2, queue_size: int = 32):
        self.table = table
        self.foreground = table.foreground
        self.keepalive = keepalive
        self.max_streams = max_streams  # the public pages' pool
        self.per_client = per_client  # live pages of any kind one address may hold
        self.per_seat = per_seat  # live pages of one seat: its phone, and a reload or a second tab
        self.queue_size = queue_size
        self._streams: list[Stream] = []
        self._lock = threading.Lock()
        self._encoded: dict[tuple[int, int, str], bytes] = {}  # the newest updates, as public pages get them
        self._unsubscribe: Callable[[], None] | None = None
        # Called after a page opens or closes: the server sizes its worker threads to the pages open.
        self.on_count: Callable[[], None] = lambda: None

    def start(self) -> Hub:
        self._unsubscribe = self.table.subscribe(self._fan_out)
        return self

    def close(self) -> None:
        """Stop listening to the table and end every open stream."""
        if self._unsubscribe:
            self._unsubscribe()
        self.end_streams()

    def end_streams(self) -> None:
        """End every open stream (their pages reconnect), so a server can shut down promptly."""
        with self._lock:
            streams = list(self._streams)
        for stream in streams:
            stream.end()

    @property
    def open_streams(self) -> int:
        return len(self._streams)

    @property
    def slots(self) -> int:
        """How many streams may be open at once: the public pool and every seat's own."""
        return self.max_streams + MAX_SEATS * self.per_seat

    def holds(self, seat: int | None, token: str) -> bool:
        """Whether `token` is still `seat`'s link."""
        return self.table.links.seat_holds(seat, token)

    def open(self, lang: str, seat: int | None = None, client: str = "", channel=None,
             token: str | None = None) -> Stream:
        """A new stream for one page in `lang`; TooManyStreams when its pool or its client is full.

        Public pages share one pool and each seat has its own, so strangers filling the public pool
        leave every seat its live page. A full public pool is shared: a newcomer's page takes the place
        of one of the address holding the most (see slots.fair_share). `channel` (the connection, if the
        server tells it) ends the stream the moment its client hangs up.
        """
        stream = Stream(self, seat, lang, self.queue_size, client, token)
        self._end_revoked()
        with self._lock:
            pool = [s for s in self._streams if s.seat == seat]
            # The public pool is shared fairly; each seat's is its own.
            evicted = admit(self._streams, pool, client, self.per_client,
                            self.max_streams if seat is None else None)
            if evicted is not None:
                self._streams = [s for s in self._streams if s is not evicted]
            if seat is not None and len(pool) >= self.per_seat:
                raise TooManyStreams(
                    N_("This seat already has {limit} live pages open: close one and reload."),
                    limit=self.per_seat)
            self._streams = [*self._streams, stream]
        self.on_count()
        if evicted is not None:
            evicted.end()
        end_on_hang_up(channel, stream.end)
        return stream

    def public_message(self, moment: Moment, lang: str) -> bytes:
        """A moment as every public page in `lang` gets it: encoded once for all of them, not once
        per page (24 scoreboards would otherwise encode each command 24 times)."""
        key = (moment.version, moment.seating, lang)
        encoded = self._encoded.get(key)
        if encoded is None:
            encoded = message("update", public_payload(moment, lang), moment.version)
            with self._lock:
                self._encoded[key] = encoded
                while len(self._encoded) > 8:  # a few versions in a few languages: pages keep up
                    del self._encoded[next(iter(self._encoded))]
        return encoded

    def _end_revoked(self) -> None:
        """End the pages of links that no longer hold, freeing their slots now: a seat's new holder is
        never refused for pages its old link left open (each also ends at its next message)."""
        revoked = [s for s in self._streams if not s.holds()]
        for stream in revoked:
            self._remove(stream)
            stream.end()

    def _remove(self, stream: Stream) -> None:
        with self._lock:
            self._streams = [s for s in self._streams if s is not stream]
        self.on_count()

    def _fan_out(self, moment: Moment) -> None:
        # Runs on the table thread: a copy-on-write list and put_nowait only.
        for stream in self._streams:
            stream.offer(moment)
