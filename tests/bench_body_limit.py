"""How much a hostile client makes the daemon write to disk through its web server: four posts of
200 MB at once against `companion demo`, the bytes of temporary files it holds sampled throughout.

    .venv/bin/python tests/bench_body_limit.py [--source DIR]

`--source` runs the daemon from another checkout's `companion` package (an older tree, to compare).
waitress unlinks its temporary files at once, so they are counted through the daemon's open files.
"""

from __future__ import annotations

import argparse
import os
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from daemon_process import DaemonProcess  # noqa: E402

POSTS = 4
SIZE = 200 * 1024 * 1024
PIECE = b"x" * (1024 * 1024)


def temporary_bytes(pid: int, folder: str) -> int:
    """The bytes of the files under `folder` that process `pid` holds open (unlinked ones included)."""
    total = 0
    fds = Path(f"/proc/{pid}/fd")
    for fd in fds.iterdir():
        try:
            if os.readlink(fd).startswith(folder):
                total += os.stat(fd).st_size
        except OSError:
            pass  # closed meanwhile
    return total


def post(port: int, out: dict) -> None:
    """One 200 MB post; notes how much of it the server took and what it answered."""
    started = time.monotonic()
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock:
        sock.sendall(b"POST /api/command HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                     b"Content-Length: %d\r\n\r\n" % SIZE)
        try:
            while sent < SIZE:
                sock.sendall(PIECE)
                sent += len(PIECE)
        except OSError:
            pass  # answered and closed
        status = sock.recv(64).split(b" ")[1:2]
    out.update(sent=sent, status=status[0].decode() if status else "none", seconds=time.monotonic() - started)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", help="a checkout whose companion package the daemon runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        spool = Path(work) / "tmp"
        spool.mkdir()
        env = {**os.environ, "TMPDIR": str(spool)}
        if args.source:
            env["PYTHONPATH"] = str(Path(args.source).resolve())
        daemon = DaemonProcess(Path(work) / "state", env=env, cwd=Path(work)).start()  # not this checkout
        try:
            pid = daemon.proc.pid
            before = temporary_bytes(pid, str(spool))
            peak = [before]
            done = threading.Event()

            def sample():
                while not done.is_set():
                    peak[0] = max(peak[0], temporary_bytes(pid, str(spool)))
                    done.wait(0.02)

            sampler = threading.Thread(target=sample)
            sampler.start()
            results = [{} for _ in range(POSTS)]
            posts = [threading.Thread(target=post, args=(daemon.port, out)) for out in results]
            for thread in posts:
                thread.start()
            for thread in posts:
                thread.join()
            done.set()
            sampler.join()
            after = temporary_bytes(pid, str(spool))
        finally:
            daemon.stop()
    print(f"{POSTS} posts of {SIZE // 2**20} MB at once, daemon from {args.source or 'this checkout'}")
    for n, out in enumerate(results, 1):
        print(f"  post {n}: answered {out['status']} after {out['sent'] // 2**20} MB sent "
              f"({out['seconds']:.1f} s)")
    print(f"temporary files held by the daemon: before {before / 2**20:.1f} MB, "
          f"peak {peak[0] / 2**20:.1f} MB, after {after / 2**20:.1f} MB")


if __name__ == "__main__":
    main()
