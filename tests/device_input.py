"""A game's buttons as the table steps them: the input in progress goes from one press to the next."""

from __future__ import annotations

HANDLED = "handled"  # a press that only moved the input along


class Device:
    """The controls of `spec` over a fixed public view, keeping the input in progress."""

    def __init__(self, spec, view: dict):
        self.controls, self.view, self.entry = spec.controls, view, None

    def press(self, key: str):
        """The command the press makes, HANDLED if it only moved the input, None if it was refused."""
        before = self.entry
        self.entry, command = self.controls.step(before, key, self.view)
        if command is not None:
            return command
        return HANDLED if self.entry != before else None

    def press_all(self, keys: str):
        """Press keys given as "a b b c"; returns the answer to the last one."""
        answer = None
        for key in keys.split():
            answer = self.press(key)
        return answer

    def leds(self):
        return self.controls.leds(self.entry, self.view) if self.entry is not None else None

    def shown(self):
        return self.controls.shown(self.entry, self.view) if self.entry is not None else None
