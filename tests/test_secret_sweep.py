"""Every route, every token, every body: no answer, stream, log line or e-ink view leaks another's secret."""

from __future__ import annotations

import json
import logging
import re
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from webfixtures import (
    SECRET,
    FakeBoard,
    FakeDisplay,
    SSEClient,
    changed,
    install_secret_game,
    live_server,
    plug_game,
    post_json,
    running_app,
)

from companion.core.seats import MAX_SEATS
from companion.devices.panels import DEFAULT_PANEL, panel
from companion.gamekit.contract import Command
from companion.outputs.frames import render, table_info

SECRETS = {0: "SECRET-HAND-ZERO", 1: "SECRET-HAND-ONE"}
WRONG = "wR0ng-t0ken-that-n0-seat-has"  # shaped like a real token (token_urlsafe(18) is 24 characters)
SWEPT_METHODS = ("GET", "POST")
URL = "http://192.168.1.20:8080/"  # the runtime's url in webfixtures


@dataclass(frozen=True)
class Who:
    """One requester: the token it holds (None: none at all) and the seat it is, if any."""

    name: str
    token: str | None
    seat: int | None = None

    def header_sets(self) -> list[dict]:
        if self.token is None:
            return [{}]
        return [{"X-Host-Token": self.token}, {"X-Seat-Token": self.token}]


def requesters(table) -> list[Who]:
    """Read afresh before each request: a host's reissue or free gives a seat a new token."""
    return [Who("nobody", None), Who("host", table.host_token()),
            Who("seat 0", table.seat_token(0), 0), Who("seat 1", table.seat_token(1), 1), Who("wrong", WRONG)]


def tokens(table) -> dict[str, str]:
    """Every capability the table has handed out or would: token -> whose it is."""
    out = {table.seat_token(seat): f"seat {seat}" for seat in range(MAX_SEATS)}
    return out | {table.host_token(): "host"}


@dataclass
class Asked:
    """One request of the sweep, for the rules that say what its answer may hand out."""

    who: Who
    args: dict
    body: object
    status: int
    answer: dict | None
    after: dict[str, str]  # tokens as they are after the request

    def seat_token_after(self, seat: int) -> str:
        return next(token for token, owner in self.after.items() if owner == f"seat {seat}")


def nothing(asked: Asked) -> set[str]:
    return set()


def joined_seat(asked: Asked) -> set[str]:
    # A phone that joins a free seat gets that seat's link: from now on it is that seat.
    return {asked.seat_token_after(asked.body["seat"])} if asked.status == 200 else set()


def claimed_host(asked: Asked) -> set[str]:
    # The first phone with the join code becomes the host.
    return {asked.answer["token"]} if asked.status == 200 else set()


def minted_for_host(asked: Asked) -> set[str]:
    # The host hands out seat links: assign and reissue answer it the seat's new token.
    if asked.status == 200 and asked.who.name == "host":
        return {asked.seat_token_after(int(asked.args["seat"]))}
    return set()


def command_bodies(who: Who, code: str) -> list:
    # A seat whispers its own secret: recorded in the command's args, which the host's export must hide.
    return [{"kind": "say"}, {"kind": "say", "args": {"word": SECRETS.get(who.seat, "")}},
            {"kind": "say", "host_token": who.token}, {"kind": "shout"}, {"kind": "undo"},
            {"kind": "end_game"}, {"kind": "new_game", "args": {"game": "secret"}},
            {"kind": "new_game", "args": {"game": "dice"}}]


def join_bodies(who: Who, code: str) -> list:
    return [{"code": code, "seat": 2, "name": "Eve"}, {"code": code, "seat": 0, "name": "Mallory"},
            {"code": code.lower(), "seat": 1, "name": "Trudy"}, {"code": "ZZZZ", "seat": 3, "name": "Oscar"}]


def garbage_bodies(who: Who, code: str) -> list:
    """Sent to every POST: the token is in some, so an echo in an error or a log line would show."""
    token = who.token or "none"
    return [b"", b"{", b"null", b"\xff\xfe", b"[1, 2]", {"kind": 3},
            {"token": token, "args": {"token": token}}, {"code": token, "seat": "0", "name": token}]


@dataclass(frozen=True)
class Rule:
    """How to sweep one route: its plausible POST bodies, whether it is a seat's own private route
    (where that seat, with its own token in the path, may see its secret), whether it streams, and
    which tokens a successful answer hands the requester."""

    bodies: Callable[[Who, str], list] = lambda who, code: []
    private: bool = False
    stream: bool = False
    grants: Callable[[Asked], set[str]] = nothing


RULES: dict[str, Rule] = {
    "/": Rule(),
    "/device": Rule(),
    "/seat/<token>": Rule(private=True),
    "/static/<path:filename>": Rule(),
    "/games/<name>/<file>": Rule(),
    "/api/state": Rule(),
    "/api/command": Rule(bodies=command_bodies),
    "/api/export": Rule(),
    "/api/record": Rule(),  # a finished game's record: refused while the game (and its secrets) runs
    "/api/events": Rule(stream=True),
    "/api/seat/<token>": Rule(private=True),
    "/api/seat/<token>/events": Rule(private=True, stream=True),
    "/api/device": Rule(),
    "/api/device/frame.png": Rule(),
    "/api/device/press": Rule(bodies=lambda who, code: [{"button": "roll"}, {"button": "a", "hold": True}]),
    "/api/openapi.json": Rule(),
    "/api/seats": Rule(),
    "/api/join": Rule(bodies=join_bodies, grants=joined_seat),
    "/api/host/claim": Rule(bodies=lambda who, code: [{"code": code}, {"code": "nope"}], grants=claimed_host),
    "/api/host": Rule(),
    "/api/seats/<int:seat>/assign": Rule(bodies=lambda who, code: [{"name": "Eve"}], grants=minted_for_host),
    "/api/seats/<int:seat>/free": Rule(bodies=lambda who, code: [{}]),
    "/api/seats/<int:seat>/reissue": Rule(bodies=lambda who, code: [{}], grants=minted_for_host),
    "/api/language": Rule(bodies=lambda who, code: [{"language": lang} for lang in ("en", "fr", "xx")]),
    "/api/games": Rule(),
    "/api/network": Rule(bodies=lambda who, code: [{"mode": "hotspot"}, {"mode": "xx"}]),
    "/api/qr": Rule(bodies=lambda who, code: [{"text": f"{URL}seat/{who.token}"}, {"text": ""}]),
    "/api/venue": Rule(),
    "/join": Rule(),
    "/j/<code>": Rule(),
    "/host": Rule(),
    "/network-help": Rule(),
}

# Values for each path variable; a token in the path is always the requester's own.
ARGS: dict[str, Callable[[Who], list[str]]] = {
    "token": lambda who: [who.token or ""],
    "seat": lambda who: ["0", "1", "2"],
    "filename": lambda who: ["seat.js", "nope.js"],
    "name": lambda who: ["secret", "dice"],
    "file": lambda who: ["scoreboard.js", "style.css", "nope.js", who.token or "none"],
    "code": lambda who: ["ABCD", "<b>", who.token or "none"],
}


@dataclass
class Sweep:
    """A running secret game with seats 0 and 1 taken, its app, and what the sweep saw."""

    runtime: object
    app: object
    screens: list = field(default_factory=list)  # (view, table info) the e-ink screen was given
    updates: list = field(default_factory=list)  # accepted updates, to render as the daemon does
    seen: set = field(default_factory=set)  # every token the table has had, for the log check
    requests: int = 0
    own_secrets: Counter = field(default_factory=Counter)  # answers showing a seat its own secret
    granted: Counter = field(default_factory=Counter)  # answers handing out a token, by route

    @property
    def table(self):
        return self.runtime.table

    def restore(self) -> None:
        """Back to the secret game after a host's end_game or new_game, so the secrets stay to be leaked."""
        if self.table.latest.game != "secret":
            assert self.table.call(Command("new_game", {"game": "secret"})).ok


def route_cases(rule_path: str, who: Who) -> list[dict]:
    """The path arguments to try for a route, one dict per URL."""
    combos: list[dict] = [{}]
    for name in _variables(rule_path):
        if name not in ARGS:
            pytest.fail(f"route {rule_path} takes <{name}>, which the sweep has no values for: add it to "
                        "ARGS in tests/test_secret_sweep.py")
        combos = [{**c, name: value} for c in combos for value in ARGS[name](who)]
    return combos


def _variables(rule_path: str) -> list[str]:
    return re.findall(r"<(?:[^:>]+:)?(\w+)>", rule_path)


def build(rule_path: str, args: dict) -> str:
    return re.sub(r"<(?:[^:>]+:)?(\w+)>", lambda m: args[m.group(1)], rule_path)


def assert_clean(text: str, who: Who, private_own: bool, allowed: set[str], known: dict[str, str],
                 where: str) -> None:
    """No secret but the requester's own on its own private route; no token but its own or one granted."""
    for seat, secret in SECRETS.items():
        if secret in text:
            assert private_own and who.seat == seat, f"{who.name} sees seat {seat}'s secret: {where}"
    for token, owner in known.items():
        if token in text:
            assert token == who.token or token in allowed, f"{who.name} sees {owner}'s token: {where}"


def read_answer(client, method: str, path: str, headers: dict, body, stream: bool):
    """Status, text (headers included) and JSON of one answer; a stream is read up to its snapshot."""
    data = body if isinstance(body, bytes) or body is None else json.dumps(body)
    response = client.open(path, method=method, headers=headers, data=data, content_type="application/json",
                           buffered=not stream)
    try:
        if stream and response.status_code == 200:
            payload = next(iter(response.response))  # the retry hint and the snapshot; then it waits
        else:
            payload = response.get_data()
    finally:
        response.close()  # frees a stream's slot
    text = f"{response.headers}\n{payload.decode('utf-8', 'replace')}"
    answer = response.get_json(silent=True) if not stream and response.is_json else None
    return response.status_code, text, answer


def sweep(state: Sweep, client, *, garbage: bool = True) -> None:
    """Every route of the url_map, both methods, every requester and every place its token goes."""
    table = state.table
    # The host claim first: the first use of the host link claims the host, after which no claim
    # can hand out a token any more.
    for rule in sorted(state.app.url_map.iter_rules(), key=lambda rule: rule.rule != "/api/host/claim"):
        if rule.rule not in RULES:
            pytest.fail(f"route {rule.rule} has no sweep rule: add one to RULES in "
                        "tests/test_secret_sweep.py saying whether it is a seat's private route, streams, "
                        "or hands out a token")
        for method in SWEPT_METHODS:
            for index in range(len(requesters(table))):
                for variant in range(len(requesters(table)[index].header_sets())):
                    ask_all(state, client, rule, method, index, variant, garbage)


def ask_all(state: Sweep, client, rule, method: str, index: int, variant: int, garbage: bool) -> None:
    """One requester's requests to one route: each path and body, its token read afresh for each."""
    table, how = state.table, RULES[rule.rule]

    def current() -> tuple[Who, str, list]:
        who, code = requesters(table)[index], table.roster.join_code()
        bodies: list = [None]
        if method == "POST" and method in rule.methods:
            bodies = how.bodies(who, code) + (garbage_bodies(who, code) if garbage else [])
        return who, code, bodies

    who, _, bodies = current()
    for a in range(len(route_cases(rule.rule, who))):
        for b in range(len(bodies)):
            who, _, bodies = current()  # a host's reissue or free just now gives a seat a new token
            args, body, headers = route_cases(rule.rule, who)[a], bodies[b], who.header_sets()[variant]
            before = tokens(table)
            url = build(rule.rule, args)
            status, text, answer = read_answer(client, method, url, headers, body, how.stream)
            after = tokens(table)
            state.seen |= set(before) | set(after)
            state.requests += 1
            private_own = how.private and who.seat is not None and args.get("token") == who.token
            where = f"{method} {rule.rule} as {who.name} with {sorted(headers)} body {body!r} -> {status}"
            grants = how.grants(Asked(who, args, body, status, answer, after))
            assert_clean(text, who, private_own, grants, before | after, where)
            if private_own:
                state.own_secrets[who.seat] += SECRETS[who.seat] in text
            state.granted[rule.rule] += any(token in text for token in grants)
            state.restore()


def render_updates(state: Sweep) -> None:
    """Draw each accepted update as the daemon does; the spy screen keeps what it was handed."""
    updates, state.updates[:] = list(state.updates), []
    for update in updates:
        if update.rejected is None and update.game is not None:
            info = table_info(state.table.moment, URL)
            render(update.game, update.public, panel(DEFAULT_PANEL), "fr", info)


def assert_screens_clean(state: Sweep) -> None:
    assert state.screens, "the sweep drew no secret-game frame: the e-ink check saw nothing"
    for view, info in state.screens:
        text = f"{view!r} {info!r}"
        assert not any(secret in text for secret in SECRETS.values()), text
        assert not any(token in text for token in state.seen), text
    state.screens.clear()


def assert_logs_clean(state: Sweep, caplog) -> None:
    for record in caplog.records:
        line = f"{record.getMessage()} {record.exc_text or ''}"
        assert not any(secret in line for secret in SECRETS.values()), line
        assert not any(token in line for token in state.seen), line
    assert not any(secret in caplog.text for secret in SECRETS.values())
    assert not any(token in caplog.text for token in state.seen)


@pytest.fixture
def secret_table(tmp_path, monkeypatch, caplog):
    install_secret_game(monkeypatch)
    state: list[Sweep] = []
    # The secret game's screen draws nothing: a spy in its place records what the e-ink was handed.
    spy = changed(SECRET, screen=lambda view, canvas, tr, info: state[0].screens.append((view, info)))
    plug_game(monkeypatch, spy)
    caplog.set_level(logging.DEBUG)
    with running_app(tmp_path, game="secret", keepalive=0.2, board=FakeBoard(),
                     display=FakeDisplay(b"\x89PNG-frame")) as (runtime, app):
        state.append(Sweep(runtime, app))
        table = runtime.table
        table.subscribe(state[0].updates.append)
        for seat, name in ((0, "Alice"), (1, "Bob")):
            table.seating(lambda roster, count, seat=seat, name=name: roster.claim(seat, name, count))
        state[0].updates.append(table.latest)
        yield state[0]


def test_the_sweep_covers_every_route_and_catches_a_leak(secret_table):
    """The sweep's own check: it knows every route, and a seat's secret where it must not be fails it."""
    state = secret_table
    assert {rule.rule for rule in state.app.url_map.iter_rules()} == set(RULES)
    seat0 = requesters(state.table)[2]
    known = tokens(state.table)
    assert_clean("SECRET-HAND-ZERO", seat0, True, set(), known, "own private route")
    with pytest.raises(AssertionError, match="seat 1's secret"):
        assert_clean("SECRET-HAND-ONE", seat0, True, set(), known, "another seat's secret")
    with pytest.raises(AssertionError, match="seat 0's secret"):
        assert_clean("SECRET-HAND-ZERO", seat0, False, set(), known, "own secret on a public route")
    with pytest.raises(AssertionError, match="seat 1's token"):
        assert_clean(f"link /seat/{state.table.seat_token(1)}", seat0, False, set(), known, "a token")


def test_no_route_leaks_a_secret_or_a_token_to_anyone(secret_table, caplog):
    state = secret_table
    sweep(state, state.app.test_client())
    render_updates(state)
    print(f"swept {state.requests} requests; own secrets shown {dict(state.own_secrets)}; "
          f"tokens handed out {+state.granted}")
    assert state.requests > 1000  # every route, method, requester, token place and body
    # The sweep reached what it guards: each seat's own secret on its private routes, and the answers
    # that hand out a token (join, host claim, assign, reissue).
    assert state.own_secrets[0] >= 3 and state.own_secrets[1] >= 3
    assert {"/api/join", "/api/host/claim", "/api/seats/<int:seat>/assign",
            "/api/seats/<int:seat>/reissue"} <= {route for route, n in state.granted.items() if n}
    assert_screens_clean(state)
    assert_logs_clean(state, caplog)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(says=st.lists(st.sampled_from(sorted(SECRETS)), max_size=6))
@pytest.mark.slow
def test_no_leak_whatever_the_seats_said_before(secret_table, caplog, says):
    state = secret_table
    client = state.app.test_client()
    for seat in says:
        response = client.post("/api/command", json={"kind": "say"},
                               headers={"X-Seat-Token": state.table.seat_token(seat)})
        assert response.status_code == 200, response.get_json()
    if says:
        assert state.table.latest.public["said"][-len(says):] == says
    sweep(state, client, garbage=False)  # the garbage bodies do not depend on the state
    render_updates(state)
    assert_screens_clean(state)
    assert_logs_clean(state, caplog)
    caplog.clear()


# --- the live streams, on a real server ------------------------------------------------------
def read_for(client: SSEClient, seconds: float) -> list[dict]:
    """Every message a stream sends in `seconds` (keepalives come every 0.2 s, so a read never hangs)."""
    messages, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            messages.append(client.next())
        except (TimeoutError, ConnectionError, OSError):
            break
    return messages


def test_live_streams_carry_only_the_requesters_secret(secret_table, caplog):
    state = secret_table
    table = state.table
    with live_server(state.app) as server:
        opened: list[tuple[Who, str, dict, SSEClient, bool]] = []
        try:
            for who in requesters(table):
                for headers in who.header_sets():
                    own = f"/api/seat/{who.token or ''}/events"
                    for path, private in (("/api/events", False), (own, True)):
                        client = SSEClient(server.port, path, headers=headers)
                        opened.append((who, path, headers, client, private and who.seat is not None))
            # Accepted and refused commands from both seats, while every stream is open.
            for seat in SECRETS:
                token = {"X-Seat-Token": table.seat_token(seat)}
                assert post_json(server.port, "/api/command", {"kind": "say"}, token)[0] == 200
                assert post_json(server.port, "/api/command", {"kind": "shout"}, token)[0] == 409
            known = tokens(table)
            state.seen |= set(known)
            own_secret_seen = set()
            live = [entry[3] for entry in opened if entry[3].status == 200]
            with ThreadPoolExecutor(len(live)) as pool:  # all read at once, so the moment is the same
                read = dict(zip(live, pool.map(lambda client: read_for(client, 0.6), live), strict=True))
            for who, path, headers, client, private_own in opened:
                where = f"GET {path} as {who.name} with {sorted(headers)}"
                assert_clean(json.dumps(client.headers), who, private_own, set(), known, where)
                if client.status != 200:
                    assert_clean(client.response.read().decode(), who, private_own, set(), known, where)
                    continue
                messages = read[client]
                events = [m["event"] for m in messages if m["data"] is not None]
                assert events[0] == "snapshot" and events.count("update") >= 2, (where, events)
                for message in messages:
                    text = json.dumps(message, ensure_ascii=False)
                    assert_clean(text, who, private_own, set(), known, where)
                    if private_own and SECRETS[who.seat] in text:
                        own_secret_seen.add(who.seat)
                if private_own:
                    assert events.count("rejected") == 1, (where, events)  # its own refusal, not the other's
            assert own_secret_seen == set(SECRETS)  # each seat's own stream did carry its secret
        finally:
            for *_, client, _ in opened:
                client.close()
    assert_logs_clean(state, caplog)
