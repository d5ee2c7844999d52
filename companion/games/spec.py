"""What a game registers to plug into the table: pure rules, views, screen, controls."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

State = Any
View = dict


class IllegalMove(Exception):
    """A command the rules refuse. The message is shown to players, so it names no secret.

    `message` is an English msgid from the gettext catalogs; `params` fill its `{}` fields.
    """

    def __init__(self, message: str, **params):
        super().__init__(message.format(**params) if params else message)
        self.msgid = message
        self.params = params


@dataclass(frozen=True)
class Command:
    """One input: a button, a phone or the command line asked the table for something.

    `seat` is None for the table itself (device buttons, host): such a command acts for whoever's
    turn it is. A seat's phone sends its own seat number, and the rules refuse it out of turn.
    `args` is plain JSON.
    """

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None


@dataclass(frozen=True)
class Colour:
    """A seat's colour: `key` for code and CSS, `label` a msgid, `ink` an sRGB hex for pages."""

    key: str
    label: str
    ink: str


@dataclass(frozen=True)
class TableInfo:
    """What a screen may show besides the game's public view.

    `names[seat]` is the name a phone chose for that seat ("" if none); `entry` is the public part of
    a button input in progress (from the controller), never a secret value.
    """

    url: str
    join_code: str = ""
    names: tuple[str, ...] = ()
    entry: Mapping[str, Any] | None = None


HANDLED = object()
"""A controller's answer to a press that only moved its own input along (no command yet)."""


class Controller(Protocol):
    """The device-side button flow of one game: a small state machine owned by the daemon.

    The table does not know it: what it holds is neither recorded nor shown to phones. It lets a
    player enter a multi-step choice (a side, then a value) before one command goes to the table.
    """

    def press(self, key: str, view: View) -> Command | object | None:
        """`key` is "a".."d" or "roll", with ":hold" for a long press. Returns a Command to submit,
        HANDLED when the press only moved the input along, or None to refuse it (the device blinks)."""

    def leds(self, view: View) -> list[int | None] | None:
        """Faces for the LED dice while an input is in progress (e.g. a value being chosen), else None.
        A None face leaves that die dark (0 would light no pip either, but reads as a value)."""

    def entry(self, view: View) -> Mapping[str, Any] | None:
        """The public part of the input in progress, for the e-ink (e.g. which side), else None."""


class ButtonMap:
    """The simplest controller: each key maps straight to a command made from the public view."""

    def __init__(self, keys: Mapping[str, Callable[[View], Command | None]]):
        self.keys = keys

    def press(self, key: str, view: View) -> Command | None:
        make = self.keys.get(key)
        return make(view) if make else None

    def leds(self, view: View) -> None:
        return None

    def entry(self, view: View) -> None:
        return None


@dataclass(frozen=True)
class GameSpec:
    """A game, as the table sees it. Every callable is pure: no I/O, clock or global random.

    - setup(options, draws) -> state; options are `options` (a msgspec.Struct) as builtins
    - apply(state, command, draws) -> (state, events); raises IllegalMove
    - legal(state, seat) -> list of command kinds that seat (None: the table) may send now
    - public_view(state) -> dict safe for the e-ink, LEDs and every phone
    - private_view(state, seat) -> dict for that seat's phone only
    - screen(public_view, canvas, tr, table_info) draws the e-ink frame
    - controls() -> a new Controller for the device's buttons
    - dice_shown(public_view) -> list of die faces the LED dice hold
    - colours: the seats' colours, in seat order; a game with seats reads how many are in play
      from its `players` option
    - history_lines: each command kind's line in the public history, a msgid with `{who}` for
      the player who acted (a kind not listed shows as its name)
    """

    name: str
    title: str  # msgid
    setup: Callable[[Mapping[str, Any], Any], State]
    apply: Callable[[State, Command, Any], tuple[State, list[dict]]]
    legal: Callable[[State, int | None], list[str]]
    public_view: Callable[[State], View]
    private_view: Callable[[State, int], View]
    screen: Callable[..., None]
    controls: Callable[[], Controller]
    dice_shown: Callable[[View], list[int]]
    seats: tuple[int, int] = (0, 0)  # min, max players with a private page
    options: type | None = None  # msgspec.Struct validating the setup options
    colours: tuple[Colour, ...] = ()
    history_lines: Mapping[str, str] = field(default_factory=dict)

    def seats_in_play(self, options: Mapping[str, Any]) -> int:
        """How many seats this game has, from its options (its `players`, else the most it allows)."""
        return int(options.get("players", self.seats[1]))
