"""Listening sockets handed over by systemd (socket activation: $LISTEN_FDS), such as port 80's."""

from __future__ import annotations

import os
import socket

FIRST_FD = 3  # SD_LISTEN_FDS_START: systemd passes its sockets from file descriptor 3 on


def passed_sockets(environ: dict | None = None) -> dict[str, socket.socket]:
    """The stream sockets systemd passed to this process, by their FileDescriptorName= (empty if none).

    The variables are removed once read, so a child process never takes the sockets for its own."""
    env = os.environ if environ is None else environ
    count, pid = env.pop("LISTEN_FDS", ""), env.pop("LISTEN_PID", "")
    names = env.pop("LISTEN_FDNAMES", "").split(":")
    if not count.isdigit() or pid != str(os.getpid()):
        return {}  # for another process (a parent's), or nothing passed
    sockets = {}
    for index in range(int(count)):
        fd = FIRST_FD + index
        os.set_inheritable(fd, False)
        name = names[index] if index < len(names) and names[index] else f"fd{fd}"
        sockets[name] = socket.socket(fileno=fd)
    return sockets
