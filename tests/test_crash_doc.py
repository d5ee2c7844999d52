"""Crash!: the doc documents the command schemas the API checks and the board file, and links what exists."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from PIL import Image

from companion.games.crash import SPEC
from companion.games.crash.board import DIRECTIONS, PARTS, load_board
from companion.games.crash.names import DIRECTION_NAMES

ROOT = Path(__file__).resolve().parents[1]
DOC_PATH = ROOT / "docs" / "games" / "crash.md"
DOC = DOC_PATH.read_text(encoding="utf-8")


def documented_schemas() -> dict[str, dict]:
    blocks = re.findall(r"#### `(\w+)`\n\n```json\n(.*?)\n```", DOC, flags=re.S)
    return {kind: json.loads(text) for kind, text in blocks}


def test_every_command_schema_in_the_doc_is_the_one_the_rules_check():
    documented = documented_schemas()
    assert set(documented) == set(SPEC.commands)
    for kind, struct in SPEC.commands.items():
        assert documented[kind] == msgspec.json.schema(struct)["$defs"], f"docs/games/crash.md: {kind}"
        assert f"| `{kind}` |" in DOC


def test_the_doc_names_what_is_reconstructed_and_the_board_format():
    board = load_board(SPEC.bundled("board").text, "board.toml")
    assert board.reconstructed and "**reconstructed**" in DOC
    for part in board.reconstructed:
        assert re.search(rf"\| `{part}`[^|]*\| \*\*reconstructed\*\* \|", DOC), part
    for key in (*PARTS, "[[junkyards]]", "[[garages]]", "reconstructed", "[data.crash]"):
        assert f"`{key}`" in DOC or key in DOC, key
    for option in SPEC.options.__struct_fields__:
        assert f"| `{option}` |" in DOC, option


def test_the_button_map_covers_every_key_and_the_led_directions_follow_the_rules_order():
    table = DOC[DOC.index("## Button map"):DOC.index("## Phones")]
    for key in ("A", "B", "C", "D", "ROLL", "long D"):
        assert f"| {key} |" in table or f"| {key}, " in table, key
    numbered = ", ".join(f"{i + 1} {DIRECTION_NAMES[d]}" for i, d in enumerate(DIRECTIONS))
    assert f"({numbered})" in DOC


@pytest.mark.parametrize("link", sorted(set(re.findall(r"\]\((\.\./[^)]+)\)", DOC))))
def test_every_link_of_the_doc_leads_to_a_file(link):
    assert (DOC_PATH.parent / link).resolve().is_file(), link


@pytest.mark.parametrize("what", ["mid-game", "push-chain"])
@pytest.mark.parametrize("size", [(800, 480), (400, 300)])
def test_the_rendered_frames_are_committed(what, size):
    with Image.open(ROOT / "docs" / "frames" / f"crash-{what}-{size[0]}x{size[1]}.png") as image:
        assert image.size == size


def test_the_phone_screenshot_is_committed_at_phone_width():
    with Image.open(ROOT / "docs" / "screenshots" / "crash-seat.png") as image:
        assert image.width == 2 * 390  # taken at 390 px wide, twice the pixels (device scale 2)
