"""The table: one writer applies commands in order, records them, and only then tells the outputs."""

from __future__ import annotations

import json
import sqlite3
import threading
from contextlib import contextmanager

import msgspec
import pytest
from webfixtures import game_spec, plug_game

from companion.core.moment import Moment, Moved
from companion.core.seats import MAX_SEATS
from companion.core.session import NEW_GAME, UNDO, UNDO_IN_MEMORY, Setup, replay
from companion.core.table import SAVE_FAILED, Table, Update
from companion.gamekit.contract import Command, IllegalMove, Move, Views
from companion.storage.store import Record, Store, StoreError

EMPTY_THREE = {"count": 3, "last": [], "total": 0, "rolls": 0, "history": []}


@pytest.fixture
def db(tmp_path):
    return tmp_path / "state" / "table.db"


@contextmanager
def running(path, **kwargs):
    """A started Table on a real Store at `path`, stopped and closed afterwards."""
    store = Store(path)
    table = Table(store, **kwargs).start()
    try:
        settle(table)
        yield table
    finally:
        table.stop()
        store.close()


@pytest.fixture
def table(db):
    with running(db) as t:
        yield t


def settle(table: Table) -> None:
    """Wait until every command queued so far is applied (a refused no-op goes through the same queue)."""
    assert not table.call(Command("no_such_command")).ok


def stored(path) -> list[tuple[int, str]]:
    """(version, kind) of every record, read through a connection of our own."""
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT version, kind FROM records ORDER BY version").fetchall()
    finally:
        con.close()


def roll(table: Table) -> list[int]:
    result = table.call(Command("roll"))
    assert result.ok, result.error
    return table.latest.public["last"]


def replayed_view(table: Table) -> dict:
    session, version = replay(table.store.records_since_last(NEW_GAME))
    assert version == table.version
    return session.spec.public_json(session.state)


# --- start -------------------------------------------------------------------------------
def test_start_opens_the_default_game_once(table, db):
    assert table.version == 1
    assert table.latest.game == "dice"
    assert table.latest.public == {"count": 2, "last": [], "total": 0, "rolls": 0, "history": []}
    assert stored(db) == [(1, NEW_GAME)]


def test_default_options_are_used_for_the_first_game(db):
    with running(db, setup=Setup(options={"dice": {"count": 3}})) as table:
        assert table.latest.public == EMPTY_THREE


# --- order -------------------------------------------------------------------------------
def test_commands_from_many_threads_apply_one_by_one_without_gaps(table, db):
    threads, per_thread = 8, 25
    results: dict[int, list] = {}
    start = threading.Barrier(threads)
    seen: list[int] = []
    table.subscribe(lambda update: seen.append(update.version) if update.rejected is None else None)

    def player(n: int) -> None:
        commands = [Command("roll") if i % 3 else Command("set_dice", {"count": (n + i) % 3 + 1})
                    for i in range(per_thread)]
        start.wait()
        futures = [(c, table.submit(c)) for c in commands]
        results[n] = [(c, f.result(10)) for c, f in futures]

    workers = [threading.Thread(target=player, args=(n,)) for n in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join(30)
    assert len(results) == threads

    total = threads * per_thread
    versions = [r.version for rs in results.values() for _, r in rs]
    assert all(r.ok for rs in results.values() for _, r in rs)
    assert sorted(versions) == list(range(2, total + 2))
    for rs in results.values():  # one thread's commands keep their order
        mine = [r.version for _, r in rs]
        assert mine == sorted(mine)
    assert [v for v, _ in stored(db)] == list(range(1, total + 2))
    assert seen == list(range(2, total + 2))
    assert table.version == total + 1

    by_version = {r.version: c for rs in results.values() for c, r in rs}
    for rec in table.store.records_since_last(NEW_GAME)[1:]:
        assert (rec.kind, rec.args) == (by_version[rec.version].kind, dict(by_version[rec.version].args))
    assert table.latest.public["rolls"] == sum(1 for c in by_version.values() if c.kind == "roll")
    assert table.latest.public == replayed_view(table)


# --- refusals ----------------------------------------------------------------------------
BAD_COUNT = "Command set_dice: argument 'count' is not valid"
ILLEGAL = [
    pytest.param(Command("set_dice", {"count": 0}), BAD_COUNT, id="zero"),
    pytest.param(Command("set_dice", {"count": 4}), BAD_COUNT, id="four"),
    pytest.param(Command("set_dice", {"count": "x"}), BAD_COUNT, id="text"),
    pytest.param(Command("set_dice", {"count": True}), BAD_COUNT, id="bool"),
    pytest.param(Command("set_dice", {"count": 2.0}), BAD_COUNT, id="float"),
    pytest.param(Command("set_dice", {}), "Command set_dice: argument 'count'", id="missing"),
    pytest.param(Command("set_dice", {"count": 2, "extra": 1}), "Command set_dice: argument 'extra'",
                 id="unknown-arg"),
    pytest.param(Command("fly"), "Unknown command fly: send one of roll, set_dice.", id="unknown-kind"),
    pytest.param(Command("roll", {"when": object()}), "Malformed command", id="not-json"),
    pytest.param(Command("roll", [1, 2]), "Malformed command", id="args-not-a-mapping"),
    pytest.param(Command("roll", {"x": float("nan")}), "Malformed command", id="nan-is-not-json"),
    pytest.param(Command("roll", {}, "1"), "Malformed command", id="seat-not-a-number"),
    pytest.param(Command("roll", {}, True), "Malformed command", id="seat-bool"),
]


@pytest.mark.parametrize(("command", "reason"), ILLEGAL)
def test_an_illegal_command_is_refused_and_changes_nothing(table, db, command, reason):
    table.call(Command("set_dice", {"count": 3}))
    roll(table)
    before_version, before_view, before_records = table.version, table.latest.public, stored(db)
    updates: list[Moment] = []
    table.subscribe(updates.append)

    result = table.call(command)

    assert not result.ok
    assert isinstance(result.error, IllegalMove)
    assert str(result.error).startswith(reason)
    assert result.version == before_version == table.version
    assert table.latest.public == before_view
    assert stored(db) == before_records
    (update,) = updates
    assert update.rejected is result.error
    assert (update.version, update.public, update.command) == (before_version, before_view,
                                                               Moved(command.kind, command.seat))
    assert table.latest.rejected is None  # latest is never a refusal


def test_refusal_messages_are_catalog_msgids_with_their_params(table):
    result = table.call(Command("set_dice", {"count": 9}))
    assert result.error.msgid.startswith("Command {kind}: argument '{field}' is not valid")
    assert result.error.params == {"kind": "set_dice", "field": "count", "reason": "Expected `int` <= 3"}


# --- undo --------------------------------------------------------------------------------
def test_undo_is_a_recorded_command_and_deletes_nothing(table, db):
    first = roll(table)
    after_first = table.latest.public
    roll(table)
    result = table.call(Command(UNDO))
    assert result.ok and result.version == 4
    assert table.latest.public == after_first
    assert table.latest.public["last"] == first
    assert stored(db) == [(1, NEW_GAME), (2, "roll"), (3, "roll"), (4, UNDO)]
    assert table.latest.events == [{"type": "undone", "kind": "roll", "seat": None}]


def test_undo_says_what_it_took_back_in_the_history_one_move_at_a_time(table):
    assert table.call(Command("roll", {}, 1)).ok
    assert table.call(Command("set_dice", {"count": 3}, 1)).ok
    assert table.call(Command(UNDO)).ok
    assert table.latest.session.history[-2:] == ({"seat": 1, "kind": "roll"},
                                                  {"seat": 1, "kind": UNDO, "undone": "set_dice"})
    assert table.call(Command(UNDO)).ok  # the next undo names the move before, not the undo line
    assert table.latest.session.history[-1] == {"seat": 1, "kind": UNDO, "undone": "roll"}
    assert table.latest.events == [{"type": "undone", "kind": "roll", "seat": 1}]


def test_an_undo_confirmed_for_an_older_version_takes_nothing_back(table):
    roll(table)
    confirmed = table.version
    roll(table)  # someone moved between the host's two taps
    result = table.call(Command(UNDO, {"expect": confirmed}))
    assert not result.ok and "moved on" in str(result.error)
    assert table.version == confirmed + 1
    assert table.call(Command(UNDO, {"expect": table.version})).ok
    assert not table.call(Command(UNDO, {"expect": "3"})).ok  # only a version number may go with it


def test_undo_with_nothing_to_undo_is_refused(table, db):
    result = table.call(Command(UNDO))
    assert not result.ok
    assert str(result.error) == "Nothing to undo."
    assert table.version == 1
    assert stored(db) == [(1, NEW_GAME)]


def test_undo_steps_back_one_command_at_a_time_until_the_game_start(table):
    views = [table.latest.public]
    roll(table)
    views.append(table.latest.public)
    table.call(Command("set_dice", {"count": 1}))
    views.append(table.latest.public)
    roll(table)
    for expected in reversed(views):
        assert table.call(Command(UNDO)).ok
        assert table.latest.public == expected
    assert not table.call(Command(UNDO)).ok
    assert table.version == 7


def test_roll_after_undo_replaces_the_undone_roll(table):
    first = roll(table)
    roll(table)
    table.call(Command(UNDO))
    third = roll(table)
    view = table.latest.public
    assert view["rolls"] == 2
    assert [h["dice"] for h in view["history"]] == [third, first]
    assert [h["n"] for h in view["history"]] == [2, 1]
    assert view == replayed_view(table)


def test_undo_memory_is_bounded_and_older_states_come_back_from_the_record(db):
    with running(db) as table:
        views = [table.latest.public]
        for _ in range(3 * UNDO_IN_MEMORY):
            roll(table)
            views.append(table.latest.public)
            assert table.session.remembered() <= 2 * UNDO_IN_MEMORY
        assert table.session.remembered() > 0
        # Back past what memory holds: each older state is replayed from the record, dice for dice.
        for expected in reversed(views[:-1]):
            assert table.call(Command(UNDO)).ok
            assert table.latest.public == expected
            assert table.session.remembered() <= 2 * UNDO_IN_MEMORY
        assert not table.call(Command(UNDO)).ok
        rolled_again = roll(table)
    with running(db) as again:  # the record replays to the same place, undo and all
        assert again.latest.public["last"] == rolled_again and again.latest.public["rolls"] == 1
        assert again.call(Command(UNDO)).ok and again.latest.public == views[0]


# --- new game ----------------------------------------------------------------------------
def test_new_game_resets_the_table(table):
    roll(table)
    table.call(Command("set_dice", {"count": 1}))
    roll(table)
    result = table.call(Command(NEW_GAME, {"game": "dice", "options": {"count": 3}}))
    assert result.ok and result.version == 5
    assert table.latest.public == EMPTY_THREE
    assert table.latest.events == [{"type": "new_game", "game": "dice"}]
    assert [r.version for r in table.store.records_since_last(NEW_GAME)] == [5]


def test_undo_does_not_reach_back_across_a_new_game(table):
    roll(table)
    table.call(Command(NEW_GAME, {"game": "dice", "options": {"count": 3}}))
    assert not table.call(Command(UNDO)).ok
    assert table.latest.public == EMPTY_THREE


def test_new_game_options_default_when_left_out(table):
    table.call(Command("set_dice", {"count": 3}))
    assert table.call(Command(NEW_GAME, {"game": "dice"})).ok
    assert table.latest.public["count"] == 2


@pytest.mark.parametrize(("args", "reason"), [
    ({"game": "dice", "options": {"count": 5}}, "Invalid game options"),
    ({"game": "dice", "options": {"count": 0}}, "Invalid game options"),
    ({"game": "dice", "options": {"count": "2"}}, "Invalid game options"),
    ({"game": "dice", "options": {"count": True}}, "Invalid game options"),
    ({"game": "dice", "options": {"colour": "red"}}, "Invalid game options"),
    ({"game": "dice", "options": "count=3"}, "Invalid game options"),
    ({"game": "dice", "data": {"stages": {"name": "x", "text": ""}}}, "This game has no data file stages"),
    ({"game": "chess"}, "Unknown game chess."),
    ({}, "Unknown game None."),
])
def test_bad_new_game_is_refused_and_changes_nothing(table, db, args, reason):
    roll(table)
    before_version, before_view, before_records = table.version, table.latest.public, stored(db)
    result = table.call(Command(NEW_GAME, args))
    assert not result.ok
    assert str(result.error).startswith(reason)
    assert (table.version, table.latest.public, stored(db)) == (before_version, before_view, before_records)


# --- restart -----------------------------------------------------------------------------
def test_restart_resumes_the_same_version_view_and_tokens(db):
    with running(db) as table:
        roll(table)
        table.call(Command("set_dice", {"count": 3}))
        roll(table)
        roll(table)
        table.call(Command(UNDO))
        version, view = table.version, table.latest.public
        host, seat = table.host_token(), table.seat_token(0)
    with running(db) as again:
        assert again.version == version == 6
        assert again.latest.public == view
        assert again.latest.game == "dice"
        assert (again.host_token(), again.seat_token(0)) == (host, seat)
        assert stored(db)[-1] == (6, UNDO)  # no second new game on restart
        assert roll(again) and again.version == 7


def test_undo_after_restart_returns_to_the_state_before_the_last_command(db):
    with running(db) as table:
        first = roll(table)
        after_first = table.latest.public
        roll(table)
    with running(db) as again:
        assert again.call(Command(UNDO)).ok
        assert again.latest.public == after_first
        assert again.latest.public["last"] == first


def test_restart_resumes_only_the_newest_game(db):
    with running(db) as table:
        roll(table)
        roll(table)
        table.call(Command(NEW_GAME, {"game": "dice", "options": {"count": 3}}))
    with running(db) as again:
        assert again.version == 4
        assert again.latest.public == EMPTY_THREE


# --- outputs -----------------------------------------------------------------------------
def test_subscribers_run_after_the_record_is_committed(table, db):
    seen: list[tuple[int, int]] = []

    def check_on_disk(update: Update) -> None:
        con = sqlite3.connect(db)  # not the store's connection: only committed data is visible
        try:
            seen.append((update.version, con.execute("SELECT max(version) FROM records").fetchone()[0]))
        finally:
            con.close()

    table.subscribe(check_on_disk)
    roll(table)
    table.call(Command("set_dice", {"count": 1}))
    table.call(Command(UNDO))
    assert seen == [(2, 2), (3, 3), (4, 4)]


def test_each_moment_carries_the_command_never_its_args_nor_its_events(table):
    moments: list[Moment] = []
    table.subscribe(moments.append)
    table.call(Command("set_dice", {"count": 1}))
    roll(table)
    assert (moments[0].command, moments[0].rolled) == (Moved("set_dice", None), False)
    assert (moments[1].command, moments[1].rolled) == (Moved("roll", None), True)
    assert moments[1].secrets.view(0) == {}  # free dice hides nothing
    assert not {"events", "session", "args"} & set(vars(moments[1]))


def test_a_failing_subscriber_does_not_stop_the_table(table):
    def broken(update):
        raise RuntimeError("panel unplugged")

    seen: list[int] = []
    table.subscribe(broken)
    table.subscribe(lambda u: seen.append(u.version))
    assert table.call(Command("roll")).ok
    assert table.call(Command("roll")).ok
    assert seen == [2, 3]
    assert table.latest.public["rolls"] == 2


def test_unsubscribe_stops_the_calls(table):
    seen: list[int] = []
    unsubscribe = table.subscribe(lambda u: seen.append(u.version))
    roll(table)
    unsubscribe()
    roll(table)
    assert seen == [2]


# --- a failing store ---------------------------------------------------------------------
def test_a_closed_store_refuses_the_command_and_changes_nothing(table, db):
    roll(table)
    version, view = table.version, table.latest.public
    updates: list[Moment] = []
    table.subscribe(updates.append)
    table.store.close()

    result = table.call(Command("roll"))

    assert not result.ok
    assert result.error.msgid == SAVE_FAILED and str(db) not in str(result.error)  # the path stays in the log
    assert (table.version, table.latest.public) == (version, view)
    assert stored(db) == [(1, NEW_GAME), (2, "roll")]
    (update,) = updates
    assert update.rejected is result.error and update.public == view


def test_a_store_that_cannot_write_refuses_then_recovers_without_a_gap(table, db):
    roll(table)
    view = table.latest.public
    con = sqlite3.connect(db)
    con.execute("CREATE TRIGGER full BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'disk full'); END")
    con.commit()

    refused = table.call(Command("roll"))
    assert not refused.ok and refused.error.msgid == SAVE_FAILED
    assert (table.version, table.latest.public) == (2, view)

    con.execute("DROP TRIGGER full")
    con.commit()
    con.close()
    assert table.call(Command("roll")).ok
    assert table.version == 3
    assert table.latest.public["rolls"] == 2  # the refused roll left no trace in the state
    assert stored(db) == [(1, NEW_GAME), (2, "roll"), (3, "roll")]
    assert table.latest.public == replayed_view(table)


# --- export and replay -------------------------------------------------------------------
def test_export_then_replay_rebuilds_the_same_view(table):
    roll(table)
    table.call(Command("set_dice", {"count": 3}))
    for _ in range(12):
        roll(table)
    table.call(Command(UNDO))
    table.call(Command("set_dice", {"count": 1}))
    roll(table)

    exported = json.loads(json.dumps(list(table.export())))  # what `companion replay` reads back from a file
    assert [r["version"] for r in exported] == list(range(1, table.version + 1))
    session, version = replay(Record(**r) for r in exported)
    assert version == table.version
    assert session.spec.public_json(session.state) == table.latest.public


def test_export_holds_only_the_running_game(table):
    roll(table)
    table.call(Command(NEW_GAME, {"game": "dice", "options": {"count": 1}}))
    roll(table)
    assert [(r["version"], r["kind"]) for r in table.export()] == [(3, NEW_GAME), (4, "roll")]


# --- args as recorded ----------------------------------------------------------------------
class EchoPublic(msgspec.Struct):
    said: int


class EchoPrivate(msgspec.Struct):
    pass


class Said(msgspec.Struct, omit_defaults=True):
    """What the echo game's tests send: each field left out unless given."""

    pair: list[int] | None = None
    three: str | None = msgspec.field(name="3", default=None)
    nested: dict[str, object] | None = None
    crash: bool = False


def _echo(state, seat, args: Said, draws):
    if args.crash:
        raise KeyError("a bug in the rules, not a refusal")
    return (*state, (seat, msgspec.to_builtins(args))), []


def _echo_public(state) -> EchoPublic:
    return EchoPublic(len(state))


def _echo_private(state, seat: int) -> EchoPrivate:
    return EchoPrivate()


ECHO = game_spec(
    name="echo", title="Echo", setup=lambda options, draws, data: (),
    moves={"say": Move(Said, _echo, line="")}, views=Views(_echo_public, _echo_private), seats=(2, 2),
)


@pytest.fixture
def echo_table(table, monkeypatch):
    """The table running a game that keeps every command's args in its state, as given."""
    plug_game(monkeypatch, ECHO)
    assert table.call(Command(NEW_GAME, {"game": "echo"})).ok
    return table


@pytest.mark.parametrize("args", [
    {"pair": (1, 2)},
    {3: "three"},
    {"nested": {"t": ("a", ("b",))}},
])
def test_the_rules_see_the_args_exactly_as_recorded(echo_table, args):
    assert echo_table.call(Command("say", args, 1)).ok
    session, _ = replay(echo_table.store.records_since_last(NEW_GAME))
    assert echo_table.session.state == session.state
    assert echo_table.session.state[-1] == (1, json.loads(json.dumps(args)))


# --- tokens ------------------------------------------------------------------------------
def test_tokens_are_distinct_unguessable_and_kept(table):
    host = table.host_token()
    seats = [table.seat_token(s) for s in range(4)]
    assert len({host, *seats}) == 5
    assert all(len(t) >= 20 for t in (host, *seats))
    assert table.host_token() == host and table.seat_token(2) == seats[2]


@pytest.mark.parametrize("attempt", range(10))  # a race: several tries make a lost one likely
def test_first_tokens_asked_for_at_once_are_one_token(db, attempt):
    store = Store(db)
    table = Table(store)
    start = threading.Barrier(8)
    got: list[str] = []

    def ask():
        start.wait()
        got.append(table.host_token())

    askers = [threading.Thread(target=ask) for _ in range(8)]
    for t in askers:
        t.start()
    for t in askers:
        t.join(10)
    try:
        assert len(got) == 8 and set(got) == {store.get_meta("host_token")}
    finally:
        store.close()


def test_tokens_differ_between_tables(tmp_path):
    with running(tmp_path / "a.db") as a, running(tmp_path / "b.db") as b:
        assert a.host_token() != b.host_token()
        assert a.seat_token(0) != b.seat_token(0)


def test_a_seat_token_finds_its_seat_whatever_the_game_and_a_guess_finds_none(table):
    assert table.latest.game == "dice"  # no seat plays free dice, but phones join the table itself
    assert table.seat_for_token(table.seat_token(0)) == 0
    assert table.seat_for_token(table.seat_token(MAX_SEATS - 1)) == MAX_SEATS - 1
    assert table.seat_for_token("guess") is None
    assert table.latest.private(0) == {}


def test_a_seat_outside_the_game_is_refused_and_changes_nothing(echo_table):
    before = echo_table.version
    result = echo_table.call(Command("say", {}, seat=2))
    assert not result.ok and "not playing" in str(result.error)
    assert echo_table.version == before


def test_a_log_that_no_longer_replays_names_the_file(tmp_path):
    store = Store(tmp_path / "s.db")
    store.append(NEW_GAME, None, {"game": "dice", "options": {}}, [])
    store.append("roll", None, {}, [])  # a roll that recorded no draws cannot replay
    with pytest.raises(StoreError, match=str(tmp_path / "s.db")):
        Table(store)
    store.close()


def test_commands_after_stop_are_refused_not_left_hanging(tmp_path):
    table = Table(Store(tmp_path / "s.db")).start()
    table.stop()
    result = table.submit(Command("roll")).result(timeout=1)
    assert not result.ok and result.error.msgid == "The table is shutting down."


# --- the public history --------------------------------------------------------------------
def history(table: Table) -> list[tuple]:
    return [(line["seat"], line["kind"]) for line in table.latest.session.history]


def test_the_history_lists_who_did_what_and_never_a_value(db):
    with running(db) as table:
        table.seating(lambda roster, count: roster.claim(1, "Bob", count))
        assert history(table) == [(None, "new_game")]
        roll(table)
        assert table.call(Command("roll", {}, 1)).ok
        assert table.call(Command("set_dice", {"count": 3}, 1)).ok
        assert history(table) == [(None, "new_game"), (None, "roll"), (1, "roll"), (1, "set_dice")]
        assert all(set(line) == {"seat", "kind"} for line in table.latest.session.history)  # no values
        assert table.call(Command(UNDO)).ok  # the undone line goes with the undone move; a line says so
        assert history(table) == [(None, "new_game"), (None, "roll"), (1, "roll"), (1, UNDO)]
    with running(db) as table:  # a restart rebuilds it from the record
        assert history(table) == [(None, "new_game"), (None, "roll"), (1, "roll"), (1, UNDO)]
        assert table.call(Command("end_game")).ok is False  # free dice is the idle game: nothing to end
        assert table.call(Command(NEW_GAME, {"game": "dice"})).ok
        assert history(table) == [(None, "new_game")]


def test_the_history_keeps_the_newest_lines_only(table):
    from companion.core.session import HISTORY_LENGTH

    for _ in range(HISTORY_LENGTH + 3):
        roll(table)
    assert history(table) == [(None, "roll")] * HISTORY_LENGTH


def test_a_device_command_is_put_down_to_whose_turn_it_is(table):
    assert table.call(Command(NEW_GAME, {"game": "gewalt", "options": {"players": 3}})).ok
    first = table.latest.public["turn"]
    assert table.call(Command("roll")).ok  # the device's ROLL plays for the seat whose turn it is
    assert history(table)[-1] == (first, "roll")
    assert table.call(Command("end_game")).ok
    assert table.latest.game == "dice" and history(table) == [(None, "end_game")]


# --- play again ------------------------------------------------------------------------------------
def test_play_again_starts_the_same_game_with_the_same_options_and_keeps_every_seat(db):
    """Issue 13, defect 11: no game offered "play again" with the same seats."""
    with running(db) as table:
        table.seating(lambda roster, count: roster.claim(0, "Anna", count))
        table.seating(lambda roster, count: roster.claim(2, "Zoé", count))
        tokens = [table.seat_token(seat) for seat in range(3)]
        assert table.call(Command(NEW_GAME, {"game": "crash", "options": {"dice_only": True}})).ok
        first = table.latest.session
        assert table.call(Command("roll", {}, 0)).ok
        assert table.call(Command(NEW_GAME, {"again": True})).ok
        again = table.latest.session
        assert again.game == "crash" and again.options == first.options and again.options["dice_only"] is True
        assert again.state == first.state  # a fresh game, not the played one
        assert [table.seat_token(seat) for seat in range(3)] == tokens
        assert [table.roster.name(seat) for seat in (0, 2)] == ["Anna", "Zoé"]
        assert stored(db)[-1][1] == NEW_GAME
    with running(db) as table:  # recorded in full: a replay needs no "again"
        assert table.latest.session.game == "crash" and table.latest.session.options["dice_only"] is True
