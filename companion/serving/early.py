"""The table's port, answered from the process's first moments: while the web app loads (seconds on a Pi
Zero), a page says the table is starting and reloads itself, and an API call is told to try again."""

from __future__ import annotations

import html
import json
import os
import socket
import threading
from pathlib import Path

from companion.i18n import N_, pick_language, translator

HEAD_LIMIT = 16 * 1024  # a request line and headers, as the real server takes them
READ_FOR = 0.5  # seconds a client has to send its request: one slow client must not hold the others
RETRY_AFTER = 1  # seconds: the page reloads, and an API client is told, to ask again after this
STARTING = N_("The table is starting…")
TRY_AGAIN = N_("The table is starting: this page reloads by itself in a moment.")
API_TRY_AGAIN = N_("The table is starting: try again in a moment.")


def listen_address(config: Path | str | None, port: int | None) -> tuple[str, int] | None:
    """Where the config says the table listens, read without checking the config (that comes later, and
    names any mistake): the port given, else $COMPANION_PORT, else the file's, else 8080; the file's host,
    else every address. None when the file cannot be read as such (the full start then says why)."""
    import tomllib

    try:
        raw = tomllib.loads(Path(config).read_text(encoding="utf-8")) if config is not None else {}
        env = os.environ.get("COMPANION_PORT")
        chosen = port or (int(env) if env else None) or raw.get("port", 8080)
        host = raw.get("host", "0.0.0.0")
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(host, str) or not isinstance(chosen, int) or not 1 <= chosen <= 65535:
        return None
    return host, chosen


class EarlyAnswer:
    """Listens on (host, port) at once and answers every request with "starting" until `hand_over()`,
    which gives the listening socket to the real server: a phone's connection made meanwhile waits in its
    queue for the real answer, and none is ever refused. Only for an IPv4 address (IPv6 and host names are
    left to the real server)."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self._stop = threading.Event()
        self._handed = False
        self._thread = threading.Thread(target=self._run, name="web-early", daemon=True)
        self._thread.start()

    @classmethod
    def listen(cls, address: tuple[str, int] | None) -> EarlyAnswer | None:
        """Listening on `address`, or None where it cannot (the real server then reports why)."""
        if address is None:
            return None
        try:
            socket.inet_aton(address[0])
        except OSError:
            return None
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as waitress binds
            sock.bind(address)
            sock.listen(1024)
        except OSError:
            sock.close()
            return None
        sock.settimeout(0.05)  # the loop looks for hand_over() this often
        return cls(sock)

    @property
    def address(self) -> tuple[str, int]:
        return self.sock.getsockname()

    def hand_over(self) -> socket.socket:
        """Stop answering and return the listening socket, its queue of waiting connections intact: the
        caller owns it from now on."""
        self._stop.set()
        self._thread.join()
        self.sock.settimeout(None)
        self._handed = True
        return self.sock

    def close(self) -> None:
        """Stop answering and close the socket, unless it was handed over."""
        if not self._handed:
            self._stop.set()
            self._thread.join()
            self.sock.close()
            self._handed = True

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                try:
                    conn.settimeout(READ_FOR)
                    conn.sendall(answer(_head(conn)))
                except OSError:
                    pass  # gone, or too slow: it asks again


def _head(conn: socket.socket) -> bytes:
    """The request's line and headers; a small body is read too (unread, closing would reset the
    connection, and the client would see an error instead of the answer)."""
    data = b""
    while b"\r\n\r\n" not in data and len(data) < HEAD_LIMIT:
        chunk = conn.recv(4096)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next((line.split(b":", 1)[1].strip() for line in head.split(b"\r\n")[1:]
                   if line.lower().startswith(b"content-length:")), b"0")
    left = int(length) - len(body) if length.isdigit() and int(length) <= HEAD_LIMIT else 0
    while left > 0 and (chunk := conn.recv(min(left, 4096))):
        left -= len(chunk)
    return head


def answer(head: bytes) -> bytes:
    """The whole HTTP answer to a request while the table starts: 503 with Retry-After; a page that
    reloads itself in the reader's language, or for /api/ the API's JSON error."""
    lines = head.decode("latin-1").split("\r\n")
    target = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
    accept = next((line.split(":", 1)[1].strip() for line in lines[1:]
                   if line.lower().startswith("accept-language:")), None)
    lang = pick_language(accept)
    _ = translator(lang)
    if target.startswith("/api/"):
        kind = "application/json"
        body = json.dumps({"ok": False, "error": _(API_TRY_AGAIN), "starting": True},
                          ensure_ascii=False).encode()
    else:
        kind = "text/html; charset=utf-8"
        body = (f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
                f'<meta name="viewport" content="width=device-width, initial-scale=1">'
                f'<meta http-equiv="refresh" content="{RETRY_AFTER}">'
                f'<title>{html.escape(_(STARTING))}</title>'
                '<style>body{font:1.2rem/1.5 system-ui,sans-serif;margin:2rem 1rem;text-align:center}</style>'
                f'</head><body><p>{html.escape(_(TRY_AGAIN))}</p></body></html>').encode()
    return (f"HTTP/1.1 503 Service Unavailable\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: {RETRY_AFTER}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n"
            ).encode() + body
