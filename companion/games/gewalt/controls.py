"""Buttons of Crazy Race: ROLL rolls; A, B, C start a card input chosen step by step on the LED dice.

During an input A steps the value down, B up, C confirms it (the last confirms the card), D steps back.
"""

from __future__ import annotations

from companion.gamekit import Command, Controls, Entry, Field, number_faces
from companion.games.gewalt.commands import LANES, SECTIONS, STAGES
from companion.games.gewalt.data import ACTIONS, ATTACKS, MAX_LENGTH
from companion.games.gewalt.rules import LETTERS

LANE, STAGE, SECTION = Field("lane", LANES), Field("stage", STAGES), Field("section", SECTIONS)
LENGTH = Field("length", MAX_LENGTH + 1, first=0)
FLOWS = {
    # flow: (the key that starts it, whether it needs the expert game, its fields)
    "place": ("a", False, (LANE, STAGE, SECTION, LENGTH)),
    "discard": ("a:hold", False, (LENGTH,)),
    "attack": ("b", True, (Field("card", len(ATTACKS)), Field("target", lambda view: len(targets(view))))),
    "drop": ("b:hold", True, (Field("card", len(ACTIONS)),)),
    "relocate": ("c", True, (Field("from_lane", LANES), Field("from_stage", STAGES),
                             Field("from_section", SECTIONS), LANE, STAGE, SECTION)),
}
STARTS = {key: flow for flow, (key, _, _) in FLOWS.items()}
STEP_DOWN, STEP_UP, CONFIRM, BACK = "a", "b", "c", "d"


def dice_shown(view: dict) -> list[int]:
    roll = view["last_roll"]
    return list(roll["dice"]) if roll else []


def step(entry: Entry | None, key: str, view: dict):
    """(input in progress, key, public view) -> (input in progress, command or None)."""
    if view["over"] or view["actor"] is None:
        return entry, None
    if entry is None:
        return _idle(key, view)
    if key in (STEP_DOWN, STEP_UP):
        return entry.moved(1 if key == STEP_UP else -1, view), None
    if key == BACK:
        return entry.back(), None
    if key != CONFIRM:
        return entry, None
    following = entry.forward()
    return (following, None) if following is not None else (None, _command(entry, view))


def _idle(key: str, view: dict):
    if view["pending"]:
        return None, {"a": Command("allow"), "b": Command("counter")}.get(key)
    if key == "roll":
        return None, Command("roll")
    flow = STARTS.get(key)
    if flow is None or (FLOWS[flow][1] and not view["expert"]):
        return None, None
    fields = FLOWS[flow][2]
    if flow == "attack" and not targets(view):
        return None, None  # nobody may be attacked: the glass says so, and no choice would be taken
    return Entry(flow, fields, tuple(_start(f, view) for f in fields)), None


def _start(field: Field, view: dict) -> int:
    if field.name == "length":
        return 4 - field.first  # the board's own length, in the middle of the range
    return 0


def targets(view: dict) -> list[int]:
    """The players the turn's player may attack, from the seat after theirs on: the others still racing
    with no attack card in front of them, as the board shows (the rules' `targets`, read off the view).
    The target field steps through these, so the buttons never offer a player the rules would refuse."""
    players, turn = view["players"], view["turn"]
    order = [(turn + step) % players for step in range(1, players)]
    return [seat for seat in order if not view["pawns"][seat]["finished"] and view["front"][seat] is None]


def _command(entry: Entry, view: dict) -> Command:
    v = entry.chosen()
    if entry.flow == "place":
        return Command("play_section", {"length": v["length"], "slot": _slot(v)})
    if entry.flow == "discard":
        return Command("discard_section", {"length": v["length"]})
    if entry.flow == "attack":
        return Command("attack", {"card": ATTACKS[v["card"]], "target": _target(v["target"], view)})
    if entry.flow == "drop":
        return Command("discard_action", {"card": ACTIONS[v["card"]]})
    source = {"lane": v["from_lane"], "stage": v["from_stage"], "section": v["from_section"]}
    return Command("relocate", {"source": source, "slot": _slot(v)})


def _target(index: int, view: dict) -> int:
    """The seat the target field's `index` names; with nobody left to attack, the turn's own seat, which
    the rules refuse saying why (an attack can change the view while its input is open)."""
    choices = targets(view)
    return choices[index % len(choices)] if choices else view["turn"]


def _slot(v: dict) -> dict:
    return {"lane": v["lane"], "stage": v["stage"], "section": v["section"]}


def leds(entry: Entry, view: dict) -> list[int | None]:
    if entry.field.name == "target":  # the seat's own number, as its mark ❶–❺ says it
        return number_faces(_target(entry.values[entry.step], view) + 1)
    return number_faces(entry.shown)


def shown(entry: Entry, view: dict) -> dict:
    """The flow, the field being chosen and every value chosen so far (a card by name, a seat or a lane
    by letter)."""
    return {"flow": entry.flow, "step": entry.field.name,
            "values": {f.name: _shown(entry.flow, f, v, view) for f, v in
                       zip(entry.fields[:entry.step + 1], entry.values, strict=False)}}


def _shown(flow: str, field: Field, value: int, view: dict):
    if field.name == "card":
        return (ATTACKS if flow == "attack" else ACTIONS)[value]
    if field.name == "target":  # a seat by its letter, as the board
        return LETTERS[_target(value, view)]
    if field.name in ("lane", "from_lane"):
        return LETTERS[value]
    return value + field.first


CONTROLS = Controls(step, leds, shown)
