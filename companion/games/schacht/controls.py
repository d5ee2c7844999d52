"""Buttons-only Crazy Race: sides, values, loco choices and "?" splits entered with A-D and ROLL.

Bidding: A-D choose a side (A top, B right, C bottom, D left); the LED dice show a value, ROLL steps
it to the next driver value; the chosen side's button again places the card. A long ROLL passes.
A winner's move: A-C add one space to loco A-C (a free side with a number: choose the loco); D clears;
ROLL confirms. Take-back: ROLL shows the cards played one by one, A takes the one shown back, a long ROLL
keeps none. Between stages ROLL turns the next stage card. A long B recalls the discards of the seat
to play. A long A cancels an input in progress. (A long D is the table's: a new host link.)
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.gamekit import Command, Controls, Entry, Field, number_faces

SIDE_KEYS = ("a", "b", "c", "d")
LOCO_KEYS = {"a": "A", "b": "B", "c": "C"}
PLACE = (Field("side", 4, first=0), Field("value", lambda view: len(view["values"]), first=0))
TAKE_BACK = (Field("card", lambda view: len(_take_back_cards(view)), first=0),)


@dataclass(frozen=True)
class Split:
    """A winner's move being entered: (loco, spaces) in the order the locos were first pressed."""

    moves: tuple[tuple[str, int], ...] = ()

    @property
    def given(self) -> int:
        return sum(steps for _, steps in self.moves)

    def plus(self, loco: str) -> Split:
        if any(name == loco for name, _ in self.moves):
            return Split(tuple((name, steps + (name == loco)) for name, steps in self.moves))
        return Split((*self.moves, (loco, 1)))


def _take_back_cards(view: dict) -> list[int]:
    return (view["takeback"] or [{}])[0].get("cards") or []


def step(entry, key: str, view: dict):
    """(input in progress, key, public view) -> (input in progress, command or None)."""
    if key == "b:hold":
        return None, Command("recall")
    if key == "a:hold":
        return None, None  # cancels the input; refused (unchanged) when there is none
    phase = view["phase"]
    if phase == "bid":
        return _bid(entry, key, view)
    if phase == "decide":
        return _decide(entry, key, view)
    if phase == "takeback":
        return _take_back(entry, key, view)
    if phase == "review" and key == "roll":
        return None, Command("next")
    return entry, None


def _bid(entry, key: str, view: dict):
    if key == "roll:hold":
        return None, Command("pass")
    if key in SIDE_KEYS:
        side = SIDE_KEYS.index(key)
        if side not in view["open"]:
            return entry, None
        if isinstance(entry, Entry) and entry.flow == "place" and entry.values[0] == side:
            return None, Command("place", {"side": side, "value": view["values"][entry.values[1]]})
        return Entry("place", PLACE, (side, 0), step=1), None
    if key == "roll" and isinstance(entry, Entry) and entry.flow == "place":
        return entry.moved(1, view), None
    return entry, None


def _decide(entry, key: str, view: dict):
    deciding = view["deciding"]
    split = entry if isinstance(entry, Split) else Split()
    if key in LOCO_KEYS:
        loco = LOCO_KEYS[key]
        if loco not in deciding["locos"]:
            return entry, None
        if not deciding["split"]:
            return Split(((loco, deciding["steps"]),)), None
        if split.given >= deciding["steps"]:
            return entry, None
        return split.plus(loco), None
    if key == "d":
        return None, None
    if key == "roll" and split.moves:
        moves = [{"loco": loco, "steps": steps} for loco, steps in split.moves]
        return None, Command("move", {"moves": moves})
    return entry, None


def _take_back(entry, key: str, view: dict):
    cards = _take_back_cards(view)
    browsing = isinstance(entry, Entry) and entry.flow == "take_back"
    if key == "roll:hold":
        return None, Command("take_back", {"value": None})
    if key == "roll" and cards:
        return (entry.moved(1, view) if browsing else Entry("take_back", TAKE_BACK, (0,))), None
    if key == "a" and cards and browsing:
        return None, Command("take_back", {"value": cards[entry.values[0] % len(cards)]})
    return entry, None


def leds(entry, view: dict) -> list[int | None] | None:
    """The value being chosen, the spaces still to share, or the take-back card shown."""
    if isinstance(entry, Split):
        deciding = view["deciding"] or {}
        return number_faces(deciding.get("steps", 0) - entry.given)
    if isinstance(entry, Entry) and entry.flow == "place":
        return number_faces(view["values"][entry.values[1] % len(view["values"])])
    if isinstance(entry, Entry) and entry.flow == "take_back":
        cards = _take_back_cards(view)
        return number_faces(cards[entry.values[0] % len(cards)]) if cards else None
    return None


def shown(entry, view: dict) -> dict | None:
    """The side being chosen, or the loco split being made (public once played); never a bid's value."""
    if isinstance(entry, Entry) and entry.flow == "place":
        return {"side": entry.values[0]}
    if isinstance(entry, Split):
        return {"split": [list(move) for move in entry.moves]}
    return None


CONTROLS = Controls(step, leds, shown)
