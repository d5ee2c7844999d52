"""The README leads a new table to its first game: it names every game with a frame, walks a first game
in five steps, and says how to try a whole table of phones on one computer."""

from __future__ import annotations

import re
from pathlib import Path

from companion.core import registry
from companion.i18n import translator

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_game_is_named_with_a_frame_that_exists():
    for name in registry.names():
        spec = registry.get(name)
        title = translator("en", spec)(spec.title)
        short = title.split(" (")[0]  # "Crazy Race (Schacht)": the README says which variant in its row
        row = next((line for line in README.splitlines() if line.startswith("| ") and short in line
                    and (title == short or title.split(" (")[1].rstrip(")") in line)), None)
        assert row is not None, f"the README does not name {title}"
        images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", row)
        assert images, f"the README shows no e-ink frame of {title}"
        assert all((ROOT / image).is_file() for image in images), images


def test_a_first_game_in_five_steps_and_a_whole_table_on_one_computer():
    steps = README.split("## Your first game in five steps", 1)[1].split("\n## ", 1)[0]
    assert [int(n) for n in re.findall(r"^(\d)\. ", steps, re.M)] == [1, 2, 3, 4, 5]
    for words in ("host link", "Host", "Start", "QR code", "/join", "Play again"):
        assert words in steps, words
    whole = README.split("## A whole table on one computer", 1)[1].split("\n## ", 1)[0]
    assert "127.0.0.2" in whole and "--user-data-dir" in whole
