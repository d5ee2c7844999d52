"""Scoring of Crazy Race: kept trophies and the opponents' bets that match them."""

from __future__ import annotations

from collections.abc import Sequence


def places_of(trophies: Sequence[Sequence[int]], players: int) -> list[list[int]]:
    """Each seat's crossing place (1 = first) in each stage, from the seats in crossing order."""
    return [[list(order).index(seat) + 1 for order in trophies] for seat in range(players)]


def score(targets: Sequence[Sequence[int]], places: Sequence[Sequence[int]]) -> list[dict]:
    """The rulebook's table, one row per seat.

    A trophy is kept when its place is the seat's own target for that stage: 1 point, plus 1 for
    each opponent whose target for that stage is that same place (the +marks).
    """
    rows = []
    for seat, (own, got) in enumerate(zip(targets, places, strict=True)):
        kept = [t == p for t, p in zip(own, got, strict=True)]
        marks = [[other for other in range(len(targets)) if other != seat and targets[other][stage] == place]
                 if kept[stage] else [] for stage, place in enumerate(got)]
        total = sum(kept) + sum(len(m) for m in marks)
        rows.append({"seat": seat, "targets": list(own), "places": list(got), "kept": kept, "marks": marks,
                     "total": total})
    return rows


def winners(rows: list[dict]) -> list[int]:
    """The seats with the highest total (the rulebook names no tie-break)."""
    best = max(row["total"] for row in rows)
    return [row["seat"] for row in rows if row["total"] == best]
