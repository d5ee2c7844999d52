"""The platform's own commands (new game, play again, undo, end game) as the record holds them, and the
arguments of every command made exactly what a replay will read."""

from __future__ import annotations

import json
from collections.abc import Mapping

from companion.core.session import END_GAME, NEW_GAME, UNDO, Session, Setup
from companion.gamekit.contract import Command, IllegalMove


def recorded_args(command: Command, session: Session | None, setup: Setup, version: int) -> dict:
    """The args exactly as the record will hold them (tuples as lists, keys as text, no NaN), so a replay
    sees the same args; a new game's are completed from the table's settings (`setup`), an undo's checked
    against the table's `version`. Raises IllegalMove for a malformed command."""
    if command.seat is not None and type(command.seat) is not int:
        raise IllegalMove("Malformed command: the seat must be a seat number.")
    if not isinstance(command.args, Mapping):
        raise IllegalMove("Malformed command: its arguments must be a JSON object.")
    try:
        args = json.loads(json.dumps(dict(command.args), sort_keys=True, allow_nan=False))
    except (TypeError, ValueError):
        raise IllegalMove("Malformed command: its arguments must be a JSON object.") from None
    if command.kind == NEW_GAME and args == {"again": True}:
        # Play again: the running game's own setup (game, options, data files), recorded in full; the
        # seats and their links are the roster's and stay as they are.
        if session is None or not session.started:
            raise IllegalMove("No game to play again: start one first.")
        return setup.new_game(dict(session.started))
    if command.kind == NEW_GAME:
        return setup.new_game(args)
    if command.kind == UNDO and set(args) == {"expect"} and type(args["expect"]) is int:
        # The host confirmed taking back what the table showed at that version: not a later move.
        if args["expect"] != version:
            raise IllegalMove("The table moved on since you confirmed: check what Undo would take back now, "
                              "and confirm again.")
        return args
    if command.kind in (UNDO, END_GAME) and args:
        raise IllegalMove("{kind} takes no arguments: send it with none.", kind=command.kind)
    if command.kind == END_GAME:
        return setup.new_game({"game": setup.idle})
    return args
