"""The table's seam with games: button presses on the table thread, one "now", bugs told from refusals,
replays pinned to the data a game was set up with, the game between games as a setting, what a spec
declares enforced, and deadlines."""

from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from dataclasses import replace

import msgspec
import pytest
from test_session import TURNS
from test_table import ECHO
from webfixtures import changed, game_spec, plug_game

from companion.core import registry
from companion.core.moment import Moment, Moved
from companion.core.session import NEW_GAME, Setup, replay
from companion.core.table import BUTTON_REFUSED, INTERNAL_ERROR, Table
from companion.gamekit.contract import NOT_NOW, NOT_YOU, Command, DataText, Move, Turn, Views
from companion.outputs.public import public_payload
from companion.storage.store import Store


@contextmanager
def running(path, setup: Setup | None = None):
    store = Store(path)
    table = Table(store, setup).start()
    try:
        assert table.call(Command("settle")).ok is False  # the opening new game is applied
        yield table
    finally:
        table.stop()
        store.close()


@pytest.fixture
def db(tmp_path):
    return tmp_path / "table.db"


def watch(table: Table) -> list[Moment]:
    updates: list[Moment] = []
    table.subscribe(updates.append)
    return updates


# --- presses -------------------------------------------------------------------------------------
def test_a_press_that_starts_an_input_travels_in_the_update_and_changes_no_version(db):
    with running(db, Setup("gewalt")) as table:
        version, updates = table.version, watch(table)
        answer = table.press("a").result(5)  # start placing a section card: lane 1 on the LEDs
        assert answer is table.latest and answer.version == version and answer.pressed == "a"
        assert (answer.entry.flow, answer.entry.shown) == ("place", 1)
        assert answer.spec.controls.leds(answer.entry, answer.public) == [1]
        assert updates == [answer.moment]
        assert table.press("b").result(5).entry.shown == 2  # the next press reads the input from there
        assert table.store.last_version() == version  # an input in progress is never recorded


def test_a_press_that_means_nothing_is_published_as_a_refusal_and_changes_nothing(db):
    with running(db) as table:  # free dice: B means nothing
        before, updates = table.latest, watch(table)
        answer = table.press("b").result(5)
        assert answer.rejected.msgid == BUTTON_REFUSED and answer.pressed == "b"
        assert answer.command is None and answer.version == before.version
        assert updates == [answer.moment] and table.latest is before


def test_a_confirmed_input_becomes_a_command_from_the_table(db):
    with running(db, Setup("gewalt")) as table:
        version, state = table.version, table.session.state
        held = state.sections[state.turn][0]
        # A, then lane 5 (A steps down from lane 1), stage 1, section 1, then a length the player holds.
        for key in ("a a c c c" + " b" * ((held - 4) % 9)).split():
            table.press(key)
        answer = table.press("c").result(5)
        assert answer.version == version + 1 and answer.command.kind == "play_section"
        assert answer.command.seat is None and answer.pressed == "c" and answer.entry is None


def test_a_confirmed_input_the_rules_refuse_is_dropped_and_the_refusal_published(db):
    with running(db, Setup("gewalt")) as table:
        state = table.session.state
        length = next(n for n in range(9) if n not in state.sections[state.turn])
        keys = "a c c c" + " b" * ((length - 4) % 9) + " c"  # a length the player to act does not hold
        answers = [table.press(key) for key in keys.split()]
        refused = answers[-1].result(5)
        assert refused.rejected is not None and "no section card of length" in refused.rejected.msgid
        assert refused.pressed == "c" and refused.version == table.version
        assert table.latest.entry is None  # the input was confirmed, so it does not come back


def test_any_accepted_command_drops_an_input_in_progress(db):
    with running(db, Setup("gewalt")) as table:
        assert table.press("a").result(5).entry is not None
        assert table.call(Command("roll", {}, table.latest.acting)).ok  # a phone moved the game on
        assert table.latest.entry is None
        assert table.press("c").result(5).rejected.msgid == BUTTON_REFUSED  # C alone means nothing


def test_presses_from_many_threads_step_one_by_one_on_the_table_thread(db):
    """Each press reads the view the previous one left: A on free dice always counts on from there."""
    with running(db) as table:
        threads, each = 6, 10
        start = threading.Barrier(threads)

        def presser():
            start.wait()
            futures = [table.press("a") for _ in range(each)]
            for future in futures:
                future.result(10)

        workers = [threading.Thread(target=presser) for _ in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(30)
        presses = threads * each
        assert table.version == 1 + presses
        assert table.latest.public["count"] == (2 - 1 + presses) % 3 + 1


def test_controls_that_fail_refuse_the_press_and_log_it(db, monkeypatch, caplog):
    with running(db) as table:
        spec = registry.get("dice")
        broken = changed(spec, controls=replace(spec.controls, step=lambda entry, key, view: 1 / 0))
        plug_game(monkeypatch, broken)
        with caplog.at_level(logging.ERROR):
            answer = table.press("roll").result(5)
        assert answer.rejected.msgid == BUTTON_REFUSED and table.version == 1
        assert "ZeroDivisionError" in caplog.text


# --- one now ---------------------------------------------------------------------------------------
def test_every_reader_sees_one_consistent_now_while_commands_apply(db):
    with running(db) as table:
        seen, stop = [], threading.Event()

        def reader():
            while not stop.is_set():
                version = table.version
                now = table.latest  # read after the version: never an older update than it
                seen.append((now.version >= version, now.version, now.public,
                             now.spec.public_json(now.session.state), len(now.session.history)))
                time.sleep(0.001)  # let the table thread run: this is a reader, not a busy loop

        thread = threading.Thread(target=reader)
        thread.start()
        for _ in range(30):
            assert table.call(Command("roll")).ok
        stop.set()
        thread.join(10)
        assert seen
        for fresh, version, public, rebuilt, history in seen:
            assert fresh, "table.version ran ahead of table.latest"
            assert public == rebuilt  # the view belongs to the state of the same snapshot
            assert public["rolls"] == version - 1 and history == min(version, 12)


def test_subscribers_find_latest_already_at_the_update_they_are_told(db):
    with running(db) as table:
        checked = []
        table.subscribe(lambda update: update.rejected or checked.append(table.moment is update))
        for _ in range(5):
            table.call(Command("roll"))
        assert checked == [True] * 5


# --- bugs are not refusals --------------------------------------------------------------------------
def test_a_bug_in_the_rules_is_logged_and_answered_without_detail(db, monkeypatch, caplog):
    plug_game(monkeypatch, ECHO)
    with running(db) as table:
        assert table.call(Command(NEW_GAME, {"game": "echo"})).ok
        version, updates = table.version, watch(table)
        with caplog.at_level(logging.ERROR):
            result = table.call(Command("say", {"crash": True}, 0))
        assert not result.ok and result.error.msgid == INTERNAL_ERROR and result.error.params == {}
        assert "a bug in the rules" not in str(result.error) and "KeyError" not in str(result.error)
        assert "a bug in the rules, not a refusal" in caplog.text  # the log keeps the traceback
        assert any(r.exc_info for r in caplog.records)
        assert table.version == version and updates[0].rejected is result.error
        assert table.call(Command("say", {}, 0)).ok  # the writer carries on


# --- what a spec declares, the table enforces -------------------------------------------------------
def test_a_command_the_specs_check_refuses_changes_nothing_and_is_told(db, monkeypatch):
    plug_game(monkeypatch, TURNS)
    with running(db) as table:
        assert table.call(Command(NEW_GAME, {"game": "turns"})).ok
        assert table.call(Command("go", {}, 0)).ok  # seat 1 may act now
        version, state, records = table.version, table.session.state, table.store.records_since_last(NEW_GAME)
        updates = watch(table)
        refused = ((Command("go", {}, 2), NOT_YOU), (Command("wait", {}, 1), "Wait for the bell."),
                   (Command("stop"), NOT_NOW))
        for command, msgid in refused:
            result = table.call(command)
            assert not result.ok and result.error.msgid == msgid and result.version == version
            assert updates[-1].rejected is result.error
            assert updates[-1].command == Moved(command.kind, command.seat)
        assert table.version == version and table.session.state == state
        assert table.store.records_since_last(NEW_GAME) == records
        assert table.call(Command("go")).ok and table.session.state.seen[-1] == (1, "go")


# --- pinned replays --------------------------------------------------------------------------------
def test_new_game_records_the_data_files_and_replays_the_same_after_an_upgrade_edits_them(db, monkeypatch):
    with running(db) as table:
        assert table.call(Command(NEW_GAME, {"game": "schacht", "options": {"players": 3}})).ok
        record = table.store.records_since_last(NEW_GAME)[0]
        bundled = registry.get("schacht").bundled("stages")
        assert record.args["data"] == {"stages": {"name": bundled.name, "text": bundled.text}}
        assert record.args["options"]["players"] == 3 and record.args["options"]["shuffled_piles"] is False
        state = table.session.state
    edited = bundled.text.replace("finish = [6, 5, 5, 4, 4, 3]", "finish = [9, 1]")
    spec = registry.get("schacht")
    monkeypatch.setattr(type(spec), "bundled", lambda self, key: DataText("stages.toml", edited))
    with running(db) as again:  # the upgrade's bundled file differs: the running game does not
        assert again.session.state == state and again.session.state.finish == (6, 5, 5, 4, 4, 3)
        assert again.call(Command(NEW_GAME, {"game": "schacht", "options": {"players": 3}})).ok
        assert again.session.state.finish == (9, 1)  # a new game takes the new file


def test_an_uploaded_data_file_is_recorded_and_used(db):
    text = registry.get("schacht").bundled("stages").text.replace("[6, 5, 5, 4, 4, 3]", "[9, 1]")
    with running(db) as table:
        args = {"game": "schacht", "data": {"stages": {"name": "mine.toml", "text": text}}}
        assert table.call(Command(NEW_GAME, args)).ok
        assert table.session.state.finish == (9, 1)
        assert table.store.records_since_last(NEW_GAME)[0].args["data"]["stages"]["name"] == "mine.toml"
        bad = {"game": "schacht", "data": {"stages": {"name": "bad.toml", "text": "drivers = ["}}}
        refused = table.call(Command(NEW_GAME, bad))
        assert not refused.ok and "bad.toml" in str(refused.error)


def test_a_record_made_before_data_files_were_pinned_still_replays(db):
    """Older records kept an uploaded file's text in the options, and the bundled file was implied."""
    text = registry.get("schacht").bundled("stages").text.replace("[6, 5, 5, 4, 4, 3]", "[9, 1]")
    store = Store(db)
    store.append(NEW_GAME, None, {"game": "schacht", "options": {"players": 4, "data": text,
                                                                 "data_name": "mine.toml"}}, [0] * 8)
    session, version = replay(store.records_since_last(NEW_GAME))
    assert session.state.finish == (9, 1) and session.state.players == 4 and version == 1
    store.append(NEW_GAME, None, {"game": "gewalt", "options": {"players": 3}}, [0] * 200)
    session, _ = replay(store.records_since_last(NEW_GAME))
    assert session.game == "gewalt" and session.options["expert"] is False
    store.close()


def test_default_options_from_the_settings_are_recorded_with_every_default_filled(db):
    with running(db, Setup(options={"gewalt": {"expert": True}})) as table:
        assert table.call(Command(NEW_GAME, {"game": "gewalt"})).ok
        assert table.store.records_since_last(NEW_GAME)[0].args["options"] == {"players": 4, "expert": True}
        assert table.call(Command(NEW_GAME, {"game": "gewalt", "options": {"expert": False}})).ok
        assert table.session.state.expert is False  # the host's choice wins over the default


# --- the game between games ------------------------------------------------------------------------
def test_the_game_between_games_is_a_setting_and_end_game_records_which(db):
    with running(db, Setup("gewalt", {"gewalt": {"players": 3}})) as table:
        assert table.latest.game == "gewalt" and table.latest.public["players"] == 3
        assert not table.call(Command("end_game")).ok  # the game between games has nothing to end
        assert table.call(Command(NEW_GAME, {"game": "schacht"})).ok
        assert table.call(Command("end_game")).ok
        assert table.latest.game == "gewalt" and table.latest.public["players"] == 3
        assert table.store.records_since_last(NEW_GAME)[-1].args["game"] == "gewalt"
    with running(db, Setup("dice")) as again:  # another setting later does not change what was played
        assert again.latest.game == "gewalt"


def test_an_end_game_recorded_before_the_setting_goes_back_to_free_dice(db):
    store = Store(db)
    store.append(NEW_GAME, None, {"game": "gewalt", "options": {"players": 3}}, [0] * 200)
    store.append("end_game", None, {}, [])
    session, _ = replay(store.records_since_last(NEW_GAME))
    assert session.game == "dice"
    store.close()


# --- deadlines ------------------------------------------------------------------------------------
class AskPublic(msgspec.Struct):
    asked: bool
    answers: list[str]


class Ask(msgspec.Struct):
    pass


class Answer(msgspec.Struct):
    answer: str


def _ask_public(state) -> AskPublic:
    return AskPublic(state[0], list(state[1]))


def _ask_private(state, seat: int) -> AskPublic:
    return AskPublic(False, [])


ASKING = game_spec(
    name="asking", setup=lambda options, draws, data: (False, ()),
    moves={"ask": Move(Ask, lambda state, seat, args, draws: ((True, state[1]), []), line=""),
           "answer": Move(Answer, lambda state, seat, args, draws: ((False, (*state[1], args.answer)), []),
                          line="")},
    views=Views(_ask_public, _ask_private), seats=(2, 2),
    turn=Turn(deadline=lambda state: (0.05, Command("answer", {"answer": "no"})) if state[0] else None))


def test_a_deadline_passing_with_no_command_sends_the_games_default_and_records_it(db, monkeypatch):
    plug_game(monkeypatch, ASKING)
    with running(db) as table:
        assert table.call(Command(NEW_GAME, {"game": "asking"})).ok
        assert table.call(Command("ask", {}, 0)).ok
        asked = table.version
        left = public_payload(table.moment, "en")["deadline"]  # what a page loaded now is told
        assert 0 <= left <= 0.05
        deadline = time.monotonic() + 10
        while table.version == asked and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.latest.public == {"asked": False, "answers": ["no"]}
        last = table.store.records_since_last(NEW_GAME)[-1]
        assert (last.kind, last.seat, last.args) == ("answer", None, {"answer": "no"})
        assert replay(table.store.records_since_last(NEW_GAME))[0].state == table.session.state


def test_an_answer_before_the_deadline_cancels_the_default(db, monkeypatch):
    slower = (0.2, Command("answer", {"answer": "no"}))
    spec = changed(ASKING, deadline=lambda state: slower if state[0] else None)
    plug_game(monkeypatch, spec)
    with running(db) as table:
        assert table.call(Command(NEW_GAME, {"game": "asking"})).ok
        assert table.call(Command("ask", {}, 0)).ok
        assert table.call(Command("answer", {"answer": "yes"}, 1)).ok
        ask_again = table.call(Command("ask", {}, 0))  # a new window: the old default must not land in it
        assert ask_again.ok
        deadline = time.monotonic() + 10
        while table.version == ask_again.version and time.monotonic() < deadline:
            time.sleep(0.01)
        assert table.latest.public["answers"] == ["yes", "no"]  # one default, for the second window only
