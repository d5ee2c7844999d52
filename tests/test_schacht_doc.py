"""Crazy Race (Schacht): the doc page documents the command schemas the API checks, and the frames exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

import msgspec
import pytest
from PIL import Image

from companion.games.schacht import SPEC
from companion.games.schacht.data import load

COMMANDS = SPEC.commands

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "games" / "schacht.md").read_text(encoding="utf-8")


def documented_schemas() -> dict[str, dict]:
    blocks = re.findall(r"#### `(\w+)`\n\n```json\n(.*?)\n```", DOC, flags=re.S)
    return {kind: json.loads(text) for kind, text in blocks}


def test_every_command_schema_in_the_doc_is_the_one_the_rules_check():
    documented = documented_schemas()
    assert set(documented) == set(COMMANDS)
    for kind, struct in COMMANDS.items():
        assert documented[kind] == msgspec.json.schema(struct)["$defs"], f"docs/games/schacht.md: {kind}"


def test_the_doc_names_every_reconstructed_value():
    for key in load(SPEC.bundled("stages").text, "stages.toml").reconstructed:
        assert f"`{key}`" in DOC and "**reconstructed**" in DOC


@pytest.mark.parametrize("what", ["mid-stage", "post-evaluation"])
@pytest.mark.parametrize("size", [(800, 480), (400, 300)])
def test_the_rendered_frames_are_committed(what, size):
    path = ROOT / "docs" / "frames" / f"schacht-{what}-{size[0]}x{size[1]}.png"
    with Image.open(path) as image:
        assert image.size == size
