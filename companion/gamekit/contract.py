"""What a game registers to plug into the table: the whole contract between a game and the platform."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib.resources import files
from typing import Any

import msgspec

from companion.i18n import N_

MAX_SEATS = 6  # the most seats any game has: phones join the table, and each game plays its first seats
# A data file the host uploads or the config names is recorded with every new game and read on every
# start: these bound its size and its lists (a bundled deck or board is 1 to 3 KB and lists at most 200
# items), unless the game's DataFile declares its own.
MAX_DATA_KB = 16
MAX_DATA_ITEMS = 1000
State = Any
View = dict  # a view as every output reads it: plain JSON, what a phone receives
Entry = Any  # a button input in progress: immutable, owned by the table, never recorded
Faces = list  # LED dice faces: 1-6, or None for a dark die


# The table's own refusals, for what every spec declares (msgids: the platform's catalog has them).
UNKNOWN_COMMAND = N_("Unknown command {kind}: send one of {kinds}.")
GAME_OVER = N_("The game is over: start a new game from the host page.")
NOT_YOU = N_("Player {player} must act now, not you: wait for them.")
NOT_YOU_MANY = N_("Players {players} must act now, not you: wait for them.")
NOT_NOW = N_("That move is not possible now: choose one of the moves your page offers.")
PHONE_SEAT = N_("Seat {n} plays from its own phone: only that phone may make this move.")


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

    `seat` is None for the table itself (device buttons, host): such a command acts for whoever must
    act now (the spec's `actor`), unless a phone plays that seat (`GameSpec.check`). A seat's phone
    sends its own seat number, and the rules refuse it out of turn. `args` is plain JSON, exactly as
    the record holds it.
    """

    kind: str
    args: Mapping[str, Any] = field(default_factory=dict)
    seat: int | None = None


@dataclass(frozen=True)
class Colour:
    """A seat's colour: `key` for code and CSS, `label` a msgid, `ink` an sRGB hex for pages.

    The e-ink draws the panel ink nearest in hue (`Palette.seat`), else black: the seat's initial or
    name always goes with it, so colour is never the only cue.
    """

    key: str
    label: str
    ink: str


@dataclass(frozen=True)
class TableInfo:
    """What a screen may show besides the game's public view.

    `names[seat]` is the name a phone chose for that seat ("" if none); `entry` is the public part of
    a button input in progress (the controls' `shown`), never a secret value. `wifi` is the table's own
    Wi-Fi while it is the network (a `WIFI:` QR payload; the panel shows it, presence is the credential).
    `at` is when the table reached the state shown ("21:04"): the frame states it, so a table can tell a
    glass that lags.
    """

    url: str
    join_code: str = ""
    names: tuple[str, ...] = ()
    entry: Mapping[str, Any] | None = None
    wifi: str = ""
    at: str = ""

    def name(self, seat: int, colours: tuple[Colour, ...], tr: Callable[..., str]) -> str:
        """The name of `seat` as a screen shows it: the chosen name, else its colour's label."""
        chosen = self.names[seat] if seat < len(self.names) else ""
        return chosen or (tr(colours[seat].label) if seat < len(colours) else str(seat + 1))


def _nothing(entry: Entry, view: View) -> None:
    return None


@dataclass(frozen=True)
class Controls:
    """The device's buttons for one game: pure functions of an immutable input in progress.

    - `step(entry, key, view) -> (entry, command or None)`: `key` is "a".."d" or "roll", with
      ":hold" for a long press; `entry` is None when no input is in progress. A press that returns
      no command and the same entry changed nothing: the device shows that it was refused.
    - `leds(entry, view)`: the LED faces while the input is in progress (e.g. a value being chosen).
    - `shown(entry, view)`: the public part of the input, for the e-ink (never a secret value).

    The table runs `step` on its own thread and drops the input whenever a command changes the game.
    """

    step: Callable[[Entry, str, View], tuple[Entry, Command | None]]
    leds: Callable[[Entry, View], Faces | None] = _nothing
    shown: Callable[[Entry, View], Mapping[str, Any] | None] = _nothing


def button_map(keys: Mapping[str, Callable[[View], Command | None]]) -> Controls:
    """The simplest controls: each key maps straight to a command made from the public view."""

    def step(entry: Entry, key: str, view: View) -> tuple[Entry, Command | None]:
        make = keys.get(key)
        return None, make(view) if make else None
    return Controls(step)


@dataclass(frozen=True)
class DataFile:
    """A replaceable data file of a game (a deck, a board), shipped in the game's folder.

    `load(text, name)` parses it for `setup`, or raises IllegalMove naming `name`, the field and the
    reason. The text a game was set up with is recorded with its new_game command, so a replay is
    the same after an upgrade edits the bundled file.
    """

    key: str  # its name in the record, the config ([data.<game>]) and the host's form
    bundled: str  # the file in the game's folder
    title: str  # msgid, for the host's form
    load: Callable[[str, str], Any]
    max_kb: int = MAX_DATA_KB  # the largest copy the host or the config may give, in KB
    max_items: int = MAX_DATA_ITEMS  # the most items its lists may hold together (cards, cells, values)


@dataclass(frozen=True)
class DataText:
    """The text of one data file and the name errors call it by."""

    name: str
    text: str


@dataclass(frozen=True)
class Help:
    """A game's rules help, shown folded on every seat page in the reader's language (all msgids).

    `how` says how to play; `cards` maps a card (or a board feature) to what it does, and `names` to
    what it is called, where the name is not already part of the text.
    """

    how: str = ""
    cards: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Result:
    """How a finished game ended, for its record: the winning seats (none for a draw), each seat's
    score where the game keeps one, and each seat's place (1 first) where it ranks instead."""

    winners: tuple[int, ...] = ()
    scores: tuple[int, ...] | None = None
    ranks: tuple[int | None, ...] | None = None


@dataclass(frozen=True)
class MatchGame:
    """Which game of a match a view shows: `game` of `games` (from 1), and whether that game has ended."""

    game: int
    games: int
    ended: bool


@dataclass(frozen=True)
class GameSpec:
    """A game, as the platform sees it; the platform reads a game through this and nothing else.

    Every callable is pure: no I/O, clock or global random state.
    - setup(options, draws, data) -> state; `options` is an instance of `options`, `data` maps each
      DataFile's key to what its `load` gave
    - apply(state, command, draws) -> (state, events); raises IllegalMove
    - legal(state, seat) -> the command kinds that seat (None: the table) may send now
    - actor(state) -> the seat the device's buttons and the host act for now (None: nobody)
    - waiting(state) -> the seats the rules wait on now (their phones say "Your turn"); by default the
      actor alone. A game that waits on several seats at once (answers to a question) says so here.
    - public_view(state) -> a `public` Struct, safe for the e-ink, the LEDs and every phone
    - private_view(state, seat) -> a `private` Struct for that seat's phone only
    - screen(public_view, canvas, tr, table_info) draws the e-ink frame
    - dice_shown(public_view) -> the faces the LED dice hold
    - rolled(events) -> whether the command rolled dice (the LED dice tumble before they hold)
    - undoable(events) -> whether the command that made `events` may be undone: not one that
      revealed hidden cards or rolled dice for all to see (an undo would let a player choose again
      knowing what came out)
    - over(state) -> whether the game has ended: the host's export of a game that hides something
      (`hidden`: hands, bets, face-down cards) is full only then
    - result(public_view) -> the `Result` of a game that is over, read from its final public view
      (plain JSON), for the game's record: a game that never ends keeps the default
    - deadline(state) -> (seconds, command) or None: if no other command comes within that time,
      the table sends `command` itself (an answer window closing with its default, say); it is
      recorded like any command, so a replay needs no clock. Each state change starts the time anew,
      unless the deadline names its window, (seconds, command, window) with `window` a hashable key
      read from the state: while the next state's deadline names the same window, its clock runs on
      (the victims still to answer get no fresh time when one answers); a new key starts a new window
    - colours: the seats' colours, in seat order; how many seats play comes from the `players` option
    - history_lines: each command kind's line in the public history, a msgid with `{who}`
    - not_now: for a command kind, what its sender is told when the kind is not legal for them now and
      it is not a matter of waiting for another seat: a msgid ("Roll the dice first."), or, for a
      kind refused in several situations, `words(state, seat) -> IllegalMove` saying which (read from
      public facts only, as `legal` is; seat None: the table). Without it the move is "not possible now".
    - public_moves: the command kinds the device's buttons may still send for a seat that plays from a
      phone: acts the whole table sees, that choose nothing for the seat and whose refusals read public
      facts only (a roll for whoever must roll). A game that hides nothing (`hidden` False) allows
      every kind.
    - help: the rules help every seat page shows, folded (`Help`)
    - command_labels: each command kind's button on the generated seat page, a msgid
      ({"add": N_("Add")}); without one, the kind with a capital and spaces ("set_dice": "Set dice"),
      looked up in the game's catalog
    - match_game(public_view) -> the `MatchGame` a game played as a match of several is at, or None:
      when one of its games ends, the seat pages' end box and the scoreboard say which game it was and
      what comes next (the next game of the match, or the match's end)
    - seat_names: each seat's place at the table, a msgid in seat order (Crash!: "North", "South"); the
      join page and the seats' pages show it beside the seat's colour. Without one, "Seat {n}"
    - package: the game's import name: its templates/, static/ and locale/ folders live there

    A game without pages of its own gets them generated from `commands`, `public` and `private`: each
    field is named by its `msgspec.Meta(title=N_("..."))` (without one, by its name made readable as
    above), and its `description` is a hint under a command's field. A value typed `Seat` (an int from
    0) reads as that seat's name, and a `PerSeat[T]` list, one item per seat in seat order, puts each
    item beside its seat's name (both in companion.gamekit).
    """

    name: str
    title: str  # msgid
    package: str
    commands: Mapping[str, type[msgspec.Struct]]
    setup: Callable[[Any, Any, Mapping[str, Any]], State]
    apply: Callable[[State, Command, Any], tuple[State, list[dict]]]
    legal: Callable[[State, int | None], list[str]]
    actor: Callable[[State], int | None]
    public_view: Callable[[State], msgspec.Struct]
    private_view: Callable[[State, int], msgspec.Struct]
    public: type[msgspec.Struct]
    private: type[msgspec.Struct]
    screen: Callable[..., None]
    controls: Controls
    dice_shown: Callable[[View], Faces] = lambda view: []
    rolled: Callable[[list[dict]], bool] = lambda events: False
    deadline: Callable[[State], tuple[float, Command] | tuple[float, Command, Hashable] | None] = \
        lambda state: None
    undoable: Callable[[list[dict]], bool] = lambda events: True
    waiting: Callable[[State], Sequence[int]] | None = None
    over: Callable[[State], bool] = lambda state: False
    result: Callable[[View], Result] = lambda view: Result()
    hidden: bool = True  # whether the game keeps anything from any player
    seats: tuple[int, int] = (0, 0)  # min, max players with a private page
    options: type[msgspec.Struct] | None = None  # validates the setup options; defaults fill gaps
    colours: tuple[Colour, ...] = ()
    history_lines: Mapping[str, str] = field(default_factory=dict)
    data: tuple[DataFile, ...] = ()
    help: Help | None = None
    not_now: Mapping[str, str | Callable[[State, int | None], IllegalMove]] = field(default_factory=dict)
    public_moves: frozenset[str] = frozenset()
    command_labels: Mapping[str, str] = field(default_factory=dict)
    seat_names: tuple[str, ...] = ()
    match_game: Callable[[View], MatchGame | None] = lambda view: None

    def waiting_on(self, state: State) -> list[int]:
        """The seats the rules wait on now, in seat order: the one contract every page reads for
        "Your turn" (`waiting` if the game gives it, else its actor)."""
        if self.waiting is not None:
            return sorted(self.waiting(state))
        seat = self.actor(state)
        return [] if seat is None else [seat]

    def seats_in_play(self, options: Mapping[str, Any]) -> int:
        """How many seats this game has, from its options (its `players`, else the most it allows)."""
        return int(options.get("players", self.seats[1]))

    # --- what the platform does with a game, in one place ------------------------------------------
    def play(self, state: State, command: Command, draws, phones: Collection[int] = (),
             device: bool = False) -> tuple[State, list[dict]]:
        """`apply`, once the table has checked what the spec declares (see `check`): the one way the
        platform, the replay and the conformance checks run a command."""
        return self.apply(state, self.check(state, command, phones, device), draws)

    def check(self, state: State, command: Command, phones: Collection[int] = (),
              device: bool = False) -> Command:
        """The command as the rules are handed it, or IllegalMove: an unknown kind, a game that is over,
        a command of the table for a seat that plays from a phone, a kind not in `legal(state, seat)`, a
        seat that may not act now. A command of the table itself (seat None) acts for the `actor`.

        `phones` are the seats played from phones in this game (held by one now, or earlier in this
        game): the table (the host, or the device's buttons when `device`, which may still send the
        `public_moves`) never moves for one, so it can neither choose for it nor probe its secrets. The
        table's own defaults (a deadline) and the replay of accepted records pass none. Every refusal is
        read from public facts only (`legal`, `actor`, `waiting`), so it tells no secret; a game's rules
        never repeat these guards."""
        kind, seat = command.kind, command.seat
        if kind not in self.commands:
            raise IllegalMove(UNKNOWN_COMMAND, kind=kind, kinds=", ".join(self.commands))
        if self.over(state):
            raise IllegalMove(GAME_OVER)
        if seat is None and not (device and self.public_move(kind)):
            held = self.phone_seat(state, phones)
            if held is not None:
                raise IllegalMove(PHONE_SEAT, n=held + 1)
        allowed = self.legal(state, seat)
        if kind not in allowed:
            others = [s for s in self.waiting_on(state) if s != seat]
            if seat is not None and others and (not allowed or kind in self.legal(state, None)):
                if len(others) == 1:
                    raise IllegalMove(NOT_YOU, player=others[0] + 1)
                raise IllegalMove(NOT_YOU_MANY, players=", ".join(str(s + 1) for s in others))
            words = self.not_now.get(kind, NOT_NOW)
            raise words(state, seat) if callable(words) else IllegalMove(words)
        return command if seat is not None else replace(command, seat=self.actor(state))

    def public_move(self, kind: str) -> bool:
        """Whether the device's buttons may send `kind` for a seat that plays from a phone."""
        return not self.hidden or kind in self.public_moves

    def phone_seat(self, state: State, phones: Collection[int]) -> int | None:
        """The seat a command of the table would act for now, if it is one of `phones`; else None. While
        the rules wait on several seats at once (`waiting`), any of them: the table may close such a
        window for all, so it never does while a phone holds one of them."""
        if not phones:
            return None
        seats = [self.actor(state), *self.waiting_on(state)]
        return next((s for s in seats if s is not None and s in phones), None)

    def convert_options(self, given: object) -> msgspec.Struct | None:
        """`given` (plain JSON) as the game's options; IllegalMove says which option is wrong."""
        if not isinstance(given, dict):
            raise IllegalMove("Invalid game options: send them as a JSON object.")
        if self.options is None:
            if given:
                raise IllegalMove("Invalid game options: this game takes none.")
            return None
        try:
            return msgspec.convert(given, self.options)
        except msgspec.ValidationError as exc:
            raise IllegalMove("Invalid game options: {detail}.", detail=str(exc)) from None

    @cached_property
    def folder(self):
        """The game's package folder (an importlib.resources Traversable)."""
        return files(self.package)

    def bundled(self, key: str) -> DataText:
        """The bundled text of data file `key`."""
        data = self.data_file(key)
        return DataText(data.bundled, self.folder.joinpath(data.bundled).read_text(encoding="utf-8"))

    def data_file(self, key: str) -> DataFile:
        for data in self.data:
            if data.key == key:
                return data
        raise IllegalMove("This game has no data file {key}: it has {keys}.", key=key,
                          keys=", ".join(d.key for d in self.data) or "none")

    def start(self, options: object, draws,
              texts: Mapping[str, DataText] | None = None) -> tuple[dict, State]:
        """A new game: its options as plain JSON with every default filled, and its first state. Each
        data file is loaded from `texts`, or the bundled one when not given."""
        texts = texts or {}
        converted = self.convert_options(options)
        loaded = {}
        for data in self.data:
            text = texts.get(data.key) or self.bundled(data.key)
            loaded[data.key] = data.load(text.text, text.name)
        return msgspec.to_builtins(converted) or {}, self.setup(converted, draws, loaded)

    def public_json(self, state: State) -> View:
        """The public view as every output reads it (plain JSON)."""
        return msgspec.to_builtins(self.public_view(state))

    def private_json(self, state: State, seat: int) -> View:
        return msgspec.to_builtins(self.private_view(state, seat))
