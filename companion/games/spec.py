"""What a game registers to plug into the table: pure rules, views, screen, buttons."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

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

    `seat` is None for the table itself (buttons, host); `args` is plain JSON.
    """

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None


@dataclass(frozen=True)
class GameSpec:
    """A game, as the table sees it. Every callable is pure: no I/O, clock or global random.

    - setup(options, draws) -> state
    - apply(state, command, draws) -> (state, events); raises IllegalMove
    - legal(state, seat) -> list of command kinds that seat may send now
    - public_view(state) -> dict safe for the e-ink, LEDs and every phone
    - private_view(state, seat) -> dict for that seat's phone only
    - screen(public_view, canvas, tr) draws the e-ink frame
    - buttons: button name -> function(public_view) -> Command | None
    - dice_shown(public_view) -> list of die faces the LED dice hold
    """

    name: str
    title: str  # msgid
    setup: Callable[[Mapping[str, Any], Any], State]
    apply: Callable[[State, Command, Any], tuple[State, list[dict]]]
    legal: Callable[[State, int | None], list[str]]
    public_view: Callable[[State], View]
    private_view: Callable[[State, int], View]
    screen: Callable[..., None]
    buttons: Mapping[str, Callable[[View], Command | None]]
    dice_shown: Callable[[View], list[int]]
    seats: tuple[int, int] = (0, 0)  # min, max players with a private page
    options: type | None = None  # msgspec.Struct validating the setup options
