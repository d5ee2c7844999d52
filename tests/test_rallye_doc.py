"""Le rallye hasardeux: its doc page documents the command schemas the API checks, the bundled data, every
ruling in the code, the button map, and links files that exist."""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from PIL import Image

from companion.games.rallye import SPEC, controls

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "games" / "rallye.md"
DOC = PAGE.read_text(encoding="utf-8")
FOLDER = ROOT / "companion" / "games" / "rallye"


def section(title: str) -> str:
    return DOC.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def test_every_command_schema_in_the_doc_is_the_one_the_rules_check():
    blocks = re.findall(r"#### `(\w+)`\n\n```json\n(.*?)\n```", DOC, flags=re.S)
    documented = {kind: json.loads(text) for kind, text in blocks}
    assert set(documented) == set(SPEC.commands)
    for kind, struct in SPEC.commands.items():
        assert documented[kind] == msgspec.json.schema(struct)["$defs"], f"docs/games/rallye.md: {kind}"
    table = section("Commands")
    for kind in SPEC.commands:
        assert f"`{kind}`" in table.split("####")[0], f"{kind} has no line in the commands table"


def test_the_doc_gives_the_bundled_decks_and_says_they_are_reconstructed():
    route = tomllib.loads((FOLDER / "route.toml").read_text(encoding="utf-8"))
    surprises = tomllib.loads((FOLDER / "surprises.toml").read_text(encoding="utf-8"))
    assert route["reconstructed"] and surprises["reconstructed"]
    data = section("The data files (reconstructed)")
    for group in route["plain"]:
        symbol = "yes" if group.get("surprise") else "no"
        assert f"| `{group['effect']}` | {symbol} | {group.get('count', 1)} |" in data
    for passage in route["passages"]:
        assert f"| `{passage['kind']}` | {passage['padlocks']} |" in data
    for card, count in surprises["cards"].items():
        assert f"| `{card}` | {count} |" in data


def test_every_ruling_in_the_code_is_on_the_page():
    """As many bullets name each module as that module has `# (ruling)` comments."""
    in_code = Counter({path.name: path.read_text(encoding="utf-8").count("# (ruling)")
                       for path in FOLDER.glob("*.py")})
    on_page = Counter(re.findall(r"^- .*\(`(\w+\.py)`\)\.$", section("Rulings"), flags=re.M))
    assert +in_code == on_page


def test_the_button_map_names_every_key_the_controls_use():
    buttons = section("Button map (buttons only, no phone needed)")
    for key in ("A, B", "C, D", "ROLL", "A, B, C, D", "long D"):
        assert f"| {key} |" in buttons
    assert controls.LETTERS == ("a", "b", "c", "d") and controls.MOVES == {"a": -1, "b": 1, "c": 6, "d": -6}


@pytest.mark.parametrize("link", re.findall(r"\]\(([^)#]+)\)", DOC))
def test_every_link_leads_to_a_file(link):
    assert (PAGE.parent / link).resolve().is_file(), link


@pytest.mark.parametrize("what", ["circuit", "effect"])
@pytest.mark.parametrize("size", [(800, 480), (400, 300)])
def test_the_rendered_frames_are_committed(what, size):
    with Image.open(ROOT / "docs" / "frames" / f"rallye-{what}-{size[0]}x{size[1]}.png") as image:
        assert image.size == size


def test_the_phone_screenshot_is_committed_at_phone_size():
    with Image.open(ROOT / "docs" / "screenshots" / "rallye-seat.png") as image:
        assert image.width in (390, 780)  # 390 px wide, at a device scale of 1 or 2
