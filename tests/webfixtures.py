"""Helpers for the web tests: a runtime from real parts, a live waitress server, and an SSE reader."""

from __future__ import annotations

import http.client
import json
import os
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path

import msgspec
import pytest
from polling import wait_for

from companion.core import registry
from companion.core.session import Setup
from companion.core.table import Table
from companion.gamekit.contract import Device, GameSpec, IllegalMove, Looks, Move, Views
from companion.outputs.webapp import create_app
from companion.outputs.webapp.pace import Pace
from companion.serving.serve import serve
from companion.storage.store import Store

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@dataclass
class Runtime:
    """What the daemon hands create_app, built here from the real table and store."""

    table: Table
    board: object = None
    display: object = None
    language: str = "fr"
    url: str = "http://192.168.1.20:8080/"
    frame_source: object = field(default=None, repr=False)  # anything with `.shown`, e.g. a Refresher
    refresher: object = None
    networking: object = None
    venue: object = None

    @property
    def frame_version(self) -> int:
        return getattr(self.frame_source, "shown", 0) if self.frame_source is not None else 0


class FakeBoard:
    """A stand-in board for API tests: it records presses and lights the LED dice it is told to."""

    def __init__(self, simulated: bool = True):
        self.simulated = simulated
        self.dice: list[int | None] = [None, None]
        self.status = True
        self.presses: list[tuple[str, bool]] = []

    def snapshot(self) -> dict:
        return {"dice": list(self.dice), "status": self.status, "buttons": ["a", "b", "c", "d", "roll"]}

    def press(self, name: str, hold: bool = False) -> None:
        self.presses.append((name, hold))


class FakeDisplay:
    def __init__(self, png: bytes = b""):
        self.png = png


def make_runtime(tmp_path: Path, game: str = "dice", options: dict | None = None, **kw) -> Runtime:
    """A started table whose first game is already set up (start() only queues it)."""
    table = Table(Store(tmp_path / "s.db"), Setup(game, {game: options or {}})).start()
    deadline = time.monotonic() + 5
    while table.latest.game is None and time.monotonic() < deadline:
        time.sleep(0.01)
    return Runtime(table=table, **kw)


@contextmanager
def running_app(tmp_path: Path, *, keepalive: float = 15.0, max_streams: int = 24, per_client: int = 64,
                paced: bool = False, **kw):
    """A table and its app; everything stopped afterwards. Tests play faster than hands: what phones send
    is paced (as the daemon paces it) only with `paced=True`."""
    runtime = make_runtime(tmp_path, **kw)
    app = create_app(runtime, keepalive=keepalive, max_streams=max_streams, per_client=per_client,
                     paced=None if paced else Pace(rate=0))
    try:
        yield runtime, app
    finally:
        app.extensions["companion.hub"].close()
        runtime.table.stop()
        runtime.table.store.close()


@contextmanager
def live_server(app, host: str = "127.0.0.1", **kw):
    """The app on a real waitress server on a free port, of loopback unless `host` says otherwise (every
    test phone is on this machine, so one address may hold as many connections as they need, unless a
    test says otherwise)."""
    server = serve(app, host, 0, **{"per_client": 512, **kw})
    try:
        yield server
    finally:
        server.close()


class SSEClient:
    """Reads Server-Sent Events from a real HTTP connection, one message at a time."""

    def __init__(self, port: int, path: str = "/api/events", timeout: float = 5.0,
                 headers: dict | None = None, client: str = "127.0.0.1"):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(client, 0))
        self.conn.request("GET", path, headers={"Accept": "text/event-stream", **(headers or {})})
        self.response = self.conn.getresponse()
        self.status = self.response.status
        self.headers = dict(self.response.getheaders())

    def next(self) -> dict:
        """The next message as {"event", "id", "data", "comment"}; raises TimeoutError when none comes."""
        msg: dict = {"event": None, "id": None, "data": None, "comment": None, "retry": None}
        lines: list[str] = []
        while True:
            raw = self.response.readline()
            if not raw:
                raise ConnectionError("the stream ended")
            line = raw.decode().rstrip("\n")
            if line == "":
                if lines or msg["comment"] is not None or msg["retry"] is not None:
                    if lines:
                        msg["data"] = json.loads("\n".join(lines))
                    return msg
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "":
                msg["comment"] = value
            elif name == "data":
                lines.append(value)
            elif name in ("event", "id", "retry"):
                msg[name] = value

    def next_event(self) -> dict:
        """The next message that carries data (skipping keepalives and the retry hint)."""
        while True:
            msg = self.next()
            if msg["data"] is not None:
                return msg

    def close(self) -> None:
        self.response.close()  # the response holds its own reference to the socket
        self.conn.close()


PHONE = {"width": 390, "height": 844}


def phone_page(browser, url: str, locale: str = "en-US"):
    """A page opened at `url` in a phone's own context (390×844, touch, `locale`): (context, page)."""
    ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale)
    page = ctx.new_page()
    page.goto(url)
    return ctx, page


def host_of(runtime) -> dict:
    """The header that makes a request the host's (runtime: anything with a table)."""
    return {"X-Host-Token": runtime.table.host_token()}


def request(port: int, method: str, path: str, headers: dict | None = None, body=None,
            client: str = "127.0.0.1", timeout: float = 10) -> tuple[int, bytes, dict]:
    """One HTTP exchange with a live server, from loopback address `client`: status, body, headers.
    A `body` is sent as JSON."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(client, 0))
    try:
        data = None if body is None else json.dumps(body)
        sent = {"Content-Type": "application/json"} if body is not None else {}
        conn.request(method, path, body=data, headers={**sent, **(headers or {})})
        response = conn.getresponse()
        return response.status, response.read(), dict(response.getheaders())
    finally:
        conn.close()


def get_text(port: int, path: str, headers: dict | None = None) -> tuple[int, str]:
    status, body, _ = request(port, "GET", path, headers)
    return status, body.decode()


def get_json(port: int, path: str, headers: dict | None = None) -> tuple[int, dict]:
    status, body, _ = request(port, "GET", path, headers)
    return status, json.loads(body)


def read_json(port: int, path: str) -> dict:
    """A JSON answer that must be there (200)."""
    status, body = get_text(port, path)
    assert status == 200, (path, status, body)
    return json.loads(body)


def shown_after(page, port: int, before: int) -> dict:
    """The table's state once it has moved past version `before` and the browser `page` shows it."""
    from playwright.sync_api import expect

    version = wait_for(lambda: (v := read_json(port, "/api/state")["version"]) != before and v, timeout=10)
    expect(page.locator("body")).to_have_attribute("data-version", str(version))
    return read_json(port, "/api/state")


def post_json(port: int, path: str, body, headers: dict | None = None) -> tuple[int, dict]:
    status, answer, _ = request(port, "POST", path, headers, body)
    return status, json.loads(answer)


def shoot(page, name: str, tmp_path: Path) -> None:
    """A full-page screenshot: into $COMPANION_SCREENSHOTS when set (docs/screenshots is made this way),
    else into the test's own folder, so a test run never rewrites tracked files."""
    target = Path(os.environ.get("COMPANION_SCREENSHOTS") or tmp_path)
    target.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(target / f"{name}.png"), full_page=True)


def chromium_or_skip() -> str:
    """The Debian chromium path; skip without it unless COMPANION_REQUIRE_BROWSER=1 makes that a failure."""
    if os.path.exists(CHROMIUM):
        return CHROMIUM
    if os.environ.get("COMPANION_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{CHROMIUM} is missing and COMPANION_REQUIRE_BROWSER=1: apt-get install chromium")
    pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium to run the browser tests")


class Waiter:
    """Waits for a condition set from another thread."""

    def __init__(self):
        self._event = threading.Event()

    def set(self):
        self._event.set()

    def wait(self, timeout: float) -> bool:
        return self._event.wait(timeout)


# --- a game with secrets, to prove the web layer keeps them (free dice has none) ----------------
@dataclass(frozen=True)
class SecretState:
    hands: tuple[str, ...]
    said: tuple[int, ...] = ()


def _say(state, seat, args, draws):
    if seat is None:
        raise IllegalMove("Only a seat can speak.")
    return replace(state, said=(*state.said, seat)), [{"type": "said", "seat": seat}]


class SecretPublic(msgspec.Struct):
    players: int
    said: list[int]


class SecretPrivate(msgspec.Struct):
    hand: str


class Say(msgspec.Struct, forbid_unknown_fields=True):
    """Say something (the seat that speaks is in the public view; what it holds, or whispers, is not)."""

    word: str = ""  # a whisper: recorded with the command, so an export that kept it would leak it


def changed(spec: GameSpec, **parts) -> GameSpec:
    """`spec` with some parts of its turn, views or device replaced, each named as it is there."""
    groups = {"turn": spec.turn, "views": spec.views, "device": spec.device}
    for name, value in parts.items():
        group = next(group for group, part in groups.items() if name in part.__dataclass_fields__)
        groups[group] = replace(groups[group], **{name: value})
    return replace(spec, **groups)


def game_spec(**fields) -> GameSpec:
    """A GameSpec for a test game: `fields` over harmless defaults (no screen, no buttons)."""
    defaults = dict(title="Test game", package="companion.games", setup=lambda o, d, f: None,
                    device=Device(lambda *a: None), looks=Looks(colours=()))
    return GameSpec(**{**defaults, **fields})


def _secret_public(state: SecretState) -> SecretPublic:
    return SecretPublic(2, list(state.said))


def _secret_private(state: SecretState, seat: int) -> SecretPrivate:
    return SecretPrivate(state.hands[seat])


SECRET = game_spec(
    name="secret", title="Free dice", moves={"say": Move(Say, _say, line="")},
    setup=lambda options, draws, data: SecretState(("SECRET-HAND-ZERO", "SECRET-HAND-ONE")),
    views=Views(_secret_public, _secret_private), seats=(2, 2),
)


def plug_game(monkeypatch, spec) -> None:
    """Make `spec` a known game, by its name, for one test (beside every installed game)."""
    real = registry.get
    monkeypatch.setattr(registry, "get", lambda name: spec if name == spec.name else real(name))


def install_secret_game(monkeypatch) -> None:
    """Make "secret" a known game for the table, for one test."""
    plug_game(monkeypatch, SECRET)
