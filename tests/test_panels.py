"""Every panel: the PNG shows what the glass gets, the EEPROM maps to our model, every screen fits."""

from __future__ import annotations

import io
import itertools

import numpy
import pytest
from inky.auto import auto as inky_auto
from inky.eeprom import EPDType
from PIL import Image

from companion.core import registry
from companion.core.session import NEW_GAME, advance
from companion.devices.detect import VARIANTS, PanelNotFound, detect_panel
from companion.devices.display import InkyDisplay, PngDisplay
from companion.devices.panels import PANELS, panel
from companion.gamekit.draws import Draws
from companion.gamekit.frame import QR_MIN_HEIGHT
from companion.games.dice.rules import DiceState
from companion.i18n import translator
from companion.outputs.frames import render
from companion.render.layout import ELLIPSIS, Box, Canvas
from companion.render.palette import INKS, Palette
from companion.render.qr import qr_image

URL = "http://companion.local:8080/"
LONG_URL = "http://table-companion-in-the-living-room.local:8080/"


def pure_ink_image(model, seed: int = 7) -> Image.Image:
    """Random pixels in the panel's own inks, with a block per ink so orientation errors show."""
    w, h = model.size
    inks = numpy.array([INKS[ink] for ink in model.inks], dtype=numpy.uint8)
    rng = numpy.random.default_rng(seed)
    pixels = inks[rng.integers(0, len(inks), size=(h, w))]
    for i in range(len(inks)):
        pixels[: h // 4, i * 8: i * 8 + 8] = inks[i]  # top-left stripes: a flipped frame moves them
    return Image.fromarray(pixels, "RGB")


def png_pixels(png: bytes) -> numpy.ndarray:
    return numpy.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


# --- the PNG is what the glass shows ------------------------------------------------------
@pytest.mark.parametrize("name", PANELS)
def test_png_equals_a_pure_ink_frame_on_every_panel(name, tmp_path):
    model = panel(name)
    image = pure_ink_image(model)
    display = PngDisplay(model, tmp_path / "frame.png")
    display.show(image)
    assert numpy.array_equal(png_pixels(display.png), numpy.asarray(image))
    assert (tmp_path / "frame.png").read_bytes() == display.png


@pytest.mark.parametrize("name", ["phat-ssd1608-red", "what-yellow", "phat-black", "spectra-7.3"])
def test_inky_display_keeps_the_frame_only_after_the_glass_took_it(name):
    model = panel(name)

    class Driver(type(model.driver())):
        def show(self, busy_wait=True):  # the SPI transfer is the one part that needs a Pi
            self.sent = True

    driver = Driver(*model.args, **model.kwargs)
    display = InkyDisplay(model, driver)
    image = pure_ink_image(model, seed=3)
    display.show(image)
    assert driver.sent
    assert numpy.array_equal(png_pixels(display.png), numpy.asarray(image))


def test_a_frame_of_the_wrong_size_is_refused_with_both_sizes(tmp_path):
    display = PngDisplay(panel("phat-red"), tmp_path / "f.png")
    with pytest.raises(ValueError, match="800x480.*212x104"):
        display.show(Image.new("RGB", (800, 480), "white"))


# --- EEPROM auto-detect -------------------------------------------------------------------
class EepromBus:
    """An SMBus stand-in holding one EEPROM record, for inky.eeprom.read_eeprom(i2c_bus=...)."""

    def __init__(self, record: EPDType | None):
        self.record = record

    def write_i2c_block_data(self, address, register, data):
        if self.record is None:
            raise OSError(121, "Remote I/O error")  # what smbus2 raises when no chip answers

    def read_i2c_block_data(self, address, register, length):
        return list(self.record.encode())[:length]


def record(variant: int, colour: str | None = "red") -> EPDType:
    return EPDType(0, 0, colour, 12, variant)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_eeprom_variant_maps_to_the_driver_inky_auto_would_build(variant):
    bus = EepromBus(record(variant))
    name = detect_panel(bus)
    model = PANELS[name]
    reference = inky_auto(i2c_bus=bus)  # ask_user stays False: it never reads argv then
    ours = model.driver()
    assert type(ours) is type(reference)
    assert (ours.width, ours.height) == (reference.width, reference.height) == model.size


@pytest.mark.parametrize("colour", ["black", "red", "yellow"])
def test_two_colour_boards_take_their_colour_from_the_eeprom(colour):
    assert detect_panel(EepromBus(record(18, colour))) == f"what-ssd1683-{colour}"
    assert detect_panel(EepromBus(record(11, colour))) == f"phat-ssd1608-{colour}"


def test_no_eeprom_says_what_to_put_in_the_config():
    expected = r"^no inky EEPROM found on I2C: set panel = '<name>' in the config"
    with pytest.raises(PanelNotFound, match=expected):
        detect_panel(EepromBus(None))


def test_an_unknown_variant_is_named_in_the_error():
    with pytest.raises(PanelNotFound, match="display variant 99.*set panel"):
        detect_panel(EepromBus(record(99)))


# --- every screen on every panel ----------------------------------------------------------
def dice_views() -> dict[str, dict]:
    public_view = registry.get("dice").public_json
    long_history = tuple(((i % 6) + 1, (i * 5) % 6 + 1, (i * 2) % 6 + 1) for i in range(40))
    return {
        "no roll yet": public_view(DiceState(count=2)),
        "one die": public_view(DiceState(count=1, rolls=((4,),))),
        "three dice, long history": public_view(DiceState(count=3, rolls=long_history)),
    }


def views_of(game: str) -> dict[str, dict]:
    if game == "dice":
        return dice_views()
    session, _ = advance(None, NEW_GAME, None, {"game": game}, Draws())
    return {"new game": session.spec.public_json(session.state)}


CASES = [(game, label, view) for game in registry.names() for label, view in views_of(game).items()]


def assert_fits(canvas: Canvas, where: str) -> None:
    bounds = canvas.bounds
    for element in canvas.elements:
        assert element.box.within(bounds), f"{where}: {element} leaves the {canvas.size} canvas"
    for a, b in itertools.combinations(canvas.elements, 2):
        assert not a.box.overlaps(b.box), f"{where}: {a} overlaps {b}"


def assert_qr(canvas: Canvas, url: str, where: str) -> None:
    codes = [e for e in canvas.elements if e.kind == "picture" and e.label == url]
    if canvas.size[1] < QR_MIN_HEIGHT:
        return
    assert len(codes) == 1, f"{where}: no QR code of {url} on a panel {canvas.size[1]} px high"
    modules = qr_image(url, 1).width
    box = codes[0].box
    assert box.width == box.height and box.width % modules == 0, f"{where}: QR resampled to {box}"
    assert box.width // modules >= Canvas.MIN_QR_MODULE, f"{where}: QR modules under 2 px"


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize(("game", "label", "view"), CASES, ids=[f"{g}-{v}" for g, v, _ in CASES])
def test_every_screen_fits_every_panel(game, label, view, lang):
    _ = translator(lang, registry.get(game))
    for name, model in PANELS.items():
        where = f"{game} ({label}, {lang}) on {name}"
        canvas = render(game, view, model, lang, URL)
        assert canvas.size == model.size
        assert_fits(canvas, where)
        assert_qr(canvas, URL, where)
        texts = [e.label for e in canvas.elements if e.kind == "text"]
        assert _(registry.get(game).title) in texts, f"{where}: the title is missing"
        if game == "dice":
            check_dice_screen(canvas, view, _, where)


def check_dice_screen(canvas: Canvas, view: dict, _, where: str) -> None:
    texts = {e.label: e for e in canvas.elements if e.kind == "text"}
    dice = [e.label for e in canvas.elements if e.kind == "die"]
    if view["last"]:
        assert dice == [str(v) for v in view["last"]], f"{where}: dice drawn {dice}"
        assert f"= {view['total']}" in texts, f"{where}: the total is missing"
    else:
        assert _("Press ROLL") in texts, f"{where}: the invitation to roll is missing"
    if canvas.size[1] >= QR_MIN_HEIGHT and len(view["history"]) > 1:
        assert _("Previous rolls") in texts, f"{where}: the history is missing"
        previous = view["history"][1]
        assert f"{' '.join(map(str, previous['dice']))} = {previous['total']}" in texts, where
    shortened = [e.label for e in texts.values() if e.shortened]
    assert not shortened, f"{where}: texts cut short: {shortened}"


@pytest.mark.parametrize("name", ["what-black", "impression-4", "spectra-13.3"])
def test_a_long_address_still_gets_a_scannable_code(name):
    canvas = render("dice", dice_views()["three dice, long history"], panel(name), "fr", LONG_URL)
    assert_fits(canvas, name)
    assert_qr(canvas, LONG_URL, name)


@pytest.mark.parametrize("name", PANELS)
def test_the_rendered_frame_reaches_the_png_unchanged(name, tmp_path):
    model = panel(name)
    image = render("dice", dice_views()["three dice, long history"], model, "fr", URL).image
    display = PngDisplay(model, tmp_path / "frame.png")
    display.show(image)
    assert numpy.array_equal(png_pixels(display.png), numpy.asarray(image))


# --- text fitting ------------------------------------------------------------------------
def test_text_too_long_for_its_box_is_shortened_with_an_ellipsis_not_clipped():
    canvas = Canvas((120, 40), Palette(("white", "black")))
    box = Box(10, 10, 70, 30)
    element = canvas.text(box, "Anticonstitutionnellement, évidemment")
    assert element is not None and element.shortened
    assert element.label.endswith(ELLIPSIS) and element.label.startswith("Anti")
    assert element.box.within(box)
    ink = numpy.asarray(canvas.image.convert("L")) < 128
    assert ink.any() and not ink[:, :10].any() and not ink[:, 70:].any()


def test_text_that_fits_is_drawn_whole_at_the_largest_size():
    canvas = Canvas((400, 100), Palette(("white", "black")))
    small = canvas.text(Box(0, 0, 400, 30), "Dés")
    large = canvas.text(Box(0, 40, 400, 100), "Dés")
    assert small.label == large.label == "Dés" and not large.shortened
    assert large.box.height > small.box.height


def test_the_driver_is_built_without_loading_pkg_resources():
    """inky's namespace declaration would pull in setuptools' pkg_resources (slow, large) at start-up."""
    import subprocess
    import sys

    code = ("import sys, importlib.util\n"
            "from companion.devices.panels import panel\n"
            "assert panel('impression-7.3').driver().width == 800\n"
            "print('pkg_resources' in sys.modules, 'inky' in sys.modules)\n"
            "print(importlib.util.find_spec('pkg_resources') is not None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split("\n")[0] == "False True"
    if out.split("\n")[1] == "True":  # setuptools is installed, so the hiding really was needed
        later = subprocess.run([sys.executable, "-c", code + "import pkg_resources\n"],
                               capture_output=True, text=True)
        assert later.returncode == 0, later.stderr  # and pkg_resources still imports afterwards


# --- refresh speeds, a driver that gives up, and the time of the state shown ---------------------
@pytest.mark.parametrize("name", [n for n, m in PANELS.items() if m.speeds])
def test_a_panel_with_speeds_is_built_at_normal_speed_and_each_refresh_takes_the_speed_asked(name):
    from companion.devices.panels import has_speeds

    model = panel(name)
    cls = type(model.driver())
    assert has_speeds(cls) and model.driver().speed == cls.NORMAL  # inky.auto() would pass no speed

    class Driver(cls):
        def show(self, busy_wait=True):  # the SPI transfer needs a Pi; setup() would send self.speed
            self.sent_at = self.speed

    driver = Driver(*model.args, **model.kwargs)
    display = InkyDisplay(model, driver)
    for speed, value in (("fast", cls.FAST), ("normal", cls.NORMAL), ("medium", cls.MEDIUM)):
        display.speed = speed
        display.show(pure_ink_image(model))
        assert driver.sent_at == value


def test_the_seven_colour_impression_has_no_speed_and_play_frames_leave_it_alone():
    from companion.devices.panels import has_speeds, speed_for

    model = panel("impression-7.3")
    assert not model.speeds and not has_speeds(type(model.driver()))
    assert speed_for(model, play=True) is None and speed_for(model, play=False, setting="auto") is None
    spectra = panel("spectra-7.3")
    assert speed_for(spectra, play=True) == "fast" and speed_for(spectra, play=False) == "normal"
    assert speed_for(spectra, play=True, setting="medium") == "medium"


@pytest.mark.parametrize("warning", ["Busy Wait: Timed out after 45.00s",
                                     "Busy Wait: Held high. Waiting for 45.00s",
                                     "Refresh Wait: Timed out after 65.00s"])
def test_the_driver_giving_up_its_wait_for_a_refresh_is_a_stuck_panel(warning):
    import warnings

    from companion.devices.display import PanelStuck

    model = panel("impression-7.3")

    class Driver(type(model.driver())):
        def show(self, busy_wait=True):  # as inky's _busy_wait does when the busy line never moves
            warnings.warn("Busy Wait: Timed out after 0.30s", stacklevel=2)  # a short wait: harmless
            warnings.warn(warning, stacklevel=2)

    display = InkyDisplay(model, Driver(*model.args, **model.kwargs))
    with pytest.raises(PanelStuck, match="did not finish"):
        display.show(pure_ink_image(model))
    assert display.png == b""  # nothing reached the glass


def test_a_short_wait_timing_out_is_not_a_stuck_panel():
    import warnings

    model = panel("spectra-7.3")

    class Driver(type(model.driver())):
        def show(self, busy_wait=True):
            warnings.warn("Busy Wait: Timed out after 0.30s", stacklevel=2)

    display = InkyDisplay(model, Driver(*model.args, **model.kwargs))
    display.show(pure_ink_image(model))
    assert display.png


def test_the_simulators_real_glass_takes_the_panels_time_at_the_speed_asked(tmp_path):
    import time
    from dataclasses import replace

    model = replace(panel("spectra-7.3"), refresh=0.26)  # 0.26 s normal, 0.14 s fast
    display = PngDisplay(model, tmp_path / "f.png", glass="real")
    took = {}
    for speed in ("normal", "fast"):
        display.speed = speed
        started = time.monotonic()
        display.show(pure_ink_image(model))
        took[speed] = time.monotonic() - started
    assert took["normal"] >= 0.26 and took["fast"] >= 0.14


@pytest.mark.parametrize("size", sorted({m.size for m in PANELS.values()}))
def test_a_frame_states_when_the_table_reached_it_in_its_title_bar(size):
    from companion.gamekit.contract import TableInfo

    model = next(m for m in PANELS.values() if m.size == size)
    view = registry.get("dice").public_json(DiceState(count=2, rolls=((3, 5),)))
    plain = numpy.asarray(render("dice", view, model, "fr", TableInfo(URL, "K7QF")).image)
    stamped = numpy.asarray(render("dice", view, model, "fr", TableInfo(URL, "K7QF", at="21:04")).image)
    rows = numpy.nonzero((plain != stamped).any(axis=(1, 2)))[0]
    assert rows.size, "the time is not drawn"
    assert rows.max() < size[1] * 0.3  # in the title bar, not over the game
