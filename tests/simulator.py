"""The daemon in this process on mock pins and a PNG panel (the simulator), on a free loopback port."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from daemon_process import free_port
from polling import wait_for

from companion.config import Config
from companion.wiring import Companion


@contextmanager
def running_simulator(state_dir: Path, *, first_frame: bool = False, **settings) -> Iterator[Companion]:
    """The simulator with `settings` (Config fields), stopped afterwards. It is yielded once its game is
    the configured one (and, with `first_frame`, once the panel has its first frame)."""
    config = Config(state_dir=str(state_dir), host="127.0.0.1", port=free_port(), **settings)
    running = Companion(config, simulate=True).start()
    try:
        wait_for(lambda: running.table.latest.game == config.game)
        if first_frame:
            wait_for(lambda: running.display.png)
        yield running
    finally:
        running.stop()


def glass_offers(companion: Companion) -> list[tuple[Any, bool]]:
    """Record each frame the table offers the glass from now on: its key, and whether the table must see
    it at the next refresh the panel may make."""
    offers: list[tuple[Any, bool]] = []
    offer = companion.refresher.offer

    def recording(key, play=False, must=False):
        offers.append((key, must))
        offer(key, play, must)

    companion.refresher.offer = recording
    return offers
