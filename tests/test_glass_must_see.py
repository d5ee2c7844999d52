"""The glass when it is the only display: a table without phones, or a frame the rules say the table must
see, goes at the next refresh the panel's wear budget allows; the rest keep the makers' pace."""

from __future__ import annotations

import random

from polling import wait_for
from simulator import glass_offers, running_simulator
from webfixtures import host_of, post_json

from companion.core import registry
from companion.gamekit.draws import ScriptedDraws


def test_a_table_without_phones_has_every_frame_go_at_once_and_a_phone_table_only_what_it_must_see(tmp_path):
    with running_simulator(tmp_path / "state", game="dice", language="en") as companion:
        port, table = companion.server.port, companion.table
        offers = glass_offers(companion)
        status, _ = post_json(port, "/api/command", {"kind": "roll"}, host_of(companion))
        assert status == 200
        wait_for(lambda: offers)
        assert offers[-1][1] is True  # no phone holds a seat: the glass is the only display
        code = table.roster.join_code()
        for seat, name in enumerate(("Anna", "Bob")):
            status, _ = post_json(port, "/api/join", {"code": code, "seat": seat, "name": name})
            assert status == 200
        wait_for(lambda: table.latest.seating >= 2)
        count = len(offers)
        token = table.seat_token(0)
        status, answer = post_json(port, "/api/command", {"kind": "roll"}, {"X-Seat-Token": token})
        assert status == 200, answer
        wait_for(lambda: len(offers) > count)
        # a roll shows on the LED dice and every phone: its frame keeps the wear budget's pace
        assert offers[-1][1] is False


def turned_up(game: str, seed: int = 3) -> tuple[bool, bool, bool]:
    """Play `game` at random until its end: whether some command was must-see, whether a roll alone
    ever was, and whether the command that ended it was."""
    from companion.benchmark.players import legal_command

    spec = registry.get(game)
    rng = random.Random(seed)
    draws = ScriptedDraws(rng)
    options, state = spec.start({"players": 3} if spec.seats[1] >= 3 else {}, draws)
    seats = spec.seats_in_play(options)
    some = roll_only = False
    for _ in range(20_000):
        command = legal_command(spec, state, seats, rng,
                                draws=lambda: ScriptedDraws(random.Random(rng.random())))
        assert command is not None
        state, events = spec.play(state, command, draws)
        seen = spec.must_see(state, events)
        if spec.over(state):
            return some, roll_only, seen
        some = some or seen
        roll_only = roll_only or (seen and all(spec.rolled([event]) for event in events))
    raise AssertionError(f"{game} did not end")


def test_what_the_table_must_see_comes_from_the_moves_reveals_never_a_roll_alone_and_always_the_end():
    some, roll_only, end = turned_up("schacht")
    assert some and not roll_only and end  # a card turned up, the bids revealed, the winner
    some, roll_only, end = turned_up("crash")
    assert not roll_only and end  # the LED dice show a roll; the match's end is told on the glass
