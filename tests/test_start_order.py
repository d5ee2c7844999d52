"""The table serves first and draws next: phones get real answers while the glass's libraries still load,
the first frame still comes, and the web's worker threads follow the live pages open."""

from __future__ import annotations

import json
import os
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from daemon_process import DaemonProcess
from polling import wait_for

from companion.benchmark.process import open_pages, status

HELD_IMPORTS = str(Path(__file__).with_name("held_imports.py"))


@pytest.fixture
def held(tmp_path):
    """`companion demo` whose numpy, Pillow, gpiozero and inky imports wait for the gate file."""
    gate = tmp_path / "gate"
    daemon = DaemonProcess(tmp_path / "state")
    daemon.launcher = (HELD_IMPORTS, str(gate))
    try:
        yield daemon, gate
    finally:
        daemon.stop()


def page(daemon: DaemonProcess, path: str) -> tuple[int, str]:
    with urllib.request.urlopen(daemon.base + path, timeout=30) as response:
        return response.status, response.read().decode()


def test_the_web_answers_before_the_glass_libraries_load_and_the_first_frame_follows(held):
    daemon, gate = held
    daemon.start(timeout=30)  # answers /api/state with the glass's libraries still held back
    state = daemon.get("/api/state")
    assert state["game"] == "dice" and state["version"] >= 1
    status_code, scoreboard = page(daemon, "/")
    assert status_code == 200 and "<html" in scoreboard.lower()
    assert daemon.get("/api/seats")
    frame = daemon.state_dir / "frame.png"
    assert not frame.exists()
    gate.touch()
    wait_for(frame.exists, timeout=30)


def test_a_request_for_the_devices_made_while_they_load_waits_for_them(held):
    daemon, gate = held
    daemon.start(timeout=30)
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(daemon.get("/api/device")))
    asking.start()
    gate.touch()
    asking.join(30)
    assert answers and len(answers[0]["dice"]) > 0 and answers[0]["buttons"]
    # from this machine, the twin's buttons need no host link
    code, pressed = daemon.post("/api/device/press", {"button": answers[0]["buttons"][0]}, headers={})
    assert code == 200 and pressed["ok"]


def test_the_web_keeps_a_few_threads_idle_and_one_more_per_live_page(tmp_path):
    daemon = DaemonProcess(tmp_path / "state").start()
    try:
        pid = daemon.proc.pid
        wait_for(lambda: (daemon.state_dir / "frame.png").exists(), timeout=30)
        assert daemon.post("/api/command", {"kind": "roll"})[0] == 200  # the LED dice's thread is made
        idle = status(pid)["Threads"]
        assert idle <= 18, f"{idle} threads with no phone"  # 52 when the pool was sized for every page
        pages = open_pages(daemon.port, 10)
        try:
            for p in pages:
                assert p.wait(0) is not None
            assert status(pid)["Threads"] >= idle + 10
            code, _ = daemon.post("/api/command", {"kind": "roll"})  # every page still gets each command
            assert code == 200
            version = daemon.get("/api/state")["version"]
            assert all(p.wait(version) is not None for p in pages)
        finally:
            for p in pages:
                p.close()
        wait_for(lambda: status(pid)["Threads"] <= idle, timeout=30)
    finally:
        daemon.stop()


def answer(url: str, language: str = "fr") -> tuple[int, dict, str]:
    request = urllib.request.Request(url, headers={"Accept-Language": language})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read().decode()


def test_a_phone_asking_while_the_web_app_loads_is_told_the_table_is_starting_then_served(tmp_path):
    gate = tmp_path / "gate"
    daemon = DaemonProcess(tmp_path / "state", env={**os.environ, "HELD_IMPORTS": "flask"})
    daemon.launcher = (HELD_IMPORTS, str(gate))
    starting = threading.Thread(target=daemon.start, kwargs={"timeout": 60})
    starting.start()  # returns once /api/state answers for real
    try:
        def asked():
            try:
                return answer(daemon.base + "/")
            except OSError:
                return None
        code, headers, page = wait_for(asked, timeout=30)
        assert code == 503 and headers["Retry-After"] == "1" and headers["Cache-Control"] == "no-store"
        assert '<meta http-equiv="refresh" content="1">' in page and "La table démarre" in page
        code, _, page = answer(daemon.base + "/seat/abc", "en-GB,en;q=0.8")
        assert code == 503 and "The table is starting" in page and 'lang="en"' in page
        code, headers, body = answer(daemon.base + "/api/state", "en")
        assert code == 503 and headers["Content-Type"] == "application/json"
        assert json.loads(body) == {"ok": False, "starting": True,
                                    "error": "The table is starting: try again in a moment."}
        code, refused = daemon.post("/api/command", {"kind": "roll"}, headers={"Accept-Language": "en"})
        assert code == 503 and refused["starting"] and refused["ok"] is False  # nothing was played
        assert starting.is_alive()  # no real answer yet
        gate.touch()
        starting.join(60)
        assert not starting.is_alive()
        state = daemon.get("/api/state")
        assert state["game"] == "dice" and state["public"]["rolls"] == 0
        code, _, page = answer(daemon.base + "/")
        assert code == 200 and "La table démarre" not in page
    finally:
        gate.touch()
        starting.join(60)
        daemon.stop()


def test_a_bad_config_still_stops_the_start_and_frees_the_port(tmp_path):
    daemon = DaemonProcess(tmp_path / "state", config="language = \"de\"\n")
    with pytest.raises(RuntimeError, match="key 'language'"):
        daemon.start(timeout=30)
    assert daemon.proc.wait(10) == 2
    again = DaemonProcess(tmp_path / "again", port=daemon.port).start()  # nobody holds the port
    again.stop()
