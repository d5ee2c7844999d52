"""E-ink work: render + quantize per panel size and game screen, and what a burst of commands costs."""

from __future__ import annotations

import random
import statistics
import tempfile
import threading
import time
from pathlib import Path

from companion.benchmark.players import legal_command
from companion.benchmark.stats import Figure, count
from companion.core import registry
from companion.core.moment import Moment
from companion.core.table import Table
from companion.devices.display import PngDisplay
from companion.devices.panels import PANELS, PanelModel, panel
from companion.devices.refresh import Refresher
from companion.gamekit.contract import Command, TableInfo
from companion.gamekit.draws import Draws
from companion.outputs.frames import render
from companion.storage.store import Store

URL = "http://table.local:8080/"
NAMES = ("François-Hélène Ødegård", "Zoé", "Ada", "Bob", "Chloé", "Dimitri")
TARGETS = {(800, 480): 40.0, (1600, 1200): 150.0}  # ms, render + quantize


def mid_game(name: str, commands: int = 25):
    """A game's public view after a few random legal commands: a screen with something on it."""
    spec = registry.get(name)
    options, state = spec.start({}, Draws())
    rng = random.Random(2)
    for _ in range(commands):
        command = legal_command(spec, state, spec.seats_in_play(options), rng)
        if command is None:
            break
        state, _ = spec.play(state, command, Draws())
    return spec.public_json(state)


def render_times(rounds: int = 3) -> list[Figure]:
    """Median of `rounds` renders + quantizations after one untimed, for each panel size and each game's
    mid-game screen."""
    sizes: dict[tuple[int, int], PanelModel] = {}
    for model in PANELS.values():
        sizes.setdefault(model.size, model)
    figures = []
    info = TableInfo(URL, "K7QF", NAMES)
    for name in registry.names():
        view = mid_game(name)
        for size, model in sorted(sizes.items()):
            display = PngDisplay(model, "/dev/null")
            # Fonts load and text measures fill at a size's first frame: the cold start figure counts
            # that once; this one is what every later frame costs.
            display.native(render(name, view, model, "fr", info).image)
            seconds = []
            for _ in range(rounds):
                start = time.perf_counter()
                display.native(render(name, view, model, "fr", info).image)
                seconds.append(time.perf_counter() - start)
            ms = statistics.median(seconds) * 1000
            figures.append(count(f"render + quantize: {name} {size[0]}x{size[1]}", round(ms, 1), "ms",
                                 TARGETS.get(size)))
    return figures


class SlowGlass(PngDisplay):
    """A PNG panel that takes the model's real refresh time (or `seconds`), like the glass."""

    def __init__(self, model, path, seconds: float | None = None):
        super().__init__(model, path)
        self.seconds = model.refresh if seconds is None else seconds
        self.sent = 0

    def show(self, image) -> None:
        self.sent += 1
        super().show(image)
        time.sleep(self.seconds)


def burst(panel_name: str = "impression-7.3", commands: int = 100, over: float = 1.0,
          glass: float | None = None) -> list[Figure]:
    """`commands` rolls in `over` seconds on free dice, each frame offered as the daemon does: how many
    frames are drawn and sent until the panel is free again; then the same state offered again."""
    model = panel(panel_name)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.db")
        table = Table(store).start()
        display = SlowGlass(model, Path(tmp) / "frame.png", glass)
        refresher = Refresher(display, lambda key: render(key[0], key[1], model, "fr", TableInfo(URL)).image)
        refresher.start()

        def offer(moment: Moment) -> None:
            if not moment.rejected:
                refresher.offer((moment.game, moment.public))
        table.subscribe(offer)
        try:
            table.call(Command("roll"))
            _wait(lambda: display.sent == 1)
            refresher.wait_idle(display.seconds + 30)  # the panel is free again
            drawn, sent = refresher.rendered, display.sent
            start = time.monotonic()
            for k in range(commands):
                table.submit(Command("roll"))
                pause = start + (k + 1) * over / commands - time.monotonic()
                if pause > 0:
                    time.sleep(pause)
            table.call(Command("settle"))
            refresher.wait_idle(2 * display.seconds + 30)
            burst_drawn, burst_sent = refresher.rendered - drawn, display.sent - sent
            for _ in range(20):  # the same state again and again: a seat change that altered nothing shown
                refresher.offer((table.latest.game, table.latest.public))
            refresher.wait_idle(30)
            again = refresher.rendered - drawn - burst_drawn, display.sent - sent - burst_sent
        finally:
            refresher.stop()
            table.stop()
            store.close()
    glass_note = f"{display.seconds:g} s glass"
    rendered = f"burst of {commands} in {over:g} s: frames rendered ({glass_note})"
    return [count(rendered, burst_drawn, "frames", 5),
            count(f"burst of {commands} in {over:g} s: frames sent ({glass_note})", burst_sent, "frames", 2),
            count("same state offered 20 times: frames rendered", again[0], "frames", 0),
            count("same state offered 20 times: frames sent", again[1], "frames", 0)]


def _wait(predicate, timeout: float = 30.0) -> None:
    event = threading.Event()
    deadline = time.monotonic() + timeout
    while not predicate() and time.monotonic() < deadline:
        event.wait(0.01)
