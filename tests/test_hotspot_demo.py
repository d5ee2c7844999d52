"""`companion demo` in "auto" mode with no known Wi-Fi: it makes its hotspot on a NetworkManager stand-in
(never the machine's own), shows the Wi-Fi code on its frame, and gives the password to the host only."""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request

import pytest
import zxingcpp
from daemon_process import DaemonProcess
from PIL import Image
from polling import wait_for
from standin import require_standin

from companion.render.qr import wifi_payload

require_standin()

# `$&`, `$$` and `$'` are String.replace's patterns: the host page must show them as they are.
SSID, PASSWORD = "Table; de jeu", "a$&b$$c$'d:s3,cret"
CONFIG = f'[network]\nmode = "auto"\nssid = "{SSID}"\npassword = "{PASSWORD}"\nauto_wait = 0.5\n'


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    daemon = DaemonProcess(tmp_path_factory.mktemp("state"), config=CONFIG).start()
    wait_for(lambda: "host link:" in daemon.output.read_text(), timeout=10)  # printed once it serves
    try:
        yield daemon
    finally:
        daemon.stop()


def fetch(daemon: DaemonProcess, path: str, headers: dict | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(daemon.base + path, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def frame_codes(daemon: DaemonProcess) -> list[str]:
    status, png = fetch(daemon, "/api/device/frame.png")  # open to the simulator's own machine
    if status != 200:
        return []
    return [found.text for found in zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))]


def test_the_frame_shows_the_hotspots_wifi_code_beside_the_join_code(demo):
    codes = wait_for(lambda: (found := frame_codes(demo)) and any(c.startswith("WIFI:") for c in found)
                     and found, timeout=30)
    assert wifi_payload(SSID, PASSWORD) in codes
    assert any(code.startswith(f"{demo.base}/j/") for code in codes)


def test_the_host_sees_the_hotspot_and_its_password(demo):
    state = wait_for(lambda: (s := demo.get_host("/api/network"))["mode"] == "hotspot" and s, timeout=30)
    assert state["managed"] is True
    assert state["network"] == SSID and state["address"] == "10.42.0.1"
    assert state["hotspot"] == {"ssid": SSID, "password": PASSWORD}


def test_a_stranger_never_gets_the_password(demo):
    status, body = fetch(demo, "/api/network")
    assert status == 403 and PASSWORD.encode() not in body
    for path in ("/", "/join", "/host", "/api/state", "/api/seats", "/network-help", "/api/openapi.json"):
        status, body = fetch(demo, path)
        assert status == 200, path
        assert PASSWORD.encode() not in body, path


def test_a_switch_to_a_missing_wifi_fails_and_the_hotspot_stays(demo):
    wait_for(lambda: demo.get_host("/api/network")["mode"] == "hotspot", timeout=30)
    status, answer = demo.post("/api/network", {"mode": "client"})
    assert (status, answer["switching"]) == (202, True)
    state = wait_for(lambda: (s := demo.get_host("/api/network?lang=en"))["problem"] and not s["switching"]
                     and s, timeout=30)
    assert "no known Wi-Fi to join" in state["problem"]
    assert state["mode"] == "hotspot"


def test_a_failed_switch_is_told_in_the_host_pages_language(demo):
    wait_for(lambda: demo.get_host("/api/network")["mode"] == "hotspot", timeout=30)
    demo.post("/api/network", {"mode": "client"})
    english = wait_for(lambda: (s := demo.get_host("/api/network?lang=en"))["problem"] and not s["switching"]
                       and s["problem"], timeout=30)
    french = demo.get_host("/api/network?lang=fr")["problem"]
    assert english.startswith("no known Wi-Fi to join: add the venue's with `sudo nmcli device wifi")
    assert french.startswith("aucun Wi-Fi connu à rejoindre\u202f: ajoutez celui du lieu avec `sudo"), french


@pytest.mark.slow
def test_no_wifi_device_is_told_in_the_host_pages_language(tmp_path):
    """A Pi whose NetworkManager has no Wi-Fi device: the host's card says so, in French for a French page."""
    from standin import off_the_browsers_loop

    from companion.network.standin import StandIn

    with off_the_browsers_loop():
        bare = StandIn(tmp_path / "bus").start(wifi=False)
    try:
        config = f'[network]\nmode = "hotspot"\npassword = "{PASSWORD}"\nbus = "{bare.address}"\n'
        daemon = DaemonProcess(tmp_path / "state", config=config).start()
        try:
            wait_for(lambda: "host link:" in daemon.output.read_text(), timeout=10)
            english = daemon.get_host("/api/network?lang=en")
            french = daemon.get_host("/api/network?lang=fr")
        finally:
            daemon.stop()
    finally:
        bare.stop()
    assert english["mode"] == french["mode"] == "unknown"
    assert english["problem"].startswith("no Wi-Fi device: NetworkManager manages none."), english
    assert french["problem"].startswith("aucun appareil Wi-Fi\u202f: NetworkManager n’en gère aucun."), french
    assert "`rfkill unblock wifi`" in french["problem"]


def test_no_log_and_no_output_holds_the_password(demo):
    """The host page and the panel show the password; nothing written on the way does: the stand-in's log of
    every D-Bus call (the profile goes through AddConnection and Update), the daemon's log and output."""
    wait_for(lambda: demo.get_host("/api/network")["mode"] == "hotspot", timeout=30)
    written = [path for path in demo.state_dir.rglob("*") if path.is_file() and path != demo.config]
    assert demo.state_dir / "network" / "networkmanager-mock.log" in written and demo.output in written
    forms = {PASSWORD, json.dumps(PASSWORD)[1:-1], repr(PASSWORD)[1:-1]}
    holding = [str(path) for path in written for form in forms if form.encode() in path.read_bytes()]
    assert holding == []


def test_a_bad_switch_is_refused_by_name(demo):
    status, answer = demo.post("/api/network", {"mode": "mesh"})
    assert status == 400 and "mode" in answer["error"]
    status, answer = demo.post("/api/network", {"mode": "hotspot"}, headers={})
    assert status == 403


def test_the_simulator_never_touched_the_machines_own_bus(demo):
    log = (demo.state_dir / "network" / "networkmanager-mock.log").read_text()
    assert "AddConnection" in log or "ActivateConnection" in log  # the stand-in is what was driven
    printed = json.dumps(demo.output.read_text())
    assert "Traceback" not in printed


@pytest.mark.browser
def test_the_host_card_fits_a_phone_and_shows_the_hotspot(demo, browser):
    from test_phone_pages import CHECK, PHONE

    wait_for(lambda: demo.get_host("/api/network")["mode"] == "hotspot", timeout=30)
    page = browser.new_page(viewport=PHONE)
    try:
        page.goto(f"{demo.base}/host?host={demo.host_token}")
        page.wait_for_selector("#network:not([hidden])", timeout=10_000)
        now = page.text_content("#network-now")
        assert SSID in now and PASSWORD in now and demo.base in now
        assert page.get_attribute("#network-mode button[data-mode=hotspot]", "aria-pressed") == "true"
        found = page.evaluate(CHECK, [])
        assert found["wide"] <= PHONE["width"] and found["small"] == [], found
        page.goto(f"{demo.base}/network-help?lang=fr")
        assert "données mobiles" in page.text_content("main")
        found = page.evaluate(CHECK, [])
        assert found["wide"] <= PHONE["width"] and found["small"] == [], found
    finally:
        page.close()


@pytest.mark.browser
def test_the_host_page_shows_the_password_as_it_is(demo, browser):
    wait_for(lambda: demo.get_host("/api/network")["mode"] == "hotspot", timeout=30)
    page = browser.new_page()
    try:
        page.goto(f"{demo.base}/host?host={demo.host_token}&lang=en")
        page.wait_for_selector("#network:not([hidden])", timeout=10_000)
        assert page.text_content("#network-now") == (
            f"The table is the network: Wi-Fi “{SSID}”, password {PASSWORD}. Phones open {demo.base}/")
    finally:
        page.close()


@pytest.mark.browser
def test_the_french_host_page_says_why_a_switch_failed(demo, browser):
    wait_for(lambda: demo.get_host("/api/network")["mode"] == "hotspot", timeout=30)
    demo.post("/api/network", {"mode": "client"})
    wait_for(lambda: (s := demo.get_host("/api/network"))["problem"] and not s["switching"], timeout=30)
    page = browser.new_page()
    try:
        page.goto(f"{demo.base}/host?host={demo.host_token}&lang=fr")
        page.wait_for_selector("#network:not([hidden])", timeout=10_000)
        assert page.text_content("#network-note").startswith(
            "Le dernier changement a échoué et la table est restée où elle était\u202f: "
            "aucun Wi-Fi connu à rejoindre\u202f: ")
    finally:
        page.close()
