"""Seats on every panel as the glass shows them: each panel's inks measured after its own palette mapping
(inky's measured colours), seats in play never closer than SEAT_DISTANCE (CIEDE2000) unless both black,
and no two seats of a game sharing a colour's name, through the real server too."""

from __future__ import annotations

from itertools import combinations

import pytest
from PIL import Image
from webfixtures import live_server, read_json, running_app

from companion.core import registry
from companion.devices.display import PngDisplay
from companion.devices.panels import PANELS, PanelModel, import_inky
from companion.gamekit.colours import SEAT_COLOURS, table_colours
from companion.render.delta_e import delta_e, delta_e_lab
from companion.render.palette import INKS, SEAT_DISTANCE, Palette

GAMES = registry.names()


def test_the_distance_is_ciede2000():
    # pairs 1, 7, 17, 25 and 34 of Sharma, Wu and Dalal's test data for CIEDE2000
    for one, other, expected in [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425),
                                 ((50, 0, 0), (50, -1, 2), 2.3669),
                                 ((50, 2.5, 0), (73, 25, -18), 27.1492),
                                 ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
                                 ((2.0776, 0.0795, -1.135), (0.9033, -0.0636, -0.5514), 0.9082)]:
        assert delta_e_lab(one, other) == pytest.approx(expected, abs=1e-4)
    assert delta_e((0, 0, 0), (255, 255, 255)) == pytest.approx(100, abs=0.01)


@pytest.mark.parametrize("name", [name for name, model in PANELS.items() if model.glass])
def test_each_panels_glass_colours_are_its_drivers_measured_palette(name):
    model = PANELS[name]
    driver = getattr(import_inky(model.module), model.cls)
    # the driver's class names each ink's place in its palette (BLUE = 4), whatever value it sends
    measured = {ink: tuple(driver.SATURATED_PALETTE[getattr(driver, ink.upper())]) for ink in model.inks}
    assert dict(model.glass) == measured


def as_shown(model: PanelModel, inks: list[tuple[int, int, int]]) -> list[tuple[str, tuple[int, int, int]]]:
    """Each seat's ink as the glass shows it: drawn in a frame, quantized to the driver's own values as the
    display does, then each value's colour on the glass (its measured one, else the pure ink)."""
    frame = Image.new("RGB", model.size, INKS["white"])
    for x, ink in enumerate(inks):
        frame.putpixel((x, 0), ink)
    values = PngDisplay(model, "/dev/null").native(frame)
    glass = dict(model.glass)
    out = []
    for x in range(len(inks)):
        ink = model.native[values.getpixel((x, 0))]
        out.append((ink, glass.get(ink, INKS[ink])))
    return out


def seats_in_play(game: str):
    spec = registry.get(game)
    low, high = spec.seats
    for players in range(max(1, low), high + 1):
        yield players, table_colours(spec.colours)[:players]


@pytest.mark.parametrize("panel_name", PANELS)
@pytest.mark.parametrize("game", GAMES)
def test_seats_in_play_are_told_apart_on_every_panel_after_its_palette_mapping(panel_name, game):
    model = PANELS[panel_name]
    palette = Palette(model.inks, model.glass)
    for players, colours in seats_in_play(game):
        shown = as_shown(model, palette.seats([c.ink for c in colours]))
        for (one, one_rgb), (other, other_rgb) in combinations(shown, 2):
            assert "white" not in (one, other)
            if one == other == "black":
                continue  # more seats than inks: their marks and names tell them apart
            assert one != other, (game, players, panel_name, shown)
            assert delta_e(one_rgb, other_rgb) >= SEAT_DISTANCE, (game, players, panel_name, one, other)


def test_the_lilac_seat_is_never_the_blue_seats_ink_on_the_impression():
    # Schacht's lilac is nearest the panel's blue in hue: with the blue seat in play, one of them is black
    model = PANELS["impression-7.3"]
    colours = registry.get("schacht").colours
    palette = Palette(model.inks, model.glass)
    inks = [ink for ink, _ in as_shown(model, palette.seats([c.ink for c in colours]))]
    assert dict(zip((c.key for c in colours), inks, strict=True)) == {
        "lilac": "black", "orange": "orange", "green": "green", "blue": "blue"}


def test_red_and_orange_are_never_two_seats_inks_on_the_impression():
    # the Impression 7.3" shows its red (245, 80, 34) and orange (239, 121, 44) 10.9 apart: too close
    model = PANELS["impression-7.3"]
    glass = dict(model.glass)
    assert delta_e(glass["red"], glass["orange"]) < SEAT_DISTANCE
    palette = Palette(model.inks, model.glass)
    inks = [ink for ink, _ in as_shown(model, palette.seats([c.ink for c in SEAT_COLOURS]))]
    assert not {"red", "orange"} <= set(inks), inks


@pytest.mark.parametrize("game", GAMES)
def test_no_two_seats_of_a_game_share_a_colours_name(game):
    colours = table_colours(registry.get(game).colours)
    assert len(colours) == len(SEAT_COLOURS)
    assert len({c.key for c in colours}) == len({c.label for c in colours}) == len(colours), colours


def test_schachts_six_seats_on_the_real_server_have_six_colour_names(tmp_path):
    with (running_app(tmp_path, game="schacht", options={"players": 4}) as (_runtime, app),
          live_server(app) as srv):
        seats = read_json(srv.port, "/api/seats")["seats"]
        labels = [s["label"] for s in seats]
        assert len(labels) == 6 and len(set(labels)) == 6, labels
        assert [s["colour"] for s in seats[:4]] == ["lilac", "orange", "green", "blue"]
