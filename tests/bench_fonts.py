"""Benchmark: what the e-ink's cache of font faces costs in memory and in render time, by its size.

Run: .venv/bin/python tests/bench_fonts.py [SIZES...]   (default: 24 16 12 8 4)

Each size runs in a fresh interpreter: every game's frames at 800x480 (four moments of each game), drawn
and quantized as the daemon does. Prints the resident memory the frames added and the render times;
asserts nothing.
"""

from __future__ import annotations

import subprocess
import sys

ONE_SIZE = """
import functools, sys, time
from companion.malloc import few_arenas
few_arenas()
from companion.render import fonts, layout
fonts.font = layout.font = functools.lru_cache(maxsize={size})(fonts.font.__wrapped__)
from companion.core import registry
from companion.benchmark.eink import NAMES, URL, mid_game
from companion.devices.display import PngDisplay
from companion.devices.panels import panel
from companion.gamekit.contract import TableInfo
from companion.outputs.frames import render

def resident():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024

model = panel("impression-7.3")
display = PngDisplay(model, "/dev/null")
info = TableInfo(URL, "K7QF", NAMES)
views = {{name: [mid_game(name, k) for k in (5, 15, 25, 40)] for name in registry.names()}}
before = resident()
start = time.perf_counter()
for name in views:
    display.native(render(name, views[name][0], model, "fr", info).image)
first = (time.perf_counter() - start) / len(views)
start = time.perf_counter()
for _ in range(3):
    for name in views:
        for view in views[name][1:]:
            display.native(render(name, view, model, "fr", info).image)
later = (time.perf_counter() - start) / (9 * len(views))
made = fonts.font.cache_info().misses
print(f"{{resident() - before:.1f}} {{first * 1000:.1f}} {{later * 1000:.1f}} {{made}}")
"""


def main() -> int:
    sizes = [int(a) for a in sys.argv[1:]] or [24, 16, 12, 8, 4]
    print(f"{'faces kept':>10}  {'memory added':>12}  {'first frame':>11}  {'later frames':>12}  faces made")
    for size in sizes:
        out = subprocess.run([sys.executable, "-c", ONE_SIZE.format(size=size)], capture_output=True,
                             text=True, check=True).stdout.split()
        added, first, later, misses = out
        print(f"{size:>10}  {added:>9} MB  {first:>8} ms  {later:>9} ms  {misses:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
