"""The games keep their secrets: one seat's hidden values change nothing anyone else is shown, and the table's
own secrets (Le rallye hasardeux's face-down route cards and surprise pile) change nothing anyone is shown.

Secret values here are small integers (a driver card, a bet's target places, a section length), so they
cannot be searched for in the outputs the way tests/test_secret_sweep.py searches for its fake game's
secret. The check is non-interference instead. Hypothesis picks a seed, the players and the options; a
random legal game is played to its end and stopped at several points (one in each phase it went
through, and a few more). At each point, for each seat X, a twin state is built in which only X's
secrets differ, still a state the game could be in. Everything X does not own must be the same for the
state and its twin:
- the public view, and the legal moves of the table (the device) and of every other seat;
- every other seat's private view;
- what the HTTP layer answers: /api/state, the public live stream's snapshot and the scoreboard page
  (anyone), each other seat's /api/seat/<token>, its live stream and its seat page;
- the rules' answer to every kind of command, with random args, from every other seat and from the
  table (when it acts for another seat): accepted, or refused with the same reason;
- the device: the LED dice and the input's public part while random buttons are pressed (the controller
  is handed the public view only, as the daemon does, so even X's own input at the device shows the
  same for both);
- the e-ink frame, in French and in English;
- the message a venue's table writes to its outbox for the dashboard (companion/outputs/venue/outbox.py).
X's own private view must differ, or the twin hid nothing and the check could not fail.

The table's own secret is owned by no reader: a twin that differs only in it must give every output of every
reader the same, and the secret itself must differ between the two (asserted), so the check can fail.
"""

from __future__ import annotations

import functools
import random
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace

import msgspec
import pytest
from device_input import Device
from gewalt_play import play_out
from gewalt_play import start as gewalt_start
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rallye_play import data as rallye_data
from rallye_play import play_out as rallye_play_out
from schacht_play import random_command as schacht_command
from schacht_play import start as schacht_start
from twins import (
    gewalt_bets,
    gewalt_table_twin,
    gewalt_twin,
    rallye_hidden,
    rallye_table_twin,
    rallye_twin,
    schacht_twin,
)
from webfixtures import Runtime

from companion.core import registry
from companion.core.seats import MAX_SEATS
from companion.core.session import Session
from companion.core.table import Update
from companion.devices.panels import DEFAULT_PANEL, panel
from companion.foreground import Foreground
from companion.gamekit import ScriptedDraws, put
from companion.gamekit.contract import Command, IllegalMove, TableInfo
from companion.gamekit.testing import random_args
from companion.games.gewalt import rules as gewalt_rules
from companion.games.rallye import rules as rallye_rules
from companion.games.rallye import state as rallye_state
from companion.games.schacht import rules as schacht_rules
from companion.outputs.frames import render
from companion.outputs.venue.outbox import SCHEMA as OUTBOX_SCHEMA
from companion.outputs.venue.outbox import writer as outbox_writer
from companion.outputs.venue.publishing import scoreboard_view
from companion.outputs.webapp import create_app

URL = "http://192.168.1.20:8080/"
NAMES = ("Ada", "", "Chloé", "Dimitri-Alexandre", "Eve")
KEYS = ("a", "b", "c", "d", "roll", "a:hold", "b:hold", "c:hold", "roll:hold")
LANGUAGES = ("fr", "en")
HOST = "host-token-of-the-still-table"
TOKENS = tuple(f"seat-{seat}-token-of-the-still-table" for seat in range(MAX_SEATS))
SCHACHT_VARIANTS = ("shuffled_piles", "steal_second_home", "fewer_points", "end_penalty", "next_lower_wins")

pytestmark = pytest.mark.slow  # whole games, every output compared at many points


# --- what a reader other than seat X is shown ---------------------------------------------------------
class StillTable:
    """What the routes read of a table, held at one update: the latest, the tokens. It never writes."""

    def __init__(self):
        self.latest: Update | None = None
        self.foreground = Foreground()
        self.roster = self  # the live streams check a seat's link through the roster

    def token(self, seat: int) -> str | None:
        return TOKENS[seat] if 0 <= seat < len(TOKENS) else None

    def subscribe(self, subscriber):
        return lambda: None

    def host_token(self) -> str:
        return HOST

    def seat_for_token(self, token: str) -> int | None:
        return TOKENS.index(token) if token in TOKENS else None

    @property
    def moment(self):
        """What the outputs read: the held update's Moment."""
        return self.latest.moment

    @property
    def links(self):
        return self  # the live streams check a seat's link through the table's links

    def seat_holds(self, seat: int | None, token: str) -> bool:
        return seat is not None and self.token(seat) == token


@functools.cache
def still_app():
    """The real app (routes, templates, live streams) over a still table: one for the whole module."""
    table = StillTable()
    app = create_app(Runtime(table=table, language="fr", url=URL))
    return table, app.test_client()


def http_answers(update: Update, seats: list[int]) -> dict[tuple[str, int | None], bytes]:
    """The routes' answers for `update`: the public ones, then each of `seats`' own."""
    table, client = still_app()
    table.latest = update
    routes: list[tuple[str, int | None]] = [("/api/state", None), ("/api/events", None), ("/", None)]
    for seat in seats:
        token = TOKENS[seat]
        routes += [(f"/api/seat/{token}", seat), (f"/api/seat/{token}/events", seat),
                   (f"/seat/{token}", seat)]
    out = {}
    for path, owner in routes:
        stream = path.endswith("/events")
        response = client.get(path, buffered=not stream)
        try:
            assert response.status_code == 200, (path, response.status_code)
            body = next(iter(response.response)) if stream else response.get_data()  # a stream's snapshot
        finally:
            response.close()
        out[(f"GET {path.replace(TOKENS[owner], '<token>') if owner is not None else path}", owner)] = body
    return out


def venue_message(update: Update) -> str:
    """The row a venue's table writes to its outbox for `update`: all that leaves the table for the venue."""
    db = sqlite3.connect(":memory:")
    db.executescript(OUTBOX_SCHEMA)
    outbox_writer(scoreboard_view)(db, update.moment)
    (body,) = db.execute("SELECT body FROM venue_outbox").fetchone()
    return body


def device_trace(spec, view: dict, presses: list[str]) -> tuple[list, object]:
    """Each press's answer, the LED dice and the input's public part after it; the last entry."""
    device = Device(spec, view)
    trace = []
    for key in presses:
        answer = device.press(key)
        entering = device.leds()
        faces = entering if entering is not None else spec.dice_shown(view)
        trace.append((key, answer, faces, device.shown()))
    return trace, device.shown()


def probes(name: str, state, owner: int | None, rng: random.Random) -> list[tuple[Command, str, frozenset]]:
    """Commands of the seats other than `owner` and of the table, every kind with random args, each with
    who sent it. When the table acts for `owner`, owner's seat plays from a phone: the table's commands
    are tried as the host's and as the device's buttons' (the seat policy of GameSpec.check). No owner
    (the table's own secret): every seat's and the table's."""
    game = GAMES[name]
    senders = [(s, "") for s in range(state.players) if s != owner]
    if owner is None or game.actor(state) != owner:
        senders.append((None, ""))
    else:
        senders += [(None, "host"), (None, "buttons")]
    return [(Command(kind, random_args(schema, rng), sender), how, frozenset({owner}) if how else frozenset())
            for sender, how in senders for kind, schema in game.commands.items()]


def answer(name: str, state, command: Command, how: str = "", phones: frozenset = frozenset()):
    """What the rules answer a command: accepted, or refused with the reason the sender reads. `how`:
    "host" or "buttons" for the table's command while `phones` play from phones."""
    try:
        registry.get(name).play(state, command, GAMES[name].draws(), phones, how == "buttons")
    except IllegalMove as refusal:
        return "refused", refusal.msgid, refusal.params
    return ("accepted",)


def outputs(name: str, options: dict, state, presses: list[str], commands: list[tuple] = (), *,
            others_of: int | None = None, frames: bool = True) -> dict[tuple[str, int | None], object]:
    """Every output of `state`, keyed (what, whose): whose is the seat that owns it, None for everyone.

    With `others_of` = X, the outputs owned by X are left out but for X's private view (the twin check
    compares the rest and needs that one to see the twin changed something).
    """
    spec = registry.get(name)
    players = spec.seats_in_play(options)
    public = spec.public_json(state)
    session = Session(name, options, state, history=({"seat": None, "kind": "new_game"},))
    update = Update(7, name, public, session=session, seats=())
    others = [s for s in range(players) if s != others_of]
    out: dict[tuple[str, int | None], object] = {("public view", None): public,
                                                 ("legal moves", None): spec.legal(state, None),
                                                 ("the table's default, when", None): spec.deadline(state)}
    for seat in range(players):
        out[("private view", seat)] = spec.private_json(state, seat)
    for seat in others:
        out[("legal moves", seat)] = spec.legal(state, seat)
    out |= http_answers(update, others)
    out[("the venue's message", None)] = venue_message(update)
    for command, how, phones in commands:
        out[(f"answer to {command.kind} {dict(command.args)} {how}", command.seat)] = answer(
            name, state, command, how, phones)
    trace, entry = device_trace(spec, public, presses)
    out[("device buttons and LED dice", None)] = trace
    if frames:
        info = TableInfo(URL, "K7QF", NAMES[:players], entry)
        for lang in LANGUAGES:
            image = render(name, public, panel(DEFAULT_PANEL), lang, info).image
            out[(f"e-ink frame ({lang})", None)] = image.tobytes()
    return out


def leaks(name: str, options: dict, state, twin, seat: int | None, rng: random.Random,
          frames: bool = True) -> list[str]:
    """The outputs seat `seat` does not own that differ between `state` and its `twin` (none, if kept).

    `seat` None: the twin differs in the table's own secret, which no reader owns, so every output counts.
    """
    presses = [rng.choice(KEYS) for _ in range(rng.randrange(2, 14))]
    commands = probes(name, state, seat, rng)
    real = outputs(name, options, state, presses, commands, frames=frames)
    other = outputs(name, options, twin, presses, commands, others_of=seat, frames=frames)
    if seat is None:
        assert GAMES[name].hidden(state) != GAMES[name].hidden(twin), \
            "the twin changed nothing of the table's secret: the check could not fail"
    else:
        assert real[("private view", seat)] != other[("private view", seat)], \
            f"the twin changed nothing seat {seat} sees: the check could not fail"
    return [f"{what} (seat {owner})" if owner is not None else what
            for (what, owner), value in other.items()
            if (seat is None or owner != seat) and real[(what, owner)] != value]


# --- Crazy Race (Gewalt): bets, section and action hands ------------------------------------------------
def gewalt_moment(state) -> str:
    if gewalt_rules.over(state):
        return "over"
    if state.pending:
        return "attack waiting for an answer"
    if any(p == gewalt_rules.FINISHED for p in state.pawns):
        return "a pawn home, the race goes on"
    return "racing"


def gewalt_game(players: int, expert: bool, seed: int) -> list[tuple[object, dict]]:
    """Every state of one random legal game, with nothing else to know (the twin needs no history)."""
    draws = ScriptedDraws(seed)
    states = [rules_state := gewalt_start({"players": players, "expert": expert}, draws)]
    play_out(rules_state, random.Random(seed), draws, each=states.append)
    return [(s, {}) for s in states]


# --- Crazy Race (Schacht): hands, discards, face-down cards, take-back choices -----------------------------
def schacht_game(players: int, variants: dict, seed: int) -> list[tuple[object, dict]]:
    """Every state of one random legal game, each with the take-back choices made since each recall."""
    rng = random.Random(seed)
    draws = ScriptedDraws(rng)
    state = schacht_start({"players": players, **variants}, draws)
    took, kept = [0] * players, [0] * players
    states = [(state, {"took": tuple(took), "kept": tuple(kept)})]
    for _ in range(400):
        if state.phase == "over":
            return states
        command = schacht_command(state, rng)
        who = schacht_rules.actor(state) if command.seat is None else command.seat
        state, _events = registry.get("schacht").play(state, command, draws)
        if command.kind == "take_back":
            (took if command.args["value"] is not None else kept)[who] += 1
        if command.kind == "recall":
            took[who] = kept[who] = 0
        states.append((state, {"took": tuple(took), "kept": tuple(kept)}))
    raise AssertionError("a game of 8 stages ends")


def schacht_moment(state) -> str:
    return state.phase


# --- Le rallye hasardeux: the hands, and the table's own face-down route cards and surprise pile ----------
def rallye_moment(state) -> str:
    if state.phase in ("placing", "over"):
        return state.phase
    if rallye_state.trimming(state) is not None:
        return "a hand over 3"
    if state.pending is not None:
        return "cancel window" if state.pending.kind == "cancel" else "a choice"
    return "a player home, the race goes on" if state.ranking else "racing"


def rallye_game(options: dict, seed: int) -> list[tuple[object, dict]]:
    """Every state of one random legal rally."""
    rng, draws = random.Random(seed), ScriptedDraws(seed)
    state = rallye_rules.setup(msgspec.convert(options, rallye_rules.RallyeOptions), draws, rallye_data())
    states = [(state, {})]
    rallye_play_out(state, lambda n: rng.randrange(n) if n > 1 else 0, draws,
                    each=lambda before, after, command, events: states.append((after, {})))
    return states


# --- the check, for every game --------------------------------------------------------------------------
@dataclass(frozen=True)
class Game:
    name: str
    moment: Callable
    twin: Callable  # (state, seat, rng, history) -> twin or None
    actor: Callable  # state -> the seat the table's own commands act for
    commands: dict  # kind -> msgspec Struct of its args
    draws: Callable  # () -> draws, the same sequence each time
    table_twin: Callable | None = None  # (state, rng) -> a twin differing only in the table's own secret
    hidden: Callable | None = None  # state -> the table's own secret (the twin's must differ)


GAMES = {
    "gewalt": Game("gewalt", gewalt_moment, lambda state, seat, rng, history: gewalt_twin(state, seat, rng),
                   gewalt_rules.actor, registry.get("gewalt").commands, lambda: ScriptedDraws(0),
                   gewalt_table_twin, lambda state: (state.section_deck.pile, state.action_deck.pile)),
    "schacht": Game("schacht", schacht_moment, lambda state, seat, rng, history: schacht_twin(
        state, seat, rng, history["took"][seat], history["kept"][seat]),
        schacht_rules.actor, registry.get("schacht").commands,
        lambda: ScriptedDraws(random.Random(0))),
    "rallye": Game("rallye", rallye_moment, lambda state, seat, rng, history: rallye_twin(state, seat, rng),
                   rallye_rules.actor, registry.get("rallye").commands, lambda: ScriptedDraws(0),
                   rallye_table_twin, rallye_hidden),
}


def stops(record: list, moment: Callable, rng: random.Random, extra: int = 2) -> list[int]:
    """Where to stop the game: one random state of each moment it went through, and `extra` more."""
    by_moment = defaultdict(list)
    for index, (state, _history) in enumerate(record):
        by_moment[moment(state)].append(index)
    chosen = {rng.choice(indexes) for indexes in by_moment.values()}
    return sorted(chosen | {rng.randrange(len(record)) for _ in range(extra)})


@dataclass
class Checked:
    """What one game's check did: twins compared per moment, and where no twin was possible."""

    twins: Counter = field(default_factory=Counter)
    none: Counter = field(default_factory=Counter)
    table: Counter = field(default_factory=Counter)  # twins of the table's own secret compared, per moment


def check_game(name: str, options: dict, record: list, rng: random.Random, frames_at: int = 2) -> Checked:
    game, done = GAMES[name], Checked()
    spots = stops(record, game.moment, rng)
    framed = set(rng.sample(spots, min(frames_at, len(spots))))
    for index in spots:
        state, history = record[index]
        players = registry.get(name).seats_in_play(options)
        for seat in range(players):
            twin = game.twin(state, seat, rng, history)
            if twin is None:
                done.none[game.moment(state)] += 1
                continue
            found = leaks(name, options, state, twin, seat, rng, frames=index in framed)
            assert not found, f"seat {seat}'s secrets reach {found} ({game.moment(state)}, move {index})"
            done.twins[game.moment(state)] += 1
        twin = game.table_twin(state, rng) if game.table_twin else None
        if twin is not None:
            found = leaks(name, options, state, twin, None, rng, frames=index in framed)
            assert not found, f"the table's own secret reaches {found} ({game.moment(state)}, move {index})"
            done.table[game.moment(state)] += 1
    return done


# --- the properties ------------------------------------------------------------------------------------
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 5), expert=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_gewalt_no_seat_sees_anothers_bet_or_hands(players, expert, seed):
    options = {"players": players, "expert": expert}
    record = gewalt_game(players, expert, seed)
    done = check_game("gewalt", options, record, random.Random(seed))
    assert sum(done.twins.values()) >= players  # every stop but the end has secrets to vary
    # At the end the bets are revealed by design: another bet now changes the public scores.
    end = record[-1][0]
    assert gewalt_rules.over(end) and gewalt_twin(end, 0, random.Random(seed)) is None
    spare = Counter(gewalt_bets(players)) - Counter(end.bets)
    other = replace(end, bets=put(end.bets, 0, next(b for b in spare.elements() if b != end.bets[0])))
    view = registry.get("gewalt").public_json(end)
    assert [row["targets"] for row in view["scores"]] == [list(bet) for bet in end.bets]
    assert registry.get("gewalt").public_json(other) != view


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4]), seed=st.integers(0, 2**32 - 1),
       variants=st.fixed_dictionaries({v: st.booleans() for v in SCHACHT_VARIANTS}))
def test_schacht_no_seat_sees_anothers_hand_face_down_cards_or_take_back(players, seed, variants):
    record = schacht_game(players, variants, seed)
    done = check_game("schacht", {"players": players, **variants}, record, random.Random(seed))
    # Only at the very start is every seat's hand all of its cards, known to all: nothing to vary.
    assert sum(done.twins.values()) >= players * 2 and len(done.twins) >= 3, done


RALLYE_VARIANTS = ("auto_passages", "ford_exact", "backward_stop")


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), route_cards=st.sampled_from([10, 16]),
       variants=st.fixed_dictionaries({v: st.booleans() for v in RALLYE_VARIANTS}))
def test_rallye_nobody_sees_a_face_down_card_the_pile_or_anothers_hand(players, seed, route_cards, variants):
    options = {"players": players, "route_cards": route_cards, "laps": 1, **variants}
    record = rallye_game(options, seed)
    done = check_game("rallye", options, record, random.Random(seed))
    # the table's secret is compared at every stop but the very end (by then the pile may be empty and every
    # card turned, yet a face-down card or two nearly always remain): at least once per moment met
    assert sum(done.table.values()) >= len(done.table) >= 3, done
    assert sum(done.twins.values()) >= players, done


def test_the_stops_reach_every_moment_of_every_game():
    """Random play goes through every phase, so the stops (one per phase met) check each of them."""
    met = {"gewalt": set(), "schacht": set(), "rallye": set()}
    for seed in range(6):
        met["gewalt"] |= {gewalt_moment(s) for s, _ in gewalt_game(3 + seed % 3, seed % 2 == 0, seed)}
        met["schacht"] |= {schacht_moment(s) for s, _ in schacht_game(3 + seed % 2, {}, seed)}
        options = {"players": 2 + seed % 5, "route_cards": 10, "laps": 1}
        met["rallye"] |= {rallye_moment(s) for s, _ in rallye_game(options, seed)}
    assert met["gewalt"] == {"racing", "attack waiting for an answer", "a pawn home, the race goes on",
                             "over"}
    assert met["schacht"] == {"bid", "decide", "takeback", "review", "over"}
    assert met["rallye"] == {"placing", "racing", "cancel window", "a choice", "a hand over 3",
                             "a player home, the race goes on", "over"}
