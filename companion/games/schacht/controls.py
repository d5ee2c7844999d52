"""Buttons-only Crazy Race: sides, values, loco choices and "?" splits entered with A-D and ROLL.

Bidding: A-D choose a side (A top, B right, C bottom, D left); the LED dice show a value, ROLL steps
it to the next driver value; the chosen side's button again places the card. A long ROLL passes.
A winner's move: A-C add one space to loco A-C (a free side with a number: choose the loco); D clears;
ROLL confirms. Take-back: ROLL shows the cards played one by one, A takes the one shown back, a long ROLL
keeps none. Between stages ROLL turns the next stage card. A long B recalls the discards of the seat
to play. A long A cancels an input in progress. (A long D is the table's: a new host link.)
"""

from __future__ import annotations

from companion.games.spec import HANDLED, Command

SIDE_KEYS = ("a", "b", "c", "d")
LOCO_KEYS = {"a": "A", "b": "B", "c": "C"}
DIE_MAX = 6
BROWSING = -1  # `side` while a take-back card is being chosen


def number_faces(n: int) -> list[int]:
    """A number on the LED dice: one die up to 6, then 6 plus a second die (7 = 6+1, 12 = 6+6); 0 is dark."""
    faces = []
    while n > 0:
        faces.append(min(n, DIE_MAX))
        n -= DIE_MAX
    return faces


def _moment(view: dict) -> tuple:
    """What an input belongs to: once the view moves on (another command came), the input is stale."""
    return (view.get("stage"), view.get("phase"), view.get("round"), view.get("turn"),
            len(view.get("revealed") or ()), sum(len(b) for b in view.get("bids") or ()))


class SchachtControls:
    """The device's input in progress; never recorded, never shown beyond its public part."""

    def __init__(self):
        self._reset(None)

    def _reset(self, moment) -> None:
        self.moment = moment
        self.side: int | None = None
        self.value_index = 0
        self.split: list[list] = []  # [[loco, steps], ...] in the order first pressed

    def _fresh(self, view: dict) -> None:
        moment = _moment(view)
        if moment != self.moment:
            self._reset(moment)

    def press(self, key: str, view: dict):
        self._fresh(view)
        phase = view.get("phase")
        if key == "b:hold":
            return Command("recall")
        if key == "a:hold":
            busy = self.side is not None or self.split or self.value_index
            self._reset(self.moment)
            return HANDLED if busy else None
        if phase == "bid":
            return self._bid(key, view)
        if phase == "decide":
            return self._decide(key, view)
        if phase == "takeback":
            return self._take_back(key, view)
        if phase == "review" and key == "roll":
            return Command("next")
        return None

    def _bid(self, key: str, view: dict):
        values = view["values"]
        if key == "roll:hold":
            self._reset(self.moment)
            return Command("pass")
        if key in SIDE_KEYS:
            side = SIDE_KEYS.index(key)
            if side not in view.get("open", []):
                return None
            if self.side == side:
                value = values[self.value_index % len(values)]
                self._reset(self.moment)
                return Command("place", {"side": side, "value": value})
            self.side = side
            return HANDLED
        if key == "roll" and self.side is not None:
            self.value_index = (self.value_index + 1) % len(values)
            return HANDLED
        return None

    def _decide(self, key: str, view: dict):
        deciding = view.get("deciding") or {}
        if key in LOCO_KEYS:
            loco = LOCO_KEYS[key]
            if loco not in deciding.get("locos", []):
                return None
            if not deciding.get("split"):
                self.split = [[loco, deciding["steps"]]]
                return HANDLED
            if sum(s for _, s in self.split) >= deciding["steps"]:
                return None
            for entry in self.split:
                if entry[0] == loco:
                    entry[1] += 1
                    break
            else:
                self.split.append([loco, 1])
            return HANDLED
        if key == "d":
            self.split = []
            return HANDLED
        if key == "roll" and self.split:
            moves = [{"loco": loco, "steps": steps} for loco, steps in self.split]
            self._reset(self.moment)
            return Command("move", {"moves": moves})
        return None

    def _take_back(self, key: str, view: dict):
        cards = (view.get("takeback") or [{}])[0].get("cards") or []
        if key == "roll:hold":
            return Command("take_back", {"value": None})
        if key == "roll" and cards:
            if self.side == BROWSING:
                self.value_index = (self.value_index + 1) % len(cards)
            self.side = BROWSING
            return HANDLED
        if key == "a" and cards and self.side == BROWSING:
            value = cards[self.value_index % len(cards)]
            self._reset(self.moment)
            return Command("take_back", {"value": value})
        return None

    def leds(self, view: dict) -> list[int] | None:
        self._fresh(view)
        phase = view.get("phase")
        if phase == "bid" and self.side is not None:
            values = view["values"]
            return number_faces(values[self.value_index % len(values)])
        if phase == "decide" and self.split:
            deciding = view.get("deciding") or {}
            return number_faces(deciding.get("steps", 0) - sum(s for _, s in self.split))
        if phase == "takeback" and self.side == BROWSING:
            cards = (view.get("takeback") or [{}])[0].get("cards") or []
            return number_faces(cards[self.value_index % len(cards)]) if cards else None
        return None

    def entry(self, view: dict) -> dict | None:
        """The side being chosen, or the loco split being made (public once played); never a bid's value."""
        self._fresh(view)
        phase = view.get("phase")
        if phase == "bid" and self.side is not None:
            return {"side": self.side}
        if phase == "decide" and self.split:
            return {"split": [list(s) for s in self.split]}
        return None


def dice_shown(view: dict) -> list[int]:
    """Nothing is rolled in Crazy Race: the LED dice stay dark outside an input."""
    return []
