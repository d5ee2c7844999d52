"""The NetworkManager stand-in's requirements: skip without them, unless CI says they must be there."""

from __future__ import annotations

import os
import shutil
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
