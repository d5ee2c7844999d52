"""The Wi-Fi QR code on the e-ink: on every panel it decodes to exactly the hotspot's name and password."""

from __future__ import annotations

import pytest
import zxingcpp

from companion.devices.panels import PANELS, panel
from companion.gamekit.contract import TableInfo
from companion.gamekit.frame import join_link
from companion.outputs.frames import render
from companion.render.qr import wifi_payload

URL = "http://10.42.0.1:8080/"
# Every character the WIFI: format must escape, in the name and in the password.
SSID, PASSWORD = 'Table \\;,":', 'p\\a;s,s":w'
KEY = "Qm9hcmQtZ2FtZS10YWJsZQ"  # a join key as the table makes them: 128 bits, 22 characters
IDLE = {"count": 2, "last": [], "total": 0, "rolls": 0, "history": []}


def wifi_fields(text: str) -> dict[str, str]:
    """A WIFI: payload read field by field as ZXing's format says: `KEY:value;`, where a value holds
    `\\`, `;`, `,`, `:` and `"` only escaped by a backslash. One of them left bare is refused: a reader
    may end the value there (ZXing's own format text asks every writer to escape them)."""
    assert text.startswith("WIFI:") and text.endswith(";;"), text
    fields, key, value, escaped = {}, None, "", False
    for char in text[len("WIFI:"):-1]:
        if escaped:
            value, escaped = value + char, False
        elif key is None:  # the field's name, up to its ':'
            assert char not in ';\\', f"a field without a name in {text!r}"
            key, value = (value, "") if char == ":" else (None, value + char)
        elif char == "\\":
            escaped = True
        elif char == ";":
            fields[key], key, value = value, None, ""
        else:
            assert char not in ',":', f"{char!r} left bare in the {key} field of {text!r}"
            value += char
    assert key is None and not value and not escaped, text
    return fields


def codes(name: str, names: tuple[str, ...] = ()) -> list[str]:
    table = TableInfo(URL, "K7QF", names, wifi=wifi_payload(SSID, PASSWORD), join_key=KEY)
    image = render("dice", IDLE, panel(name), "en", table).image
    return [found.text for found in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)]


def test_the_payload_escapes_what_the_format_needs():
    assert wifi_fields(wifi_payload(SSID, PASSWORD)) == {"T": "WPA", "S": SSID, "P": PASSWORD}
    assert wifi_payload("a,b", "c:d;e,f") == "WIFI:T:WPA;S:a\\,b;P:c\\:d\\;e\\,f;;"


@pytest.mark.parametrize("ssid, password", [
    ("Jeux, cartes", "un,deux,trois"),
    ("Table;1", "pass;word;;"),
    ("Salle: bar", "a:b:c:d:e"),
    ("C:\\Jeux\\", "back\\slash\\"),
    ('Le "coin"', 'quo"te"s" here'),
    ('\\;,:"', ',;:\\"x,;:\\"'),
])
def test_the_code_on_the_panel_reads_back_to_the_exact_name_and_password(ssid, password):
    table = TableInfo(URL, "K7QF", (), wifi=wifi_payload(ssid, password))
    image = render("dice", IDLE, panel("impression-7.3"), "en", table).image
    [wifi] = [f.text for f in zxingcpp.read_barcodes(image) if f.text.startswith("WIFI:")]
    assert wifi_fields(wifi) == {"T": "WPA", "S": ssid, "P": password}


@pytest.mark.parametrize("name", sorted(PANELS))
def test_every_panel_shows_a_wifi_code_that_decodes_to_the_name_and_password(name):
    found = codes(name)
    wifi = [text for text in found if text.startswith("WIFI:")]
    assert len(wifi) == 1, f"{name}: codes read {found}"
    assert wifi_fields(wifi[0]) == {"T": "WPA", "S": SSID, "P": PASSWORD}


@pytest.mark.parametrize("name", sorted(PANELS))
def test_once_a_phone_has_joined_the_join_code_with_the_ip_address_is_shown(name):
    found = codes(name, ("Ana",))
    if panel(name).size[1] >= 200:
        assert join_link(TableInfo(URL, "K7QF", join_key=KEY)) in found, f"{name}: codes read {found}"
        assert join_link(TableInfo(URL, "K7QF", join_key=KEY)) == f"http://10.42.0.1:8080/j/K7QF.{KEY}"
    else:  # the pHATs have room for one code at most: the Wi-Fi one goes once phones are on it
        assert not any(text.startswith("WIFI:") for text in found)


@pytest.mark.parametrize("name", sorted(n for n in PANELS if panel(n).size[1] > 104))
def test_the_longest_name_and_password_still_decode(name):
    """32 bytes of name and 63 characters of password, half of them escaped. The 212x104 pHAT has room for
    the installer's password and a name of 20 characters, not for this (docs/network.md)."""
    ssid, password = "S" * 32, "p;" * 31 + "x"
    table = TableInfo(URL, "K7QF", (), wifi=wifi_payload(ssid, password))
    image = render("dice", IDLE, panel(name), "en", table).image
    [wifi] = [f.text for f in zxingcpp.read_barcodes(image) if f.text.startswith("WIFI:")]
    assert wifi_fields(wifi) == {"T": "WPA", "S": ssid, "P": password}
