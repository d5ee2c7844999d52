"""The table's network through a real D-Bus: python-dbusmock's NetworkManager on a private bus."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from standin import off_the_browsers_loop, require_standin

from companion.network.manager import HOTSPOT_ID, Hotspot, NetworkError, NetworkManagerLink
from companion.network.modes import TableNetwork
from companion.network.standin import StandIn

require_standin()

HOTSPOT = Hotspot("Table de jeu", "x;y,z:\"w\\1")


@pytest.fixture(autouse=True)
def blocking_dbus_allowed():
    with off_the_browsers_loop():
        yield


@pytest.fixture
def standin(tmp_path):
    """A private bus with the mock NetworkManager and one Wi-Fi device, wlan0, not connected."""
    bus = StandIn(tmp_path).start()
    yield bus
    bus.stop()


def link(standin, wait: float = 2.0) -> NetworkManagerLink:
    return NetworkManagerLink(standin.address, activation_wait=wait)


def profiles(standin) -> list[dict]:
    from sdbus_block.networkmanager import NetworkConnectionSettings, NetworkManagerSettings

    bus = standin.bus()
    paths = NetworkManagerSettings(bus).list_connections()
    return [NetworkConnectionSettings(path, bus).get_settings() for path in paths]


def hotspot_profiles(standin) -> list[dict]:
    return [p for p in profiles(standin) if p["connection"]["id"][1] == HOTSPOT_ID]


def fail_hotspot_activation(standin) -> None:
    """NetworkManager leaves the venue's Wi-Fi, then fails to start the access point (as a radio without
    AP support does): ActivateConnection replaced on the mock, the client untouched."""
    standin.nm_mock().add_method(
        "org.freedesktop.NetworkManager", "ActivateConnection", "ooo", "o",
        "conn = get_object(args[0])\n"
        "if conn.settings['connection']['id'] == 'companion-hotspot':\n"
        "    self.SetDeviceDisconnected(args[1])\n"
        "    raise dbus.exceptions.DBusException('AP mode is not supported',"
        " name='org.freedesktop.NetworkManager.Device.IncompatibleConnection')\n"
        "ret = self.activate_connection(self, args[0], args[1], args[2])\n")


def test_the_hotspot_is_made_once_and_started(standin):
    status = link(standin).start_hotspot(HOTSPOT)
    assert (status.mode, status.network, status.address, status.interface) == (
        "hotspot", HOTSPOT.ssid, "10.42.0.1", "wlan0")
    [made] = hotspot_profiles(standin)
    assert bytes(made["802-11-wireless"]["ssid"][1]) == HOTSPOT.ssid.encode()
    assert made["802-11-wireless"]["mode"][1] == "ap"
    assert made["ipv4"]["method"][1] == "shared"
    assert made["connection"]["autoconnect"][1] is False  # never up on its own at boot
    assert made["802-11-wireless-security"]["key-mgmt"][1] == "wpa-psk"
    assert made["802-11-wireless-security"]["proto"][1] == ["rsn"]  # WPA2
    # A second start with a changed password updates the one profile rather than adding another.
    link(standin).start_hotspot(Hotspot(HOTSPOT.ssid, "another password"))
    [updated] = hotspot_profiles(standin)
    assert updated["802-11-wireless-security"]["psk"][1] == "another password"
    assert link(standin).status().mode == "hotspot"


def test_auto_falls_back_to_the_hotspot_when_the_known_wifi_is_absent(standin):
    device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    standin.add_known_wifi(device, "Cafe", connected=False)
    network = TableNetwork("auto", HOTSPOT, link(standin), auto_wait=0.5)
    status = network.boot()
    assert (status.mode, status.network) == ("hotspot", HOTSPOT.ssid)


def test_auto_keeps_the_known_wifi_when_it_is_up(standin):
    device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    standin.add_known_wifi(device, "Cafe", connected=True)
    status = TableNetwork("auto", HOTSPOT, link(standin), auto_wait=5).boot()
    assert (status.mode, status.network) == ("client", "Cafe")
    assert hotspot_profiles(standin) == []  # nothing was made: the venue's Wi-Fi is enough


def test_a_failed_hotspot_rolls_back_to_the_wifi_it_left(standin):
    device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    standin.add_known_wifi(device, "Cafe", connected=True)
    fail_hotspot_activation(standin)
    network = TableNetwork("client", HOTSPOT, link(standin), auto_wait=0)
    with pytest.raises(NetworkError) as caught:
        network.switch("hotspot")
    assert "AP mode is not supported" in str(caught.value)
    status = network.status()
    assert (status.mode, status.network) == ("client", "Cafe")


def test_the_hotspot_back_to_the_wifi_and_again(standin):
    device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    standin.add_known_wifi(device, "Cafe", connected=True)
    network = TableNetwork("client", HOTSPOT, link(standin), auto_wait=0)
    assert network.switch("hotspot").mode == "hotspot"
    assert (network.switch("client").mode, network.status().network) == ("client", "Cafe")


def test_joining_without_a_known_wifi_says_how_to_add_one(standin):
    with pytest.raises(NetworkError, match="no known Wi-Fi to join: add the venue's with `sudo nmcli"):
        link(standin).join_wifi()


def test_a_missing_permission_names_the_polkit_rule(standin):
    standin.nm_mock("/org/freedesktop/NetworkManager/Settings").add_method(
        "org.freedesktop.NetworkManager.Settings", "AddConnection", "a{sa{sv}}", "o",
        "raise dbus.exceptions.DBusException('Insufficient privileges',"
        " name='org.freedesktop.NetworkManager.PermissionDenied')")
    with pytest.raises(NetworkError) as caught:
        link(standin).start_hotspot(HOTSPOT)
    message = str(caught.value)
    assert "may not change the network" in message
    assert "/etc/polkit-1/rules.d/50-companion-network.rules" in message and "install.py" in message
    assert link(standin).status().mode == "offline"  # nothing half-done


def test_no_wifi_device_is_named(tmp_path):
    from companion.i18n import translator

    bare = StandIn(tmp_path).start(wifi=False)
    try:
        with pytest.raises(NetworkError, match="no Wi-Fi device.*rfkill unblock wifi") as caught:
            link(bare).status()
    finally:
        bare.stop()
    assert caught.value.said(translator("fr")).startswith(
        "aucun appareil Wi-Fi\u202f: NetworkManager n’en gère aucun. Vérifiez que le Pi a du Wi-Fi")


def test_networkmanager_not_running_is_named(standin):
    standin.stop_networkmanager()
    with pytest.raises(NetworkError, match="NetworkManager is not running.*enable --now NetworkManager"):
        link(standin).start_hotspot(HOTSPOT)


# --- `companion network` ----------------------------------------------------------------------------
def network_command(tmp_path, standin, *args: str, password: str = "long enough"):
    config = tmp_path / "companion.toml"
    config.write_text(f'[network]\nssid = "Jeux"\npassword = "{password}"\nbus = "{standin.address}"\n')
    return subprocess.run([sys.executable, "-m", "companion", "network", *args, "--config", str(config)],
                          capture_output=True, text=True, timeout=60)


def test_the_command_shows_and_switches_the_network(tmp_path, standin):
    shown = network_command(tmp_path, standin, "status")
    assert shown.returncode == 0, shown.stderr
    assert "mode: offline" in shown.stdout and "(wlan0)" in shown.stdout
    made = network_command(tmp_path, standin, "hotspot")
    assert made.returncode == 0, made.stderr
    assert "mode: hotspot" in made.stdout and "Wi-Fi: Jeux" in made.stdout
    assert "phones open: http://10.42.0.1:8080/" in made.stdout
    assert "hotspot password: long enough" in made.stdout
    assert link(standin).status().mode == "hotspot"


@pytest.mark.parametrize("breakage, message", [
    ("no networkmanager", "NetworkManager is not running"),
    ("no known wifi", "no known Wi-Fi to join"),
])
def test_the_command_names_what_is_wrong_without_a_traceback(tmp_path, standin, breakage, message):
    if breakage == "no networkmanager":
        standin.stop_networkmanager()
    failed = network_command(tmp_path, standin, "client")
    assert failed.returncode == 1
    assert message in failed.stderr and "Traceback" not in failed.stderr


def test_the_command_refuses_a_hotspot_without_a_password(tmp_path, standin):
    failed = network_command(tmp_path, standin, "hotspot", password="")
    assert failed.returncode == 2
    assert "'network.password'" in failed.stderr and "Traceback" not in failed.stderr


# --- a small device: the binding only when the mode needs it ------------------------------------------
IMPORTED = """
import sys
from companion.config import load
from companion.wiring import Companion
config = load(sys.argv[1])
companion = Companion(config, simulate=True).start()
try:
    if config.network.mode != "client":  # the hotspot comes up on its own thread: wait for its Wi-Fi code
        import time
        deadline = time.monotonic() + 20
        while not companion.wifi and time.monotonic() < deadline:
            time.sleep(0.05)
    print("sdbus" in sys.modules, bool(companion.wifi))
finally:
    companion.stop()
"""


@pytest.mark.parametrize("mode, imported", [("client", "False False"), ("hotspot", "True True")])
def test_the_dbus_binding_is_imported_only_when_the_mode_needs_it(tmp_path, mode, imported):
    from daemon_process import free_port

    config = tmp_path / "companion.toml"
    config.write_text(f'host = "127.0.0.1"\nport = {free_port()}\nstate_dir = "{tmp_path}"\n'
                      f'[network]\nmode = "{mode}"\npassword = "long enough"\n')
    ran = subprocess.run([sys.executable, "-c", IMPORTED, str(config)], capture_output=True, text=True,
                         timeout=60)
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.split("\n")[-2] == imported


def test_a_failed_join_rolls_back_to_the_hotspot(standin):
    """The host asks for the venue's Wi-Fi, which is out of range: the hotspot comes back by itself."""
    device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    standin.add_known_wifi(device, "Cafe", connected=False)
    network = TableNetwork("hotspot", HOTSPOT, link(standin), auto_wait=0)
    assert network.boot().mode == "hotspot"
    standin.nm_mock().add_method(
        "org.freedesktop.NetworkManager", "ActivateConnection", "ooo", "o",
        "conn = get_object(args[0])\n"
        "if conn.settings['connection']['id'] != 'companion-hotspot':\n"
        "    self.SetDeviceDisconnected(args[1])\n"
        "    raise dbus.exceptions.DBusException('Cafe is not in range',"
        " name='org.freedesktop.NetworkManager.Device.Failed')\n"
        "ret = self.activate_connection(self, args[0], args[1], args[2])\n")
    with pytest.raises(NetworkError, match="Cafe is not in range"):
        network.switch("client")
    status = network.status()
    assert (status.mode, status.network) == ("hotspot", HOTSPOT.ssid)


# --- the stand-in without what it needs: one line that names the fix, and nothing left running ----------
def children(pid: int) -> set[int]:
    """The processes `pid` started that are still there (running, or exited and not yet waited for)."""
    return {int(child) for task in Path(f"/proc/{pid}/task").iterdir()
            for child in (task / "children").read_text().split()}


WITHOUT_SDBUS = """
import json, os, sys
sys.modules["sdbus"] = None  # an install without sdbus-networkmanager: `import sdbus` fails
from pathlib import Path
from companion.network.manager import NetworkError
from companion.network.standin import StandIn
try:
    StandIn(Path(sys.argv[1])).start()
    said = "started"
except NetworkError as exc:
    said = "NetworkError: " + str(exc)
except BaseException as exc:
    said = type(exc).__name__ + ": " + str(exc)
tasks = [f"/proc/self/task/{t}/children" for t in os.listdir("/proc/self/task")]
left = [int(c) for path in tasks for c in open(path).read().split()]
for pid in left:
    os.kill(pid, 15)  # so that a failing run leaves nothing behind either
print(json.dumps({"said": said, "left": left}))
"""


def test_without_the_dbus_binding_the_standin_names_it_and_starts_nothing(tmp_path):
    ran = subprocess.run([sys.executable, "-c", WITHOUT_SDBUS, str(tmp_path)], capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    out = json.loads(ran.stdout.splitlines()[-1])
    assert out["left"] == [], f"dbus-daemon or dbusmock left running: {out}"
    assert out["said"].startswith("NetworkError: "), out["said"]
    assert "pip install sdbus-networkmanager" in out["said"] and "\n" not in out["said"]


@pytest.mark.parametrize("breakage", ["no dbusmock", "its name never comes"])
def test_a_standin_that_does_not_start_leaves_no_process(tmp_path, monkeypatch, breakage):
    from companion.network import standin as module

    if breakage == "no dbusmock":  # this venv's interpreter has no dbusmock, as a machine without the package
        monkeypatch.setattr(module, "SYSTEM_PYTHON", sys.executable)
        expected = "sudo apt-get install python3-dbusmock"
    else:  # a mock that runs but never takes NetworkManager's name on the bus
        monkeypatch.setattr(module.StandIn, "MOCK", ("-c", "import time; time.sleep(60)"))
        monkeypatch.setattr(module, "STARTUP", 1.0)
        expected = "did not start within 1 s"
    before = children(os.getpid())
    with pytest.raises(NetworkError, match=expected):
        StandIn(tmp_path).start()
    assert children(os.getpid()) - before == set()


def test_the_simulator_without_the_dbus_binding_says_what_to_install(tmp_path):
    """An install without sdbus (one not made from the lock): the hotspot demo says what to add, in one
    line, serves the table without its network, and leaves no dbus-daemon behind."""
    from daemon_process import DaemonProcess

    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "sitecustomize.py").write_text("import sys\nsys.modules['sdbus'] = None\n")
    env = {**os.environ, "PYTHONPATH": str(blocker)}
    daemon = DaemonProcess(tmp_path / "state", env=env,
                           config='[network]\nmode = "auto"\npassword = "long enough"\n').start()
    try:
        assert daemon.get_host("/api/network")["managed"] is False
        # said as the network part starts, just after the web first answers
        from polling import wait_for

        printed = wait_for(lambda: "sdbus-networkmanager" in (text := daemon.output.read_text()) and text)
        [line] = [line for line in printed.splitlines() if "sdbus-networkmanager" in line]
        assert "pip install sdbus-networkmanager" in line
        assert "Traceback" not in printed
        assert children(daemon.proc.pid) == set()
    finally:
        daemon.stop()


def test_a_failed_switch_says_why_in_the_readers_language(standin):
    from companion.i18n import translator

    device = "/org/freedesktop/NetworkManager/Devices/wlan0"
    standin.add_known_wifi(device, "Cafe", connected=True)
    fail_hotspot_activation(standin)
    with pytest.raises(NetworkError) as caught:
        TableNetwork("client", HOTSPOT, link(standin), auto_wait=0).switch("hotspot")
    name = "org.freedesktop.NetworkManager.Device.IncompatibleConnection"
    assert caught.value.said(translator("en")) == str(caught.value) == (
        f"cannot bring the hotspot up: NetworkManager said {name}: AP mode is not supported")
    assert caught.value.said(translator("fr")) == (
        f"activation du Wi-Fi de la table impossible\u202f: NetworkManager a répondu {name}\u202f: "
        "AP mode is not supported")
