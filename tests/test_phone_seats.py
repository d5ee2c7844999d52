"""A seat a phone holds, or held earlier in the game, is played from a phone only (docs/security.md).

The device's buttons (pressed on the simulator's real mock pins, read on its real server's public live
page) and the host (through the real server) neither move for such a seat nor earn a refusal that
depends on its hand; the buttons still roll for whoever must roll. Freeing the seat changes nothing
until the game ends, across a restart too.
"""

from __future__ import annotations

import threading

import pytest
from polling import wait_for
from rallye_play import record
from simulator import running_simulator
from webfixtures import SSEClient, live_server, post_json, read_json, request, running_app

from companion.core.table import BUTTON_REFUSED, Update
from companion.gamekit.contract import PHONE_SEAT, Command
from companion.games.gewalt.data import ATTACKS
from companion.games.rallye import rules as rallye_rules
from companion.storage.store import Store

# Refusals that read no hand: the seat plays from its phone, or the button means nothing now.
BLIND = {PHONE_SEAT, BUTTON_REFUSED}


class Presses:
    """The simulator's mock-pin buttons, and every update the table publishes for a press."""

    def __init__(self, running):
        self.running, self.updates = running, []
        self._cond = threading.Condition()
        self._unsubscribe = running.table.subscribe(self._seen)

    def _seen(self, update: Update) -> None:
        if update.pressed is not None:
            with self._cond:
                self.updates.append(update)
                self._cond.notify_all()

    def press(self, keys: str, over_http: bool = False) -> list[Update]:
        """Press keys given as "a c roll:hold" one after the other; each press's answer, in order. Over
        HTTP: as any process on the simulator's machine may, through the twin page's endpoint."""
        answers = []
        for key in keys.split():
            with self._cond:
                seen = len(self.updates)
            name, _, hold = key.partition(":")
            if over_http:
                body = {"button": name, "hold": bool(hold)}
                assert request(self.running.config.port, "POST", "/api/device/press", body=body)[0] == 200
            else:
                self.running.board.press(name, hold=bool(hold)).join(5)
            with self._cond:
                answered = self._cond.wait_for(lambda seen=seen: len(self.updates) > seen, 10)
                assert answered, f"no answer to {key}"
                answers.append(self.updates[seen])
        return answers

    def close(self) -> None:
        self._unsubscribe()


def seat_everyone(table, players: int) -> None:
    for seat in range(players):
        table.seating(lambda roster, count, seat=seat: roster.claim(seat, f"Player {seat + 1}", count))


@pytest.fixture
def simulator(tmp_path, seeded_draws):
    def start(game: str, options: dict | None = None):
        return running_simulator(tmp_path, url="http://table.local/", game=game,
                                 options={game: options or {}})
    return start


class PublicPage:
    """The scoreboard's live stream on the simulator's real server: what every phone is shown."""

    def __init__(self, port: int):
        self.client = SSEClient(port, timeout=10)
        assert self.client.next_event()["event"] == "snapshot"

    def refusals(self, count: int) -> list[dict]:
        """The next `count` refusals it carries (updates in between are skipped)."""
        found = []
        while len(found) < count:
            message = self.client.next_event()
            if message["event"] == "rejected":
                found.append(message["data"])
        return found

    def close(self) -> None:
        self.client.close()


def refused_blind(answers: list[Update]) -> bool:
    return all(a.rejected is not None and a.rejected.msgid in BLIND for a in answers)


# --- 2. the device's buttons ------------------------------------------------------------------------
@pytest.mark.slow
def test_gewalt_buttons_neither_play_nor_discard_a_phone_seats_cards_but_still_roll(simulator):
    with simulator("gewalt", {"players": 3}) as running:
        table = running.table
        seat_everyone(table, 3)
        page = PublicPage(running.config.port)
        presses = Presses(running)
        try:
            turn = table.latest.acting
            hand, version = table.session.state.sections[turn], table.version
            # A place input stepped through lane, stage, section and length, then a discard input.
            answers = presses.press("a c c c b c a b a:hold a c")
            assert refused_blind(answers), [(a.pressed, a.rejected) for a in answers]
            assert table.version == version and table.session.state.sections[turn] == hand
            assert all(a.entry is None for a in answers)  # no value entered: nothing on the LED dice
            said = page.refusals(len(answers))
            assert {r["msgid"] for r in said} <= BLIND and PHONE_SEAT in {r["msgid"] for r in said}
            assert len({r["error"] for r in said if r["msgid"] == PHONE_SEAT}) == 1  # one text, no hand in it
            rolled = presses.press("roll")[0]  # a roll is public: ROLL still rolls for the seat to play
            assert rolled.rejected is None and rolled.command.kind == "roll" and table.version == version + 1
        finally:
            presses.close()
            page.close()


def attack_pending(table) -> int:
    """Phones roll until the seat to play holds an attack card, which it plays on the next seat."""
    while not any(card in ATTACKS for card in table.session.state.actions[table.latest.acting]):
        assert table.call(Command("roll", {}, table.latest.acting)).ok
    state, turn = table.session.state, table.latest.acting
    target = (turn + 1) % state.players
    card = next(card for card in state.actions[turn] if card in ATTACKS)
    assert table.call(Command("attack", {"card": card, "target": target}, turn)).ok
    assert table.latest.acting == target
    return target


@pytest.mark.slow
def test_gewalt_buttons_never_answer_an_attack_on_a_phone_seat(simulator):
    with simulator("gewalt", {"players": 3, "expert": True}) as running:
        table = running.table
        seat_everyone(table, 3)
        attack_pending(table)
        version = table.version
        presses = Presses(running)
        try:
            answers = presses.press("b a roll")  # counter, let it stand, roll
            assert [a.rejected.msgid for a in answers[:2]] == [PHONE_SEAT, PHONE_SEAT], answers
            assert answers[2].rejected is not None and table.version == version  # ROLL is no answer
        finally:
            presses.close()


@pytest.mark.slow
def test_schacht_buttons_never_bid_for_a_phone_seat_nor_show_the_value(simulator):
    with simulator("schacht", {"players": 3}) as running:
        table = running.table
        seat_everyone(table, 3)
        presses = Presses(running)
        try:
            version, turn = table.version, table.latest.acting
            answers = presses.press("a roll a roll:hold b:hold")  # a side, a value, place it; pass; recall
            assert refused_blind(answers) and table.version == version
            assert all(a.entry is None for a in answers)
            assert running.board.dice.faces == [None] * len(running.board.dice.faces)  # no value shown
            # Any process on the simulator's machine may press, through the twin's endpoint: the same.
            answers = presses.press("a a", over_http=True)
            assert refused_blind(answers) and table.version == version and table.latest.entry is None
            # Freed, the seat stays its phone's until the game ends: its hand is not the buttons' now.
            table.seating(lambda roster, count: roster.free(turn, count))
            assert refused_blind(presses.press("a")) and table.latest.entry is None
        finally:
            presses.close()


def test_a_phone_taking_the_seat_the_buttons_enter_for_drops_the_value(tmp_path):
    with running_app(tmp_path, game="schacht", options={"players": 3}) as (runtime, _):
        table = runtime.table
        entering = table.press("a").result(5)  # no phone at the table: the buttons bid for the seat
        assert entering.rejected is None and entering.entry is not None
        turn = table.latest.acting
        table.seating(lambda roster, count: roster.claim(turn, "Zoé", count))
        assert table.latest.entry is None  # the value being entered leaves the LED dice and the e-ink
        assert table.press("b").result(5).rejected.msgid == PHONE_SEAT


def rallye_store(tmp_path, until, file: str = "s.db", **options) -> rallye_rules.State:
    """A rally recorded into the store `file` of `tmp_path` up to the first state `until` accepts."""
    store = Store(tmp_path / file)
    try:
        return record(store, {"players": 3, "route_cards": 10, "auto_passages": True, **options}, 1, until)
    finally:
        store.close()


def asked_to_cancel(state) -> bool:
    return state.pending is not None and state.pending.kind == "cancel"


def asked_to_choose(state) -> bool:
    return state.pending is not None and state.pending.kind in ("target", "exit")


@pytest.mark.slow
@pytest.mark.parametrize(("until", "window"), [(asked_to_cancel, {"answer_seconds": 120}),
                                               (asked_to_choose, {"choice_seconds": 600})])
def test_rallye_buttons_never_answer_for_a_phone_seat(tmp_path, simulator, until, window):
    asked = rallye_store(tmp_path, until, "companion.db", **window)  # the simulator's store
    with simulator("rallye") as running:
        table = running.table
        assert table.session.state.pending == asked.pending
        seat_everyone(table, 3)
        version = table.version
        page = PublicPage(running.config.port)
        presses = Presses(running)
        try:
            answers = presses.press("a b roll")
            assert refused_blind(answers) and table.version == version
            assert PHONE_SEAT in {a.rejected.msgid for a in answers}
            assert table.session.state.pending == asked.pending
            assert {r["msgid"] for r in page.refusals(3)} <= BLIND
        finally:
            presses.close()
            page.close()


# --- 3. the host, a seat freed ----------------------------------------------------------------------
def host(runtime) -> dict:
    return {"X-Host-Token": runtime.table.host_token()}


def probe(server, runtime, commands: list[dict]) -> list[tuple[int, str]]:
    """The host's answers to `commands`, as its phone reads them."""
    out = []
    for body in commands:
        status, answer = post_json(server.port, "/api/command", body, host(runtime))
        out.append((status, answer.get("msgid", "")))
    return out


def freed_seat(runtime) -> int:
    """Every seat taken by a phone, then the seat to play freed by the host."""
    table = runtime.table
    seat_everyone(table, table.session.spec.seats_in_play(table.session.options))
    seat = table.latest.acting
    table.seating(lambda roster, count: roster.free(seat, count))
    return seat


@pytest.mark.parametrize(("game", "options", "commands"), [
    ("gewalt", {"players": 3},
     [{"kind": "discard_section", "args": {"length": n}} for n in range(9)]
     + [{"kind": "play_section", "args": {"length": n, "slot": {"lane": 4, "stage": 2, "section": 4}}}
        for n in range(9)]),
    ("schacht", {"players": 3}, [{"kind": "place", "args": {"side": 0, "value": v}} for v in (1, 2, 3, 4, 6)]
     + [{"kind": "pass"}, {"kind": "recall"}]),
])
def test_the_host_probing_a_freed_seat_learns_nothing(tmp_path, game, options, commands):
    with running_app(tmp_path, game=game, options=options) as (runtime, app), live_server(app) as server:
        seat = freed_seat(runtime)
        version = runtime.table.version
        answers = probe(server, runtime, commands)
        assert answers == [(409, PHONE_SEAT)] * len(commands)  # the same answer, whatever the hand
        assert runtime.table.version == version
        assert runtime.table.latest.acting == seat


def test_the_host_probing_a_freed_rallye_seat_over_its_hand_learns_nothing(tmp_path):
    trim = rallye_store(tmp_path, lambda state: rallye_rules.trimming(state) is not None, discard_seconds=600)
    with running_app(tmp_path, game="rallye") as (runtime, app), live_server(app) as server:
        seat = freed_seat(runtime)
        assert seat == rallye_rules.trimming(trim)
        cards = ["passage_access", "protection", "key", "tacks", "oil_roll", "oil_5", "shield_tacks",
                 "shield_oil", "swap", "lock"]
        answers = probe(server, runtime, [{"kind": "discard", "args": {"card": card}} for card in cards]
                        + [{"kind": "discard", "args": {}}])
        assert answers == [(409, PHONE_SEAT)] * (len(cards) + 1)
        assert runtime.table.session.state.hands == trim.hands


def test_a_seat_freed_stays_its_phones_after_a_restart_until_a_new_game(tmp_path):
    with running_app(tmp_path, game="schacht", options={"players": 3}) as (runtime, app):
        seat = freed_seat(runtime)
    with running_app(tmp_path, game="schacht", options={"players": 3}) as (runtime, app), \
            live_server(app) as server:
        assert runtime.table.latest.acting == seat and runtime.table.roster.name(seat) == ""
        assert probe(server, runtime, [{"kind": "pass"}]) == [(409, PHONE_SEAT)]
        assert runtime.table.press("roll:hold").result(5).rejected.msgid == PHONE_SEAT
        # A new game starts from the seats phones hold now: the freed seat is the buttons' and the host's.
        for other in range(3):
            if other != seat:
                runtime.table.seating(lambda roster, count, other=other: roster.free(other, count))
        assert probe(server, runtime, [{"kind": "new_game", "args": {"again": True}}]) == [(200, "")]
        assert probe(server, runtime, [{"kind": "pass"}]) == [(200, "")]


# --- 9. the Rallye's choices have a deadline --------------------------------------------------------
@pytest.mark.slow
def test_a_rallye_choice_nobody_makes_is_made_by_the_table_when_its_window_closes(tmp_path):
    asked = rallye_store(tmp_path, asked_to_choose, choice_seconds=2)
    seconds, default = rallye_rules.deadline(asked)
    assert seconds == 2
    with running_app(tmp_path, game="rallye") as (runtime, app), live_server(app) as server:
        table = runtime.table
        seat_everyone(table, 3)  # the chooser's phone says nothing, and the buttons may not choose for it
        version = table.version
        assert read_json(server.port, "/api/state")["public"]["pending"]["seconds"] == 2
        wait_for(lambda: table.version > version, timeout=15)
        made = next(r for r in table.store.records_since_last("new_game") if r.version == version + 1)
        assert (made.kind, made.seat, made.args) == (default.kind, None, dict(default.args))
        assert table.session.history[-1] == {"seat": asked.pending.seat, "kind": default.kind}


def victims_together(state) -> bool:
    return state.pending is not None and len(state.pending.seats) >= 2


@pytest.mark.slow
def test_an_answer_inside_a_window_of_several_victims_leaves_its_clock_running(tmp_path):
    """One window, one clock: a victim's answer gives those still asked no fresh time, and the table
    closes the window (no for them) when the time of its first question is up."""
    options = {"players": 3, "route_cards": 10, "auto_passages": True, "laps": 1, "answer_seconds": 3}
    asked = None
    for seed in range(1, 100):  # the first seed whose rally asks several victims together
        store = Store(tmp_path / f"seed{seed}.db")
        try:
            asked = record(store, options, seed, victims_together, 200)
        except AssertionError:
            continue
        finally:
            store.close()
        (tmp_path / f"seed{seed}.db").rename(tmp_path / "s.db")
        break
    assert asked is not None
    first, *still_asked = asked.pending.asked()
    with running_app(tmp_path, game="rallye") as (runtime, app), live_server(app) as server:
        table = runtime.table
        opened = table.latest.due
        assert opened is not None
        version = table.version
        assert table.call(Command("decline", {}, first)).ok
        assert table.version == version + 1 and table.session.state.pending.asked() == tuple(still_asked)
        assert table.latest.due == opened  # the same clock, not one started by the answer
        wait_for(lambda: table.version > version + 1, timeout=15)
        closed = next(r for r in table.store.records_since_last("new_game") if r.version == version + 2)
        assert (closed.kind, closed.seat) == ("close", None)
        after = table.session.state.pending
        assert after is None or after.opened != asked.pending.opened  # a later question: a window of its own
        assert read_json(server.port, "/api/state")["version"] == version + 2


def placing(state) -> bool:
    return state.phase == "placing"


@pytest.mark.slow
def test_a_passage_nobody_places_is_placed_by_the_table_when_its_window_closes(tmp_path):
    waiting = rallye_store(tmp_path, placing, auto_passages=False, choice_seconds=2)
    assert rallye_rules.deadline(waiting) == (2, Command("place_passage"))
    with running_app(tmp_path, game="rallye") as (runtime, app), live_server(app) as server:
        table = runtime.table
        seat_everyone(table, 3)  # the placer's phone says nothing, and the buttons may not place for it
        version = table.version
        pending = read_json(server.port, "/api/state")["public"]["pending"]
        assert (pending["kind"], pending["seconds"]) == ("place", 2)
        wait_for(lambda: table.version > version, timeout=15)
        made = next(r for r in table.store.records_since_last("new_game") if r.version == version + 1)
        assert (made.kind, made.seat, made.args) == ("place_passage", None, {})
        state = table.session.state
        assert state.placed == waiting.placed + 1 and len(state.circuit) == len(waiting.circuit) + 1
