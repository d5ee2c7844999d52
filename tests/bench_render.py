"""Benchmark: render + quantize time of one e-ink frame on each panel size (prints figures, asserts none).

Run with `.venv/bin/python tests/bench_render.py [repeats]`. Not collected by pytest: timings depend
on the machine, so they are reported for a person to read, never checked.
"""

from __future__ import annotations

import statistics
import sys
import time

from companion.devices.display import PngDisplay
from companion.devices.panels import PANELS
from companion.games.dice.rules import DiceState, public_view
from companion.render.screens import render

URL = "http://companion.local:8080/"


def representatives() -> dict[tuple[int, int], str]:
    """One model per panel size: the one with the most inks (its quantize is the slowest)."""
    best: dict[tuple[int, int], str] = {}
    for name, model in PANELS.items():
        if model.size not in best or len(model.inks) > len(PANELS[best[model.size]].inks):
            best[model.size] = name
    return dict(sorted(best.items(), key=lambda item: item[0][0] * item[0][1]))


def bench(name: str, view: dict, repeats: int, tmp: str) -> tuple[float, float, float]:
    """Median seconds for: render, quantize (ours, then the driver's set_image), both together."""
    model = PANELS[name]
    display = PngDisplay(model, f"{tmp}/{name}.png")
    driver = model.driver()
    renders, quantizes, totals = [], [], []
    for _ in range(repeats):
        start = time.perf_counter()
        image = render("dice", view, model, "fr", URL).image
        drawn = time.perf_counter()
        driver.set_image(display.native(image))
        done = time.perf_counter()
        renders.append(drawn - start)
        quantizes.append(done - drawn)
        totals.append(done - start)
    return statistics.median(renders), statistics.median(quantizes), statistics.median(totals)


def main(argv: list[str]) -> int:
    import tempfile

    repeats = int(argv[1]) if len(argv) > 1 else 5
    rolls = tuple(((i % 6) + 1, (i * 5) % 6 + 1, (i * 2) % 6 + 1) for i in range(40))
    view = public_view(DiceState(count=3, rolls=rolls))
    print(f"free dice, 3 dice and history; median of {repeats} frames")
    print(f"{'size':>11}  {'model':<20} {'render':>9} {'quantize':>9} {'total':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for (w, h), name in representatives().items():
            r, q, t = bench(name, view, repeats, tmp)
            print(f"{w:>5}x{h:<5}  {name:<20} {r * 1000:>7.1f}ms {q * 1000:>7.1f}ms {t * 1000:>7.1f}ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
