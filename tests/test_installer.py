"""firmware/install.py against scratch roots: the exact plan, dry-run purity, idempotence, refusals."""

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
INSTALLER = REPO / "firmware" / "install.py"
UNIT_LINES = (REPO / "systemd" / "companion.service").read_text().splitlines()
SOCKET_LINES = (REPO / "systemd" / "companion-http.socket").read_text().splitlines()
POLKIT_LINES = (REPO / "firmware" / "network" / "50-companion-network.rules").read_text().splitlines()
DNSMASQ_LINES = (REPO / "firmware" / "network" / "companion-dnsmasq.conf").read_text().splitlines()
COMMENT = "# table companion: SPI and I2C for the Inky panel; GPIO 7 and 9 stay free for LED dice"
# The tail of Raspberry Pi OS Bookworm's stock config.txt: interfaces commented out, ends in [all].
BOOKWORM = """\
# Uncomment some or all of these to enable the optional hardware interfaces
#dtparam=i2c_arm=on
#dtparam=i2s=on
#dtparam=spi=on

# Enable audio (loads snd_bcm2835)
dtparam=audio=on

[cm4]
otg_mode=1

[cm5]
dtoverlay=dwc2,dr_mode=host

[all]
"""
CONFIG_LINES = [
    "# Table companion settings, written once by firmware/install.py: a re-install never overwrites them.",
    'panel = "auto"', 'profile = "impression-7in3"', 'language = "fr"', 'state_dir = "/var/lib/companion"',
    "port = 8080", 'game = "dice"  # the game the table offers between games', "[options.dice]",
    "count = 2", "[network]  # docs/network.md",
    'mode = "auto"  # the known Wi-Fi if it comes up within auto_wait seconds, else the table\'s own hotspot',
    'ssid = "{ssid}"', 'password = "{password}"',
]


def credentials(text: str) -> dict[str, str]:
    """The hotspot's name and password the installer made up (random, so read back from what it wrote)."""
    ssid = re.search(r'ssid = "(Table-[a-z2-9]{4})"', text)
    password = re.search(r'password = "([a-z2-9]{12})"', text)
    assert ssid and password, text
    return {"ssid": ssid[1], "password": password[1]}


def config_lines(made: dict[str, str]) -> list[str]:
    return [line.format(**made) for line in CONFIG_LINES]


def keyfile_lines(made: dict[str, str], autoconnect: str = "false") -> list[str]:
    return install.HOTSPOT_KEYFILE.format(config=install.CONFIG, uuid=install.HOTSPOT_UUID,
                                          autoconnect=autoconnect, **made).splitlines()


def load_installer():
    spec = importlib.util.spec_from_file_location("companion_install", INSTALLER)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


install = load_installer()


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(INSTALLER), *args], capture_output=True, text=True, timeout=60)


def make_root(tmp_path: Path, config_txt: str = BOOKWORM, boot: str = "boot/firmware/config.txt") -> Path:
    root = tmp_path / "root"
    (root / boot).parent.mkdir(parents=True)
    (root / boot).write_text(config_txt)
    (root / "etc").mkdir(exist_ok=True)
    # As on Raspberry Pi OS: the device groups exist (udev gives them the nodes), python3-venv is there.
    (root / "etc/group").write_text("root:x:0:\ngpio:x:997:pi\nspi:x:999:pi\ni2c:x:998:pi\n")
    (root / "etc/passwd").write_text("root:x:0:0:root:/root:/bin/bash\n")
    (root / "var/lib/dpkg").mkdir(parents=True)
    (root / "var/lib/dpkg/status").write_text(dpkg_status("arm64"))
    return root


def dpkg_status(arch: str) -> str:
    return (f"Package: dpkg\nStatus: install ok installed\nArchitecture: {arch}\nDescription: Debian\n"
            " package management system\n\n"
            f"Package: python3-venv\nStatus: install ok installed\nArchitecture: {arch}\n\n"
            f"Package: gcc\nStatus: deinstall ok config-files\nArchitecture: {arch}\n")


def snapshot(root: Path) -> dict[str, tuple[bytes, int, int]]:
    return {str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"", p.stat().st_mtime_ns,
                                       p.stat().st_mode) for p in sorted(root.rglob("*"))}


def test_dry_run_prints_the_exact_plan(tmp_path):
    root = make_root(tmp_path)
    result = run("--root", str(root), "--dry-run")
    assert result.returncode == 0, result.stderr
    made = credentials(result.stdout)
    assert result.stdout.splitlines() == [
        f"# dry run, root {root}: nothing is changed",
        "run: apt-get update",
        "run: apt-get install -y --no-install-recommends python3-dev gcc libc6-dev dnsmasq-base",
        "run: useradd --system --user-group --home-dir /var/lib/companion --no-create-home "
        "--shell /usr/sbin/nologin companion",
        "run: usermod --append --groups gpio,spi,i2c companion",
        "run: /usr/bin/python3 -m venv /opt/companion/venv",
        f"run: /opt/companion/venv/bin/pip install --require-hashes -r {REPO}/uv-bootstrap.txt",
        "run: /usr/bin/env UV_PROJECT_ENVIRONMENT=/opt/companion/venv UV_PYTHON_DOWNLOADS=never "
        "/opt/companion/venv/bin/uv sync --locked --no-editable --compile-bytecode --extra pi "
        f"--project {REPO}",
        f"modify {root}/boot/firmware/config.txt",
        "  +", f"  + {COMMENT}", "  + dtparam=spi=on", "  + dtparam=i2c_arm=on",
        "  + dtoverlay=spi0-0cs,no_miso",
        f"create {root}/etc/companion/config.toml",
        *[f"  + {line}" for line in config_lines(made)],
        "run: chown root:companion /etc/companion/config.toml",
        f"create {root}/etc/systemd/system/companion.service",
        *[f"  + {line}".rstrip() for line in UNIT_LINES],
        f"create {root}/etc/systemd/system/companion-http.socket",
        *[f"  + {line}".rstrip() for line in SOCKET_LINES],
        f"create {root}/etc/polkit-1/rules.d/50-companion-network.rules",
        *[f"  + {line}".rstrip() for line in POLKIT_LINES],
        f"create {root}/etc/NetworkManager/dnsmasq-shared.d/companion.conf",
        *[f"  + {line}".rstrip() for line in DNSMASQ_LINES],
        f"create {root}/etc/NetworkManager/system-connections/companion-hotspot.nmconnection",
        *[f"  + {line}".rstrip() for line in keyfile_lines(made)],
        "run: nmcli connection reload",
        "run: systemctl daemon-reload",
        "run: systemctl enable --now companion-http.socket",
        "run: systemctl try-restart companion",
        "run: systemctl enable --now companion",
    ]


def test_dry_run_changes_nothing(tmp_path):
    root = make_root(tmp_path)
    before = snapshot(root)
    assert run("--root", str(root), "--dry-run").returncode == 0
    assert snapshot(root) == before


def test_apply_then_nothing_left_to_change(tmp_path):
    root = make_root(tmp_path)
    first = run("--root", str(root), "--no-commands")
    assert first.returncode == 0, first.stderr
    assert "not run (--root or --no-commands)" in first.stdout
    config_txt = root / "boot/firmware/config.txt"
    added = ["", COMMENT, "dtparam=spi=on", "dtparam=i2c_arm=on", "dtoverlay=spi0-0cs,no_miso"]
    assert config_txt.read_text() == BOOKWORM + "\n".join(added) + "\n"
    config = root / "etc/companion/config.toml"
    made = credentials(config.read_text())
    assert config.read_text().splitlines() == config_lines(made)
    assert config.stat().st_mode & 0o777 == 0o640  # it holds the hotspot's password
    assert (root / "etc/systemd/system/companion.service").read_text().splitlines() == UNIT_LINES
    assert (root / "etc/systemd/system/companion-http.socket").read_text().splitlines() == SOCKET_LINES
    assert (root / "etc/polkit-1/rules.d/50-companion-network.rules").read_text().splitlines() == POLKIT_LINES
    assert (root / "etc/NetworkManager/dnsmasq-shared.d/companion.conf").read_text().splitlines() == (
        DNSMASQ_LINES)
    profile = root / "etc/NetworkManager/system-connections/companion-hotspot.nmconnection"
    assert profile.read_text().splitlines() == keyfile_lines(made)
    assert profile.stat().st_mode & 0o777 == 0o600  # NetworkManager ignores a profile others can read
    assert not list(root.rglob("*.companion-tmp"))

    before = snapshot(root)
    second = run("--root", str(root), "--dry-run")
    assert [line for line in second.stdout.splitlines() if line.startswith(("create", "modify", "  "))] == []
    assert run("--root", str(root)).returncode == 0
    assert snapshot(root) == before


def test_existing_config_toml_is_kept(tmp_path):
    root = make_root(tmp_path)
    (root / "etc/companion").mkdir()
    (root / "etc/companion/config.toml").write_text('language = "en"\n')
    assert run("--root", str(root)).returncode == 0
    assert (root / "etc/companion/config.toml").read_text() == 'language = "en"\n'


def test_spi_off_is_replaced_not_duplicated(tmp_path):
    root = make_root(tmp_path, "dtparam=audio=on\ndtparam=spi=off\n")
    plan = run("--root", str(root), "--dry-run").stdout
    assert "  - dtparam=spi=off\n  + dtparam=spi=on\n" in plan
    assert run("--root", str(root)).returncode == 0
    lines = (root / "boot/firmware/config.txt").read_text().splitlines()
    assert lines == ["dtparam=audio=on", "dtparam=spi=on", "", COMMENT, "dtparam=i2c_arm=on",
                     "dtoverlay=spi0-0cs,no_miso"]


def test_falls_back_to_boot_config_txt(tmp_path):
    root = make_root(tmp_path, "dtparam=spi=on\n", boot="boot/config.txt")
    plan = run("--root", str(root), "--dry-run").stdout
    assert f"modify {root}/boot/config.txt\n" in plan
    assert run("--root", str(root)).returncode == 0
    assert (root / "boot/config.txt").read_text().endswith("dtparam=i2c_arm=on\ndtoverlay=spi0-0cs,no_miso\n")


def test_prefers_boot_firmware_over_bookworm_stub(tmp_path):
    root = make_root(tmp_path)
    stub = "DO NOT EDIT THIS FILE\n\nThe file you are looking for has moved to /boot/firmware/config.txt\n"
    (root / "boot/config.txt").write_text(stub)
    assert run("--root", str(root)).returncode == 0
    assert (root / "boot/config.txt").read_text() == stub
    assert "dtoverlay=spi0-0cs,no_miso" in (root / "boot/firmware/config.txt").read_text()


def test_missing_config_txt_is_refused(tmp_path):
    root = tmp_path / "empty"
    root.mkdir()
    result = run("--root", str(root), "--dry-run")
    assert result.returncode == 2
    assert f"{root}/boot/firmware/config.txt or {root}/boot/config.txt" in result.stderr
    assert "--root" in result.stderr and result.stdout == ""


def test_old_os_is_refused(tmp_path):
    root = make_root(tmp_path)
    (root / "etc/os-release").write_text('ID=debian\nVERSION_ID="11"\nVERSION_CODENAME=bullseye\n')
    result = run("--root", str(root), "--dry-run")
    assert result.returncode == 2 and "Bookworm" in result.stderr


def test_not_root_or_not_linux_is_refused(monkeypatch, capsys):
    monkeypatch.setattr(install.os, "geteuid", lambda: 1000)
    assert install.main([]) == 2
    assert "must run as root" in capsys.readouterr().err
    monkeypatch.setattr(install.sys, "platform", "darwin")
    assert install.main([]) == 2
    assert "not darwin" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "added"),
    [
        ("dtparam=i2c_arm=on,spi=on\ndtoverlay=spi0-0cs,no_miso\n", []),
        ("dtparam=i2c_arm=on,spi=on\ndtoverlay=spi0-0cs , no_miso\n", []),
        ("dtparam=i2c=on\ndtparam=spi\n", ["dtoverlay=spi0-0cs,no_miso"]),
        # Lines under a model filter do not count, and new lines must not land under one.
        ("[pi4]\ndtparam=spi=on\ndtparam=i2c_arm=on\ndtoverlay=spi0-0cs,no_miso\n",
         ["[all]", "dtparam=spi=on", "dtparam=i2c_arm=on", "dtoverlay=spi0-0cs,no_miso"]),
        ("dtparam=i2c_arm=off,audio=on\n[all]\n", ["dtparam=spi=on", "dtoverlay=spi0-0cs,no_miso"]),
    ],
)
def test_boot_config_edit(text, added):
    new = install.edit_boot_config(text)
    appended = new.splitlines()[len(text.splitlines()):]
    assert [line for line in appended if line and line != COMMENT] == added
    assert "=off" not in new
    assert install.edit_boot_config(new) == new


def test_executor_runs_commands_in_order_after_the_unit_is_written(tmp_path):
    root = make_root(tmp_path)
    (root / "etc/group").write_text("gpio:x:997:pi,companion\nspi:x:999:companion\ni2c:x:998:companion\n")
    (root / "etc/passwd").write_text("companion:x:999:996::/var/lib/companion:/usr/sbin/nologin\n")
    unit = root / "etc/systemd/system/companion.service"
    ran = []
    install.execute(install.plan(root, "/src"), lambda argv: ran.append((argv, unit.exists())))
    assert ran == [
        (("apt-get", "update"), False),
        (("apt-get", "install", "-y", "--no-install-recommends", "python3-dev", "gcc", "libc6-dev",
          "dnsmasq-base"), False),
        (("/usr/bin/python3", "-m", "venv", "/opt/companion/venv"), False),
        (("/opt/companion/venv/bin/pip", "install", "--require-hashes", "-r", "/src/uv-bootstrap.txt"),
         False),
        (("/usr/bin/env", "UV_PROJECT_ENVIRONMENT=/opt/companion/venv", "UV_PYTHON_DOWNLOADS=never",
          "/opt/companion/venv/bin/uv", "sync", "--locked", "--no-editable", "--compile-bytecode", "--extra",
          "pi", "--project", "/src"), False),
        (("chown", "root:companion", "/etc/companion/config.toml"), False),
        (("nmcli", "connection", "reload"), True),
        (("systemctl", "daemon-reload"), True),
        (("systemctl", "enable", "--now", "companion-http.socket"), True),
        (("systemctl", "try-restart", "companion"), True),
        (("systemctl", "enable", "--now", "companion"), True),
    ]


def test_missing_device_groups_are_created(tmp_path):
    root = make_root(tmp_path)
    (root / "etc/group").write_text("root:x:0:\ngpio:x:997:\n")
    runs = [a.argv for a in install.plan(root, "/src") if isinstance(a, install.Run)]
    assert ("groupadd", "--system", "spi") in runs and ("groupadd", "--system", "i2c") in runs
    assert ("groupadd", "--system", "gpio") not in runs


def test_overlay_without_no_miso_gets_it_in_place():
    new = install.edit_boot_config("dtparam=spi=on,i2c_arm=on\ndtoverlay=spi0-0cs\n")
    assert new == "dtparam=spi=on,i2c_arm=on\ndtoverlay=spi0-0cs,no_miso\n"


def test_fragment_matches_what_the_installer_adds():
    # The fragment is for people who edit config.txt by hand: it must say what install.py writes.
    lines = (REPO / "firmware" / "config.txt.fragment").read_text().splitlines()
    assert lines[0] == install.BOOT_COMMENT
    assert lines[1:] == ["[all]", *install.edit_boot_config("").splitlines()[1:]]


def test_armhf_gets_what_pip_needs_to_compile_without_wheels(tmp_path):
    root = make_root(tmp_path)
    (root / "var/lib/dpkg/status").write_text(dpkg_status("armhf"))
    runs = [a.argv for a in install.plan(root, "/src") if isinstance(a, install.Run)]
    assert ("apt-get", "install", "-y", "--no-install-recommends", "python3-dev", "gcc", "libc6-dev",
            "dnsmasq-base", "g++", "zlib1g-dev", "libjpeg-dev", "libfreetype-dev") in runs


def test_relative_source_is_made_absolute(tmp_path):
    root = make_root(tmp_path)
    argv = [sys.executable, str(INSTALLER), "--root", str(root), "--dry-run", "--source", "."]
    result = subprocess.run(argv, capture_output=True, text=True, timeout=60, cwd=REPO)
    bootstrap = f"run: /opt/companion/venv/bin/pip install --require-hashes -r {REPO}/uv-bootstrap.txt"
    assert bootstrap in result.stdout
    assert f"--extra pi --project {REPO}\n" in result.stdout


def test_a_source_without_a_lock_is_refused(tmp_path):
    """Installs take the exact versions of the checkout's lock: a folder without one (or a requirement
    such as table-companion==0.2) is refused before anything changes."""
    root, source = make_root(tmp_path), tmp_path / "src"
    source.mkdir()
    (source / "pyproject.toml").write_text("[project]\nname = 'table-companion'\n")
    for given in (str(source), "table-companion==0.2"):
        result = run("--root", str(root), "--dry-run", "--source", given)
        assert result.returncode == 2 and "uv.lock" in result.stderr and "run:" not in result.stdout


STOCK_CMDLINE = ("console=serial0,115200 console=tty1 root=PARTUUID=4e639091-02 rootfstype=ext4 "
                 "fsck.repair=yes "
                 "rootwait quiet splash plymouth.ignore-serial-consoles cfg80211.ieee80211_regdom=FR\n")


def test_serial_console_leaves_gpio_14_and_15_and_only_once(tmp_path):
    root = make_root(tmp_path)
    cmdline = root / "boot/firmware/cmdline.txt"
    cmdline.write_text(STOCK_CMDLINE)
    result = run("--root", str(root), "--dry-run")
    assert result.returncode == 0, result.stderr
    assert f"modify {cmdline}" in result.stdout
    lines = result.stdout.splitlines()
    assert "  - " + STOCK_CMDLINE.rstrip("\n") in lines
    assert "  + " + STOCK_CMDLINE.replace("console=serial0,115200 ", "").rstrip("\n") in lines
    assert cmdline.read_text() == STOCK_CMDLINE  # a dry run changes nothing
    assert run("--root", str(root)).returncode == 0
    assert cmdline.read_text() == STOCK_CMDLINE.replace("console=serial0,115200 ", "")
    assert "\n" not in cmdline.read_text().rstrip("\n")  # the firmware reads one line only
    again = [a for a in install.plan(root, str(REPO)) if isinstance(a, install.WriteFile)]
    assert not [a for a in again if a.path.name == "cmdline.txt"]


def test_keep_serial_console_leaves_cmdline_alone(tmp_path):
    root = make_root(tmp_path)
    cmdline = root / "boot/firmware/cmdline.txt"
    cmdline.write_text(STOCK_CMDLINE)
    assert run("--root", str(root), "--keep-serial-console").returncode == 0
    assert cmdline.read_text() == STOCK_CMDLINE


@pytest.mark.parametrize("text, expected", [
    ("console=ttyAMA0,115200 root=/dev/mmcblk0p2\n", "root=/dev/mmcblk0p2\n"),
    ("console=tty1 root=/dev/mmcblk0p2\n", "console=tty1 root=/dev/mmcblk0p2\n"),
])
def test_cmdline_edit(text, expected):
    assert install.edit_cmdline(text) == expected


# --- the network: hotspot profile, polkit rule, dnsmasq drop-in, port-80 socket ------------------------
NETWORK_FILES = ("etc/systemd/system/companion.service", "etc/systemd/system/companion-http.socket",
                 "etc/polkit-1/rules.d/50-companion-network.rules",
                 "etc/NetworkManager/dnsmasq-shared.d/companion.conf",
                 "etc/NetworkManager/system-connections/companion-hotspot.nmconnection")


def test_each_install_makes_its_own_hotspot_credentials():
    first, second = credentials(install.new_config()), credentials(install.new_config())
    assert first != second


def test_the_profile_is_the_one_the_daemon_makes():
    import configparser

    from companion.network.manager import HOTSPOT_ID, HOTSPOT_UUID, Hotspot, hotspot_settings

    keyfile = configparser.ConfigParser(interpolation=None)
    keyfile.read_string(install.hotspot_keyfile('[network]\nmode = "hotspot"\nssid = "Jeux"\n'
                                                'password = "abcdefgh"\n'))
    daemon = hotspot_settings(Hotspot("Jeux", "abcdefgh", autoconnect=True), "wlan0")
    assert (keyfile["connection"]["id"], keyfile["connection"]["uuid"]) == (HOTSPOT_ID, HOTSPOT_UUID)
    assert keyfile["connection"]["autoconnect"] == "true"  # the mode asks for it
    assert keyfile["wifi"]["ssid"] == "Jeux" and keyfile["wifi-security"]["psk"] == "abcdefgh"
    on_dbus = {"wifi": "802-11-wireless", "wifi-security": "802-11-wireless-security"}
    security = ("key-mgmt", "proto", "pairwise", "group", "pmf")
    for section, key in (("wifi", "mode"), ("wifi", "band"), *(("wifi-security", k) for k in security),
                         ("ipv4", "method"), ("ipv6", "method")):
        value = daemon[on_dbus.get(section, section)][key][1]
        assert keyfile[section][key] == (";".join(value) if isinstance(value, list) else str(value)), key


@pytest.mark.parametrize("config, autoconnect", [
    ('[network]\nmode = "auto"\npassword = "abcdefgh"\n', "autoconnect=false"),
    ('[network]\nmode = "hotspot"\npassword = "abcdefgh"\n', "autoconnect=true"),
    ('language = "en"\n', None),  # an older config without [network]: the daemon makes the profile later
])
def test_an_existing_config_decides_the_profile_and_is_kept(tmp_path, config, autoconnect):
    root = make_root(tmp_path)
    (root / "etc/companion").mkdir()
    (root / "etc/companion/config.toml").write_text(config)
    assert run("--root", str(root)).returncode == 0
    assert (root / "etc/companion/config.toml").read_text() == config
    profile = root / "etc/NetworkManager/system-connections/companion-hotspot.nmconnection"
    if autoconnect is None:
        assert not profile.exists()
    else:
        assert autoconnect in profile.read_text().splitlines()


def test_uninstall_removes_what_the_install_put_outside_the_venv_config_and_state(tmp_path):
    root = make_root(tmp_path)
    assert run("--root", str(root), "--no-commands").returncode == 0
    assert all((root / path).is_file() for path in NETWORK_FILES)
    planned = run("--root", str(root), "--uninstall", "--dry-run")
    assert planned.returncode == 0, planned.stderr
    assert planned.stdout.splitlines()[1:] == [
        "run: systemctl disable --now companion-http.socket companion",
        *[f"remove {root}/{path}" for path in NETWORK_FILES],
        "run: nmcli connection reload", "run: systemctl daemon-reload"]
    assert all((root / path).is_file() for path in NETWORK_FILES)  # a dry run removes nothing
    removed = run("--root", str(root), "--uninstall")
    assert removed.returncode == 0, removed.stderr
    assert not any((root / path).exists() for path in NETWORK_FILES)
    assert (root / "etc/companion/config.toml").is_file()  # the owner's settings stay
    assert "Kept: /opt/companion/venv, /etc/companion/config.toml" in removed.stdout


def test_the_polkit_rule_allows_the_service_user_three_actions_and_nothing_else():
    rule = (REPO / "firmware" / "network" / "50-companion-network.rules").read_text()
    actions = set(re.findall(r'"(org\.freedesktop\.[\w.-]+)"', rule))
    assert actions == {"org.freedesktop.NetworkManager.network-control",
                       "org.freedesktop.NetworkManager.settings.modify.system",
                       "org.freedesktop.NetworkManager.wifi.share.protected"}
    assert 'subject.user === "companion"' in rule
    assert rule.count("polkit.Result.YES") == 1 and "polkit.Result.NOT_HANDLED" in rule


# --- the profile read back as NetworkManager reads it: GLib's key-file parser, then its ssid rule ----------
GLIB = Path("/usr/lib/python3/dist-packages/gi")
# Run by Debian's python3, which has GLib's introspection (python3-gi); this venv does not.
GLIB_READ = """
import json, sys
from gi.repository import GLib
read = []
for text in json.load(sys.stdin):
    keyfile = GLib.KeyFile()
    try:
        keyfile.load_from_data(text, len(text.encode()), GLib.KeyFileFlags.NONE)
        read.append([keyfile.get_string("wifi", "ssid"), keyfile.get_string("wifi-security", "psk")])
    except GLib.Error as exc:
        read.append(exc.message)
print(json.dumps(read))
"""


def read_by_glib(texts: list[str]) -> list:
    """Each key file's [wifi] ssid and [wifi-security] psk as GLib's parser gives them, or its error."""
    if not GLIB.is_dir() or not Path("/usr/bin/python3").exists():
        message = "needs GLib's parser for Python: apt-get install python3-gi gir1.2-glib-2.0"
        if os.environ.get("COMPANION_REQUIRE_DBUS") == "1":  # .ci/run installs it beside python3-dbusmock
            pytest.fail(message + " (COMPANION_REQUIRE_DBUS=1)")
        pytest.skip(message)
    ran = subprocess.run(["/usr/bin/python3", "-c", GLIB_READ], input=json.dumps(texts), capture_output=True,
                         text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return json.loads(ran.stdout)


def nm_ssid(value: str) -> str:
    """The SSID NetworkManager makes of the string GLib read (libnm-core's keyfile reader, get_bytes): a list
    of byte values such as `84;97;` is those bytes, any other string is itself with `\\;` read as `;`."""
    if re.fullmatch(r"(\s*\d{1,3}\s*;)+\s*", value) and all(int(n) < 256 for n in re.findall(r"\d+", value)):
        return bytes(int(n) for n in re.findall(r"\d+", value)).decode()
    return value.replace("\\;", ";")


# Each (ssid, password): what GLib's format escapes (\ and a leading space), what it must not lose (a
# trailing space), what ends a value or a list elsewhere (# ; =), quotes, and a name that is not ASCII.
HARD = [
    ("Table de jeu", "back\\slash\\\\"),
    (" Jeux du soir ", " leading and trailing "),
    ("Table; de jeu", "#not;a=comment"),
    ('Le "bon" coin', "quotes \" and '"),
    ("Café des jeux é", "tab\\t and \\n as text"),
    ("12;34;", "12345678"),  # a name that reads as a list of bytes unless its ';' are escaped
    ("\\;back;\\", "  ;\\;=#  "),
]


def test_the_profile_holds_the_configs_name_and_password_as_networkmanager_reads_it():
    texts = [install.hotspot_keyfile(f"[network]\nssid = {json.dumps(ssid)}\npassword = {json.dumps(pw)}\n")
             for ssid, pw in HARD]
    assert None not in texts  # each is a password WPA2 takes
    read = read_by_glib(texts)
    assert [r if isinstance(r, str) else [nm_ssid(r[0]), r[1]] for r in read] == [list(p) for p in HARD]


def test_a_password_wpa2_refuses_gets_no_profile():
    for password in ("mot de passe é", "seven77", "x" * 64, "tab\there!"):
        assert install.hotspot_keyfile(f"[network]\npassword = {json.dumps(password)}\n") is None
