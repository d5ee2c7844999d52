"""The spec is complete: names agree, its texts have their French, data files load, defaults are valid."""

from __future__ import annotations

import re
import string
from collections.abc import Iterator
from functools import cache
from importlib import import_module
from importlib.resources import files

import msgspec
import msgspec.inspect as mi
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo

from companion.devices.panels import DEFAULT_PANEL, PANELS
from companion.gamekit.contract import MAX_SEATS, GameSpec, IllegalMove
from companion.gamekit.draws import ScriptedDraws
from companion.gamekit.testing.args import type_info
from companion.gamekit.testing.report import Played, fail
from companion.gamekit.testing.screens import check_screens
from companion.gamekit.testing.views import check_views

CATALOG_FIX = ("run `python -m companion.locale.update --game PATH/TO/YOUR/PACKAGE`, fill in the French in "
               "its locale/fr/LC_MESSAGES/<name>.po, and run it again")


def check_spec(spec: GameSpec) -> None:
    """Check what `spec` declares, and that a new game with the default options starts and draws."""
    if not isinstance(spec, GameSpec):
        fail("spec", f"{spec!r} is not a GameSpec", "pass your game's GameSpec (its SPEC)")
    if not re.fullmatch(r"[a-z][a-z0-9_]*", spec.name):
        fail("spec", f"the name {spec.name!r} is not a lowercase identifier",
             "name the game like its package: lowercase letters, digits and _")
    try:
        import_module(spec.package)
    except ImportError as exc:
        fail("spec", f"package {spec.package!r} does not import ({exc})",
             "set `package=__name__` in the module that defines the spec")
    _shapes(spec)
    _options(spec)
    _data(spec)
    _french(spec)
    _first_screen(spec)


def _shapes(spec: GameSpec) -> None:
    structs = {"public": spec.public, "private": spec.private, "options": spec.options or msgspec.Struct,
               **{f"the command {kind}": schema for kind, schema in spec.commands.items()}}
    for what, schema in structs.items():
        if not (isinstance(schema, type) and issubclass(schema, msgspec.Struct)):
            fail("spec", f"{what} is {schema!r}, not a msgspec Struct",
                 "declare commands, views and options as msgspec Structs")
    if not spec.commands:
        fail("spec", "the game has no commands", "declare its commands: {kind: Struct of its args}")
    low, high = spec.seats
    if not 0 <= low <= high <= MAX_SEATS or high < 1:
        fail("spec", f"seats={spec.seats} is not (min, max) with 0 <= min <= max <= {MAX_SEATS}",
             "say how many seats may play: seats=(min, max)")
    if spec.colours and len(spec.colours) < high:
        fail("spec", f"{len(spec.colours)} colours for up to {high} seats",
             "give a colour to every seat (companion.gamekit has SEAT_COLOURS), or none for the table's")
    keys = [colour.key for colour in spec.colours]
    if len(set(keys)) != len(keys):
        fail("spec", f"colour keys {keys} repeat", "give each seat a colour of its own")
    labels = [colour.label for colour in spec.colours]
    if len(set(labels)) != len(labels):
        fail("spec", f"colour names {labels} repeat: two seats would read the same",
             "give each seat's colour a name of its own")
    missing = sorted(kind for kind, move in spec.moves.items() if not move.line)
    if missing:
        fail("spec", f"no history line for {missing}",
             'give every move its line in the history: Move(..., line=N_("{who} did this"))')
    for kind, line in spec.history_lines.items():
        fields = {name for _, name, _, _ in string.Formatter().parse(line) if name is not None}
        if not fields <= {"who"}:
            fail("spec", f"the history line of {kind} has the fields {sorted(fields)}",
                 "use {who} alone in history lines: the page fills nothing else")


def _options(spec: GameSpec) -> None:
    if spec.options is None:
        return
    try:
        options = msgspec.convert({}, spec.options)
    except msgspec.ValidationError as exc:
        fail("spec", f"the options have no valid defaults: {exc}",
             "give every option a default, so a new game needs no options")
    if msgspec.convert(msgspec.to_builtins(options), spec.options) != options:
        fail("spec", "the default options change through JSON", "use plain JSON types for options")
    for field in type_info(spec.options).fields:
        if field.encode_name == "players":
            bounds = _bounds(field.type)
            if bounds != spec.seats:
                fail("spec", f"the players option goes from {bounds[0]} to {bounds[1]}, seats={spec.seats}",
                     "make seats=(min, max) and the players option's ge/le agree")


def _bounds(info: mi.Type) -> tuple[int | None, int | None]:
    while isinstance(info, mi.Metadata):
        info = info.type
    return (info.ge, info.le) if isinstance(info, mi.IntType) else (None, None)


def _data(spec: GameSpec) -> None:
    for data in spec.data:
        try:
            text = spec.bundled(data.key)
            data.load(text.text, text.name)
        except Exception as exc:
            fail("spec", f"data file {data.key} ({data.bundled}) does not load: {type(exc).__name__}: {exc}",
                 "ship the file in the game's package folder and make `load` read it (see DataFile)")


def declared(spec: GameSpec) -> Iterator[tuple[str, str]]:
    """Every text the spec declares for players, as (where, msgid)."""
    yield "title", spec.title
    for colour in spec.colours:
        yield f"the label of colour {colour.key}", colour.label
    for kind, line in spec.history_lines.items():
        yield f"the history line of {kind}", line
    for kind, label in spec.command_labels.items():
        yield f"the label of command {kind}", label
    for data in spec.data:
        yield f"the title of data file {data.key}", data.title
    if spec.options is not None:
        for field in type_info(spec.options).fields:
            title = _title(field.type)
            if title is None:
                fail("spec", f"option {field.encode_name} has no title",
                     'give it one for the host\'s form: Annotated[int, msgspec.Meta(title=N_("..."))]')
            yield f"the title of option {field.encode_name}", title
    if spec.help is not None:
        if spec.help.how:
            yield "help.how", spec.help.how
        for what, texts in (("cards", spec.help.cards), ("names", spec.help.names)):
            for key, text in texts.items():
                yield f"help.{what}[{key!r}]", text


def _title(info: mi.Type) -> str | None:
    while isinstance(info, mi.Metadata):
        title: str | None = (info.extra_json_schema or {}).get("title")
        if title is not None:
            return title
        info = info.type
    return None


def _french(spec: GameSpec) -> None:
    """Each declared text has a French translation: an entry in the game's catalog or the platform's (a
    short word may translate to itself, so an entry is what counts, not a different text)."""
    own = _catalog(spec.package, spec.name)
    if own is None:
        fail("French", f"no French catalog locale/fr/LC_MESSAGES/{spec.name}.mo in package {spec.package}",
             CATALOG_FIX)
    platform = _catalog("companion", "messages")
    assert platform is not None  # the platform's French ships with the package
    missing = [f"{where} {msgid!r}" for where, msgid in declared(spec)
               if not any(msgid in catalog and catalog[msgid].string for catalog in (own, platform))]
    if missing:
        fail("French", f"no French for {'; '.join(missing)}", CATALOG_FIX)


@cache
def _catalog(package: str, domain: str) -> Catalog | None:
    mo = files(package).joinpath("locale", "fr", "LC_MESSAGES", f"{domain}.mo")
    if not mo.is_file():
        return None
    with mo.open("rb") as stream:
        return read_mo(stream)


def _first_screen(spec: GameSpec) -> None:
    """A new game with the default options starts, its views are their Structs and its screen draws on the
    default panel."""
    try:
        options, state = spec.start({}, ScriptedDraws(0))
    except IllegalMove as refused:
        fail("spec", f"a new game with the default options is refused: {refused}",
             "make the default options ones the game accepts")
    played = Played(spec, options, [], [state])
    check_views(played, 0)
    check_screens(spec, [spec.public_json(state)], played.players, models=[PANELS[DEFAULT_PANEL]],
                  played=played)
