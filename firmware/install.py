#!/usr/bin/env python3
"""Install the table companion on Raspberry Pi OS Bookworm or later: user, venv, boot config, network, unit.

`--uninstall` removes the units, the polkit rule, the dnsmasq drop-in and the hotspot's profile."""

import argparse
import difflib
import os
import secrets
import shlex
import subprocess
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
UNIT_SOURCE = REPO / "systemd" / "companion.service"
SOCKET_SOURCE = REPO / "systemd" / "companion-http.socket"
POLKIT_SOURCE = REPO / "firmware" / "network" / "50-companion-network.rules"
DNSMASQ_SOURCE = REPO / "firmware" / "network" / "companion-dnsmasq.conf"
USER = "companion"
DEVICE_GROUPS = ("gpio", "spi", "i2c")
VENV = "/opt/companion/venv"
CONFIG = "/etc/companion/config.toml"
UNIT = "/etc/systemd/system/companion.service"
SOCKET = "/etc/systemd/system/companion-http.socket"
POLKIT_RULE = "/etc/polkit-1/rules.d/50-companion-network.rules"
DNSMASQ_DROP_IN = "/etc/NetworkManager/dnsmasq-shared.d/companion.conf"
HOTSPOT_PROFILE = "/etc/NetworkManager/system-connections/companion-hotspot.nmconnection"
# The same connection the daemon makes and updates over D-Bus (companion/network/manager.py HOTSPOT_UUID).
HOTSPOT_UUID = "bf976efd-0caf-5c4a-9f4a-c05708832209"
BOOT_CONFIGS = ("/boot/firmware/config.txt", "/boot/config.txt")
# spidev has no aarch64/armv7l wheel on PyPI: uv compiles it, needing gcc, Python.h and
# linux/spi/spidev.h (linux-libc-dev, pulled by libc6-dev). Debian splits venv/ensurepip into python3-venv.
# dnsmasq-base is NetworkManager's DHCP and DNS server for the hotspot (ipv4.method shared), only a
# recommendation of network-manager: a system installed without recommendations lacks it.
APT_PACKAGES = ("python3-venv", "python3-dev", "gcc", "libc6-dev", "dnsmasq-base")
# PyPI has no armv7l wheels for numpy, Pillow, msgspec or gpiod 2.x, and the lock takes only PyPI's files
# (checked by hash), so on armhf uv compiles them from their locked sources: numpy needs a C++ compiler,
# Pillow needs zlib and libjpeg, and a Pillow built without FreeType cannot draw the panel's TrueType text.
ARMHF_PACKAGES = ("g++", "zlib1g-dev", "libjpeg-dev", "libfreetype-dev")
BOOT_COMMENT = "# table companion: SPI and I2C for the Inky panel; GPIO 7 and 9 stay free for LED dice"
# (line to add, parameter names that already satisfy it); i2c is the firmware's alias for i2c_arm.
BOOT_PARAMS = (("dtparam=spi=on", ("spi",)), ("dtparam=i2c_arm=on", ("i2c_arm", "i2c")))
# spi0-0cs: inky drives its chip select itself, so CE1 (GPIO 7) stays free; no_miso: inky never reads the
# panel, so GPIO 9 stays free. The bundled profiles put LED dice on both (hardware/README.md).
OVERLAY, OVERLAY_PARAM = "spi0-0cs", "no_miso"
BOOT_OVERLAY = f"dtoverlay={OVERLAY},{OVERLAY_PARAM}"
OFF = {"off", "false", "no", "0"}
# The default profile drives LED dice from GPIO 14 and 15, the UART: a login console there would
# write to the LEDs. Raspberry Pi Imager puts console=serial0,115200 in cmdline.txt by default.
SERIAL_CONSOLES = ("console=serial0", "console=serial1", "console=ttyAMA0", "console=ttyS0")
DEFAULT_CONFIG = """\
# Table companion settings, written once by firmware/install.py: a re-install never overwrites them.
panel = "auto"
profile = "impression-7in3"
language = "fr"
state_dir = "/var/lib/companion"
port = 8080
game = "dice"  # the game the table offers between games
[options.dice]
count = 2
[network]  # docs/network.md
mode = "auto"  # the known Wi-Fi if it comes up within auto_wait seconds, else the table's own hotspot
ssid = "{ssid}"
password = "{password}"
"""
# Letters and digits a person can read off the panel and type without confusing them (no 0/O, 1/l/I).
READABLE = "abcdefghijkmnpqrstuvwxyz23456789"
HOTSPOT_KEYFILE = """\
# The table companion's hotspot, written by firmware/install.py from [network] in {config}.
[connection]
id=companion-hotspot
uuid={uuid}
type=wifi
interface-name=wlan0
autoconnect={autoconnect}

[wifi]
mode=ap
band=bg
ssid={ssid}

[wifi-security]
key-mgmt=wpa-psk
proto=rsn
pairwise=ccmp
group=ccmp
pmf=1
psk={password}

[ipv4]
method=shared

[ipv6]
method=ignore
"""


class Refusal(Exception):
    """A problem the user must fix before anything is changed."""


@dataclass(frozen=True)
class WriteFile:
    path: Path
    old: str | None
    new: str
    mode: int = 0o644


@dataclass(frozen=True)
class Run:
    argv: tuple[str, ...]


@dataclass(frozen=True)
class RemoveFile:
    path: Path
    old: str


Action = WriteFile | Run | RemoveFile


def under(root: Path, path: str) -> Path:
    return root / path.lstrip("/")


def read(path: Path) -> str | None:
    return path.read_text() if path.is_file() else None


def find_boot_config(root: Path) -> Path:
    for candidate in BOOT_CONFIGS:
        if under(root, candidate).is_file():
            return under(root, candidate)
    tried = " or ".join(str(under(root, c)) for c in BOOT_CONFIGS)
    raise Refusal(f"no boot config at {tried}: this is not Raspberry Pi OS, or its boot partition is not "
                  "mounted. Run this on the Pi, or pass --root with a Pi root filesystem that has it.")


def edit_boot_config(text: str) -> str:
    """Turn SPI and I2C on and add the overlay; returns text unchanged when it already has them."""
    original = text.splitlines()
    lines = list(original)
    unconditional, satisfied = True, set()
    for i, raw in enumerate(lines):
        line = raw.strip()
        if line.startswith("["):
            # A later [pi4]/[cm5]... filter limits every line after it; [all] lifts it.
            unconditional = line.lower() == "[all]"
        elif line.startswith("dtparam="):
            params = line[len("dtparam="):].split(",")
            for j, param in enumerate(params):
                name, _, value = param.partition("=")
                for wanted, names in BOOT_PARAMS:
                    if name.strip() not in names:
                        continue
                    if value.strip().lower() in OFF:
                        # The panel cannot work with its bus off: turn it on where the user turned it off.
                        params[j] = f"{name.strip()}=on"
                        lines[i] = "dtparam=" + ",".join(params)
                    if unconditional:
                        satisfied.add(wanted)
        elif line.startswith("dtoverlay=") and line[len("dtoverlay="):].split(",")[0].strip() == OVERLAY:
            if OVERLAY_PARAM not in [p.strip() for p in line.split(",")[1:]]:
                # Without no_miso the SPI driver holds GPIO 9 and the dice on it cannot be claimed.
                lines[i] = f"{line},{OVERLAY_PARAM}"
            if unconditional:
                satisfied.add(BOOT_OVERLAY)
    missing = [w for w, _ in BOOT_PARAMS if w not in satisfied]
    missing += [BOOT_OVERLAY] if BOOT_OVERLAY not in satisfied else []
    if missing:
        # A blank line and a comment so the owner sees why these lines exist and can find them.
        lines += [""] if lines and lines[-1].strip() else []
        lines += [BOOT_COMMENT] + ([] if unconditional else ["[all]"]) + missing
    return text if lines == original else "\n".join(lines) + "\n"


def edit_cmdline(text: str) -> str:
    """Drop serial login consoles from the kernel command line; returns text unchanged without one."""
    words = text.split()
    kept = [w for w in words if not w.startswith(SERIAL_CONSOLES)]
    # cmdline.txt must stay one line: the firmware ignores anything after the first newline.
    return text if kept == words else " ".join(kept) + "\n"


def dpkg_status(root: Path) -> tuple[set[str], str]:
    """Installed package names, and the system's architecture (dpkg's own, as `dpkg --print-architecture`)."""
    status = read(under(root, "/var/lib/dpkg/status")) or ""
    names, arch = set(), ""
    for stanza in status.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in stanza.splitlines() if ": " in line and line[0] != " ")
        if fields.get("Status", "").endswith(" installed"):
            names.add(fields.get("Package", ""))
            arch = fields.get("Architecture", arch) if fields.get("Package") == "dpkg" else arch
    return names, arch


def etc_entries(root: Path, name: str) -> dict[str, list[str]]:
    """/etc/passwd or /etc/group as name -> fields."""
    text = read(under(root, f"/etc/{name}")) or ""
    return {f[0]: f for f in (line.split(":") for line in text.splitlines()) if f and f[0]}


def plan(root: Path, source: str, keep_serial_console: bool = False) -> list[Action]:
    """Every change needed to bring the system under root to an installed companion, in order."""
    actions: list[Action] = []
    installed, arch = dpkg_status(root)
    wanted = APT_PACKAGES + (ARMHF_PACKAGES if arch == "armhf" else ())
    missing_debs = [p for p in wanted if p not in installed]
    if missing_debs:
        actions += [Run(("apt-get", "update")),
                    Run(("apt-get", "install", "-y", "--no-install-recommends", *missing_debs))]
    groups = etc_entries(root, "group")
    # The unit's SupplementaryGroups= fails to start if a group is missing; Raspberry Pi OS has all three.
    actions += [Run(("groupadd", "--system", g)) for g in DEVICE_GROUPS if g not in groups]
    if USER not in etc_entries(root, "passwd"):
        actions.append(Run(("useradd", "--system", "--user-group", "--home-dir", "/var/lib/companion",
                            "--no-create-home", "--shell", "/usr/sbin/nologin", USER)))
    members = [groups[g][3].split(",") if len(groups.get(g, [])) > 3 else [] for g in DEVICE_GROUPS]
    if any(USER not in m for m in members):
        actions.append(Run(("usermod", "--append", "--groups", ",".join(DEVICE_GROUPS), USER)))
    if not under(root, f"{VENV}/bin/python").exists():
        actions.append(Run(("/usr/bin/python3", "-m", "venv", VENV)))
    actions += locked_install(source)

    boot = find_boot_config(root)
    old_boot = boot.read_text()
    if (new_boot := edit_boot_config(old_boot)) != old_boot:
        actions.append(WriteFile(boot, old_boot, new_boot, boot.stat().st_mode & 0o7777))
    cmdline = boot.with_name("cmdline.txt")
    if not keep_serial_console and (old_cmdline := read(cmdline)) is not None:
        if (new_cmdline := edit_cmdline(old_cmdline)) != old_cmdline:
            actions.append(WriteFile(cmdline, old_cmdline, new_cmdline, cmdline.stat().st_mode & 0o7777))
    config_text = read(under(root, CONFIG))
    if config_text is None:
        config_text = new_config()
        # 0640, group companion: the file now holds the hotspot's password.
        actions += [WriteFile(under(root, CONFIG), None, config_text, 0o640),
                    Run(("chown", f"root:{USER}", CONFIG))]
    network_files = [(UNIT_SOURCE.read_text(), UNIT, 0o644), (SOCKET_SOURCE.read_text(), SOCKET, 0o644),
                     (POLKIT_SOURCE.read_text(), POLKIT_RULE, 0o644),
                     (DNSMASQ_SOURCE.read_text(), DNSMASQ_DROP_IN, 0o644)]
    if (keyfile := hotspot_keyfile(config_text)) is not None:
        # NetworkManager ignores a profile that others can read.
        network_files.append((keyfile, HOTSPOT_PROFILE, 0o600))
    for text, path, mode in network_files:
        if (old := read(under(root, path))) != text:
            actions.append(WriteFile(under(root, path), old, text, mode))
    # The socket first: the service gets port 80 only from a socket that is already listening. try-restart:
    # a re-install must run the new code; enable --now only starts a stopped service.
    actions += [Run(("nmcli", "connection", "reload")), Run(("systemctl", "daemon-reload")),
                Run(("systemctl", "enable", "--now", "companion-http.socket")),
                Run(("systemctl", "try-restart", USER)), Run(("systemctl", "enable", "--now", USER))]
    return actions


def locked_install(source: str) -> list[Run]:
    """The exact versions of the checkout's lock, checked by hash: pip installs the lock's own uv
    (uv-bootstrap.txt), then uv makes the venv hold what uv.lock names for a Pi and nothing else."""
    return [Run((f"{VENV}/bin/pip", "install", "--require-hashes", "-r", f"{source}/uv-bootstrap.txt")),
            # The service's venv, not the checkout's .venv; and never a Python that uv would download.
            # Compiled now: the service may not write to /opt (ProtectSystem=strict), so a module without
            # its bytecode would be compiled again at every start, tripling a Pi Zero's start.
            Run(("/usr/bin/env", f"UV_PROJECT_ENVIRONMENT={VENV}", "UV_PYTHON_DOWNLOADS=never",
                 f"{VENV}/bin/uv", "sync", "--locked", "--no-editable", "--compile-bytecode", "--extra", "pi",
                 "--project", source))]


def new_config() -> str:
    """The first config, with a hotspot name and password of this table's own."""
    tag = "".join(secrets.choice(READABLE) for _ in range(4))
    password = "".join(secrets.choice(READABLE) for _ in range(12))  # 32^12 = 2^60: far beyond a guess
    return DEFAULT_CONFIG.format(ssid=f"Table-{tag}", password=password)


def hotspot_keyfile(config_text: str) -> str | None:
    """The hotspot's NetworkManager profile from the config's [network] (None without a password WPA2
    takes: the daemon then makes the profile itself the first time the host asks for the hotspot)."""
    try:
        network = tomllib.loads(config_text).get("network", {})
    except tomllib.TOMLDecodeError:
        return None  # `companion check-config` names the problem; the profile waits for a good file
    password, ssid = network.get("password", ""), network.get("ssid", "Table")
    if not (isinstance(password, str) and 8 <= len(password) <= 63 and all(" " <= c <= "~" for c in password)
            and isinstance(ssid, str) and 1 <= len(ssid.encode()) <= 32):
        return None
    return HOTSPOT_KEYFILE.format(config=CONFIG, uuid=HOTSPOT_UUID, ssid=keyfile_ssid(ssid),
                                  password=keyfile_string(password),
                                  autoconnect="true" if network.get("mode") == "hotspot" else "false")


def keyfile_string(value: str) -> str:
    """`value` as GLib's key-file format holds a string (what NetworkManager parses): a backslash, newline,
    tab and carriage return escaped, and a space at either end as `\\s` (the parser drops leading blanks,
    and an editor may drop trailing ones)."""
    body = value.replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r")
    core = body.strip(" ")
    leading = len(body) - len(body.lstrip(" "))
    return "\\s" * leading + core + "\\s" * (len(body) - leading - len(core))


def keyfile_ssid(ssid: str) -> str:
    """The SSID as NetworkManager itself writes it: printable ASCII as a string with each `;` written `\\;`
    (otherwise "12;34;" would read as two bytes), anything else as the list of its bytes, "84;233;"."""
    raw = ssid.encode()
    if all(0x20 <= byte <= 0x7E for byte in raw):
        return keyfile_string(ssid.replace(";", "\\;"))
    return "".join(f"{byte};" for byte in raw)


def uninstall_plan(root: Path) -> list[Action]:
    """Stop the service and take away what the install put outside the venv, the config and the state."""
    actions: list[Action] = [Run(("systemctl", "disable", "--now", "companion-http.socket", USER))]
    for path in (UNIT, SOCKET, POLKIT_RULE, DNSMASQ_DROP_IN, HOTSPOT_PROFILE):
        if (old := read(under(root, path))) is not None:
            actions.append(RemoveFile(under(root, path), old))
    return actions + [Run(("nmcli", "connection", "reload")), Run(("systemctl", "daemon-reload"))]


def describe(action: Action) -> list[str]:
    if isinstance(action, Run):
        return ["run: " + shlex.join(action.argv)]
    if isinstance(action, RemoveFile):
        return [f"remove {action.path}"]
    verb = "create" if action.old is None else "modify"
    diff = difflib.ndiff((action.old or "").splitlines(), action.new.splitlines())
    return [f"{verb} {action.path}"] + [f"  {d}".rstrip() for d in diff if d.startswith(("+ ", "- "))]


def write_atomically(action: WriteFile) -> None:
    # A half-written config.txt can stop the Pi from booting: write a sibling file, then rename over.
    action.path.parent.mkdir(parents=True, exist_ok=True)
    tmp = action.path.with_name(action.path.name + ".companion-tmp")
    with open(tmp, "w") as f:
        f.write(action.new)
        f.flush()
        os.fsync(f.fileno())
    os.chmod(tmp, action.mode)
    os.replace(tmp, action.path)


def execute(actions: list[Action], run: Callable[[tuple[str, ...]], None]) -> None:
    for action in actions:
        print("\n".join(describe(action)), flush=True)
        if isinstance(action, Run):
            run(action.argv)
        elif isinstance(action, RemoveFile):
            action.path.unlink(missing_ok=True)
        else:
            write_atomically(action)


def run_command(argv: tuple[str, ...]) -> None:
    subprocess.run(argv, check=True)


def skip_command(argv: tuple[str, ...]) -> None:
    # A scratch root is not a running system: useradd or systemctl there would change this host instead.
    print("  not run (--root or --no-commands)")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--root", type=Path, default=Path("/"),
                   help="operate on this root filesystem: every path is prefixed, commands are not run")
    p.add_argument("--dry-run", action="store_true", help="print every change and command, change nothing")
    p.add_argument("--no-commands", action="store_true", help="apply file changes only; list the commands")
    p.add_argument("--uninstall", action="store_true",
                   help="remove the units, the polkit rule, the dnsmasq drop-in and the hotspot's profile "
                        "(the venv, the config and the state are kept)")
    p.add_argument("--keep-serial-console", action="store_true",
                   help="leave console=serial0 in cmdline.txt (for a profile that keeps GPIO 14/15 free)")
    p.add_argument("--source", default=str(REPO),
                   help="the checkout to install, at the versions of its lock (default: this checkout)")
    args = p.parse_args(argv)
    # pip and uv run from wherever sudo was typed: a relative checkout path must not depend on that.
    args.source = str(Path(args.source).resolve())
    return args


def check_host(args: argparse.Namespace) -> None:
    scratch = args.dry_run or args.root.resolve() != Path("/")
    if not scratch and not sys.platform.startswith("linux"):
        raise Refusal(f"this installs onto Raspberry Pi OS (Linux), not {sys.platform}: run it on the Pi, "
                      "or use --dry-run / --root DIR to see or stage the changes.")
    if not scratch and os.geteuid() != 0:
        raise Refusal("must run as root to create the user, the venv and the service: "
                      f"sudo python3 {Path(__file__).name} (or --dry-run to only see the plan).")
    release = read(under(args.root, "/etc/os-release")) or ""
    fields = dict(line.split("=", 1) for line in release.splitlines() if "=" in line)
    version = fields.get("VERSION_ID", "").strip('"')
    # The lgpio wheels need glibc 2.34; Bullseye (11) has 2.31.
    debian = "debian" in fields.get("ID", "") + fields.get("ID_LIKE", "")
    if debian and version.isdigit() and int(version) < 12:
        raise Refusal(f"OS version {version} is too old: flash Raspberry Pi OS Bookworm or newer.")
    missing = [name for name in ("pyproject.toml", "uv.lock", "uv-bootstrap.txt")
               if not (Path(args.source) / name).is_file()]
    if missing:
        raise Refusal(f"--source {args.source} has no {' or '.join(missing)}: pass a table-companion "
                      "checkout (installs take the exact versions of its lock, uv.lock).")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        check_host(args)
        if args.uninstall:
            actions = uninstall_plan(args.root)
        else:
            actions = plan(args.root, args.source, args.keep_serial_console)
    except Refusal as problem:
        print(f"install.py: refusing: {problem}", file=sys.stderr)
        return 2
    if args.dry_run:
        print(f"# dry run, root {args.root}: nothing is changed")
        for action in actions:
            print("\n".join(describe(action)))
        return 0
    skip = args.no_commands or args.root.resolve() != Path("/")
    try:
        execute(actions, skip_command if skip else run_command)
    except subprocess.CalledProcessError as failed:
        print(f"install.py: failed (exit {failed.returncode}): {shlex.join(failed.cmd)}", file=sys.stderr)
        return 1
    except OSError as failed:
        print(f"install.py: failed: {failed.filename or ''}: {failed.strerror}", file=sys.stderr)
        return 1
    if args.uninstall:
        print(f"Kept: {VENV}, {CONFIG} and /var/lib/companion (the games played); remove them by hand if "
              "they are not wanted.")
    if any(isinstance(a, WriteFile) and a.path.name in ("config.txt", "cmdline.txt") for a in actions):
        print("Reboot for the boot changes (SPI, I2C, serial console) to take effect: sudo reboot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
