"""A real Mosquitto for a test (companion.benchmark.mosquitto), or a skip where it is not installed."""

from __future__ import annotations

import os

import pytest

from companion.benchmark.mosquitto import Mosquitto, installed

__all__ = ["Mosquitto", "require_mosquitto"]


def require_mosquitto() -> None:
    """Skip without Debian's mosquitto, except where it must run (.ci/run sets COMPANION_REQUIRE_MQTT)."""
    if installed():
        return
    if os.environ.get("COMPANION_REQUIRE_MQTT"):
        pytest.fail("Debian's mosquitto is not installed and COMPANION_REQUIRE_MQTT=1: apt-get install "
                    "mosquitto")
    pytest.skip("Debian's mosquitto is not installed: apt-get install mosquitto to run the venue tests")
