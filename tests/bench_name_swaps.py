"""How many glass frames stay the same when two seated names that differ only at their end swap seats:
every frame of every game's showcase, on every panel, in English.

    .venv/bin/python tests/bench_name_swaps.py

A frame that shows neither name (the same as with both seats unnamed) is not counted. Runs on any tree.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_eink_names import FRAMES, URL  # noqa: E402

from companion.devices.panels import PANELS  # noqa: E402
from companion.gamekit.contract import TableInfo  # noqa: E402
from companion.outputs.frames import render  # noqa: E402

PAIR = ("Christopher Robinson", "Christopher Robinsons")
OTHERS = ("Zoé", "Dana", "Eve", "Fred")


def pixels(game: str, view: dict, model, entry, names: tuple[str, ...]):
    return numpy.asarray(render(game, view, model, "en", TableInfo(URL, "K7QF", names, entry)).image)


def alike(pair: tuple[str, str] = PAIR) -> tuple[list[tuple[str, str, str]], int]:
    """The frames (game, showcase, panel) that swapping the pair leaves the same, and the frames counted."""
    same, counted = [], 0
    for game, frames in FRAMES.items():
        for label, (view, entry) in frames.items():
            for panel_name, model in PANELS.items():
                named = pixels(game, view, model, entry, pair + OTHERS)
                if numpy.array_equal(named, pixels(game, view, model, entry, ("", "") + OTHERS)):
                    continue  # neither name is shown
                counted += 1
                if numpy.array_equal(named, pixels(game, view, model, entry, pair[::-1] + OTHERS)):
                    same.append((game, label, panel_name))
    return same, counted


def main() -> None:
    same, counted = alike()
    print(f"{len(same)} of {counted} frames showing {PAIR[0]!r} and {PAIR[1]!r} stay the same when they "
          "swap seats")
    for (game, label), count in Counter((g, label) for g, label, _ in same).most_common():
        print(f"  {count:3d}  {game} ({label})")


if __name__ == "__main__":
    main()
