"""Buttons of Crazy Race: ROLL rolls; A, B, C start a card input chosen step by step on the LED dice."""

from __future__ import annotations

from dataclasses import dataclass

from companion.games.gewalt.commands import LANES, SECTIONS, STAGES
from companion.games.gewalt.data import ACTIONS, ATTACKS, MAX_LENGTH
from companion.games.spec import HANDLED, Command


@dataclass(frozen=True)
class Field:
    """One value of an input: its name, how many choices, and the number the first choice shows."""

    name: str
    choices: object  # an int, or a function of the view
    first: int = 1


LANE, STAGE, SECTION = Field("lane", LANES), Field("stage", STAGES), Field("section", SECTIONS)
FLOWS = {
    # flow: (the key that starts it, whether it needs the expert game, its fields)
    "place": ("a", False, (LANE, STAGE, SECTION, Field("length", MAX_LENGTH + 1, first=0))),
    "discard": ("a:hold", False, (Field("length", MAX_LENGTH + 1, first=0),)),
    "attack": ("b", True, (Field("card", len(ATTACKS)), Field("target", lambda view: view["players"]))),
    "drop": ("b:hold", True, (Field("card", len(ACTIONS)),)),
    "relocate": ("c", True, (Field("from_lane", LANES), Field("from_stage", STAGES),
                             Field("from_section", SECTIONS), LANE, STAGE, SECTION)),
}
STARTS = {key: flow for flow, (key, _, _) in FLOWS.items()}
STEP_DOWN, STEP_UP, CONFIRM, BACK = "a", "b", "c", "d"


def number_faces(n: int) -> list[int | None]:
    """A number 0-12 on two LED dice: 1-6 on the first die, 7-12 as 6 plus the second; 0 is dark."""
    if n <= 0:
        return [None, None]
    return [n, None] if n <= 6 else [6, n - 6]


def dice_shown(view: dict) -> list[int]:
    roll = view.get("last_roll")
    return list(roll["dice"]) if roll else []


class RaceControls:
    """The device's input in progress: which flow, which field, the values chosen so far."""

    def __init__(self):
        self.flow: str | None = None
        self.values: list[int] = []
        self.step = 0
        self.moment: tuple | None = None  # (moves, actor) when the input began

    def press(self, key: str, view: dict):
        if self.flow is not None and self.moment != _moment(view):
            self._reset()  # another command changed the game under the input
        if view.get("over") or view.get("actor") is None:
            return None
        if self.flow is None:
            return self._idle(key, view)
        return self._entering(key, view)

    def leds(self, view: dict) -> list[int | None] | None:
        if self.flow is None or self.moment != _moment(view):
            return None
        field = self._fields[self.step]
        return number_faces(self.values[self.step] + field.first)

    def entry(self, view: dict) -> dict | None:
        if self.flow is None or self.moment != _moment(view):
            return None
        fields = self._fields
        return {"flow": self.flow, "step": fields[self.step].name,
                "values": {f.name: self._shown(f, v) for f, v in zip(fields[:self.step + 1], self.values,
                                                                     strict=False)}}

    # --- internals ----------------------------------------------------------------------------
    @property
    def _fields(self) -> tuple[Field, ...]:
        return FLOWS[self.flow][2]

    def _idle(self, key: str, view: dict):
        if view.get("pending"):
            return {"a": Command("allow"), "b": Command("counter")}.get(key)
        if key == "roll":
            return Command("roll")
        flow = STARTS.get(key)
        if flow is None or (FLOWS[flow][1] and not view.get("expert")):
            return None
        self.flow, self.step, self.moment = flow, 0, _moment(view)
        self.values = [self._start(f, view) for f in self._fields]
        return HANDLED

    def _start(self, field: Field, view: dict) -> int:
        if field.name == "length":
            return 4 - field.first  # the board's own length, in the middle of the range
        if field.name == "target":
            return (view["turn"] + 1) % view["players"]
        return 0

    def _entering(self, key: str, view: dict):
        field = self._fields[self.step]
        count = field.choices(view) if callable(field.choices) else field.choices
        if key in (STEP_DOWN, STEP_UP):
            self.values[self.step] = (self.values[self.step] + (1 if key == STEP_UP else -1)) % count
            return HANDLED
        if key == BACK:
            if self.step == 0:
                self._reset()
            else:
                self.step -= 1
            return HANDLED
        if key != CONFIRM:
            return None
        if self.step + 1 < len(self._fields):
            self.step += 1
            return HANDLED
        command = self._command()
        self._reset()
        return command

    def _command(self) -> Command:
        v = dict(zip((f.name for f in self._fields), self.values, strict=True))
        if self.flow == "place":
            return Command("play_section", {"length": v["length"], "slot": _slot(v)})
        if self.flow == "discard":
            return Command("discard_section", {"length": v["length"]})
        if self.flow == "attack":
            return Command("attack", {"card": ATTACKS[v["card"]], "target": v["target"]})
        if self.flow == "drop":
            return Command("discard_action", {"card": ACTIONS[v["card"]]})
        source = {"lane": v["from_lane"], "stage": v["from_stage"], "section": v["from_section"]}
        return Command("relocate", {"source": source, "slot": _slot(v)})

    def _shown(self, field: Field, value: int):
        if field.name == "card":
            return (ATTACKS if self.flow == "attack" else ACTIONS)[value]
        if field.name == "target":
            return "ABCDE"[value]
        return value + field.first

    def _reset(self) -> None:
        self.flow, self.values, self.step, self.moment = None, [], 0, None


def _moment(view: dict) -> tuple:
    return view.get("moves"), view.get("actor")


def _slot(v: dict) -> dict:
    return {"lane": v["lane"], "stage": v["stage"], "section": v["section"]}
