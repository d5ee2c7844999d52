"""Random play of Le rallye hasardeux for the tests: the bundled decks, chosen dice, a random legal player."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from importlib.resources import files

import msgspec

from companion.gamekit import ScriptedDraws
from companion.gamekit.contract import Command
from companion.games.rallye import SPEC, deck, rules, surprises, views
from companion.games.rallye.state import plain_positions

FOLDER = files("companion.games.rallye")


@cache
def data() -> dict:
    """The bundled decks, as `setup` takes them."""
    return {"route": deck.load_route(FOLDER.joinpath("route.toml").read_text(encoding="utf-8"), "route.toml"),
            "surprises": deck.load_surprises(FOLDER.joinpath("surprises.toml").read_text(encoding="utf-8"),
                                             "surprises.toml")}




def new_game(seed: int = 0, **options) -> rules.State:
    return rules.setup(rules.RallyeOptions(**options), ScriptedDraws(seed), data())


def play(state, kind: str, args: dict | None = None, dice: list[int] | None = None, seat=None, seed: int = 0):
    """One command with chosen dice, checked as the table checks it; returns (state, events)."""
    return SPEC.play(state, Command(kind, args or {}, seat), ScriptedDraws(seed, dice))


def _plays(state, seat: int) -> list[Command]:
    out = []
    for p in views.private_view(state, seat).plays:
        if p.command == "cancel" or p.command == "discard":
            out.append(Command(p.command, {"card": p.card}, seat))
        elif p.command == "lay":
            out += [Command("lay", {"card": p.card, "at": t}, seat) for t in p.targets]
        elif p.command == "swap_cards":
            t = p.targets
            pairs = zip(t, t[1:] + t[:1], strict=True)
            out += [Command("swap_cards", {"first": a, "second": b}, seat) for a, b in pairs
                    if surprises.swapped_over(state, a, b) is not None]
        else:
            out += [Command(p.command, {"passage": t}, seat) for t in p.targets]
    return out


def groups(state) -> list[list[Command]]:
    """Every command worth trying now, grouped: the first group moves the game on (its first command the
    most plainly), then each seat's card plays. Everything listed is legal."""
    now = rules.actor(state)
    if now is None:
        return []
    view = views.public_view(state)
    pending = view.pending
    if state.phase == "placing":
        first = [Command("place_passage", {"card": p}, now) for p in plain_positions(state)]
    elif pending is not None and pending.kind == "trim":
        first = [Command("discard", {}, None), *(c for c in _plays(state, now) if c.kind == "discard")]
    elif pending is not None and pending.kind == "cancel":
        first = [Command("decline", {}, None), *(c for c in _plays(state, now) if c.kind == "cancel")]
    elif pending is not None and pending.kind == "target":
        first = [Command("choose", {"seat": s}, now) for s in pending.choices]
    elif pending is not None and pending.kind == "exit":
        first = [Command("exit", {"card": p}, now) for p in sorted(pending.choices, reverse=True)]
        first += [Command("stay", {}, now)] if pending.optional else []
    else:
        first = [Command("roll", {}, None)]
    out = [first]
    for seat in range(state.players):
        plays = [c for c in _plays(state, seat) if c.kind not in ("cancel", "discard")]
        if plays:
            out.append(plays)
    return out


def random_choice(rng: random.Random) -> Callable[[int], int]:
    return lambda n: rng.randrange(n)


def play_out(state, choose: Callable[[int], int], draws, limit: int = 20000,
             each: Callable[[rules.State, rules.State, Command, list[dict]], None] | None = None):
    """Random legal play to the end: `choose(n)` picks each choice in range(n). Every command offered is
    legal, so a refusal fails the test. `each(before, after, command, events)` sees every step."""
    for _ in range(limit):
        if rules.over(state):
            return state
        options = groups(state)
        group = options[choose(len(options))]
        command = group[choose(len(group))]
        before = state
        state, events = SPEC.play(state, command, draws)
        if each is not None:
            each(before, state, command, events)
    raise AssertionError(f"the rally did not end in {limit} commands")


def record(store, options: dict, seed: int, until: Callable[[rules.State], bool],
           limit: int = 500) -> rules.State:
    """A rally written into `store` command by command, with the draws each took, as the table would have
    recorded it, until `until(state)`: the plain way on each time (roll, no, the newest card, the first
    choice). Returns the last state; a table started on `store` replays to it."""
    texts = {key: {"name": f"{key}.toml", "text": FOLDER.joinpath(f"{key}.toml").read_text(encoding="utf-8")}
             for key in ("route", "surprises")}
    draws = ScriptedDraws(seed)
    chosen = rules.RallyeOptions(**options)
    state = rules.setup(chosen, draws, data())
    store.append("new_game", None, {"game": "rallye", "options": msgspec.to_builtins(chosen), "data": texts},
                 draws.taken)
    for step in range(limit):
        if until(state):
            return state
        if rules.over(state):
            break
        command = groups(state)[0][0]
        draws = ScriptedDraws(seed * 1000 + step)
        state, _ = SPEC.play(state, command, draws)
        store.append(command.kind, command.seat, dict(command.args), draws.taken)
    raise AssertionError(f"not reached in {limit} commands, or before the rally ended")
