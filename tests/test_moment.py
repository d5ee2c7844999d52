"""The Moment is the outputs' whole view of the table: plain public data, a seat's secrets only through its
accessor, one identity per seat on every output, and no output module able to reach the session."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from companion.core import registry
from companion.core.moment import Moment, Moved, SeatSecrets, TableStatus
from companion.core.session import NEW_GAME, Setup
from companion.core.table import Table
from companion.gamekit.colours import SEAT_MARKS
from companion.gamekit.contract import Command, IllegalMove
from companion.gamekit.frame import PAWN_MARKS
from companion.outputs.public import public_payload
from companion.storage.store import Store

ROOT = Path(__file__).resolve().parent.parent
OUTPUTS = [ROOT / "companion" / "outputs", ROOT / "companion" / "devices"]
# What reaches a game's state or its secrets: the table's own update, the session and what rebuilds one.
REACHING = {"session", "latest", "state", "events", "snapshots"}
ASKING = {"private", "private_json", "private_view"}  # a seat's view made from the state
REBUILDING = {"Session", "Update", "replay", "advance", "walk", "rebuilder", "Snapshots", "moment_of"}


def output_modules() -> list[Path]:
    return sorted(p for folder in OUTPUTS for p in folder.rglob("*.py"))


@pytest.mark.parametrize("path", output_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_output_can_reach_the_session_or_a_games_state(path):
    """Secrecy is a type boundary: an output is handed Moments (and a seat's `SeatSecrets`), and nothing in
    it names what would lead from there, or from the table, to the session."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    reached = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)} & REACHING
    reached |= {node.func.attr for node in ast.walk(tree)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)} & ASKING
    imported = {alias.asname or alias.name for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom | ast.Import) for alias in node.names} & REBUILDING
    shown = path.relative_to(ROOT) if ROOT in path.parents else path
    assert not reached and not imported, (
        f"{shown} reaches {sorted(reached | imported)}: read the Moment (table.moment, or "
        "what a subscriber is handed) and, for a seat whose link was checked, moment.secrets.view(seat)")


def test_the_check_sees_a_module_that_reaches_the_session(tmp_path):
    leaking = tmp_path / "leak.py"
    leaking.write_text('"""A page that reads the session."""\n\n\ndef page(table):\n'
                       '    return table.latest.session.state\n')
    with pytest.raises(AssertionError, match="latest"):
        test_no_output_can_reach_the_session_or_a_games_state(leaking)


def plain(value, where: str) -> None:
    """`value` holds only what JSON holds, and the Moment's own small public types."""
    if value is None or isinstance(value, str | int | float | bool | IllegalMove | Moved):
        return
    if isinstance(value, TableStatus):
        return plain(dataclasses.asdict(value), where)
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str), f"{where}: key {key!r}"
            plain(item, f"{where}.{key}")
        return
    assert isinstance(value, list | tuple), f"{where} holds a {type(value).__name__}: {value!r}"
    for i, item in enumerate(value):
        plain(item, f"{where}[{i}]")


@pytest.fixture
def table(tmp_path):
    store = Store(tmp_path / "table.db")
    table = Table(store, Setup("dice")).start()
    assert table.call(Command("roll")).ok is not None
    yield table
    table.stop()
    store.close()


@pytest.mark.parametrize("game", sorted(registry.names()))
def test_every_field_of_a_games_moment_is_plain_public_data(table, game):
    assert table.call(Command(NEW_GAME, {"game": game})).ok
    moment = table.moment
    for field in dataclasses.fields(Moment):
        if field.name != "secrets":
            plain(getattr(moment, field.name), field.name)
    assert isinstance(moment.secrets, SeatSecrets)


def test_a_seats_secrets_give_its_view_and_nothing_else():
    secrets = SeatSecrets(lambda seat: {"hand": [seat]})
    assert secrets.view(2) == {"hand": [2]}
    assert [name for name in dir(secrets) if not name.startswith("_")] == ["view"]
    assert not hasattr(secrets, "__dict__")  # nothing can be hung on it, nor found on it


def test_a_seats_identity_is_the_same_on_every_output(table):
    assert table.call(Command(NEW_GAME, {"game": "schacht", "options": {"players": 4}})).ok
    table.seating(lambda roster, count: roster.claim(1, "Max", count))
    moment = table.moment
    assert [seat["mark"] for seat in moment.seats] == list(SEAT_MARKS) == list(PAWN_MARKS)
    shown = public_payload(moment, "fr")["seats"]
    for seat, page in zip(moment.seats, shown, strict=True):
        # the pages get the Moment's seat, its words translated: the same colour, mark and name
        assert (page["colour"], page["ink"], page["mark"], page["name"]) == \
            (seat["colour"], seat["ink"], seat["mark"], seat["name"])
    assert moment.seats[1]["name"] == "Max" and moment.seats[1]["phone"]
    assert not moment.seats[0]["phone"]  # nobody holds it: the buttons play it


def test_the_moment_is_built_once_per_update_and_every_subscriber_gets_that_one(table):
    told: list[list[Moment]] = [[], []]
    table.subscribe(told[0].append)
    table.subscribe(told[1].append)
    assert table.call(Command("roll")).ok
    assert len(told[0]) == 1 and told[0][0] is told[1][0] is table.moment
