"""Who may open one more live page: a cap per client address and per pool, a full pool shared fairly."""

from __future__ import annotations

from collections import Counter
from typing import Protocol, TypeVar

from companion.i18n import N_


class TooManyStreams(Exception):
    """No stream slot for this page: `msgid` and `params` say which limit and what to do."""

    def __init__(self, msgid: str, **params):
        super().__init__(msgid)
        self.msgid, self.params = msgid, params


class Held(Protocol):
    client: str  # the address the stream counts against (connections.client_of)


S = TypeVar("S", bound=Held)


def admit(streams: list[S], pool: list[S], client: str, per_client: int,
                   pool_limit: int | None) -> S | None:
    """Whether `client` may open one more stream: TooManyStreams if its address holds `per_client` of
    `streams` already, or if `pool` (the streams it would share, a subset of `streams`) holds `pool_limit`
    and is fair. Returns the stream to end to make room (see fair_share), or None."""
    if sum(1 for s in streams if s.client == client) >= per_client:
        raise TooManyStreams(N_("This device already has {limit} live pages open: close one and reload."),
                             limit=per_client)
    if pool_limit is None or len(pool) < pool_limit:
        return None
    evicted = fair_share(pool, client)
    if evicted is None:
        raise TooManyStreams(N_("Too many live pages are open ({limit}): close one on another phone "
                                "and reload."), limit=pool_limit)
    return evicted


def fair_share(pool: list[S], client: str) -> S | None:
    """The stream that gives way to `client`'s when the pool is full: the newest of the address holding
    the most, if it holds at least two more than `client` (so a full pool ends up shared evenly, and a
    few addresses cannot keep it from everyone else); None if the pool is fair."""
    held = Counter(s.client for s in pool)
    top, most = held.most_common(1)[0]
    if most < held[client] + 2:
        return None
    return next(s for s in reversed(pool) if s.client == top)


def requester(environ: dict) -> tuple[str, object | None]:
    """The address a request's live page counts against (connections.client_of: 127.0.0.x on loopback)
    and its connection, if waitress tells it (it hands the app the connection's own disconnect check)."""
    channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
    return getattr(channel, "client", "") or environ.get("REMOTE_ADDR") or "", channel


def end_on_hang_up(channel, end) -> None:
    """Call `end` the moment the client of `channel` (a connections.GuardedChannel) hangs up."""
    if channel is not None and hasattr(channel, "on_hang_up"):
        channel.on_hang_up = end
        if not channel.connected:  # gone before the hook was in place
            end()
