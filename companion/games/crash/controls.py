"""Buttons of Crash!: ROLL rolls; A-C take a steering die, then A turns left, B right, C moves; D confirms.

Steering: A, B or C takes die 1, 2 or 3 (a free die whose car is in play). Then A turns the car one
edge anticlockwise, B one edge clockwise (press again for more), C chooses a move forward; D confirms
and ROLL drops the die. D with no die taken ends the turn; while a free die is left the first D only
asks (the LEDs go dark) and a second D ends. Dice only: A starts marking a car out (seat, car, where:
A and B step the value, D confirms each, ROLL steps back). Game over: ROLL starts the match's next game.
A long press on D is the table's (a new host link): no input here uses it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.gamekit import Command, Controls, Entry, Field
from companion.games.crash.board import DIRECTIONS

DIE_KEYS = ("a", "b", "c")
LEFT, RIGHT, FORWARD, CONFIRM, CANCEL = "a", "b", "c", "d", "roll"
STEP_DOWN, STEP_UP = "a", "b"
# Where a car marked out went: off the board (nobody's), or into seat 0's or seat 1's junkyard.
MARK_OUT = (Field("seat", 2), Field("car", 6), Field("where", 3))


@dataclass(frozen=True)
class Steer:
    """A die taken: the car it steers, then a turn (edges clockwise, 1-5) or a move chosen."""

    die: int
    car: int
    turn: int = 0
    move: bool = False


@dataclass(frozen=True)
class Ending:
    """D pressed while a free die is left: D again ends the turn."""


def dice_shown(view: dict) -> list[int | None]:
    """The steering dice a player can still use, rerolls included; used and lost dice are dark."""
    return [d["value"] if d["state"] == "free" and (d["usable"] or view["mode"] == "dice") else None
            for d in view["dice"]]


def step(entry, key: str, view: dict):
    """(input in progress, key, public view) -> (input in progress, command or None)."""
    if key.endswith(":hold"):  # no long press here: a long D is the table's, the others mean nothing
        return entry, None
    if view["phase"] == "over":
        return None, Command("next_game") if key == "roll" and "next_game" in view["legal"] else None
    if isinstance(entry, Entry):
        return _marking(entry, key, view)
    if isinstance(entry, Steer):
        return _steering(entry, key, view)
    if isinstance(entry, Ending):
        if key == CONFIRM:
            return None, Command("end")
        if key == CANCEL:
            return None, None
    return _idle(key, view)


def _idle(key: str, view: dict):
    legal = view["legal"]
    if key == "roll":
        return None, Command("roll") if "roll" in legal else None
    if view["mode"] == "dice":
        if key == "a" and "mark_out" in legal:
            return Entry("mark_out", MARK_OUT, (0, 0, 0)), None
        return None, Command("end") if key == CONFIRM and "end" in legal else None
    if view["phase"] != "steer":
        return None, None
    if key in DIE_KEYS:
        die = view["dice"][DIE_KEYS.index(key)]
        return (Steer(DIE_KEYS.index(key), die["value"]) if die["usable"] else None), None
    if key == CONFIRM:
        if any(d["usable"] for d in view["dice"]):
            return Ending(), None
        return None, Command("end")
    return None, None


def facing_of(view: dict, car: int) -> int:
    """The facing (an index into DIRECTIONS) of the acting player's car `car`."""
    found = next(c for c in view["cars"] if c["seat"] == view["turn"] and c["car"] == car)
    return DIRECTIONS.index(found["facing"])


def _steering(entry: Steer, key: str, view: dict):
    if key == CANCEL:
        return None, None
    if key == FORWARD:
        return Steer(entry.die, entry.car, move=True), None
    if key in (LEFT, RIGHT):
        turn = (entry.turn + (1 if key == RIGHT else -1)) % 6
        # With 60-degree turns a die turns one edge: a second press the same way is refused.
        if view["sixty"] and turn not in (0, 1, 5):
            return entry, None
        return Steer(entry.die, entry.car, turn), None
    if key != CONFIRM:
        return entry, None
    car = {"car": entry.car}
    if entry.move:
        return None, Command("move", car)
    if entry.turn:
        facing = DIRECTIONS[(facing_of(view, entry.car) + entry.turn) % 6]
        return None, Command("turn", car | {"facing": facing})
    return entry, None  # nothing chosen yet: nothing to confirm


def _marking(entry: Entry, key: str, view: dict):
    if key in (STEP_DOWN, STEP_UP):
        return entry.moved(1 if key == STEP_UP else -1, view), None
    if key == CANCEL:
        return entry.back(), None
    if key != CONFIRM:
        return entry, None
    following = entry.forward()
    if following is not None:
        return following, None
    seat, car, where = entry.values
    return None, Command("mark_out", {"owner": seat, "car": car + 1, "by": None if where == 0 else where - 1})


def leds(entry, view: dict) -> list[int | None]:
    """Steering: die 1 the car, die 2 its new facing (1 north, clockwise to 6 north-west), all three the
    car for a move. Ending: dark. Marking out: seat (1-2), car, where (1 off the board, 2-3 a junkyard)."""
    if isinstance(entry, Steer):
        if entry.move:
            return [entry.car] * 3
        if entry.turn:
            return [entry.car, (facing_of(view, entry.car) + entry.turn) % 6 + 1]
        return [entry.car]
    if isinstance(entry, Entry):
        return [value + 1 for value in entry.values[:entry.step + 1]]
    return []


def shown(entry, view: dict) -> dict | None:
    """The input in progress, for the e-ink (Crash! has no secrets)."""
    if isinstance(entry, Steer):
        facing = DIRECTIONS[(facing_of(view, entry.car) + entry.turn) % 6] if entry.turn else None
        return {"steer": {"die": entry.die, "car": entry.car, "facing": facing, "move": entry.move}}
    if isinstance(entry, Ending):
        return {"ending": True}
    if isinstance(entry, Entry):
        return {"mark_out": dict(zip(("seat", "car", "where"), entry.values, strict=True)),
                "step": entry.field.name}
    return None


CONTROLS = Controls(step, leds, shown)
