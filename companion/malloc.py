"""glibc's allocator tuned for a long-lived daemon on a small device; elsewhere nothing changes."""

from __future__ import annotations

import ctypes
from functools import cache

M_ARENA_MAX = -8


@cache
def _libc():
    """glibc, or None where there is none (another libc, another system)."""
    try:
        # The process's own symbols, libc's among them: ctypes.util.find_library runs ldconfig, a
        # subprocess that costs a Pi Zero a good part of a second at each start.
        libc = ctypes.CDLL(None)
        libc.mallopt, libc.malloc_trim  # noqa: B018 - both exist only in glibc
    except (OSError, AttributeError):
        return None
    return libc


def few_arenas() -> None:
    """Two malloc arenas, not glibc's eight per core: every waitress thread would otherwise keep an arena
    of its own (megabytes on a 512 MB Pi)."""
    libc = _libc()
    if libc is not None:
        libc.mallopt(M_ARENA_MAX, 2)


def give_back_freed() -> None:
    """Return the freed pages inside the heap to the system. A frame frees megabytes of image buffers
    that glibc would otherwise keep, and over a long day the holes between live blocks add up. It
    releases the interpreter lock while it works (a ctypes call), so no other thread waits for it."""
    libc = _libc()
    if libc is not None:
        libc.malloc_trim(0)
