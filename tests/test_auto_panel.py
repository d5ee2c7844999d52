"""panel = "auto": a panel that cannot be found at start is looked for again, and the daemon runs."""

from __future__ import annotations

import pytest
from daemon_process import free_port
from PIL import Image
from polling import wait_for

from companion.config import Config
from companion.devices.detect import PanelNotFound
from companion.devices.display import AutoInkyDisplay, PanelChanged
from companion.devices.panels import DEFAULT_PANEL, panel
from companion.wiring import Companion


def test_the_panel_is_looked_for_at_each_show_until_found():
    answers = iter([PanelNotFound("no inky EEPROM found on I2C"), "what-red"])

    def detect():
        answer = next(answers)
        if isinstance(answer, Exception):
            raise answer
        return answer

    display = AutoInkyDisplay(panel(DEFAULT_PANEL), detect)
    frame = Image.new("RGB", panel(DEFAULT_PANEL).size, "white")
    with pytest.raises(PanelNotFound):
        display.show(frame)
    assert display.model.name == DEFAULT_PANEL and not display.found
    with pytest.raises(PanelChanged, match="what-red"):
        display.show(frame)  # drawn for the default panel: the refresher must draw it again
    assert display.found and display.model.name == "what-red"
    with pytest.raises(RuntimeError):
        # the right size now reaches inky's real driver, which needs a Pi to show it
        display.show(Image.new("RGB", panel("what-red").size, "white"))
    assert type(display._driver).__name__ == "InkyWHAT" and display.png == b""


def test_the_daemon_starts_without_an_eeprom(tmp_path):
    config = Config(panel="auto", state_dir=str(tmp_path), host="127.0.0.1", port=free_port())
    running = Companion(config, simulate=True).start()
    try:
        assert running.model.name == DEFAULT_PANEL
        # the first game is set up on the table thread just after start: wait for its frame, not for idle
        wait_for(lambda: running.frame_version >= 1)
    finally:
        running.stop()
