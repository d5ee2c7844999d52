"""Benchmark: the resident memory each library takes when the daemon imports it, in the daemon's order.

Run: .venv/bin/python tests/bench_imports.py

A fresh interpreter imports, step by step, what `companion demo` imports before its table exists, and
prints the resident memory (VmRSS) each step adds, split into the files it maps (shared libraries,
read-only and shared with other processes) and the memory it writes (the interpreter's objects, the
libraries' heaps). inky is imported as the daemon imports it, without pkg_resources. Asserts nothing.
"""

from __future__ import annotations

import subprocess
import sys

STEPS = """
import sys
def memory():
    rollup = {}
    for line in open("/proc/self/smaps_rollup"):
        parts = line.split()
        if len(parts) == 3 and parts[2] == "kB":
            rollup[parts[0].rstrip(":")] = int(parts[1]) / 1024
    return rollup["Rss"], rollup["Anonymous"]
steps = [
    ("msgspec", "import msgspec"),
    ("Pillow (Image, ImageDraw, ImageFont)", "from PIL import Image, ImageDraw, ImageFont"),
    ("numpy", "import numpy"),
    ("gpiozero", "import gpiozero"),
    ("an inky driver", "from companion.devices.panels import import_inky; "
     "import_inky('inky.inky_ac073tc1a')"),
    ("Flask", "import flask"),
    ("waitress", "import waitress"),
    ("segno (QR codes)", "import segno"),
    ("our daemon and web app", "import companion.wiring, companion.outputs.webapp, "
     "companion.outputs.webapp.api, companion.outputs.frames"),
    ("the five games", "from companion.core import registry; [registry.get(n) for n in registry.names()]"),
]
before = memory()
print(f"the interpreter|{before[0]:.1f}|{before[1]:.1f}")
for name, code in steps:
    exec(code)
    now = memory()
    print(f"{name}|{now[0] - before[0]:.1f}|{now[1] - before[1]:.1f}")
    before = now
print(f"in all|{now[0]:.1f}|{now[1]:.1f}")
"""


def main() -> int:
    out = subprocess.run([sys.executable, "-c", STEPS], capture_output=True, text=True, check=True).stdout
    rows = [line.split("|") for line in out.splitlines()]
    print(f"{'import':<40} {'resident':>9} {'of which written':>17}")
    for name, rss, anon in rows:
        print(f"{name:<40} {rss:>6} MB {anon:>14} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
