"""The whole bench: every figure, printed as a table and written as JSON; confined like a Pi Zero 2 W."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from companion.benchmark import daemons, eink, load, presses, rules, soak, start
from companion.benchmark.confine import Confinement
from companion.benchmark.stats import Figure, table

if TYPE_CHECKING:
    from companion.benchmark.venue import Day


def collect(quick: bool = False, panel: str = "impression-7.3", part: str = "speed", code: Path | None = None,
            day: Day | None = None) -> list[Figure]:
    """The figures of docs/performance.md: the speed table, the load, the soak, the start on a long log,
    the cold start (answers, first frame, idle memory and threads) or the venue.
    `quick` takes fewer samples, a 2 s glass, 10 s of load, 1,000 commands of soak and a tenth of each
    long log; `code` starts the long logs', the cold start's daemons (or the venue's dashboard) from another
    version's code; `day` is the venue's tables, hours, window and drain."""
    if part == "start":
        return start.measure(code, quick)
    if part == "cold":
        prefix = ("env", f"PYTHONPATH={code}") if code is not None else ()
        return daemons.cold_start(3 if quick else 5, prefix) + daemons.idle_memory(10, prefix)
    if part == "venue":
        from companion.benchmark import venue

        day = day or venue.Day()
        return venue.measure(day.tables, day.hours, day.window or (15.0 if quick else 60.0),
                             day.drain or (2_000 if quick else venue.DRAIN), code=code)
    if part == "load":
        return load.measure(30, 100.0, 10.0 if quick else 60.0)
    if part == "soak":
        return soak.measure(1_000 if quick else 10_000, 10)
    if part == "panel":
        from companion.benchmark import panel as glass

        return glass.measure(panel)
    figures = presses.measure(100 if quick else 1000)
    figures += eink.render_times(1 if quick else 3)
    figures += eink.burst(panel, glass=2.0 if quick else None)
    figures += daemons.cold_start(2 if quick else 5)
    figures += daemons.idle(5.0 if quick else 60.0)
    figures += daemons.peak_memory()
    figures += rules.throughput(0.5 if quick else 3.0)
    return figures


def main(json_path: Path | None, quick: bool, pi_zero: bool, panel: str, part: str = "speed",
         code: Path | None = None, day: Day | None = None) -> int:
    figures = collect(quick, panel, part, code, day)
    report: dict[str, object] = {"figures": [f.json() for f in figures]}
    print(table(figures, "This machine"), flush=True)
    if pi_zero:
        confined, how = run_confined(quick, panel, part, code, day)
        report |= {"pi_zero": {"how": how, "figures": [f.json() for f in confined]}}
        print(f"\nPi Zero 2 W stand-in: {how}\n")
        print(side_by_side(figures, confined))
    if json_path is not None:
        json_path.write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    return 0


def run_confined(quick: bool, panel: str, part: str, code: Path | None = None, day: Day | None = None
                 ) -> tuple[list[Figure], str]:
    """The same bench, run again inside the limit (its daemons inherit it)."""
    limit = Confinement()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "confined.json"
            command = [sys.executable, "-m", "companion", "bench", part, "--json", str(out), "--panel", panel]
            command += ["--quick"] if quick else []
            command += ["--code", str(code)] if code is not None else []
            command += day.options() if day is not None else []
            proc = limit.popen(command, stdout=sys.stderr)
            if proc.wait() != 0 or not out.exists():
                raise RuntimeError("the confined bench failed (see above)")
            figures = [Figure(**f) for f in json.loads(out.read_text())["figures"]]
    finally:
        limit.close()
    return figures, limit.how


def side_by_side(here: list[Figure], there: list[Figure]) -> str:
    """Each figure's headline value (p99 where there is one) here and on the stand-in."""
    confined = {f.name: f for f in there}
    rows = [("figure", "this machine", "Pi Zero stand-in")]
    for f in here:
        other = confined.get(f.name)
        rows.append((f.name, _headline(f), _headline(other) if other else ""))
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows)


def _headline(f: Figure) -> str:
    value = f.p99 if f.p99 is not None else f.p50
    label = "p99 " if f.p99 is not None else ""
    return f"{label}{value:.1f} {f.unit}" if f.unit == "ms" else f"{value:g} {f.unit}".strip()
