"""Pin profiles: every bundled one is sound, its docs match it, and a broken file says where."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest
from gpiozero.pins.mock import MockFactory

from companion.devices.panels import PANEL_PINS, PANELS, panel
from companion.devices.profile import HEADER, ProfileError, load_profile, parse_profile, profiles

BUNDLED = profiles()


def test_the_required_profiles_are_bundled():
    assert {"impression-7in3", "what-buttons", "impression-13in3"} <= set(BUNDLED)


def test_the_header_map_agrees_with_gpiozero():
    board = MockFactory().board_info
    for bcm in range(28):
        [(header, info)] = list(board.find_pin(f"GPIO{bcm}"))
        assert header.name == "J8" and HEADER[bcm] == info.number


@pytest.mark.parametrize("name", BUNDLED)
def test_no_pin_is_used_twice(name):
    pins = list(load_profile(name).pins().values())
    assert len(pins) == len(set(pins))


@pytest.mark.parametrize("name", BUNDLED)
def test_no_pin_collides_with_its_panel(name):
    profile = load_profile(name)
    model = panel(profile.panel)
    assert not set(profile.pins().values()) & model.pins
    assert PANEL_PINS <= model.pins
    profile.check_against_panel(model)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_pin_is_a_usable_gpio_on_the_40_pin_header(name):
    board = MockFactory().board_info
    for key, pin in load_profile(name).pins().items():
        found = [(header.name, info.number) for header, info in board.find_pin(f"GPIO{pin}")]
        assert found == [("J8", HEADER[pin])], f"{name}: {key} = {pin}"
        assert pin not in (0, 1), f"{name}: {key} is on the HAT ID EEPROM bus"


@pytest.mark.parametrize("name", BUNDLED)
def test_every_profile_builds_a_board_on_mock_pins(name):
    from companion.devices.board import Board

    factory = MockFactory()
    profile = load_profile(name)
    board = Board(profile, lambda button, kind: None, pin_factory=factory)
    try:
        snapshot = board.snapshot()
        assert snapshot["buttons"] == ["a", "b", "c", "d", "roll"]
        assert snapshot["dice"] == [None] * len(profile.dice)
        assert snapshot["status"] is (profile.status_led is not None)
        outputs = {pin.info.name for pin in factory.pins.values() if pin.function == "output"}
        assert outputs == {f"GPIO{p}" for k, p in profile.pins().items() if not k.startswith("buttons.")}
    finally:
        board.close()


def test_the_impression_7in3_has_its_board_buttons_a_roll_a_status_led_and_three_dice():
    profile = load_profile("impression-7in3")
    assert {k: profile.buttons[k] for k in "abcd"} == {"a": 5, "b": 6, "c": 16, "d": 24}
    assert profile.status_led is not None and len(profile.dice) == 3
    assert panel(profile.panel).size == (800, 480)


def test_the_13in3_has_button_c_on_25_and_avoids_its_chip_selects():
    profile = load_profile("impression-13in3")
    assert profile.buttons["c"] == 25
    assert not {26, 16} & set(profile.pins().values())


def test_a_profile_meant_for_another_panel_is_refused_naming_the_key():
    profile = load_profile("impression-7in3")
    expected = r"impression-7in3\.toml: key 'buttons\.c': GPIO 16 .*spectra-13\.3"
    with pytest.raises(ProfileError, match=expected):
        profile.check_against_panel(PANELS["spectra-13.3"])


# --- every profile's documentation matches it --------------------------------------------
ROW = re.compile(r"^\|\s*`([^`]+)`[^|]*\|\s*GPIO (\d+)\s*\|\s*(\d+)\s*\|", re.M)


@pytest.mark.parametrize("name", BUNDLED)
def test_the_wiring_table_matches_the_profile(name):
    doc = files("companion.hardware").joinpath(f"{name}.md").read_text(encoding="utf-8")
    rows = {key: (int(gpio), int(pin)) for key, gpio, pin in ROW.findall(doc)}
    expected = {key: (gpio, HEADER[gpio]) for key, gpio in load_profile(name).pins().items()}
    assert rows == expected
    assert "## Bill of materials" in doc and "## Wiring" in doc


def test_the_readme_lists_every_profile_and_the_boot_line():
    readme = files("companion.hardware").joinpath("README.md").read_text(encoding="utf-8")
    for name in BUNDLED:
        assert f"{name}.md" in readme
    assert "dtoverlay=spi0-0cs,no_miso" in readme


# --- broken files -------------------------------------------------------------------------
GOOD = """
name = "test"
description = "a test build"
panel = "impression-7.3"
status_led = 4

[buttons]
a = 5
b = 6
c = 16
d = 24
roll = 25

[[dice]]
centre = 12
diagonal = 13
antidiagonal = 19
middle = 26
"""


def broken(tmp_path, old: str, new: str):
    assert old in GOOD
    path = tmp_path / "mine.toml"
    path.write_text(GOOD.replace(old, new, 1), encoding="utf-8")
    return path


def test_the_good_example_loads_from_a_path(tmp_path):
    profile = load_profile(broken(tmp_path, "name", "name"))
    assert profile.source.endswith("mine.toml") and len(profile.dice) == 1


@pytest.mark.parametrize(("old", "new", "key", "reason"), [
    ('status_led = 4', 'status_led = 4\nstatus_colour = "green"', "status_colour", "unknown field"),
    ("roll = 25", "roll = 25\nstart = 27", "buttons.start", "unknown field"),
    ("middle = 26", "middle = 26\nedge = 20", "dice[0].edge", "unknown field"),
    ("a = 5", 'a = "five"', "buttons.a", "Expected `int`"),
    ("status_led = 4", "status_led = 4.5", "status_led", "Expected `int"),
    ("roll = 25\n", "", "buttons.roll", "missing required field"),
    ("middle = 26", "middle = 5", "dice[0].middle", "already used by 'buttons.a'"),
    ("centre = 12", "centre = 17", "dice[0].centre", "used by the impression-7.3 panel"),
    ("status_led = 4", "status_led = 10", "status_led", "used by the impression-7.3 panel"),
    ("roll = 25", "roll = 30", "buttons.roll", "not on the 40-pin header"),
    ("roll = 25", "roll = -1", "buttons.roll", "not on the 40-pin header"),
    ("status_led = 4", "status_led = 0", "status_led", "HAT ID EEPROM"),
    ('panel = "impression-7.3"', 'panel = "inky-giant"', "panel", "unknown panel"),
])
def test_a_broken_profile_names_the_file_and_the_key(tmp_path, old, new, key, reason):
    path = broken(tmp_path, old, new)
    with pytest.raises(ProfileError) as caught:
        load_profile(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: key '{key}'"), message
    assert reason in message


def test_invalid_toml_names_the_file(tmp_path):
    path = broken(tmp_path, "a = 5", "a = = 5")
    with pytest.raises(ProfileError, match=rf"^{re.escape(str(path))}: not valid TOML"):
        load_profile(path)


def test_a_missing_file_and_an_unknown_name_say_what_exists(tmp_path):
    with pytest.raises(ProfileError, match="file not found.*impression-7in3"):
        load_profile(tmp_path / "nope.toml")
    with pytest.raises(ProfileError, match="no bundled profile called 'nope'.*what-buttons"):
        load_profile("nope")


def test_parse_profile_reports_the_source_it_was_given():
    with pytest.raises(ProfileError, match=r"^inline: key 'buttons'"):
        parse_profile('name = "x"\ndescription = "y"\npanel = "what-red"\n', "inline")
