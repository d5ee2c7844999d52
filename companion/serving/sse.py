"""Server-Sent Events as both servers write them: one message, and how soon a browser reconnects."""

from __future__ import annotations

import json

RETRY_MS = 2000  # how soon a browser reconnects after the stream drops


def message(event: str, data: dict, version: int | None = None) -> bytes:
    """One SSE message; the id lets a reconnecting browser say what it last saw."""
    head = f"event: {event}\n" + (f"id: {version}\n" if version is not None else "")
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return (head + f"data: {body}\n\n").encode()


def opening(snapshot: bytes) -> bytes:
    """A stream's first bytes: the reconnect delay, then the snapshot its page starts from."""
    return f"retry: {RETRY_MS}\n\n".encode() + snapshot
