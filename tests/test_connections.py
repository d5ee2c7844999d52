"""Hostile clients on the network: stream hogs, slow and idle connections, a wall clock that jumps.

Every check runs on the real waitress server. Other clients are other loopback addresses
(127.0.0.2, 127.0.0.3, ...): Linux answers the whole of 127.0.0.0/8, so each is a separate client.
"""

from __future__ import annotations

import http.client
import socket
import time

import pytest
from polling import wait_for
from webfixtures import SSEClient, host_of, live_server, post_json, request, running_app

from companion.serving import connections


def stream(port: int, client: str, path: str = "/api/events", opened: str = "127.0.0.1"
           ) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection(opened, port, timeout=5, source_address=(client, 0))
    conn.request("GET", path, headers={"Accept": "text/event-stream"})
    return conn.getresponse()


def slow_client(port: int, client: str, opened: str = "127.0.0.1") -> socket.socket:
    """A connection from `client` to `opened` that starts a request and never finishes its headers."""
    sock = socket.create_connection((opened, port), timeout=5, source_address=(client, 0))
    sock.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    return sock


def closed_by_server(sock: socket.socket) -> bool:
    sock.settimeout(0.05)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_one_client_cannot_take_every_stream_and_seats_keep_their_own(tmp_path):
    with running_app(tmp_path, game="secret", max_streams=6, per_client=3) as (runtime, app), \
            live_server(app) as server:
        hog = [stream(server.port, "127.0.0.2") for _ in range(3)]
        assert [r.status for r in hog] == [200] * 3
        refused = stream(server.port, "127.0.0.2")
        assert refused.status == 503 and "3" in refused.read().decode()
        # Other strangers fill the public pool...
        others = [stream(server.port, f"127.0.0.{n}") for n in (3, 3, 3)]
        assert [r.status for r in others] == [200] * 3
        newcomer = stream(server.port, "127.0.0.4")  # takes the place of a page of an address holding 3
        assert newcomer.status == 200
        # ...and every seat still gets its own live page.
        token = runtime.table.seat_token(1)
        seat = stream(server.port, "127.0.0.5", f"/api/seat/{token}/events")
        assert seat.status == 200
        for response in [*hog, *others, newcomer, seat]:
            response.close()


def test_a_few_addresses_cannot_keep_the_public_pages_from_everyone_else(tmp_path):
    with running_app(tmp_path, keepalive=600, max_streams=24, per_client=6) as (runtime, app), \
            live_server(app) as server:
        hogs = {n: [SSEClient(server.port, client=f"127.0.1.{n}") for _ in range(6)] for n in range(1, 5)}
        pages = [page for held in hogs.values() for page in held]
        assert all(page.status == 200 for page in pages)  # four addresses hold the whole public pool
        newcomers = [SSEClient(server.port, client=f"127.0.2.{n}") for n in range(1, 21)]
        try:
            # Each newcomer's page took the place of the newest of the address holding the most...
            assert [page.status for page in newcomers] == [200] * 20
            for held in hogs.values():
                for page in held[1:]:
                    assert read_to_the_end(page)
            # ...until every address holds one: the pool is then as fair as it can be.
            assert SSEClient(server.port, client="127.0.2.99").status == 503
            assert post_json(server.port, "/api/command", {"kind": "roll"}, host_of(runtime))[0] == 200
            for page in [held[0] for held in hogs.values()] + newcomers:  # the pages left all carry on
                assert [page.next_event()["event"] for _ in range(2)] == ["snapshot", "update"]
        finally:
            for page in [*pages, *newcomers]:
                page.close()


def read_to_the_end(page: SSEClient) -> bool:
    """Read a live page until the server ends it (one it never ends times out)."""
    try:
        while True:
            page.next()
    except ConnectionError:
        return True


def test_a_closed_stream_frees_its_slot_at_once_not_at_the_next_keepalive(tmp_path):
    with running_app(tmp_path, keepalive=600, max_streams=1) as (_, app), live_server(app) as server:
        hub = app.extensions["companion.hub"]
        first = SSEClient(server.port)
        first.next_event()
        assert hub.open_streams == 1
        first.close()
        # The keepalive is ten minutes away: only the hang-up itself can free the slot.
        wait_for(lambda: hub.open_streams == 0, timeout=5)
        second = SSEClient(server.port)
        assert second.status == 200
        second.close()


@pytest.fixture
def quick_reaping(monkeypatch):
    monkeypatch.setattr(connections, "CLEANUP_EVERY", 0.2)


def test_slow_clients_are_dropped_and_new_phones_are_served(tmp_path, quick_reaping):
    """112 connections from 7 addresses, each sending a header line and no more: the connection limit
    (100) is full, yet a new phone is answered once the slow ones run out of time."""
    with running_app(tmp_path) as (_, app), \
            live_server(app, header_timeout=1.0, per_client=connections.PER_CLIENT) as server:
        slow = [slow_client(server.port, f"127.0.1.{n}") for n in range(7) for _ in range(16)]
        assert request(server.port, "GET", "/api/state", client="127.0.0.9", timeout=15)[0] == 200
        wait_for(lambda: all(closed_by_server(sock) for sock in slow), timeout=15)
        for sock in slow:
            sock.close()


def test_one_address_holds_a_bounded_number_of_connections(tmp_path):
    with running_app(tmp_path) as (_, app), live_server(app, per_client=connections.PER_CLIENT) as server:
        held = [slow_client(server.port, "127.0.0.2") for _ in range(connections.PER_CLIENT)]
        extra = slow_client(server.port, "127.0.0.2")
        wait_for(lambda: closed_by_server(extra), timeout=5)  # refused at once, not after a timeout
        assert not any(closed_by_server(sock) for sock in held)
        assert request(server.port, "GET", "/api/state", client="127.0.0.3")[0] == 200
        for sock in [*held, extra]:
            sock.close()


def test_each_loopback_address_a_browser_opens_is_a_client_of_its_own(tmp_path):
    """A whole table on one computer (README): a browser's connections to 127.0.0.2, 127.0.0.3, ... all
    come from 127.0.0.1, yet each address it opened holds its own connections and live pages."""
    with running_app(tmp_path, per_client=6) as (_, app), \
            live_server(app, host="0.0.0.0", per_client=connections.PER_CLIENT) as server:
        held = [slow_client(server.port, "127.0.0.1", "127.0.0.2") for _ in range(connections.PER_CLIENT)]
        extra = slow_client(server.port, "127.0.0.1", "127.0.0.2")
        wait_for(lambda: closed_by_server(extra), timeout=5)  # 127.0.0.2 holds all it may
        pages = [stream(server.port, "127.0.0.1", opened="127.0.0.3") for _ in range(6)]
        assert [page.status for page in pages] == [200] * 6
        refused = stream(server.port, "127.0.0.1", opened="127.0.0.3")
        assert refused.status == 503 and "6" in refused.read().decode()  # so do 127.0.0.3's live pages
        other = stream(server.port, "127.0.0.1", opened="127.0.0.4")  # the next phone of the table
        assert other.status == 200
        assert not any(closed_by_server(sock) for sock in held)
        for item in [*held, extra, *pages, refused, other]:
            item.close()


def test_a_configs_limits_per_address_are_the_servers(tmp_path):
    from simulator import running_simulator

    with running_simulator(tmp_path, connections_per_address=8, live_pages_per_address=2) as running:
        port = running.config.port
        pages = [stream(port, "127.0.0.2") for _ in range(2)]
        assert [page.status for page in pages] == [200] * 2
        refused = stream(port, "127.0.0.2")
        assert refused.status == 503 and "2" in refused.read().decode()
        held = [slow_client(port, "127.0.0.2") for _ in range(6)]  # with the two pages: 8
        extra = slow_client(port, "127.0.0.2")
        wait_for(lambda: closed_by_server(extra), timeout=5)
        assert not any(closed_by_server(sock) for sock in held)
        for item in [*pages, refused, *held, extra]:
            item.close()


@pytest.mark.parametrize("jump", [-86400, 86400])
def test_a_wall_clock_jump_does_not_stop_the_reaping(tmp_path, quick_reaping, monkeypatch, jump):
    """On a Pi with no real-time clock, NTP moves the clock by years at boot: idle connections must
    still go. The jump is injected into the wall clock waitress reads."""
    import waitress.channel
    import waitress.server

    real, offset = time.time, [0]
    monkeypatch.setattr(waitress.server.time, "time", lambda: real() + offset[0])
    monkeypatch.setattr(waitress.channel.time, "time", lambda: real() + offset[0])
    with running_app(tmp_path) as (_, app), live_server(app, channel_timeout=1) as server:
        idle = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        idle.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        idle.recv(65536)  # answered; the connection then sits idle (HTTP/1.1 keep-alive)
        offset[0] = jump  # the clock jumps while it idles
        wait_for(lambda: closed_by_server(idle), timeout=10)
        idle.close()
