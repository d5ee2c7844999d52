"""Fixtures shared by several test files: mock pins and the headless browser."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import settings
from installed import build_wheel, make_venv
from webfixtures import CHROMIUM_ARGS, chromium_or_skip

# Every run draws the same examples, so a test run is repeatable and CI never flakes on a new draw.
# HYPOTHESIS_PROFILE=explore draws new examples each run, to look for failures beyond those.
settings.register_profile("repeatable", derandomize=True, database=None, print_blob=True)
settings.register_profile("explore", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_collection_modifyitems(items):
    """A real browser takes seconds to start and drive: its tests are in the slow lane too."""
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def seeded_draws(monkeypatch):
    """The rules' randomness from a fixed seed, so a whole game played through the device repeats."""
    import random

    import companion.gamekit.draws

    generator = random.Random(20261123)
    monkeypatch.setattr(companion.gamekit.draws, "secrets", type("SeededSecrets", (), {
        "randbelow": staticmethod(generator.randrange)}))
    return generator


@pytest.fixture
def factory():
    """gpiozero's own mock pins: real device classes, no hardware."""
    factory = MockFactory()
    yield factory
    factory.reset()


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium driven by Playwright (it cannot download a browser here)."""
    path = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    """The project as a real wheel, built from a clean copy of the source."""
    return build_wheel(tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="session")
def installed(wheel, tmp_path_factory) -> Path:
    """A clean venv with the wheel installed (its bin/ holds python, pip and companion)."""
    return make_venv(tmp_path_factory.mktemp("venv") / "env", wheel)
