"""The systemd unit: required directives, no device-blocking hardening, and systemd-analyze verify."""

import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parent.parent / "systemd" / "companion.service"
EXEC = "/opt/companion/venv/bin/companion run --config /etc/companion/config.toml"


def parse_unit(text: str) -> dict[str, dict[str, list[str]]]:
    """Section -> key -> every value, in order (configparser rejects repeated keys, which units allow)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"directive outside a section: {line!r}"
        key, sep, value = line.partition("=")
        assert sep, f"not a key=value line: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def service() -> dict[str, list[str]]:
    return parse_unit(UNIT.read_text())["Service"]


def one(service: dict[str, list[str]], key: str) -> str:
    values = service.get(key, [])
    assert len(values) == 1, f"{key}= should be set exactly once, got {values}"
    return values[0]


@pytest.mark.parametrize(
    ("key", "expected"),
    [
        ("User", "companion"),
        ("Group", "companion"),
        ("Restart", "on-failure"),
        ("RestartPreventExitStatus", "2 3 4 5"),
        ("MemoryMax", "192M"),
        ("TasksMax", "96"),
        ("IPAddressDeny", "any"),
        ("IPAddressAllow", "localhost link-local 10.0.0.0/8 172.16.0.0/12 192.168.0.0/16 fc00::/7"),
        ("PrivateMounts", "yes"),
        ("StateDirectory", "companion"),
        ("ConfigurationDirectory", "companion"),
        ("ProtectSystem", "strict"),
        ("ProtectHome", "yes"),
        ("NoNewPrivileges", "yes"),
        ("PrivateDevices", "no"),
        ("Type", "notify"),
        ("NotifyAccess", "main"),
        ("WatchdogSec", "30"),
        ("ExecStart", EXEC),
        ("Environment", "PYTHONUNBUFFERED=1"),
        ("StandardOutput", "journal"),
        ("StandardError", "journal"),
        ("SyslogIdentifier", "companion"),
    ],
)
def test_required_directive(service, key, expected):
    assert one(service, key) == expected


def test_restart_delay_is_set(service):
    assert one(service, "RestartSec")


def test_device_groups(service):
    assert set(one(service, "SupplementaryGroups").split()) == {"gpio", "spi", "i2c"}


def test_network_families_allow_tcp_and_notify_socket(service):
    families = set(one(service, "RestrictAddressFamilies").split())
    assert {"AF_INET", "AF_INET6", "AF_UNIX"} <= families
    assert not any(f.startswith("~") for f in families)


@pytest.mark.parametrize("key", ["ProtectClock", "DeviceAllow", "DevicePolicy", "ProcSubset", "PrivateUsers",
                                 "PrivateNetwork", "InaccessiblePaths"])
def test_nothing_blocks_the_hardware_or_the_listener(service, key):
    # ProtectClock implies DeviceAllow=char-rtc, which (systemd 252) turns every other device off.
    # IPAddressDeny= is set, with the table's own networks allowed (checked above).
    assert key not in service


def test_installs_into_multi_user():
    assert parse_unit(UNIT.read_text())["Install"]["WantedBy"] == ["multi-user.target"]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed (Debian package: systemd)")
def test_systemd_analyze_verify(tmp_path):
    # verify fails when the ExecStart binary is missing, and /opt/companion/venv only exists on an
    # installed Pi: point ExecStart at /bin/true with the same arguments. User=companion and the gpio/spi/i2c
    # groups need no rewrite: verify does not resolve users or groups.
    text = UNIT.read_text()
    assert f"ExecStart={EXEC}\n" in text
    unit = tmp_path / UNIT.name
    unit.write_text(text.replace(f"ExecStart={EXEC}", f"ExecStart=/bin/true {EXEC.split(' ', 1)[1]}"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                            timeout=60)
    # verify exits 0 on unknown keys and unparsable values, only warning about them: fail on any warning
    # that names our unit, ignoring noise about the host's own units.
    complaints = [line for line in (result.stdout + result.stderr).splitlines() if UNIT.name in line]
    assert result.returncode == 0, result.stdout + result.stderr
    assert complaints == []


SOCKET = UNIT.with_name("companion-http.socket")


def test_port_80_is_bound_by_systemd_and_handed_to_the_service(service):
    socket_unit = parse_unit(SOCKET.read_text())
    assert socket_unit["Socket"]["ListenStream"] == ["80"]
    assert socket_unit["Socket"]["FileDescriptorName"] == ["http"]  # what the daemon looks for
    assert socket_unit["Socket"]["Service"] == ["companion.service"]
    assert socket_unit["Socket"]["IPAddressDeny"] == service["IPAddressDeny"]
    assert socket_unit["Socket"]["IPAddressAllow"] == service["IPAddressAllow"]
    assert socket_unit["Install"]["WantedBy"] == ["sockets.target"]
    assert one(service, "Sockets") == SOCKET.name
    # The service itself still binds nothing below 1024: no capability, no privilege to gain.
    assert service["CapabilityBoundingSet"] == [""] and service["AmbientCapabilities"] == [""]
    assert one(service, "NoNewPrivileges") == "yes"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed (Debian package: systemd)")
def test_systemd_analyze_verify_the_socket_with_its_service(tmp_path):
    service = tmp_path / UNIT.name
    runnable = f"ExecStart=/bin/true {EXEC.split(' ', 1)[1]}"  # as above: the venv exists only on a Pi
    service.write_text(UNIT.read_text().replace(f"ExecStart={EXEC}", runnable))
    socket_unit = tmp_path / SOCKET.name
    socket_unit.write_text(SOCKET.read_text())
    result = subprocess.run(["systemd-analyze", "verify", str(socket_unit), str(service)],
                            capture_output=True, text=True, timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert [line for line in output.splitlines() if SOCKET.name in line or UNIT.name in line] == []


def test_the_stop_timeout_outlasts_the_longest_refresh_the_daemon_waits_for(service):
    """A panel whose power goes mid-refresh can latch into a fault: systemd must not kill the daemon
    while it waits for a refresh under way (docs/panels.md)."""
    from companion.devices.panels import PANELS
    from companion.devices.refresh import HANG_GRACE

    longest = max(model.longest for model in PANELS.values()) + HANG_GRACE
    assert int(one(service, "TimeoutStopSec")) > longest + 5  # and a few seconds to close the rest


VENUE_UNIT = UNIT.with_name("companion-venue.service")
VENUE_EXEC = "/opt/companion/venv/bin/companion venue serve --dir /var/lib/companion-venue --port 8090"
# What the dashboard's unit keeps exactly as the table's: the same walls, the same networks.
SHARED_HARDENING = ("NoNewPrivileges", "PrivateMounts", "ProtectSystem", "ProtectHome", "PrivateTmp",
                    "ProtectKernelTunables", "ProtectKernelModules", "ProtectKernelLogs",
                    "ProtectControlGroups", "ProtectHostname", "ProtectProc", "RestrictAddressFamilies",
                    "RestrictNamespaces", "RestrictRealtime", "RestrictSUIDSGID", "LockPersonality",
                    "RemoveIPC",
                    "CapabilityBoundingSet", "AmbientCapabilities", "SystemCallArchitectures",
                    "SystemCallFilter", "SystemCallErrorNumber", "IPAddressDeny", "IPAddressAllow", "UMask",
                    "StateDirectoryMode", "Restart", "StandardOutput", "StandardError", "Environment")


@pytest.fixture(scope="module")
def venue_service() -> dict[str, list[str]]:
    return parse_unit(VENUE_UNIT.read_text())["Service"]


@pytest.mark.parametrize("key", SHARED_HARDENING)
def test_the_dashboards_unit_is_hardened_as_the_tables(service, venue_service, key):
    assert venue_service.get(key) == service[key], key


@pytest.mark.parametrize(("key", "expected"), [
    ("User", "companion-venue"),
    ("Group", "companion-venue"),
    ("StateDirectory", "companion-venue"),
    ("ExecStart", VENUE_EXEC),
    ("SyslogIdentifier", "companion-venue"),
    ("RestartPreventExitStatus", "2"),  # a missing venue folder or a taken port: restarting cannot fix it
    ("PrivateDevices", "yes"),  # it drives no hardware: nothing of /dev
    ("ProtectClock", "yes"),
    ("ProcSubset", "pid"),
    ("Type", "exec"),
])
def test_the_dashboards_own_directives(venue_service, key, expected):
    assert one(venue_service, key) == expected


def test_the_dashboards_unit_serves_its_state_folder_and_installs_into_multi_user(venue_service):
    assert f"--dir /var/lib/{one(venue_service, 'StateDirectory')} " in one(venue_service, "ExecStart")
    assert parse_unit(VENUE_UNIT.read_text())["Install"]["WantedBy"] == ["multi-user.target"]
    assert int(one(venue_service, "TasksMax")) and one(venue_service, "MemoryMax").endswith("M")


@pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze not installed (Debian package: systemd)")
def test_systemd_analyze_verify_the_dashboards_unit(tmp_path):
    text = VENUE_UNIT.read_text()
    assert f"ExecStart={VENUE_EXEC}\n" in text
    unit = tmp_path / VENUE_UNIT.name  # as above: the venv exists only where it is installed
    runnable = f"ExecStart=/bin/true {VENUE_EXEC.split(' ', 1)[1]}"
    unit.write_text(text.replace(f"ExecStart={VENUE_EXEC}", runnable))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True,
                            timeout=60)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert [line for line in output.splitlines() if VENUE_UNIT.name in line] == []
