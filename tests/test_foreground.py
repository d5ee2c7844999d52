"""Players first: the e-ink render steps aside at its checkpoints while a press, a command, a request or
a live page's update is under way, and every piece of such work is counted until it is done."""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future

import pytest
from polling import wait_for
from test_refresh import RecordingDisplay, frame

from companion.core.table import Table
from companion.devices.buttons import DebouncedButton
from companion.devices.refresh import Refresher
from companion.foreground import Foreground, checkpoint
from companion.gamekit.contract import Command
from companion.outputs.webapp import _answered_first
from companion.outputs.webapp.events import Hub
from companion.storage.store import Store

PIN = 5


def in_background(foreground: Foreground, patience: float = 5.0,
                  budget: float = 10.0) -> tuple[Future, threading.Event]:
    """A thread doing background work: it reaches a checkpoint once `go` is set; the future resolves when
    it is past it, to the seconds it spent there."""
    go, passed = threading.Event(), Future()

    def work():
        with foreground.background(patience, budget):
            go.wait(10)
            started = time.monotonic()
            checkpoint()
            passed.set_result(time.monotonic() - started)
    threading.Thread(target=work, daemon=True).start()
    return passed, go


def test_a_checkpoint_outside_background_work_never_waits():
    foreground = Foreground()
    foreground.begin()
    checkpoint()  # a test drawing a frame on its own thread: nothing to step aside for
    assert foreground.waiting == 0


def test_background_work_waits_at_its_checkpoint_while_a_player_waits_and_goes_on_after():
    foreground = Foreground(quiet=0.0)
    foreground.begin()
    passed, go = in_background(foreground)
    go.set()
    wait_for(lambda: foreground.waiting == 1)
    assert not passed.done()  # held at the checkpoint: the thread is inside it, waiting
    foreground.end()
    passed.result(10)  # past the checkpoint once the work ended
    assert foreground.waiting == 0 and foreground.stepped_aside > 0


def test_it_waits_for_a_pause_in_the_work_not_just_its_end():
    foreground = Foreground(quiet=0.2)
    foreground.begin()
    foreground.end()
    passed, go = in_background(foreground)
    go.set()
    assert passed.result(10) >= 0.15  # the last command ended just now: a burst may go on


def test_out_of_patience_it_waits_only_while_work_is_under_way():
    foreground = Foreground(quiet=60.0)  # a pause that never comes
    foreground.end()
    passed, go = in_background(foreground, patience=0.1, budget=30.0)
    go.set()
    assert 0.1 <= passed.result(10) < 30


def test_past_its_budget_background_work_goes_on_even_while_players_wait():
    foreground = Foreground()
    foreground.begin()  # never ends: a burst that goes on for ever, or a count that leaked
    passed, go = in_background(foreground, patience=0.05, budget=0.2)
    go.set()
    assert passed.result(10) >= 0.2
    checkpoint()  # this thread is not in background work: no wait


def test_a_frame_is_neither_drawn_nor_sent_while_a_command_is_under_way():
    foreground = Foreground(quiet=0.0)
    drawing = []

    def render(key):
        drawing.append(key)
        return frame(key)

    display = RecordingDisplay()
    refresher = Refresher(display, render, foreground=foreground).start()
    try:
        foreground.begin()
        refresher.offer(1)
        wait_for(lambda: foreground.waiting == 1)
        assert drawing == [] and display.attempts == []
        foreground.end()
        assert refresher.wait_idle(10)
        assert drawing == [1] and len(display.shown) == 1
    finally:
        refresher.stop()


def test_a_command_is_work_a_player_waits_on_until_every_output_has_it(tmp_path):
    store = Store(tmp_path / "s.db")
    table = Table(store)
    seen = []
    table.subscribe(lambda update: seen.append(table.foreground.busy))
    table.start()
    try:
        assert table.call(Command("roll")).ok
        assert seen and all(seen)  # still counted while the outputs are told
        wait_for(lambda: not table.foreground.busy)
    finally:
        table.stop()
        store.close()


def test_a_live_page_counts_each_update_until_the_server_has_it_and_a_closed_one_owes_nothing(tmp_path):
    store = Store(tmp_path / "s.db")
    table = Table(store).start()
    hub = Hub(table).start()
    try:
        assert table.call(Command("roll")).ok  # the opening game is in place: the snapshots show it
        wait_for(lambda: not table.foreground.busy)
        read, left = hub.open("fr"), hub.open("fr")
        next(read), next(left)  # their snapshots
        assert table.call(Command("roll")).ok and table.call(Command("roll")).ok
        wait_for(lambda: table.foreground._working == 4)  # two updates for each of two pages
        assert b"update" in next(read) and b"update" in next(read)
        left.close()  # a page that hung up with two updates it never took
        assert table.foreground._working == 1  # only the update `read` holds until it asks again
        read.close()
        assert not table.foreground.busy
    finally:
        hub.close()
        table.stop()
        store.close()


def test_a_press_is_work_a_player_waits_on_from_its_first_edge_until_it_is_handed_on(factory):
    foreground = Foreground()
    handed: list[tuple[str, bool]] = []
    button = DebouncedButton(PIN, "roll", lambda name, event: handed.append((event, foreground.busy)),
                             debounce=0.01, hold=5.0, pin_factory=factory, foreground=foreground)
    try:
        pin = factory.pin(PIN)
        pin.drive_low()
        assert foreground.busy  # counted from the first edge, before any settle
        wait_for(lambda: button.is_pressed)
        assert foreground.busy and not handed  # held down: the press is still to come
        pin.drive_high()
        wait_for(lambda: handed)
        assert handed == [("press", True)]  # still counted while the press is handed on
        wait_for(lambda: not foreground.busy)
    finally:
        button.close()


def test_a_button_held_down_stops_counting_once_its_hold_is_handed_on(factory):
    foreground = Foreground()
    handed: list[str] = []
    button = DebouncedButton(PIN, "roll", lambda name, event: handed.append(event), debounce=0.01,
                             hold=0.1, pin_factory=factory, foreground=foreground)
    try:
        factory.pin(PIN).drive_low()  # and never released: a finger resting on it, or a stuck switch
        wait_for(lambda: handed == ["hold"])
        wait_for(lambda: not foreground.busy)
    finally:
        button.close()


def test_a_request_is_work_a_player_waits_on_until_its_answer_is_ready():
    foreground = Foreground()
    during = []

    def app(environ, start_response):
        during.append(foreground.busy)
        start_response("200 OK", [])
        return [b"ok"]

    assert _answered_first(app, foreground)({}, lambda *a: None) == [b"ok"]
    assert during == [True] and not foreground.busy


def test_a_request_that_fails_is_not_counted_for_ever():
    foreground = Foreground()

    def app(environ, start_response):
        raise RuntimeError("a bug")

    with pytest.raises(RuntimeError):
        _answered_first(app, foreground)({}, lambda *a: None)
    assert not foreground.busy
