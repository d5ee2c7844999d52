"""The e-ink thread: latest frame wins, no re-sends, offer never blocks, a failing panel backs off."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from PIL import Image
from polling import wait_for

from companion.devices.display import Display
from companion.devices.panels import panel
from companion.devices.refresh import Refresher

MODEL = panel("what-black")


def frame(key) -> Image.Image:
    """A frame that differs for every key (a bar whose length is the key)."""
    image = Image.new("RGB", MODEL.size, "white")
    image.paste((0, 0, 0), (0, 0, 1 + int(key) % MODEL.size[0], 10))
    return image


class RecordingDisplay(Display):
    """Our own Display seam: records what it is asked to show; may be held or made to fail."""

    def __init__(self, failures: int = 0, error: BaseException | None = None):
        super().__init__(MODEL)
        self.error = error or TimeoutError("busy pin stayed high")
        self.shown: list[bytes] = []
        self.attempts: list[float] = []
        self.failures = failures
        self.entered = threading.Event()
        self.release = threading.Event()
        self.release.set()

    def show(self, image: Image.Image) -> None:
        self.attempts.append(time.monotonic())
        self.entered.set()
        self.release.wait(10)
        if self.failures:
            self.failures -= 1
            raise self.error
        self.shown.append(image.tobytes())


@pytest.fixture
def refresher_for():
    made = []

    def make(display, render=frame, backoff=(2.0, 300.0)):
        refresher = Refresher(display, render, backoff=backoff).start()
        made.append((refresher, display))
        return refresher
    yield make
    for refresher, display in made:
        display.release.set()
        refresher.stop()


def test_the_latest_frame_wins_while_the_glass_is_slow(refresher_for):
    display = RecordingDisplay()
    display.release.clear()
    refresher = refresher_for(display)
    refresher.offer(0)
    assert display.entered.wait(5)
    for key in range(1, 51):
        refresher.offer(key)
    display.release.set()
    assert refresher.wait_idle(10)
    assert display.shown == [frame(0).tobytes(), frame(50).tobytes()]
    assert refresher.shown == 2


def test_identical_frames_are_never_sent_again(refresher_for):
    display = RecordingDisplay()
    refresher = refresher_for(display, render=lambda key: frame(key[0]))
    refresher.offer((1, "a"))
    assert refresher.wait_idle(5)
    refresher.offer((1, "b"))  # another key, the same picture
    assert refresher.wait_idle(5)
    refresher.offer((1, "a"))
    assert refresher.wait_idle(5)
    assert len(display.shown) == 1
    assert refresher.skipped == 2
    refresher.offer((2, "a"))
    assert refresher.wait_idle(5)
    assert len(display.shown) == 2


def test_a_burst_while_the_glass_refreshes_costs_one_more_render(refresher_for):
    """The glass is busy (a real refresh takes seconds): 100 offers meanwhile draw one frame, the last."""
    drawn = []
    display = RecordingDisplay()
    display.release.clear()
    refresher = refresher_for(display, render=lambda key: drawn.append(key) or frame(key))
    refresher.offer(0)
    assert display.entered.wait(5)
    for key in range(1, 101):
        refresher.offer(key)
    display.release.set()
    assert refresher.wait_idle(10)
    assert drawn == [0, 100] and refresher.rendered == 2 and refresher.shown == 2


def test_the_same_state_again_is_not_even_drawn(refresher_for):
    drawn = []
    display = RecordingDisplay()
    refresher = refresher_for(display, render=lambda key: drawn.append(key) or frame(key[0]))
    refresher.offer((1, {"view": 1}))
    assert refresher.wait_idle(5)
    refresher.offer((1, {"view": 1}))  # an equal key: a seat change that altered nothing shown, say
    assert refresher.wait_idle(5)
    assert drawn == [(1, {"view": 1})] and refresher.skipped == 1 and len(display.shown) == 1


def test_offer_returns_while_a_show_is_in_progress(refresher_for):
    display = RecordingDisplay()
    display.release.clear()
    refresher = refresher_for(display)
    refresher.offer(1)
    assert display.entered.wait(5)
    offered = threading.Thread(target=lambda: [refresher.offer(k) for k in range(2, 10)])
    offered.start()
    offered.join(5)
    assert not offered.is_alive(), "offer() waited for the glass"
    assert not display.release.is_set() and len(display.attempts) == 1
    display.release.set()
    assert refresher.wait_idle(10)
    assert display.shown[-1] == frame(9).tobytes()


def test_a_failing_panel_logs_once_backs_off_and_then_shows_the_latest_frame(refresher_for, caplog):
    display = RecordingDisplay(failures=3)
    refresher = refresher_for(display, backoff=(0.05, 1.0))
    with caplog.at_level(logging.DEBUG, logger="companion.devices.refresh"):
        refresher.offer(1)
        assert display.entered.wait(5)
        for key in range(2, 6):  # offers while failing must not cut the backoff short
            refresher.offer(key)
            time.sleep(0.005)
        assert refresher.wait_idle(10)
    assert len(display.attempts) == 4
    gaps = [b - a for a, b in zip(display.attempts, display.attempts[1:], strict=False)]
    assert gaps[0] >= 0.05 and gaps[1] >= 0.1 and gaps[2] >= 0.2, gaps
    assert display.shown == [frame(5).tobytes()]
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) == 1 and "TimeoutError" in errors[0].getMessage()
    assert not refresher.failing and refresher.failures == 3
    assert any("works again" in r.getMessage() for r in caplog.records)


def test_a_busy_gpio_line_reported_as_system_exit_does_not_end_the_thread(refresher_for):
    # gpiodevice, under inky, raises SystemExit("Woah there, ...") when a line is already claimed.
    display = RecordingDisplay(failures=2, error=SystemExit("Woah there, GPIO 17 is in use"))
    refresher = refresher_for(display, backoff=(0.01, 0.05))
    refresher.offer(7)
    assert refresher.wait_idle(10)
    assert display.shown == [frame(7).tobytes()] and refresher.failures == 2


def test_each_failure_episode_logs_once(refresher_for, caplog):
    display = RecordingDisplay(failures=2)
    refresher = refresher_for(display, backoff=(0.02, 1.0))
    with caplog.at_level(logging.WARNING, logger="companion.devices.refresh"):
        refresher.offer(1)
        assert refresher.wait_idle(5)
        display.failures = 2
        refresher.offer(2)
        assert refresher.wait_idle(5)
    assert len(display.shown) == 2 and len(display.attempts) == 6
    assert len(caplog.records) == 2


def test_a_drawing_error_is_logged_and_the_next_frame_still_shows(refresher_for, caplog):
    display = RecordingDisplay()

    def render(key):
        if key == "bad":
            raise KeyError("no such view")
        return frame(key)
    refresher = refresher_for(display, render=render)
    with caplog.at_level(logging.ERROR, logger="companion.devices.refresh"):
        refresher.offer("bad")
        assert refresher.wait_idle(5)
    refresher.offer(3)
    assert refresher.wait_idle(5)
    assert display.shown == [frame(3).tobytes()]
    assert any("could not draw" in r.getMessage() for r in caplog.records)


def test_stop_interrupts_a_long_backoff():
    display = RecordingDisplay(failures=100)
    refresher = Refresher(display, frame, backoff=(60.0, 600.0)).start()
    refresher.offer(1)
    assert display.entered.wait(5)
    deadline = time.monotonic() + 5
    while refresher.failures == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    refresher.stop(timeout=5)
    assert not refresher._thread.is_alive()
    assert len(display.attempts) == 1


# --- the panel in the field: speed, timing, the wear budget, a stuck panel, shutdown -----------------
class Glass(RecordingDisplay):
    """A display whose refresh takes `seconds` (the glass's own time) and records each refresh's speed;
    `hang` makes a refresh never end, as a panel that stopped answering."""

    def __init__(self, model=MODEL, seconds: float = 0.0, hang: bool = False,
                 error: BaseException | None = None):
        super().__init__()
        self.model = model
        self.seconds, self.hang, self.raise_ = seconds, hang, error
        self.speeds: list[str | None] = []
        self.finished = threading.Event()

    def show(self, image: Image.Image) -> None:
        self.speeds.append(self.speed)
        self.attempts.append(time.monotonic())
        self.entered.set()
        if self.hang:
            self.release.clear()
            self.release.wait(30)
        elif self.seconds:
            time.sleep(self.seconds)  # the refresh itself: what the refresher must wait out
        if self.raise_ is not None:
            raise self.raise_
        self.shown.append(image.tobytes())
        self.finished.set()


def test_play_frames_go_at_the_fast_speed_and_the_rest_at_normal_speed(refresher_for):
    display = Glass()
    made = Refresher(display, frame, speed=lambda play: "fast" if play else "normal").start()
    try:
        made.offer(1)
        assert made.wait_idle(5)
        made.offer(2, play=True)
        assert made.wait_idle(5)
        made.offer(3, play=False)
        assert made.wait_idle(5)
    finally:
        made.stop()
    assert display.speeds == ["normal", "fast", "normal"]
    assert made.last_speed == "normal"


def test_each_refresh_is_timed_and_logged(caplog):
    display = Glass(seconds=0.2)
    made = Refresher(display, frame).start()
    try:
        with caplog.at_level(logging.DEBUG, logger="companion.devices.refresh"):
            made.offer(1)
            assert made.wait_idle(5)
    finally:
        made.stop()
    assert made.last_seconds >= 0.2 and made.refreshes_today == 1
    assert any("e-ink refresh took" in r.getMessage() for r in caplog.records)


def test_a_spent_budget_holds_the_frame_then_draws_the_newest_state():
    from companion.devices.wear import WearBudget, WearPolicy

    # a window of 1.2 s for 3 refreshes, 1 back to back: then one per 0.6 s, never closer than 0.3 s
    budget = WearBudget(WearPolicy(per_hour=3, burst=1, gap=0.3, window=1.2))
    drawn = []
    display = Glass()
    made = Refresher(display, lambda key: drawn.append(key) or frame(key), budget=budget).start()
    try:
        made.offer(0)
        assert display.entered.wait(5) and made.wait_idle(5)
        for key in range(1, 21):
            made.offer(key)
        assert made.wait_idle(10)
    finally:
        made.stop()
    assert drawn == [0, 20] and display.shown[-1] == frame(20).tobytes()
    assert display.attempts[1] - display.attempts[0] >= 0.3


def test_a_panel_that_never_finishes_a_refresh_is_a_fault_told_once_and_sent_nothing_more(caplog):
    told = []
    display = Glass(hang=True)
    made = Refresher(display, frame, deadline=0.3)
    made.watch(told.append)
    made.start()
    try:
        with caplog.at_level(logging.ERROR, logger="companion.devices.refresh"):
            made.offer(1)
            assert display.entered.wait(5)
            wait_for(lambda: told)
            made.offer(2)  # a newer state while the panel is stuck
            display.release.set()  # the hung refresh returns at last
            wait_for(lambda: made._sending_since is None)
    finally:
        made.stop()
    assert told == [made.fault] and "within" in made.fault
    assert len(display.attempts) == 1 and made.shown == 0 and not made.wait_idle(0)
    assert [r for r in caplog.records if "stopped answering" in r.getMessage()]


def test_the_driver_giving_up_on_a_refresh_is_a_fault_not_a_retry():
    from companion.devices.display import PanelStuck

    told = []
    gave_up = "the panel did not finish its refresh (Busy Wait: Timed out after 45.00s)"
    display = Glass(error=PanelStuck(gave_up))
    made = Refresher(display, frame, backoff=(0.01, 0.02))
    made.watch(told.append)
    made.start()
    try:
        made.offer(1)
        wait_for(lambda: told)
        made.offer(2)
    finally:
        made.stop()
    assert told and "Timed out" in told[0] and len(display.attempts) == 1


def test_a_refresh_as_long_as_the_drivers_own_wait_is_a_fault():
    from dataclasses import replace

    display = Glass(model=replace(MODEL, longest=0.2), seconds=0.25)
    made = Refresher(display, frame).start()
    try:
        made.offer(1)
        assert display.finished.wait(5)
        wait_for(lambda: made.fault is not None)
    finally:
        made.stop()
    assert made.fault is not None and "took" in made.fault and made.shown == 0


def test_stop_waits_for_a_refresh_under_way_to_finish():
    display = Glass(seconds=0.5)
    made = Refresher(display, frame, deadline=5.0).start()
    made.offer(1)
    assert display.entered.wait(5)
    made.stop(timeout=0.01)  # shorter than the refresh: the refresh is waited for all the same
    assert display.finished.is_set() and not made._thread.is_alive()


def test_stop_waits_for_a_hung_refresh_only_up_to_the_panels_deadline():
    display = Glass(hang=True)
    made = Refresher(display, frame, deadline=0.5).start()
    made.offer(1)
    assert display.entered.wait(5)
    started = time.monotonic()
    made.stop(timeout=0.01)
    waited = time.monotonic() - started
    try:
        assert made._thread.is_alive() and not display.finished.is_set()  # it gave up, and said why
        assert waited >= 0.5 - (started - display.attempts[0]) - 0.05  # it did wait for the refresh
    finally:
        display.release.set()


def test_a_frame_the_table_must_see_goes_at_the_next_refresh_the_panel_can_make_with_the_budget_spent():
    from companion.devices.wear import WearBudget, WearPolicy

    # ordinary frames: one back to back, then one per 30 s; a must-see one waits only for the 0.3 s gap
    budget = WearBudget(WearPolicy(per_hour=3, burst=1, gap=0.3, window=60.0, limit=10))
    drawn = []
    display = Glass()
    made = Refresher(display, lambda key: drawn.append(key) or frame(key), budget=budget).start()
    try:
        made.offer(0)
        assert display.entered.wait(5) and made.wait_idle(5)
        made.offer(1)  # the burst is spent: this one would wait half a minute
        made.offer(2, must=True)  # a card turned up: it goes now, as the newest state
        assert made.wait_idle(5)
    finally:
        made.stop()
    assert drawn == [0, 2] and display.shown[-1] == frame(2).tobytes()
    assert display.attempts[1] - display.attempts[0] < 5.0  # long before the ordinary pace's 30 s
