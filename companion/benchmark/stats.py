"""Summaries of timed samples: median, 99th percentile and worst, in milliseconds."""

from __future__ import annotations

import statistics
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured figure: a summary of samples (or a single value), its target, and whether it met it."""

    name: str
    unit: str
    p50: float
    p99: float | None = None
    worst: float | None = None
    samples: int = 1
    target: str = ""
    met: bool | None = None

    def json(self) -> dict:
        return {k: v for k, v in self.__dict__.items()}


def timed(name: str, seconds: list[float], target_ms: float | None = None, on: str = "p99") -> Figure:
    """A figure from durations in seconds, reported in ms; `target_ms` applies to the `on` statistic."""
    ms = sorted(s * 1000 for s in seconds)
    p50, p99, worst = statistics.median(ms), percentile(ms, 99), ms[-1]
    value = {"p50": p50, "p99": p99, "max": worst}[on]
    target = f"{on} ≤ {target_ms:g} ms" if target_ms is not None else ""
    met = None if target_ms is None else value <= target_ms
    return Figure(name, "ms", p50, p99, worst, len(ms), target, met)


def count(name: str, value: float, unit: str, target: float | None = None, most: bool = True) -> Figure:
    """A single value; with `target`, met when at most (or, `most=False`, at least) the target."""
    met = None if target is None else (value <= target if most else value >= target)
    return Figure(name, unit, value, target=f"{'≤' if most else '≥'} {target:g} {unit}" if target is not None
                  else "", met=met)


def _number(value: float | None, unit: str) -> str:
    if value is None:
        return ""
    return f"{value:.1f}" if unit == "ms" else f"{value:g}"


def percentile(sorted_values: list[float], q: float) -> float:
    """The q-th percentile by nearest rank (of at least 100 samples, p99 is a real sample)."""
    if not sorted_values:
        return float("nan")
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(rank) - 1]


def table(figures: list[Figure], title: str) -> str:
    """The figures as a plain-text table."""
    rows = [("figure", "p50", "p99", "max", "n", "target", "")]
    for f in figures:
        rows.append((f.name, f"{_number(f.p50, f.unit)} {f.unit}", _number(f.p99, f.unit),
                     _number(f.worst, f.unit), str(f.samples), f.target,
                     {True: "met", False: "MISSED", None: ""}[f.met]))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = [title, "=" * len(title)]
    for r in rows:
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)).rstrip())
    return "\n".join(lines)
