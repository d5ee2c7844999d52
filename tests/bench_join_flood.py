"""How long 1,000 addresses typing wrong codes keep a phone with the right code out, through the real
waitress server, on a clock the bench moves a second at a time (an hour at most).

    .venv/bin/python tests/bench_join_flood.py [ADDRESSES]

Each second, the strangers send wrong codes from their addresses, skipping those told to wait, until
the table refuses one for everyone (its tries are spent), at most 60 a second; then each phone tries
once: one that scans the glass's QR code (its link's key, if the table has one), one that types the code
and never typed a wrong one, one that typed a wrong code first. Runs on any tree, to compare.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from webfixtures import live_server, request, running_app  # noqa: E402

from companion.outputs.webapp.trust import CodeAttempts  # noqa: E402

HOUR = 3600
PER_SECOND = 60


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    strangers = [f"127.1.{n // 250}.{n % 250 + 2}" for n in range(count)]
    now = [1000.0]
    with tempfile.TemporaryDirectory() as tmp, running_app(Path(tmp)) as (runtime, app), \
            live_server(app) as server:
        app.extensions["companion.codes"] = CodeAttempts(clock=lambda: now[0])
        roster = runtime.table.roster
        right = roster.join_code()
        wrong = "ZZZZ" if right != "ZZZZ" else "YYYY"
        key = getattr(roster, "join_key", lambda: "")()

        def post(code: str, address: str, seat: int, scanned: bool = False) -> tuple[int, dict]:
            body = {"code": code, "seat": seat, "name": f"P{seat}"}
            if scanned and key:
                body["key"] = key
            status, answer, _ = request(server.port, "POST", "/api/join?lang=en", body=body, client=address)
            return status, json.loads(answer)

        post(wrong, "127.2.0.3", 5)  # the third phone's typo, before the flood
        phones = {"scans the QR code": ("127.2.0.1", True, 0), "types, no typo": ("127.2.0.2", False, 1),
                  "types, after a typo": ("127.2.0.3", False, 2)}
        kept_out: dict[str, int | None] = dict.fromkeys(phones)
        free_at = dict.fromkeys(strangers, 0.0)
        checked = turn = 0
        retry_at: dict[str, float] = {}
        for second in range(HOUR + 1):
            for _ in range(PER_SECOND):
                ready = [a for a in strangers[turn:] + strangers[:turn] if free_at[a] <= now[0]]
                if not ready:
                    break
                address = ready[0]
                turn = (strangers.index(address) + 1) % len(strangers)
                status, answer = post(wrong, address, 5)
                if status == 409:
                    checked += 1
                    continue
                free_at[address] = now[0] + answer.get("retry_after", 1)
                if "table" in answer.get("error", ""):
                    break  # the table's tries are spent for now
            for name, (address, scanned, seat) in phones.items():
                if kept_out[name] is not None or retry_at.get(name, 0) > now[0]:
                    continue  # a phone waits as it is told
                status, answer = post(right, address, seat, scanned)
                if status == 200:
                    kept_out[name] = second
                else:
                    retry_at[name] = now[0] + answer.get("retry_after", 1)
            if all(v is not None for v in kept_out.values()):
                break
            now[0] += 1
    print(f"{count} addresses typing wrong codes ({checked} checked):")
    for name, seconds in kept_out.items():
        print(f"  a phone that {name}: kept out {'over an hour' if seconds is None else f'{seconds} s'}")


if __name__ == "__main__":
    main()
