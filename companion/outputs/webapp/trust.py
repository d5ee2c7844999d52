"""Strangers on the network: the Host names the table answers to, the sites a change may come from, and a
slow-down on wrong join codes."""

from __future__ import annotations

import ipaddress
import logging
import socket
import threading
import time
from collections import OrderedDict
from urllib.parse import urlsplit

from companion.serving.quiet import LogPace

log = logging.getLogger(__name__)

FREE_TRIES = 5  # wrong codes an address may type before it has to wait (a typo or two, then more)
FIRST_WAIT = 15.0  # seconds after the first wrong code beyond those; each further one doubles it
LONGEST_WAIT = 3600.0
DOUBLINGS = 8  # 15 s doubled 8 times is past the longest wait
FORGET_AFTER = 24 * 3600.0  # an address that tried nothing for a day starts afresh
REMEMBERED = 1024  # addresses kept: a flood of them cannot grow memory without bound
# The table's own budget, whatever the addresses: a few phones' typos at once, then one wrong code a
# minute for the whole table (an attacker with many addresses gets no more than one with a single one).
TABLE_BURST = 30
TABLE_REFILL = 60.0  # seconds for the table to earn back one wrong code
LOG_EVERY = 60.0  # seconds between two log lines about wrong codes: a flood must not fill the journal


def host_names(url: str) -> frozenset[str]:
    """The names the table answers to besides IP addresses: its configured address's, its mDNS name."""
    name = socket.gethostname().lower()
    configured = (urlsplit(url).hostname or "").lower()
    return frozenset({"localhost", name, f"{name}.local", configured} - {""})


def allowed_host(header: str, names: frozenset[str]) -> bool:
    """Whether a request's Host header names this table.

    Any IP address is accepted (a browser that reached us by one is on the table's own network, and
    an address cannot be rebound the way a name can); a name must be one of `names`, so a page on
    another site cannot drive the table from a player's browser by pointing its name at the device.
    """
    host = header.strip().lower()
    if host.startswith("["):  # [v6]:port
        host = host[1:host.find("]")] if "]" in host else ""
    elif host.count(":") == 1:
        host = host.split(":", 1)[0]
    try:
        ipaddress.ip_address(host)
        return True
    except ValueError:
        return host.rstrip(".") in names


CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})  # the methods that change something


def from_our_own_page(origin: str | None, fetch_site: str | None, our_origin: str) -> bool:
    """Whether a change comes from one of the table's own pages, or from no page at all (a program).

    A browser names the page a request comes from (`Origin`, and `Sec-Fetch-Site` in recent ones); a
    page on another site, even on the same machine (another port), must not press the twin's buttons
    or send commands with the ambient rights of a phone or of the simulator's own machine.
    """
    if fetch_site is not None and fetch_site.strip().lower() != "same-origin":
        return False
    return origin is None or origin.strip().lower() == our_origin.lower()


def group_of(address: str) -> str:
    """The address a limit counts: an IPv6 address's /64 (one network hands a phone as many of those as
    it likes), an IPv4 address as it is (IPv4-mapped ones too)."""
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class CodeAttempts:
    """Typed join codes per client address (an IPv6 /64 is one), on the monotonic clock: a few wrong
    ones free, then a doubling wait that every try made while waiting extends; and for the whole table,
    a budget that refills slowly, so that many addresses gain little.

    While the table's budget is spent, an address that never typed a wrong code still gets its code
    checked, while the table remembers fewer than REMEMBERED addresses: a phone at the table that types
    the right code is not kept out by strangers, and strangers get at most REMEMBERED more checks a day.
    A scanned QR code carries a key no one can guess and never comes here.

    With 32⁴ = 1,048,576 codes, guessing one takes half of them on average: hopeless at one try an
    hour from one address, or one a minute from the whole network (docs/security.md counts it).
    """

    def __init__(self, clock=time.monotonic):
        self._clock = clock
        self._lock = threading.Lock()
        self._seen: OrderedDict[str, tuple[int, float]] = OrderedDict()  # address -> (wrong, last try)
        self._budget, self._budget_at = float(TABLE_BURST), clock()  # the table's tries left, and when
        self._spared: set[str] = set()  # addresses checked beyond a spent budget, until they are told
        self._log_pace = LogPace(LOG_EVERY, clock)  # one line about wrong codes a minute

    def admit(self, address: str) -> tuple[float, bool]:
        """Whether `address` may try a code now: (0, False), with one of the table's tries taken for it
        (succeeded() gives it back), or the seconds to wait and whether the wait is the table's. A try
        refused counts as a wrong code of the address's own, never the table's."""
        group = group_of(address)
        with self._lock:
            now = self._clock()
            self._forget(now)
            wrong, last = self._entry(group)
            own = max(0.0, last + self.delay(wrong) - now) if wrong else 0.0
            table_wait = 0.0
            if not own:
                self._budget = min(float(TABLE_BURST), self._budget + (now - self._budget_at) / TABLE_REFILL)
                self._budget_at = now
                if self._budget >= 1.0:
                    self._budget -= 1.0
                    return 0.0, False
                if not wrong and len(self._seen) < REMEMBERED:
                    self._spared.add(group)
                    return 0.0, False
                table_wait = (1.0 - self._budget) * TABLE_REFILL
            wrong = self._count(group, wrong, now)
            wait = max(own, table_wait, self.delay(wrong))
        if table_wait and not own:
            self._log(group, "join code: the table's wrong codes are spent; typed codes wait %.0f s "
                      "(a scanned QR code joins at once)", table_wait)
        return wait, not own and bool(table_wait)

    def wait(self, address: str) -> float:
        """Seconds `address` must still wait before its next try (0: it may try now)."""
        with self._lock:
            wrong, last = self._entry(group_of(address))
            return max(0.0, last + self.delay(wrong) - self._clock()) if wrong else 0.0

    def failed(self, address: str) -> float:
        """Count a wrong code; returns the wait it earns."""
        group = group_of(address)
        with self._lock:
            self._spared.discard(group)
            wrong = self._count(group, self._entry(group)[0], self._clock())
        delay = self.delay(wrong)
        if delay:
            self._log(group, "join code: %d wrong codes from %s; it waits %.0f s before the next", wrong,
                      group, delay)
        return delay

    def succeeded(self, address: str) -> None:
        """A right code: the address starts afresh, and the table gets back the try admit() took."""
        group = group_of(address)
        with self._lock:
            self._seen.pop(group, None)
            if group in self._spared:
                self._spared.discard(group)
            else:
                self._budget = min(float(TABLE_BURST), self._budget + 1.0)

    def _count(self, group: str, wrong: int, now: float) -> int:
        """One more wrong try for `group`, from now (the lock held)."""
        wrong += 1
        self._seen[group] = (wrong, now)
        self._seen.move_to_end(group)
        while len(self._seen) > REMEMBERED:
            self._seen.popitem(last=False)
        return wrong

    def _forget(self, now: float) -> None:
        """Drop the addresses that tried nothing for a day (the oldest come first; the lock held)."""
        while self._seen:
            _, (_, last) = next(iter(self._seen.items()))
            if now - last <= FORGET_AFTER:
                return
            self._seen.popitem(last=False)

    def _log(self, group: str, line: str, *args) -> None:
        """At most one line about wrong codes a minute, saying how many more it left out."""
        allowed = self._log_pace.allow("join code", group)
        if allowed is None:
            return
        left, addresses = allowed
        if left:
            log.warning("join code: %d more waits for %d addresses since the last line", left, addresses)
        log.warning(line, *args)

    @staticmethod
    def delay(wrong: int) -> float:
        """The wait after `wrong` wrong codes."""
        if wrong < FREE_TRIES:
            return 0.0
        doublings = min(wrong - FREE_TRIES, DOUBLINGS)  # a poller's count has no bound; the wait has
        return min(LONGEST_WAIT, FIRST_WAIT * 2 ** doublings)

    def _entry(self, address: str) -> tuple[int, float]:
        wrong, last = self._seen.get(address, (0, 0.0))
        if wrong and self._clock() - last > FORGET_AFTER:
            del self._seen[address]
            return 0, 0.0
        return wrong, last
