"""Fixtures shared by several test files: mock pins and the headless browser."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory
from webfixtures import CHROMIUM_ARGS, chromium_or_skip


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
