"""The simulator's host link, end to end (issue 13, defects 4 to 6): the real `companion demo`, chromium.

- 4: opening the printed host link makes that browser the host: /join stops offering the host, and no
  phone can become a second one.
- 5: the twin's buttons work from the simulator's own machine without the host link, and a refusal is
  worded for a person (no action key, no header name, no "phone" on a desktop).
- 6: a long press on D prints the new host link; the browser drops its dead token, /join offers the host
  again, and the new link claims it.
"""

from __future__ import annotations

import pytest
from daemon_process import DaemonProcess
from polling import wait_for

from companion.outputs.webapp.api import own_addresses, own_machine

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def demo(tmp_path):
    daemon = DaemonProcess(tmp_path / "state").start()
    try:
        yield daemon
    finally:
        daemon.stop()


def claimed(demo) -> bool:
    return demo.get("/api/seats")["host_claimed"]


def become_host_shown(page, demo) -> bool:
    page.goto(f"{demo.base}/join")
    page.locator("#seat-picker li").first.wait_for()  # the seats came: the host offer is settled too
    return page.locator("#become-host").is_visible()


def test_the_printed_host_link_makes_its_opener_the_one_host(demo, browser):
    link = demo.printed("host link")[-1]
    assert link.startswith(demo.base + "/?host=")
    png = demo.printed("e-ink frame (PNG)")[-1]
    assert png.endswith("frame.png") and str(demo.state_dir) in png
    assert demo.printed("device twin with host rights")[-1].endswith(f"/device?host={demo.host_token}")
    assert not claimed(demo)
    host, other = browser.new_context(viewport=PHONE), browser.new_context(viewport=PHONE)
    try:
        page = host.new_page()
        page.goto(link)
        wait_for(lambda: claimed(demo))
        phone = other.new_page()
        assert not become_host_shown(phone, demo)
        code = demo.get_host("/api/host")["join_code"]
        status, answer = demo.post("/api/host/claim?lang=en", {"code": code}, headers={})
        assert status == 409 and "already has a host" in answer["error"]
    finally:
        host.close()
        other.close()


def test_the_twin_presses_from_this_machine_without_the_host_link(demo, browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    try:
        twin = ctx.new_page()
        twin.goto(f"{demo.base}/device")
        before = demo.get("/api/state")["version"]
        twin.locator("button.hw.roll").click()
        wait_for(lambda: demo.get("/api/state")["version"] > before)
        assert twin.locator("#message").is_hidden()
        assert not claimed(demo)  # pressing is not hosting
    finally:
        ctx.close()
    # a browser elsewhere is refused in words for a person
    status, answer = demo.post("/api/device/press", {"button": "roll"}, headers={"X-Host-Token": "stale"})
    assert status == 200  # still this machine: loopback
    assert own_machine("127.0.0.1") and own_machine("::1") and not own_machine("192.0.2.7")
    assert all(own_machine(address) for address in own_addresses())


def test_a_long_press_on_d_prints_a_new_link_and_the_browser_drops_the_dead_one(demo, browser):
    ctx = browser.new_context(viewport=PHONE)
    try:
        twin = ctx.new_page()
        old = demo.printed("host link")[-1]
        twin.goto(old.replace("/?host=", "/device?host="))
        wait_for(lambda: claimed(demo))
        assert twin.evaluate("() => localStorage.getItem('companion.host')") == old.split("?host=")[1]
        # a long press, as the twin sends it
        twin.evaluate("() => Companion.request('POST', '/api/device/press', {button: 'd', hold: true}, "
                      "Companion.hostHeaders())")
        wait_for(lambda: len(demo.printed("host link")) == 2)
        new = demo.printed("host link")[-1]
        assert new != old and not claimed(demo)
        # the twin's next poll carries the dead token and drops it; its buttons still work here
        twin.wait_for_function("() => localStorage.getItem('companion.host') === null")
        join = ctx.new_page()
        assert become_host_shown(join, demo)
        join.goto(new)
        wait_for(lambda: claimed(demo))
        assert not become_host_shown(join, demo)
    finally:
        ctx.close()
