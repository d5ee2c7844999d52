"""What a game registers to plug into the table: the whole contract between a game and the platform."""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from importlib.resources import files
from typing import TYPE_CHECKING, Any, TypeAlias, cast

import msgspec

from companion.gamekit.colours import SEAT_COLOURS, Colour
from companion.i18n import N_, Translator
from companion.tomlfile import key_of

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from companion.gamekit.draws import Draws
    from companion.render.layout import Canvas

MAX_SEATS = 6  # the most seats any game has: phones join the table, and each game plays its first seats
# A data file the host uploads or the config names is recorded with every new game and read on every
# start: these bound its size and its lists (a bundled deck or board is 1 to 3 KB and lists at most 200
# items), unless the game's DataFile declares its own.
MAX_DATA_KB = 16
MAX_DATA_ITEMS = 1000
State: TypeAlias = Any  # a game's own value (a frozen dataclass, say): only its rules read inside it
View: TypeAlias = dict[str, Any]  # a view as every output reads it: plain JSON, what a phone receives
Event: TypeAlias = dict[str, Any]  # what a move did: plain JSON with its "type", for the history and the dice
Entry: TypeAlias = Any  # a button input in progress: immutable, owned by the table, never recorded
Faces: TypeAlias = Sequence[int | None]  # LED dice faces: 1-6, or None for a dark die


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

    def __init__(self, message: str, **params: Any) -> None:
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
class TableInfo:
    """What a screen may show besides the game's public view.

    `names[seat]` is the name a phone chose for that seat ("" if none); `entry` is the public part of
    a button input in progress (the controls' `shown`), never a secret value. `wifi` is the table's own
    Wi-Fi while it is the network (a `WIFI:` QR payload; the panel shows it, presence is the credential).
    `at` is when the table reached the state shown ("21:04"): the frame states it, so a table can tell a
    glass that lags. `join_key` is the join QR code's secret, as secret as the join code. `phones` are
    the seats played from phones: the buttons may not choose for them, so a screen never asks the buttons to.
    `notice` is one line the table must say under any game, already in the screen's language (its venue
    unreachable); `standard_frame` draws it at the foot.
    """

    url: str
    join_code: str = ""
    names: tuple[str, ...] = ()
    entry: Mapping[str, Any] | None = None
    wifi: str = ""
    at: str = ""
    join_key: str = ""  # the join QR code's secret: a scan joins without the typed codes' budget
    phones: frozenset[int] = frozenset()
    notice: str = ""

    def on_phone(self, seat: int | None) -> bool:
        """Whether `seat` plays from a phone: its choices are made there, never with the buttons."""
        return seat is not None and seat in self.phones

    def name(self, seat: int, colours: tuple[Colour, ...] = SEAT_COLOURS,
             tr: Callable[..., str] = str) -> str:
        """The name of `seat` as a screen shows it: the chosen name (its first and last letters if
        another begins alike, see told_apart), else its colour's label (the table's colours unless the
        game has its own), in the screen's language `tr`."""
        chosen = self.names[seat] if seat < len(self.names) else ""
        if chosen:
            from companion.render.layout import told_apart  # drawing loads it anyway; PIL not at import

            return told_apart(chosen, self.names)
        return tr(colours[seat].label) if seat < len(colours) else str(seat + 1)


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


def button_map(keys: Mapping[str, str | Callable[[View], Command | None]]) -> Controls:
    """The simplest controls: each key sends a move without arguments (its kind), or a command made from
    the public view."""

    def step(entry: Entry, key: str, view: View) -> tuple[Entry, Command | None]:
        make = keys.get(key)
        if isinstance(make, str):
            return None, Command(make)
        return None, make(view) if make else None
    return Controls(step)


def parse(commands: Mapping[str, type[msgspec.Struct]], kind: str, args: object) -> msgspec.Struct:
    """The args of a `kind` command as its Struct; IllegalMove names the kind or the field that is wrong."""
    schema = commands.get(kind)
    if schema is None:
        raise IllegalMove(UNKNOWN_COMMAND, kind=kind, kinds=", ".join(commands))
    try:
        return msgspec.convert(args, schema)
    except msgspec.ValidationError as exc:
        raise IllegalMove("Command {kind}: argument '{field}' is not valid ({reason}). Fix it and send it "
                          "again.", kind=kind, field=key_of(str(exc)), reason=str(exc).split(" - at ")[0]
                          ) from None


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


Allowed = bool | str | IllegalMove  # True, or why not: see `Move.allowed`


def _always(state: State, seat: int | None) -> Allowed:
    return True


def _nobody(state: State) -> int | None:
    return None


def _never(state: State) -> bool:
    return False


def _no_deadline(state: State) -> None:
    return None


def _no_dice(view: View) -> Faces:
    return []


def _no_match(view: View) -> MatchGame | None:
    return None


def _granted(said: Allowed) -> bool:
    """Whether an answer of `Move.allowed` says yes: anything true but words."""
    return bool(said) and not isinstance(said, str | IllegalMove)


def _view_result(view: View) -> Result:
    """A game over: its view's own `winners` and `scores`, where it has them."""
    scores = view.get("scores")
    return Result(tuple(view.get("winners") or ()), tuple(scores) if scores is not None else None)


@dataclass(frozen=True)
class Move:
    """One kind of command, read on one screen: its arguments, what it does, when it is refused and how
    the table names it.

    - args: the msgspec Struct of its arguments; each field's `msgspec.Meta(title=N_("..."))` names it on
      the generated seat page, its `description` is a hint under it
    - do(state, seat, args, draws) -> (state, events): `seat` is the seat it acts for (the actor, for a
      command of the table); it raises IllegalMove for arguments the state refuses
    - line: its line in the public history, a msgid with `{who}`
    - label: its button on the generated seat page, a msgid; without one, its kind with a capital and
      spaces ("set_dice": "Set dice"), looked up in the game's catalog
    - allowed(state, seat) -> True, or why not: False (the table's "not possible now"), a msgid, or an
      IllegalMove with its fields. Read from public facts only, since a refusal is shown (seat None: the
      table). Never asked once the game is over; a seat out of turn is told whom the table waits for.
    - public: the device's buttons may still send it for a seat that plays from a phone: an act the
      whole table sees, that chooses nothing for the seat and whose refusals read public facts only
      (a roll for whoever must roll). A game that hides nothing (`hidden` False) allows every move.
    - rolls: the types of its events that rolled dice (the LED dice tumble before they hold), or a test
      of one event
    - reveals: the types of its events that showed the table something (dice, a card turned up): the
      command that made one cannot be undone, or a player would choose again knowing what came out; and
      what is not a roll the glass shows at its next refresh (`GameSpec.must_see`)
    - drawn: the types of its events that drew a card into one seat's hand from a pile whose order the
      state keeps: the command cannot be undone either (the same card would come again, now known), but
      the table has nothing new to see. The conformance kit checks both with twins
    """

    args: type[msgspec.Struct]
    do: Callable[[State, int, Any, Draws], tuple[State, list[Event]]]
    line: str
    label: str = ""
    allowed: Callable[[State, int | None], Allowed] = _always
    public: bool = False
    rolls: Collection[str] | Callable[[Event], bool] = ()
    reveals: Collection[str] = ()
    drawn: Collection[str] = ()

    def refusal(self, state: State, seat: int | None) -> IllegalMove | None:
        """None if `seat` may send this move now, else what it is told."""
        said = self.allowed(state, seat)
        if _granted(said):
            return None
        if isinstance(said, IllegalMove):
            return said
        return IllegalMove(said if isinstance(said, str) and said else NOT_NOW)

    def rolled(self, event: Event) -> bool:
        return self.rolls(event) if callable(self.rolls) else event["type"] in self.rolls


def allowed_moves(moves: Mapping[str, Move], state: State, seat: int | None,
                  over: Callable[[State], bool] = _never) -> list[str]:
    """The kinds of `moves` that `seat` (None: the table) may send now, in their order, none once the
    game is `over`: the spec's `legal`, and what a game's views list as its legal moves."""
    # Only yes or no matters here: the words of a refusal are built when one is sent (`GameSpec.check`).
    return [] if over(state) else [kind for kind, move in moves.items()
                                   if _granted(move.allowed(state, seat))]


Deadline: TypeAlias = tuple[float, Command] | tuple[float, Command, Hashable]  # see `Turn.deadline`


@dataclass(frozen=True)
class Turn:
    """Whose move it is and when the game ends: every function reads public facts only.

    - actor(state) -> the seat the device's buttons and the host act for now (None: nobody)
    - waiting(state) -> the seats the rules wait on now (their phones say "Your turn"); by default the
      actor alone. A game that waits on several seats at once (answers to a question) says so here.
    - over(state) -> whether the game has ended: the host's export of a game that hides something
      (`hidden`: hands, bets, face-down cards) is full only then
    - deadline(state) -> (seconds, command) or None: if no other command comes within that time, the
      table sends `command` itself (an answer window closing with its default, say); it is recorded
      like any command, so a replay needs no clock. Each state change starts the time anew, unless the
      deadline names its window, (seconds, command, window) with `window` a hashable key read from the
      state: while the next state's deadline names the same window, its clock runs on (the victims
      still to answer get no fresh time when one answers); a new key starts a new window
    - on_move(old, new) -> the state every accepted move ends with (a move counter, say)
    """

    actor: Callable[[State], int | None] = _nobody
    waiting: Callable[[State], Sequence[int]] | None = None
    over: Callable[[State], bool] = _never
    deadline: Callable[[State], Deadline | None] = _no_deadline
    on_move: Callable[[State, State], State] | None = None


@dataclass(frozen=True)
class Views:
    """What the players see of a state. Each view function says the Struct it returns in its annotation.

    - public(state) -> a Struct safe for the e-ink, the LEDs and every phone
    - private(state, seat) -> a Struct for that seat's phone only
    - result(public view) -> the `Result` of a game that is over, read from its final public view (plain
      JSON), for the game's record; by default the view's own `winners` and `scores`, where it has them
    - match_game(public view) -> the `MatchGame` a game played as a match of several is at, or None:
      when one of its games ends, the seat pages' end box and the scoreboard say which game it was and
      what comes next (the next game of the match, or the match's end)
    """

    public: Callable[[State], msgspec.Struct]
    private: Callable[[State, int], msgspec.Struct]
    result: Callable[[View], Result] = _view_result
    match_game: Callable[[View], MatchGame | None] = _no_match


@dataclass(frozen=True)
class Device:
    """The table's own outputs and buttons.

    - screen(public view, canvas, tr, table_info) draws the e-ink frame
    - controls: the buttons (`Controls`), or the simplest ones, a map from a key ("a".."d", "roll") to
      the move it sends without arguments, or to a function of the public view making the command
    - dice(public view) -> the faces the LED dice hold
    """

    screen: Callable[[View, Canvas, Translator, TableInfo], None]
    controls: Controls | Mapping[str, str | Callable[[View], Command | None]] = field(default_factory=dict)
    dice: Callable[[View], Faces] = _no_dice


@dataclass(frozen=True)
class Looks:
    """What players read beside the views, all msgids but the colours' inks.

    - colours: the seats' colours, in seat order (by default the table's); how many seats play comes from
      the `players` option. A game whose seats are only places at the table gives none: ()
    - seat_names: each seat's place at the table, in seat order (Crash!: "North", "South"); the join page
      and the seats' pages show it beside the seat's colour. Without them, "Seat {n}"
    - how, cards, names: the rules help every seat page shows, folded (see `Help`)
    """

    colours: tuple[Colour, ...] = SEAT_COLOURS
    seat_names: tuple[str, ...] = ()
    how: str = ""
    cards: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)


def _returned(view: Callable[..., Any]) -> Any:
    """The type a view function says it returns (its return annotation, written as a string or not)."""
    kind = getattr(view, "__annotations__", {}).get("return")
    return eval(kind, getattr(view, "__globals__", {})) if isinstance(kind, str) else kind  # noqa: S307


@dataclass(frozen=True)
class GameSpec:
    """A game, as the platform sees it; the platform reads a game through this and nothing else.

    Every callable is pure: no I/O, clock or global random state.
    - setup(options, draws, data) -> state; `options` is an instance of `options`, `data` maps each
      DataFile's key to what its `load` gave
    - moves: each command kind's `Move`
    - turn: whose move it is and when the game ends (`Turn`)
    - views: what players see (`Views`); device: the e-ink, the buttons, the LED dice (`Device`);
      looks: colours, seat names and rules help (`Looks`)
    - hidden: whether the game keeps anything from any player
    - seats: (min, max) players with a private page; options: a Struct that validates the setup options,
      its defaults filling gaps; data: replaceable data files (`DataFile`)
    - package: the game's import name: its templates/, static/ and locale/ folders live there

    The platform reads the parts through the names below (`legal`, `actor`, `public_json`...).

    A game without pages of its own gets them generated from its moves' args and its views' Structs:
    each field is named by its `msgspec.Meta(title=N_("..."))` (without one, by its name made readable
    as a label is), and its `description` is a hint under a command's field. A value typed `Seat` (an
    int from 0) reads as that seat's name, and a `PerSeat[T]` list, one item per seat in seat order,
    puts each item beside its seat's name (both in companion.gamekit).
    """

    name: str
    title: str  # msgid
    package: str
    setup: Callable[[Any, Draws, Mapping[str, Any]], State]
    moves: Mapping[str, Move]
    views: Views
    device: Device
    turn: Turn = Turn()
    looks: Looks = Looks()
    hidden: bool = True
    seats: tuple[int, int] = (0, 0)
    options: type[msgspec.Struct] | None = None
    data: tuple[DataFile, ...] = ()

    # --- the parts, as the platform reads them ----------------------------------------------------
    @cached_property
    def commands(self) -> Mapping[str, type[msgspec.Struct]]:
        """Each command kind's Struct of arguments."""
        return {kind: move.args for kind, move in self.moves.items()}

    def apply(self, state: State, command: Command, draws: Draws) -> tuple[State, list[Event]]:
        """Run a command the table has checked (`check`): its args as their Struct, then its move."""
        args = parse(self.commands, command.kind, command.args)
        # `check` gave the command the actor's seat: None only in a game with no actor, whose moves act for
        # nobody in particular and read no seat, so a move is declared for the seat it acts for.
        new, events = self.moves[command.kind].do(state, cast(int, command.seat), args, draws)
        return (self.turn.on_move(state, new) if self.turn.on_move else new), events

    def legal(self, state: State, seat: int | None) -> list[str]:
        """The kinds `seat` (None: the table) may send now, in the order of `moves`: none once the game
        is over, so a move's `allowed` need not ask."""
        return allowed_moves(self.moves, state, seat, self.turn.over)

    def actor(self, state: State) -> int | None:
        return self.turn.actor(state)

    def over(self, state: State) -> bool:
        return self.turn.over(state)

    def deadline(self, state: State) -> Deadline | None:
        return self.turn.deadline(state)

    def public_view(self, state: State) -> msgspec.Struct:
        return self.views.public(state)

    def private_view(self, state: State, seat: int) -> msgspec.Struct:
        return self.views.private(state, seat)

    # What the view functions say they return: a Struct, as `check_spec` makes sure.
    @cached_property
    def public(self) -> type[msgspec.Struct]:
        returned: type[msgspec.Struct] = _returned(self.views.public)
        return returned

    @cached_property
    def private(self) -> type[msgspec.Struct]:
        returned: type[msgspec.Struct] = _returned(self.views.private)
        return returned

    def result(self, view: View) -> Result:
        return self.views.result(view)

    def match_game(self, view: View) -> MatchGame | None:
        return self.views.match_game(view)

    @property
    def screen(self) -> Callable[[View, Canvas, Translator, TableInfo], None]:
        return self.device.screen

    @cached_property
    def controls(self) -> Controls:
        given = self.device.controls
        return given if isinstance(given, Controls) else button_map(given)

    def dice_shown(self, view: View) -> Faces:
        return self.device.dice(view)

    def rolled(self, events: list[Event]) -> bool:
        """Whether a command that made `events` rolled dice (the LED dice tumble before they hold)."""
        return any(move.rolled(event) for event in events for move in self.moves.values())

    @cached_property
    def _revealing(self) -> frozenset[str]:
        return frozenset[str]().union(*(move.reveals for move in self.moves.values()))

    @cached_property
    def _final(self) -> frozenset[str]:
        return self._revealing.union(*(move.drawn for move in self.moves.values()))

    def undoable(self, events: list[Event]) -> bool:
        """Whether the command that made `events` may be undone: not one that revealed or drew something."""
        return not any(event["type"] in self._final for event in events)

    def must_see(self, state: State, events: list[Event]) -> bool:
        """Whether the table must see at once what the command that made `events` (leaving `state`)
        showed: something its moves' `reveals` name, beyond a roll (the LED dice show that at once), or
        the game's end. The glass then goes out at the next refresh its wear budget allows."""
        shown = any(event["type"] in self._revealing and not self.rolled([event]) for event in events)
        return shown or self.over(state)

    @cached_property
    def history_lines(self) -> Mapping[str, str]:
        return {kind: move.line for kind, move in self.moves.items() if move.line}

    @cached_property
    def command_labels(self) -> Mapping[str, str]:
        return {kind: move.label for kind, move in self.moves.items() if move.label}

    @cached_property
    def public_moves(self) -> frozenset[str]:
        return frozenset(kind for kind, move in self.moves.items() if move.public)

    @property
    def colours(self) -> tuple[Colour, ...]:
        """A colour for each seat that may play."""
        return self.looks.colours[:self.seats[1]]

    @property
    def seat_names(self) -> tuple[str, ...]:
        return self.looks.seat_names

    @cached_property
    def help(self) -> Help | None:
        looks = self.looks
        return Help(looks.how, looks.cards, looks.names) if looks.how or looks.cards or looks.names else None

    def waiting_on(self, state: State) -> list[int]:
        """The seats the rules wait on now, in seat order: the one contract every page reads for
        "Your turn" (`waiting` if the game gives it, else its actor)."""
        if self.turn.waiting is not None:
            return sorted(self.turn.waiting(state))
        seat = self.actor(state)
        return [] if seat is None else [seat]

    def seats_in_play(self, options: Mapping[str, Any]) -> int:
        """How many seats this game has, from its options (its `players`, else the most it allows)."""
        return int(options.get("players", self.seats[1]))

    # --- what the platform does with a game, in one place ------------------------------------------
    def play(self, state: State, command: Command, draws: Draws, phones: Collection[int] = (),
             device: bool = False) -> tuple[State, list[Event]]:
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
            refusal = self.moves[kind].refusal(state, seat)
            assert refusal is not None  # `kind` is not in `allowed`: its move refuses it
            raise refusal
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
    def folder(self) -> Traversable:
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

    def start(self, options: object, draws: Draws,
              texts: Mapping[str, DataText] | None = None) -> tuple[dict[str, Any], State]:
        """A new game: its options as plain JSON with every default filled, and its first state. Each
        data file is loaded from `texts`, or the bundled one when not given."""
        texts = texts or {}
        converted = self.convert_options(options)
        loaded: dict[str, Any] = {}
        for data in self.data:
            text = texts.get(data.key) or self.bundled(data.key)
            loaded[data.key] = data.load(text.text, text.name)
        return msgspec.to_builtins(converted) or {}, self.setup(converted, draws, loaded)

    def public_json(self, state: State) -> View:
        """The public view as every output reads it (plain JSON)."""
        view: View = msgspec.to_builtins(self.public_view(state))
        return view

    def private_json(self, state: State, seat: int) -> View:
        view: View = msgspec.to_builtins(self.private_view(state, seat))
        return view
