"""Random play of Crazy Race (Schacht) for the tests: seeded draws and a random legal player."""

from __future__ import annotations

import random
from collections import Counter

from companion.gamekit.contract import Command, DataText
from companion.games.schacht import SPEC
from companion.games.schacht.rules import actor, legal, open_sides


def start(options: dict, draws, data: str | None = None, name: str = "mybox.toml"):
    """A new game's state as the table sets it up (`data`: the text of your own stages file)."""
    return SPEC.start(options, draws, {"stages": DataText(name, data)} if data is not None else None)[1]


def public_view(state) -> dict:
    return SPEC.public_json(state)


def private_view(state, seat: int) -> dict:
    return SPEC.private_json(state, seat)




def random_command(state, rng: random.Random) -> Command:
    """One legal command: mostly the seat to act, sometimes a recall by anyone."""
    recallers = [s for s in range(state.players) if "recall" in legal(state, s)]
    if recallers and rng.random() < 0.08:
        return Command("recall", {}, rng.choice(recallers))
    who = actor(state)
    kinds = [k for k in legal(state, who) if k != "recall"] if who is not None else legal(state, None)
    kind = rng.choice(kinds)
    seat = who if rng.random() < 0.5 else None
    if kind == "place":
        side, value = rng.choice(open_sides(state)), rng.choice(state.hands[who])
        return Command(kind, {"side": side, "value": value}, seat)
    if kind == "move":
        deciding = public_view(state)["deciding"]
        locos, steps = list(deciding["locos"]), deciding["steps"]
        rng.shuffle(locos)
        if not deciding["split"]:
            return Command(kind, {"moves": [{"loco": locos[0], "steps": steps}]}, seat)
        shares = Counter(rng.choice(locos) for _ in range(steps))
        return Command(kind, {"moves": [{"loco": m, "steps": n} for m, n in shares.items()]}, seat)
    if kind == "take_back":
        cards = public_view(state)["takeback"][0]["cards"]
        return Command(kind, {"value": rng.choice([None, *cards])}, seat)
    return Command(kind, {}, seat)
