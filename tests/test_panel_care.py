"""The panel in the field, in the whole simulator: a stuck panel told to the table, which keeps playing."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from daemon_process import free_port
from polling import wait_for
from webfixtures import SSEClient, get_json, host_of, post_json

from companion.config import Config
from companion.wiring import Companion

PHONE = {"width": 390, "height": 844}


@contextmanager
def stuck_simulator(tmp_path, deadline: float = 0.5):
    """The simulator with a panel that never finishes its first refresh. `deadline` stands in for the
    panel's longest refresh (60 s on the Impression 7.3"), so the fault comes in half a second."""
    config = Config(state_dir=str(tmp_path / "state"), host="127.0.0.1", port=free_port(), language="fr",
                    url="http://192.168.1.20:8080/", simulated_glass="stuck")
    companion = Companion(config, simulate=True)
    companion.refresher.deadline = deadline
    companion.start()
    try:
        yield companion
    finally:
        companion.stop()


def panel_event(phone: SSEClient) -> dict:
    """The first `panel` message on this stream (the snapshot and updates before it are skipped)."""
    while True:
        msg = phone.next_event()
        if msg["event"] == "panel":
            return msg["data"]


def test_a_stuck_panel_reaches_every_phone_and_the_table_keeps_playing(tmp_path):
    with stuck_simulator(tmp_path) as companion:
        port = companion.server.port
        scoreboard = SSEClient(port, "/api/events")
        seat = SSEClient(port, f"/api/seat/{companion.table.seat_token(0)}/events?lang=en")
        try:
            told = panel_event(scoreboard)
            assert told["fault"] is True
            assert told["message"].startswith("L’écran e-ink ne répond plus\u202f: éteignez l’appareil une "
                                              "minute")
            assert panel_event(seat)["message"].startswith("The e-ink panel has stopped answering: switch "
                                                           "the device off for a minute")
            status, device = get_json(port, "/api/device", host_of(companion))
            assert status == 200 and device["panel"]["model"] == "impression-7.3"
            assert "within" in device["panel"]["fault"] and device["panel"]["speed"] is None
            assert device["panel"]["refreshes_today"] == 1 and device["frame_version"] == 0
            assert device["panel"]["message"] == told["message"]
            # the table keeps playing: a command is answered, and every phone hears it
            version = companion.table.latest.version
            status, answer = post_json(port, "/api/command", {"kind": "roll"}, host_of(companion))
            assert status == 200 and answer["version"] == version + 1
            assert wait_for(lambda: scoreboard.next_event()["data"].get("version") == version + 1)
            # a phone that opens its page later is told at once, right after its snapshot
            late = SSEClient(port, "/api/events")
            try:
                assert late.next_event()["event"] == "snapshot"
                assert late.next_event()["event"] == "panel"
            finally:
                late.close()
        finally:
            scoreboard.close()
            seat.close()
    # the daemon stopped without waiting for the refresh that never ends: only removing power clears it
    assert companion.refresher._thread.is_alive() and companion.server is not None


@pytest.mark.browser
def test_the_host_page_shows_the_stuck_panel_in_its_language_at_a_phones_width(tmp_path, browser):
    from playwright.sync_api import expect

    with stuck_simulator(tmp_path) as companion:
        port = companion.server.port
        wait_for(lambda: companion.refresher.fault)
        for locale, words in (("fr-FR", "L’écran e-ink ne répond plus"), ("en-GB", "stopped answering")):
            ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, locale=locale)
            try:
                page = ctx.new_page()
                # the host page hears it on its live stream; the device twin in its polled state
                for path in ("/host", "/device"):
                    page.goto(f"http://127.0.0.1:{port}{path}?host={companion.table.host_token()}")
                    banner = page.locator("#panel-fault")
                    expect(banner).to_be_visible(timeout=10_000)
                    expect(banner).to_contain_text(words)
                    box = banner.bounding_box()
                    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
            finally:
                ctx.close()


def test_the_daemons_shutdown_waits_for_a_refresh_under_way(tmp_path):
    from dataclasses import replace

    config = Config(state_dir=str(tmp_path / "state"), host="127.0.0.1", port=free_port(),
                    simulated_glass="real")
    companion = Companion(config, simulate=True)
    # the Impression's own timing, shortened to 2 s: longer than a stop waits for an idle thread (1 s)
    companion.display.model = replace(companion.display.model, refresh=2.0)
    companion.start()
    try:
        wait_for(lambda: companion.refresher._sending_since is not None)
        assert companion.display.png == b""  # mid-refresh: nothing on the glass yet
    finally:
        companion.stop()
    assert companion.display.png and companion.refresher.shown == 1  # the refresh ended before the stop did
    assert not companion.refresher._thread.is_alive()


def test_a_spectra_table_plays_at_the_fast_speed_and_shows_the_rest_at_normal_speed(tmp_path):
    from simulator import running_simulator

    with running_simulator(tmp_path / "state", first_frame=True, panel="spectra-7.3",
                           profile="impression-7in3") as companion:
        port = companion.server.port
        wait_for(lambda: companion.refresher.last_speed == "normal")  # the first frame: the join screen
        shown = companion.refresher.shown
        status, _ = post_json(port, "/api/command", {"kind": "roll"}, host_of(companion))
        assert status == 200
        wait_for(lambda: companion.refresher.shown > shown)
        status, device = get_json(port, "/api/device", host_of(companion))
        assert device["panel"]["speed"] == "fast"
        assert device["panel"]["speeds"] == ["normal", "medium", "fast"]
        assert device["panel"]["fault"] is None and device["panel"]["refreshes_today"] == shown + 1


def test_sigterm_during_a_refresh_lets_it_finish_then_exits(tmp_path):
    """As systemd stops the service: the refresh under way (a wHAT's 4 s here) ends on the glass first."""
    import subprocess
    import sys

    from daemon_process import DaemonProcess

    daemon = DaemonProcess(tmp_path / "state")
    state = daemon.state_dir
    state.mkdir(parents=True)
    config = state / "glass.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {daemon.port}\nstate_dir = "{state}"\n'
                      'panel = "what-black"\nprofile = "what-buttons"\nsimulated_glass = "real"\n')
    out = state / "daemon.out"
    with out.open("w") as sink:
        proc = subprocess.Popen([sys.executable, "-m", "companion", "demo", "--config", str(config)],
                                stdout=sink, stderr=subprocess.STDOUT)
    try:
        def under_way():
            try:
                panel = daemon.get("/api/device")["panel"]
            except OSError:
                return False
            return panel["refreshes_today"] == 1 and panel["last_refresh_seconds"] is None
        wait_for(under_way, timeout=30)
        proc.terminate()
        assert proc.wait(30) == 0, out.read_text()
    finally:
        if proc.poll() is None:
            proc.kill()
    log = out.read_text()
    assert "waiting up to" in log and "e-ink refresh took" in log, log
    assert (state / "frame.png").exists()  # the refresh reached the glass before the process ended
