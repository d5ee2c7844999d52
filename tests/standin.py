"""The NetworkManager stand-in's requirements: skip without them, unless CI says they must be there."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.network.standin import SYSTEM_PYTHON

DBUSMOCK = Path("/usr/lib/python3/dist-packages/dbusmock")


def require_standin() -> None:
    """Skip (or, with COMPANION_REQUIRE_DBUS=1 as .ci/run sets, fail) without dbus-daemon and dbusmock."""
    if shutil.which("dbus-daemon") and DBUSMOCK.is_dir() and Path(SYSTEM_PYTHON).exists():
        return
    message = "needs dbus-daemon and python3-dbusmock: apt-get install dbus-daemon python3-dbusmock"
    if os.environ.get("COMPANION_REQUIRE_DBUS") == "1":
        pytest.fail(message + " (COMPANION_REQUIRE_DBUS=1)")
    pytest.skip(message, allow_module_level=True)


@contextmanager
def off_the_browsers_loop() -> Iterator[None]:
    """Run the block with no asyncio loop marked running on this thread.

    sdbus's blocking calls refuse a thread where a loop runs, and Playwright's sync API, once a browser
    test has run in the session, leaves its loop marked running on the main thread between its calls.
    The daemon makes its D-Bus calls on threads of its own, so only the tests need this."""
    loop = asyncio._get_running_loop()
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)
