"""The whole simulator through the web: the daemon's Board on mock pins, PNG panel, waitress, chromium."""

from __future__ import annotations

import pytest
from polling import wait_for
from simulator import running_simulator
from webfixtures import SSEClient, host_of, post_json, read_json

PHONE = {"width": 390, "height": 844}




@pytest.fixture
def simulator(tmp_path):
    with running_simulator(tmp_path / "state", first_frame=True, url="http://192.168.1.20:8080/",
                           language="fr") as companion:
        yield companion, companion.server.port


def test_the_twin_api_shows_the_real_board(simulator):
    companion, port = simulator
    device = read_json(port, "/api/device")
    assert device["board"] is True and device["simulated"] is True
    assert set(device["buttons"]) >= {"a", "b", "c", "d", "roll"}
    assert len(device["dice"]) >= 2
    assert device["frame"] is True and device["frame_version"] >= 1


def test_a_twin_press_runs_the_real_button_code_and_phones_see_it(simulator):
    companion, port = simulator
    phone = SSEClient(port)
    try:
        start = phone.next_event()["data"]["version"]
        status, answer = post_json(port, "/api/device/press", {"button": "roll"}, host_of(companion))
        assert status == 200, answer
        update = phone.next_event()
        assert update["event"] == "update" and update["data"]["version"] == start + 1
        faces = update["data"]["public"]["last"]
        # the LED dice animate, then hold the roll
        wait_for(lambda: read_json(port, "/api/device")["dice"][:len(faces)] == faces)
        post_json(port, "/api/device/press", {"button": "a"}, host_of(companion))  # A: one more die
        assert phone.next_event()["data"]["public"]["count"] == 3
    finally:
        phone.close()


def test_the_daemons_server_has_a_thread_per_stream(simulator):
    companion, port = simulator
    phones = [SSEClient(port) for _ in range(6)]
    try:
        assert all(p.next_event()["event"] == "snapshot" for p in phones)
        status, _ = post_json(port, "/api/command", {"kind": "roll"}, host_of(companion))
        assert status == 200
        assert all(p.next_event()["event"] == "update" for p in phones)
    finally:
        for p in phones:
            p.close()


@pytest.mark.browser
def test_clicking_roll_on_the_twin_lights_the_dice_then_redraws_the_frame(simulator, browser):
    from playwright.sync_api import expect

    companion, port = simulator
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                              locale="fr-FR")
    try:
        twin = ctx.new_page()
        # On the simulator's own machine the twin is the device: no host link needed to press.
        twin.goto(f"http://127.0.0.1:{port}/device")
        phone = ctx.new_page()
        phone.goto(f"http://127.0.0.1:{port}/")
        expect(phone.locator("#live")).to_have_attribute("data-state", "live")
        expect(twin.locator("html")).to_have_attribute("lang", "fr")
        twin.wait_for_function("() => document.getElementById('frame').naturalWidth > 0")
        frame_before = twin.evaluate("() => document.body.dataset.frameVersion")
        twin.locator("button.hw.roll").click()
        wait_for(lambda: companion.table.latest.public["rolls"] == 1)
        faces = companion.table.latest.public["last"]
        dark = len(companion.board.snapshot()["dice"]) - len(faces)  # dice the game does not use stay dark
        shown = ",".join(map(str, [*faces, *[0] * dark]))
        expect(twin.locator("#led-dice")).to_have_attribute("data-faces", shown, timeout=10_000)
        expect(twin.locator("body")).not_to_have_attribute("data-frame-version", frame_before, timeout=30_000)
        twin.wait_for_function("() => document.getElementById('frame').complete && "
                               "document.getElementById('frame').naturalWidth > 0")
        # the phone on the scoreboard saw the same roll
        expect(phone.locator("#dice-total")).to_have_text(str(sum(faces)))
        twin.screenshot(path="/tmp/companion-device-e2e.png", full_page=True)
    finally:
        ctx.close()
