"""Seats' colours on the glass: the seats in play share the panel's inks, so two seats that differ on the
phones never look the same on the e-ink."""

from __future__ import annotations

import pytest
from test_schacht_rules import game

from companion.core import registry
from companion.devices.panels import PANELS
from companion.gamekit.colours import SEAT_COLOURS, SEAT_MARKS
from companion.gamekit.contract import TableInfo
from companion.outputs.frames import render
from companion.render.palette import INKS, Palette

URL = "http://192.168.1.20:8080/"
SEVEN = [name for name, model in PANELS.items() if len(model.inks) == 7]
NAMES = ("Ann", "Bob", "Cy", "Dee")


def named(rgb: tuple[int, int, int]) -> str:
    return next(name for name, value in INKS.items() if value == rgb)


def test_there_are_seven_colour_panels_to_check():
    assert "impression-7.3" in SEVEN


@pytest.mark.parametrize("panel_name", SEVEN)
@pytest.mark.parametrize("players", [3, 4])
def test_the_seven_colour_glass_gives_each_schacht_seat_in_play_its_own_ink(panel_name, players):
    colours = registry.get("schacht").colours[:players]
    inks = [named(ink) for ink in Palette(PANELS[panel_name].inks).seats([c.ink for c in colours])]
    assert len(set(inks)) == players, f"{players} players on {panel_name}: {inks}"
    drawn = dict(zip((c.key for c in colours), inks, strict=True))
    assert drawn["green"] == "green" and drawn["orange"] == "orange" and drawn.get("blue", "blue") == "blue"
    # the lilac seat keeps the blue ink nearest its hue while the blue seat is out of the game; once it
    # plays, lilac is left without an ink of its own and is black, its mark and name telling it apart
    assert drawn["lilac"] == ("blue" if players == 3 else "black")


@pytest.mark.parametrize("panel_name", SEVEN)
def test_six_seats_on_the_seven_colour_glass_share_its_five_inks_and_one_is_black(panel_name):
    palette = Palette(PANELS[panel_name].inks)
    for colours in (SEAT_COLOURS, registry.get("rallye").colours):
        inks = [named(ink) for ink in palette.seats([c.ink for c in colours])]
        coloured = [ink for ink in inks if ink != "black"]
        assert len(coloured) == len(set(coloured)) == 5, inks
        # each colour keeps its own ink where the panel has it: yellow and orange are not swapped
        for colour, ink in zip(colours, inks, strict=True):
            if colour.key in INKS:
                assert ink == colour.key, (colour.key, ink)


@pytest.mark.parametrize("panel_name", PANELS)
def test_no_two_seats_in_play_share_an_ink_on_any_panel_unless_it_is_black(panel_name):
    palette = Palette(PANELS[panel_name].inks)
    for name in ("schacht", "crash", "gewalt", "rallye"):
        colours = registry.get(name).colours
        inks = [named(ink) for ink in palette.seats([c.ink for c in colours])]
        coloured = [ink for ink in inks if ink != "black"]
        assert len(coloured) == len(set(coloured)), (name, panel_name, inks)
        assert "white" not in inks


def test_seats_of_the_very_same_colour_share_their_ink():
    palette = Palette(PANELS["impression-7.3"].inks)
    assert palette.seats(["#c62828", "#C62828"]) == [INKS["red"], INKS["red"]]
    assert palette.seat("#c62828") == INKS["red"]


def swatch(canvas, label: str) -> tuple[int, int, int]:
    """The colour of the square drawn left of a lane's name ("❶ Ann"): scanned leftwards from its box."""
    element = next(e for e in canvas.elements if e.kind == "text" and e.label in (label, f"{label}\u2605"))
    y = (element.box.y0 + element.box.y1) // 2
    paper = INKS["white"]
    x = element.box.x0 - 1
    while x > 0 and canvas.image.getpixel((x, y)) == paper:
        x -= 1
    return canvas.image.getpixel((x, y))


@pytest.mark.parametrize(("panel_name", "blue"), [("impression-7.3", "blue"), ("impression-5.7", "black"),
                                                   ("impression-4", "black")])
def test_the_drawn_schacht_frame_shows_four_seats_in_inks_the_glass_tells_apart(panel_name, blue):
    """The Impression 7.3" shows its blue far from black; the 4" and 5.7" show theirs (61, 59, 94) near their
    black (57, 48, 57): the blue seat beside the black lilac one would look the same, so both are black
    there, and their marks and names tell them apart."""
    assert set(SEVEN) == {"impression-7.3", "impression-5.7", "impression-4"}
    view = registry.get("schacht").public_json(game(players=4))
    canvas = render("schacht", view, PANELS[panel_name], "en", TableInfo(URL, "K7Q2", NAMES))
    drawn = {name: named(swatch(canvas, f"{SEAT_MARKS[seat]} {name}")) for seat, name in enumerate(NAMES)}
    assert drawn == {"Ann": "black", "Bob": "orange", "Cy": "green", "Dee": blue}
