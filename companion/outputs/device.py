"""The device's own outputs of each Moment: the LED dice at once, the e-ink's frame on its own thread."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Protocol

from companion.core.moment import Moment
from companion.core.session import NEW_GAME


class Dice(Protocol):
    def show(self, faces: list[int | None]) -> None: ...
    def roll(self, faces: list[int | None]) -> None: ...


class Glass(Protocol):
    def offer(self, key: Any, play: bool = False, must: bool = False) -> None: ...


class DeviceOutput:
    """Shows each Moment on the LED dice and offers its frame to the e-ink (the refresher draws it on its own
    thread; the latest frame wins). `board()` and `glass()` are read at each Moment: the simulator and the
    tests may change them before the table starts. `language()` is the glass's language; `notice(language)`
    the line the frame adds under the game ("" for none: the venue reachable, or no venue)."""

    def __init__(self, board: Callable[[], Any], glass: Callable[[], Glass], language: Callable[[], str],
                 notice: Callable[[str], str] = lambda _language: ""):
        self.board, self.glass, self.language, self.notice = board, glass, language, notice
        self._state_at = ""  # when the table reached the state the e-ink shows ("21:04")
        self._state_version = -1  # ... and its version

    def __call__(self, moment: Moment) -> None:
        """On the table thread, after each durable command, press, seat or status change: LEDs at once, the
        e-ink on its own thread; a refused press blinks, a refused command shows nothing."""
        if moment.game is None:
            return
        if moment.rejected is not None:
            if moment.pressed is not None:
                self.show(moment)
                self.board().reject()
            return
        self.show(moment)

    def show(self, moment: Moment) -> None:
        """The LED dice and the e-ink for `moment`, with the button input in progress if any."""
        dice = self.board().dice
        if moment.rolled:
            dice.roll(list(moment.dice))
        else:
            dice.show(list(moment.dice))
        self.frame(moment)

    def frame(self, moment: Moment) -> None:
        """Offer the e-ink the frame of `moment`."""
        from companion.outputs.frames import table_info

        # A move or a button input in a game under way may go at the panel's fast speed; a new game's
        # join screen, an ended game and a seat change go at its normal one.
        moved = moment.command is not None and moment.command.kind != NEW_GAME
        play = (moved or moment.entering) and not moment.over
        if moment.version != self._state_version or not self._state_at:
            # the frame states when the game reached this state: a seat change, or the same state drawn
            # again for a new address, does not move it
            self._state_at, self._state_version = time.strftime("%H:%M"), moment.version
        # The venue's reachability rides on a frame drawn anyway: its change alone offers none (the wear).
        language = self.language()
        info = table_info(moment, moment.status.url, wifi=moment.status.wifi, at=self._state_at,
                          notice=self.notice(language))
        self.glass().offer((moment.game, moment.public, info, language), play, must_see(moment))


def must_see(moment: Moment) -> bool:
    """Whether the frame of `moment` goes at the next refresh the wear budget allows: it shows what the
    rules say the table must see, or no phone plays a seat, so the glass is the table's only display."""
    return moment.must_see or not any(seat["phone"] for seat in moment.seats if seat["in_game"])
