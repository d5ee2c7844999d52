"""How long Le rallye hasardeux lasts at a table, by players, route cards and laps.

Run from the repository: `.venv/bin/python tests/bench_rallye_length.py` (about a minute on a laptop).
It plays seeded rallies (every legal move drawn at random, the game moved on six times in seven, a card
played from a hand otherwise), counts the commands, the rolls, the answer windows and the questions in
them, and prints, for 2 to 6 players at the defaults (30 route cards, 4 laps) and at the suggested shorter
settings, the commands and the expected length by the pace of companion/games/rallye/length.toml. The
"one window per victim" column is the same games timed as the table ran them before the victims of one
effect were asked together. `--write` fits the model again and writes length.toml.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from statistics import mean

sys.path.insert(0, str(Path(__file__).parent))

from rallye_play import groups, new_game  # noqa: E402

from companion.gamekit import ScriptedDraws  # noqa: E402
from companion.games.rallye import SPEC, length, rules  # noqa: E402

TOML = Path(__file__).parents[1] / "companion" / "games" / "rallye" / "length.toml"
PACE = length.Pace(roll=8.0, window=10.0, other=3.0)  # seconds: see length.py
TARGET = 75  # minutes: the length a shorter setting should not pass
SEEDS = 6


def rally(seed: int, players: int, route_cards: int, laps: int) -> dict:
    """One seeded rally to the end; what the table waited for."""
    rng = random.Random(seed)
    state = new_game(seed, players=players, route_cards=route_cards, laps=laps)
    counts = {"commands": 0, "rolls": 0, "windows": 0, "questions": 0, "answers": 0}
    while not rules.over(state):
        options = groups(state)
        group = options[0] if len(options) == 1 or rng.random() < 6 / 7 else rng.choice(options[1:])
        command = rng.choice(group)
        before = state
        state, _ = SPEC.play(state, command, ScriptedDraws(rng.randrange(1 << 30)))
        counts["commands"] += 1
        counts["rolls"] += command.kind == "roll"
        counts["answers"] += command.kind in ("cancel", "decline", "close")
        after = state.pending
        if after is not None and after.kind == "cancel":
            old = before.pending
            same = (old is not None and old.kind == "cancel" and old.threat == after.threat
                    and command.kind in ("cancel", "decline") and set(after.asked()) < set(old.asked()))
            if not same:
                counts["windows"] += 1
                counts["questions"] += len(after.asked())
    return counts


def measure(players: int, route_cards: int, laps: int, seeds: int = SEEDS) -> dict:
    runs = [rally(seed, players, route_cards, laps) for seed in range(seeds)]
    return {key: mean(run[key] for run in runs) for key in runs[0]}


def minutes(counts: dict, windows: str = "windows") -> float:
    others = counts["commands"] - counts["rolls"] - counts["answers"]
    return (counts["rolls"] * PACE.roll + counts[windows] * PACE.window + others * PACE.other) / 60


def fit(seeds: int) -> dict:
    """Per player count, minutes = per_card_lap * laps * (cards + passages) + fixed, through two settings."""
    out = {}
    for players in range(2, 7):
        points = [(length.size(cards, laps), minutes(measure(players, cards, laps, seeds)))
                  for cards, laps in ((15, 2), (30, 4))]
        (x0, y0), (x1, y1) = points
        slope = (y1 - y0) / (x1 - x0)
        out[str(players)] = {"per_card_lap": round(slope, 4), "fixed": round(y0 - slope * x0, 2)}
    return out


def shorter(fitted: dict, players: int) -> tuple[int, int] | None:
    """The longest setting (most laps, then most cards) expected under TARGET minutes, if the defaults are
    over it."""
    fit_ = fitted[str(players)]

    def expect(cards: int, laps: int) -> float:
        return fit_["per_card_lap"] * length.size(cards, laps) + fit_["fixed"]
    if expect(30, 4) <= TARGET:
        return None
    for laps in (3, 2, 1):
        fits = [cards for cards in range(40, 9, -5) if expect(cards, laps) <= TARGET]
        if fits:
            return fits[0], laps
    return 10, 1


def write(fitted: dict) -> None:
    lines = ["# How long a rally lasts at a table: written by tests/bench_rallye_length.py --write",
             "# (see length.py).", "", "[pace]  # seconds", f"roll = {PACE.roll}", f"window = {PACE.window}",
             f"other = {PACE.other}", ""]
    for players, fit_ in fitted.items():
        lines += [f'[players."{players}"]', f"per_card_lap = {fit_['per_card_lap']}",
                  f"fixed = {fit_['fixed']}", ""]
    for players in (5, 6):  # the large tables: 2-4 players keep the defaults
        best = shorter(fitted, players)
        if best is not None:
            lines += [f'[suggested."{players}"]', f"route_cards = {best[0]}", f"laps = {best[1]}",
                      ""]
    TOML.write_text("\n".join(lines), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="fit the model again and write length.toml")
    parser.add_argument("--seeds", type=int, default=SEEDS)
    args = parser.parse_args(argv)
    if args.write:
        write(fit(args.seeds))
        length.model.cache_clear()
    print("players  cards laps  commands  rolls  windows  questions  minutes  (one window per victim)"
          "  model")
    for players in range(2, 7):
        settings = [(30, 4)] + ([length.suggestion(players)] if length.suggestion(players) else [])
        for cards, laps in settings:
            counts = measure(players, cards, laps, args.seeds)
            print(f"{players:>7}  {cards:>5} {laps:>4}  {counts['commands']:>8.0f}  {counts['rolls']:>5.0f}  "
                  f"{counts['windows']:>7.0f}  {counts['questions']:>9.0f}  {minutes(counts):>7.0f}  "
                  f"{minutes(counts, 'questions'):>24.0f}  "
                  f"{length.expected_minutes(players, cards, laps):>5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
