"""NetworkManager over D-Bus: the Wi-Fi device, the table's access point, and switching with a roll-back."""

from __future__ import annotations

import logging
import os
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from companion.i18n import N_

log = logging.getLogger(__name__)

HOTSPOT_ID = "companion-hotspot"
# One fixed uuid, so the installer's keyfile and the daemon's profile are the same connection.
HOTSPOT_UUID = str(uuid.uuid5(uuid.NAMESPACE_URL, "table-companion:hotspot"))
# ipv4.method shared gives the device the first address of 10.42.0.0/24 unless told otherwise.
HOTSPOT_ADDRESS = "10.42.0.1"
WIFI_DEVICE = 2  # NM_DEVICE_TYPE_WIFI
DEVICE_ACTIVATED = 100
ACTIVE_ACTIVATED, ACTIVE_DEACTIVATED = 2, 4  # NMActiveConnectionState
ACTIVATION_WAIT = 30.0  # seconds an activation may take: association, DHCP, dnsmasq starting
POLL = 0.25
POLKIT_RULE = "/etc/polkit-1/rules.d/50-companion-network.rules"
_ENVIRONMENT = threading.Lock()


class Phrase(str):
    """A msgid given as a field of a NetworkError's message ("start the hotspot"): translated with it."""


class NetworkError(Exception):
    """The network could not be read or changed. The message names what was wrong and the fix.

    `msgid` is an English msgid of the gettext catalogs and `params` fill its `{}` fields, as IllegalMove's:
    str() is the English (logs, the shell), `said(_)` the message in the host page's language.
    """

    def __init__(self, msgid: str, **params):
        super().__init__(msgid.format(**params) if params else msgid)
        self.msgid, self.params = msgid, params

    def said(self, _) -> str:
        """The message through the translator `_` (the web app's `_`, or i18n.translator(lang))."""
        return _(self.msgid, **{name: _(value) if isinstance(value, Phrase) else value
                                for name, value in self.params.items()})


@dataclass(frozen=True)
class Hotspot:
    """The table's own Wi-Fi: its name, its WPA2 password, and whether NetworkManager raises it at boot by
    itself (only when the config's mode is "hotspot": a hotspot left up on every boot hides the venue's)."""

    ssid: str
    password: str
    autoconnect: bool = False


@dataclass(frozen=True)
class Status:
    """What the Wi-Fi is doing now. mode: "hotspot" (the table is the network), "client" (it joined one),
    or "offline"; network: the Wi-Fi's name; address: the table's IPv4 address on it, if known."""

    mode: str
    interface: str = ""
    network: str = ""
    address: str = ""


@contextmanager
def _bus_address(address: str | None) -> Iterator[None]:
    """libsystemd reads $DBUS_SYSTEM_BUS_ADDRESS when a bus is opened: point it at `address` meanwhile."""
    if not address:
        yield
        return
    with _ENVIRONMENT:
        saved = os.environ.get("DBUS_SYSTEM_BUS_ADDRESS")
        os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = address
        try:
            yield
        finally:
            if saved is None:
                os.environ.pop("DBUS_SYSTEM_BUS_ADDRESS", None)
            else:
                os.environ["DBUS_SYSTEM_BUS_ADDRESS"] = saved


def open_bus(address: str | None = None):
    """A new connection to the system bus, or to the bus at `address` (the simulator's stand-in)."""
    try:
        import sdbus
    except ImportError:
        raise NetworkError(N_("the network mode needs the D-Bus binding, which Linux alone has: pip install "
                              "sdbus-networkmanager.")) from None
    with _bus_address(address):
        try:
            return sdbus.sd_bus_open_system()
        except Exception as exc:  # noqa: BLE001 - libsystemd reports a missing bus as an OSError-like
            raise NetworkError(N_("cannot reach the system D-Bus ({detail}): is dbus running? "
                                  "sudo systemctl status dbus"), detail=str(exc)) from None


def _error_name(exc: BaseException) -> str:
    name = getattr(type(exc), "dbus_error_name", "")
    return name or (exc.args[0] if exc.args and isinstance(exc.args[0], str) else "")


@contextmanager
def explained(action: str) -> Iterator[None]:
    """Turn a D-Bus failure while doing `action` (a msgid, "start the hotspot") into a NetworkError that
    names the fix."""
    action = Phrase(action)
    try:
        yield
    except NetworkError:
        raise
    except Exception as exc:
        name = _error_name(exc)
        if name.endswith(("ServiceUnknown", "NameHasNoOwner")):
            raise NetworkError(N_("cannot {action}: NetworkManager is not running. Start it: sudo systemctl "
                                  "enable --now NetworkManager (Raspberry Pi OS Bookworm uses it)."),
                               action=action) from None
        if name.endswith(("PermissionDenied", "AccessDenied", "InteractiveAuthorizationRequired",
                          "NotAuthorized")):
            raise NetworkError(N_("cannot {action}: this user ({user}) may not change the network. The "
                                  "polkit rule {rule} allows it: run firmware/install.py again to write it."),
                               action=action, user=_user(), rule=POLKIT_RULE) from None
        detail = exc.args[1] if len(exc.args) > 1 else exc
        raise NetworkError(N_("cannot {action}: NetworkManager said {name}: {detail}"), action=action,
                           name=name or type(exc).__name__, detail=str(detail)) from None


def _user() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.getuid()).pw_name
    except KeyError:
        return str(os.getuid())


def hotspot_settings(hotspot: Hotspot, interface: str) -> dict:
    """The access point's NetworkManager profile: WPA2 only, shared IPv4 (DHCP and DNS by dnsmasq)."""
    return {
        "connection": {"id": ("s", HOTSPOT_ID), "uuid": ("s", HOTSPOT_UUID),
                       "type": ("s", "802-11-wireless"), "interface-name": ("s", interface),
                       "autoconnect": ("b", hotspot.autoconnect)},
        "802-11-wireless": {"ssid": ("ay", hotspot.ssid.encode()), "mode": ("s", "ap"), "band": ("s", "bg")},
        "802-11-wireless-security": {"key-mgmt": ("s", "wpa-psk"), "psk": ("s", hotspot.password),
                                     "proto": ("as", ["rsn"]), "pairwise": ("as", ["ccmp"]),
                                     "group": ("as", ["ccmp"]),
                                     # PMF off: brcmfmac firmware on Bookworm locks a returning phone out
                                     # for minutes with it on.
                                     "pmf": ("i", 1)},
        "ipv4": {"method": ("s", "shared")},
        "ipv6": {"method": ("s", "ignore")},
    }


class NetworkManagerLink:
    """The table's Wi-Fi through NetworkManager. Each call opens its own bus connection, so threads never
    share one, and nothing runs between calls (no thread at idle)."""

    def __init__(self, bus_address: str | None = None, activation_wait: float = ACTIVATION_WAIT):
        self.bus_address = bus_address
        self.activation_wait = activation_wait

    # --- reading ------------------------------------------------------------------------
    def status(self) -> Status:
        with explained(N_("read the network's state")):
            bus = open_bus(self.bus_address)
            _, device = self._wifi_device(bus)
            return self._status(bus, device)

    def _wifi_device(self, bus):
        """The first Wi-Fi device: (its object path, which activations take, and its proxy)."""
        from sdbus_block.networkmanager import NetworkDeviceWireless, NetworkManager

        for path in NetworkManager(bus).get_devices():
            device = NetworkDeviceWireless(path, bus)
            if device.device_type == WIFI_DEVICE:
                return path, device
        raise NetworkError(N_("no Wi-Fi device: NetworkManager manages none. Check that the Pi has Wi-Fi "
                              "(`nmcli device`), that it is not blocked (`rfkill unblock wifi`), and that "
                              "the country is set (`sudo raspi-config`, Localisation, WLAN Country)."))

    def _status(self, bus, device) -> Status:
        from sdbus_block.networkmanager import ActiveConnection, NetworkConnectionSettings

        interface = device.interface
        active = device.active_connection
        if device.state != DEVICE_ACTIVATED or active in ("", "/"):
            return Status("offline", interface)
        settings = NetworkConnectionSettings(ActiveConnection(active, bus).connection, bus).get_settings()
        wireless = settings.get("802-11-wireless", {})
        ssid = bytes(wireless.get("ssid", ("ay", b""))[1]).decode(errors="replace")
        mode = "hotspot" if wireless.get("mode", ("s", ""))[1] == "ap" else "client"
        address = self._address(bus, device) or (HOTSPOT_ADDRESS if mode == "hotspot" else "")
        return Status(mode, interface, ssid, address)

    @staticmethod
    def _address(bus, device) -> str:
        from sdbus_block.networkmanager import IPv4Config

        try:
            data = IPv4Config(device.ip4_config, bus).address_data
            return str(data[0]["address"][1]) if data else ""
        except Exception:  # noqa: BLE001 - no IPv4 config yet (or a stand-in without one): unknown
            return ""

    def _profiles(self, bus) -> dict[str, dict]:
        from sdbus_block.networkmanager import NetworkConnectionSettings, NetworkManagerSettings

        return {path: NetworkConnectionSettings(path, bus).get_settings()
                for path in NetworkManagerSettings(bus).list_connections()}

    # --- changing -----------------------------------------------------------------------
    def start_hotspot(self, hotspot: Hotspot) -> Status:
        """Be the network: make or update the access point's profile, then bring it up. If it does not
        come up, the connection that was up before is brought back, and NetworkError says why."""
        with explained(N_("start the hotspot")):
            bus = open_bus(self.bus_address)
            path, device = self._wifi_device(bus)
            settings = hotspot_settings(hotspot, device.interface)
            profile = self._hotspot_profile(bus, settings)
            return self._switch(bus, path, device, profile, N_("the hotspot"), N_("bring the hotspot up"))

    def join_wifi(self) -> Status:
        """Join the venue's Wi-Fi: the known Wi-Fi profile NetworkManager would pick, brought up now."""
        with explained(N_("join the Wi-Fi")):
            bus = open_bus(self.bus_address)
            path, device = self._wifi_device(bus)
            known = [path for path, s in self._profiles(bus).items() if _is_known_wifi(s)]
            if not known:
                raise NetworkError(N_("no known Wi-Fi to join: add the venue's with `sudo nmcli device wifi "
                                      "connect NAME password PASSWORD` (or raspi-config), then try again."))
            return self._switch(bus, path, device, known[0], N_("the Wi-Fi"), N_("bring the Wi-Fi up"))

    def wait_for_client(self, seconds: float) -> Status | None:
        """Wait up to `seconds` for NetworkManager to join a known Wi-Fi by itself (at boot)."""
        deadline = time.monotonic() + seconds
        while True:
            status = self.status()
            if status.mode == "client":
                return status
            if time.monotonic() >= deadline:
                return None
            time.sleep(POLL)

    def _hotspot_profile(self, bus, settings: dict) -> str:
        from sdbus_block.networkmanager import NetworkConnectionSettings, NetworkManagerSettings

        for path, existing in self._profiles(bus).items():
            if existing.get("connection", {}).get("uuid", ("s", ""))[1] == HOTSPOT_UUID:
                # The config's name and password win: the user changes them there.
                NetworkConnectionSettings(path, bus).update(settings)
                return path
        return NetworkManagerSettings(bus).add_connection(settings)

    def _switch(self, bus, path: str, device, profile: str, what: str, bring_up: str) -> Status:
        """Bring `profile` up, `what` in messages ("the hotspot"), `bring_up` the action that failed."""
        from sdbus_block.networkmanager import ActiveConnection, NetworkManager

        manager = NetworkManager(bus)
        before = device.active_connection
        previous = ActiveConnection(before, bus).connection if before not in ("", "/") else ""
        try:
            active = manager.activate_connection(profile, path, "/")
            self._wait_activated(bus, active, what)
        except Exception as failure:
            if previous and previous != profile:
                log.warning("bringing %s up failed; back to the connection before", what)
                try:
                    manager.activate_connection(previous, path, "/")
                except Exception:  # noqa: BLE001 - the first failure is the one to tell
                    log.exception("could not bring the previous connection back")
            if isinstance(failure, NetworkError):
                raise
            with explained(bring_up):
                raise
        return self._status(bus, device)

    def _wait_activated(self, bus, active: str, what: str) -> None:
        from sdbus_block.networkmanager import ActiveConnection

        deadline = time.monotonic() + self.activation_wait
        while True:
            try:
                state = ActiveConnection(active, bus).state
            except Exception:  # noqa: BLE001 - the active connection vanished: it failed
                state = ACTIVE_DEACTIVATED
            if state == ACTIVE_ACTIVATED:
                return
            if state == ACTIVE_DEACTIVATED or time.monotonic() >= deadline:
                raise NetworkError(N_("{what} did not come up within {seconds} s. `journalctl -u "
                                      "NetworkManager` says why."),
                                   what=Phrase(what), seconds=f"{self.activation_wait:.0f}")
            time.sleep(POLL)


def _is_known_wifi(settings: dict) -> bool:
    """A Wi-Fi profile for joining a network (not an access point), that may be brought up by itself."""
    connection = settings.get("connection", {})
    wireless = settings.get("802-11-wireless", {})
    return (connection.get("type", ("s", ""))[1] == "802-11-wireless"
            and wireless.get("mode", ("s", "infrastructure"))[1] != "ap"
            and connection.get("autoconnect", ("b", True))[1])
