"""Run `companion ARGS` with the glass's and the pins' libraries held back until a gate file exists.

`python tests/held_imports.py GATE ARGS...`: an import of numpy, Pillow, gpiozero or inky (or of the
libraries $HELD_IMPORTS names, separated by commas) waits until GATE exists, so a test sees what the daemon
does before they have loaded, as on a slow core.
"""

from __future__ import annotations

import os
import sys
import time
from importlib.abc import Loader, MetaPathFinder
from pathlib import Path

HELD = tuple(os.environ.get("HELD_IMPORTS", "numpy,PIL,gpiozero,inky").split(","))


class HoldUntil(MetaPathFinder):
    """Each held library's module runs only once `gate` exists. It waits in its loader, as a slow import
    does (Python finds modules holding its global import lock, loads them holding only the module's own)."""

    def __init__(self, gate: Path):
        self.gate = gate

    def find_spec(self, name, path=None, target=None):
        if name not in HELD:
            return None
        for finder in sys.meta_path:
            if finder is not self and (spec := finder.find_spec(name, path, target)) is not None:
                spec.loader = Held(spec.loader, self.gate)
                return spec
        return None


class Held(Loader):
    def __init__(self, loader: Loader, gate: Path):
        self.loader, self.gate = loader, gate

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module) -> None:
        while not self.gate.exists():
            time.sleep(0.01)
        self.loader.exec_module(module)


if __name__ == "__main__":
    sys.meta_path.insert(0, HoldUntil(Path(sys.argv[1])))
    from companion.cli import main

    sys.exit(main(sys.argv[2:]))
