"""Random play of Crazy Race (Gewalt) for the tests: draws with chosen dice, and a random legal player."""

from __future__ import annotations

import random

from companion.gamekit import ScriptedDraws
from companion.gamekit.contract import Command, DataText, IllegalMove
from companion.games.gewalt import SPEC, data, rules


def start(options: dict, draws, data_text: str | None = None, name: str = "mybox.toml"):
    """A new game's state as the table sets it up (`data_text`: your own data file)."""
    texts = {"cards": DataText(name, data_text)} if data_text is not None else None
    return SPEC.start(options, draws, texts)[1]


def public_view(state) -> dict:
    return SPEC.public_json(state)


def private_view(state, seat: int) -> dict:
    return SPEC.private_json(state, seat)


def play(state, kind: str, args: dict | None = None, dice: list[int] | None = None, seat=None):
    """One command with chosen dice, checked as the table checks it; returns (state, events)."""
    return SPEC.play(state, Command(kind, args or {}, seat), ScriptedDraws(0, dice))


def random_command(state, rng: random.Random) -> Command:
    """A command the current actor may send, with plausible args drawn from their own hand."""
    kind = rng.choice(rules.legal(state, None))
    hand = private_view(state, rules.actor(state))
    slot = {"lane": rng.randrange(5), "stage": rng.randrange(3), "section": rng.randrange(5)}
    if kind == "play_section":
        return Command(kind, {"length": rng.choice(hand["sections"]), "slot": slot})
    if kind == "discard_section":
        return Command(kind, {"length": rng.choice(hand["sections"])})
    if kind == "attack":
        attacks = [c for c in hand["actions"] if c in data.ATTACKS] or ["double"]
        return Command(kind, {"card": rng.choice(attacks), "target": rng.randrange(state.players)})
    if kind == "relocate":
        placed = public_view(state)["cards"] or [slot]
        source = rng.choice(placed)
        return Command(kind, {"source": {k: source[k] for k in slot}, "slot": slot})
    if kind == "discard_action":
        return Command(kind, {"card": rng.choice(hand["actions"])})
    return Command(kind, {})


def play_out(state, rng: random.Random, draws, limit: int = 5000, each=None):
    """Random legal play to the end; refused commands are skipped. `each(state)` sees every state."""
    for _ in range(limit):
        if rules.over(state):
            return state
        try:
            state, _ = SPEC.play(state, random_command(state, rng), draws)
        except IllegalMove:
            continue
        if each is not None:
            each(state)
    raise AssertionError("the race did not end")


SLOT_KEYS = ("lane", "stage", "section")


def choose(public: dict, private: dict, legal: list[str], rng: random.Random) -> tuple[str, dict]:
    """What a player at the table might send, from what their own phone shows them (the JSON views)."""
    kind = rng.choice(legal)
    slot = {"lane": rng.randrange(5), "stage": rng.randrange(3), "section": rng.randrange(5)}
    if kind == "play_section":
        return kind, {"length": rng.choice(private["sections"]), "slot": slot}
    if kind == "discard_section":
        return kind, {"length": rng.choice(private["sections"])}
    if kind == "attack":
        attacks = [c for c in private["actions"] if c in data.ATTACKS] or ["double"]
        return kind, {"card": rng.choice(attacks), "target": rng.randrange(public["players"])}
    if kind == "relocate":
        source = rng.choice(public["cards"] or [slot])
        return kind, {"source": {k: source[k] for k in SLOT_KEYS}, "slot": slot}
    if kind == "discard_action":
        return kind, {"card": rng.choice(private["actions"])}
    return kind, {}
