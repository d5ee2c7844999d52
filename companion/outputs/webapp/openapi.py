"""The JSON API's contract: request bodies as msgspec structs, and the OpenAPI 3 document built from them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

import companion

Kind = Annotated[str, msgspec.Meta(min_length=1, max_length=40, pattern=r"^[a-z][a-z0-9_]*$",
                                   description="A command kind such as roll, set_dice, undo, new_game.")]
Button = Annotated[str, msgspec.Meta(min_length=1, max_length=20, description="a, b, c, d or roll.")]


class CommandBody(msgspec.Struct, forbid_unknown_fields=True):
    """A command for the table. Host commands (new_game, undo) need the host token."""

    kind: Kind
    args: dict[str, Any] = msgspec.field(default_factory=dict)
    host_token: str | None = None


JoinCode = Annotated[str, msgspec.Meta(max_length=16, description="The join code shown under the QR code.")]
JoinKey = Annotated[str, msgspec.Meta(max_length=64, description=(
    "The key the join QR code's link carries after the code (`/j/CODE.KEY`): it stands for the code, and "
    "is never slowed by wrong codes others typed. Empty when the code was typed."))]
Name = Annotated[str, msgspec.Meta(max_length=200,
                                   description="The player's name (trimmed to 24 characters).")]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=63, description="Seat number, from 0.")]


class JoinBody(msgspec.Struct, forbid_unknown_fields=True):
    """A phone takes a free seat with the table's join code."""

    code: JoinCode
    seat: SeatNumber
    name: Name
    key: JoinKey = ""


class ClaimHostBody(msgspec.Struct, forbid_unknown_fields=True):
    """The first phone to send the join code here becomes the host."""

    code: JoinCode
    key: JoinKey = ""


class NameBody(msgspec.Struct, forbid_unknown_fields=True):
    """The name of the player the host gives a seat to."""

    name: Name


class LanguageBody(msgspec.Struct, forbid_unknown_fields=True):
    """The language of the e-ink panel."""

    language: Annotated[str, msgspec.Meta(max_length=8, description="fr or en.")]


class NetworkBody(msgspec.Struct, forbid_unknown_fields=True):
    """How phones reach the table: the venue's Wi-Fi, or the table's own hotspot."""

    mode: Annotated[Literal["client", "hotspot"], msgspec.Meta(
        description="client: join the venue's Wi-Fi; hotspot: the table is the network.")]


class QrBody(msgspec.Struct, forbid_unknown_fields=True):
    """The text of a QR code, e.g. a seat's link."""

    text: Annotated[str, msgspec.Meta(min_length=1, max_length=512)]


class PressBody(msgspec.Struct, forbid_unknown_fields=True):
    """A press on one of the simulated device's buttons; `hold` is a long press."""

    button: Button
    hold: bool = False


def _error(description: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _ok(description: str, schema: dict | None = None, media: str = "application/json") -> dict:
    return {"description": description, "content": {media: {"schema": schema or {"type": "object"}}}}


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _body(name: str) -> dict:
    return {"required": True,
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{name}"}}}}


HOST: list[dict[str, list[str]]] = [{"hostToken": []}]
# The device's view and buttons: the host's, and also open to the simulator's own machine (loopback).
DEVICE = {"security": HOST, "x-open-on-the-simulators-machine": True}
DEVICE_REFUSED = "Not the host (nor the simulator's own machine)."
SEAT_PARAM = {"name": "token", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "The seat's private link token."}


BODIES = [CommandBody, PressBody, JoinBody, ClaimHostBody, NameBody, LanguageBody, QrBody, NetworkBody]
SEAT_NUMBER = {"name": "seat", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 0},
               "description": "Seat number, from 0."}


def _specs() -> list:
    from companion.core import registry

    out = []
    for name in registry.names():
        try:
            out.append(registry.get(name))
        except ValueError:
            continue  # a game that does not load is logged by the registry and left out
    return out


def _components(prefix: str, structs: list[type]) -> tuple[tuple[dict[str, Any], ...], dict]:
    """Schema components of `structs`, named with `prefix` (two games may well both name a "Place")."""
    template = f"#/components/schemas/{prefix}{{name}}"
    refs, found = msgspec.json.schema_components(structs, ref_template=template)
    return refs, {prefix + name: schema for name, schema in found.items()}


def _games_schema() -> tuple[dict, dict, dict]:
    """Per game: its commands' `args` and its public and private views, as components."""
    specs = _specs()
    components: dict = {}
    table = {
        "new_game": {"type": "object", "properties": {
            "game": {"enum": [spec.name for spec in specs], "description": "Required unless `again`."},
            "again": {"const": True, "description": "Play the running game again: the same game, options "
                                                    "and data files; the seats and their links stay."},
            "options": {"type": "object", "description": "The game's options: see GET /api/games."},
            "data": {"type": "object", "description": "Your own copy of a data file of the game, by its "
                                                      "key: its name and its text (see GET /api/games)."}}},
        "undo": {"type": "object", "properties": {
            "expect": {"type": "integer", "description": "The table's version the host confirmed: the undo "
                                                         "is refused if the table moved on since."}}},
        "end_game": {"type": "object"},
    }
    commands = {"table (host token)": table}
    views = {}
    for spec in specs:
        prefix = f"{spec.name}_"
        kinds = list(spec.commands.items())
        refs, found = _components(prefix, [struct for _, struct in kinds] + [spec.public, spec.private])
        components |= found
        commands[spec.name] = {kind: ref for (kind, _), ref in zip(kinds, refs, strict=False)}
        views[spec.name] = {"public": refs[-2], "private": refs[-1]}
    return commands, views, components


def document() -> dict:
    """The OpenAPI 3.1 description of every route under /api, and every game's command args."""
    _, schemas = msgspec.json.schema_components(BODIES, ref_template="#/components/schemas/{name}")
    listing, views, game_schemas = _games_schema()
    schemas |= game_schemas
    schemas["Error"] = {
        "type": "object", "required": ["ok", "error"],
        "properties": {"ok": {"const": False},
                       "error": {"type": "string", "description": "What was wrong and how to fix it, "
                                                                   "in the request's language."},
                       "msgid": {"type": "string", "description": "The English message id of a refusal."}},
    }
    schemas["State"] = {
        "type": "object",
        "properties": {"version": {"type": "integer"}, "game": {"type": ["string", "null"]},
                       "title": {"type": ["string", "null"]},
                       "public": {"type": "object",
                                  "description": "The running game's public view: see x-views."},
                       "legal": {"type": "array", "items": {"type": "string"}},
                       "host": {"type": "boolean", "description": "Whether X-Host-Token is the host's."}},
    }
    schemas["Device"] = {
        "type": "object",
        "properties": {"board": {"type": "boolean"}, "simulated": {"type": "boolean"},
                       "dice": {"type": "array", "items": {"type": ["integer", "null"]}},
                       "status": {"type": "boolean"},
                       "buttons": {"type": "array", "items": {"type": "string"}},
                       "frame": {"type": "boolean"}, "frame_version": {"type": "integer"},
                       "panel": {"type": ["object", "null"],
                                 "description": "The e-ink panel (null without one).",
                                 "properties": {
                                     "model": {"type": "string"},
                                     "speeds": {"type": "array", "items": {"type": "string"}},
                                     "speed": {"type": ["string", "null"],
                                               "description": "The last refresh's speed (null: no speeds)."},
                                     "refreshes_today": {"type": "integer"},
                                     "last_refresh_seconds": {"type": ["number", "null"]},
                                     "fault": {"type": ["string", "null"],
                                               "description": "Why the panel stopped answering, until the "
                                                              "next start."},
                                     "message": {"type": ["string", "null"],
                                                 "description": "What to tell the table about the fault."}}}},
    }
    sse = "text/event-stream: `snapshot` first (full view and version), then `update`, `rejected`, " \
          "`panel` (the e-ink panel stopped answering: `fault` and a `message` to show), " \
          "on a seat's stream `gone` last (the host took its link back: `gone` is `freed`, `relinked` " \
          "or null, with a `message` to show), and `: keepalive` comments."
    paths: dict[str, dict[str, Any]] = {
        "/api/state": {"get": {"summary": "The public view of the running game.", "x-views": views,
                               "responses": {"200": _ok("The state.", _ref("State"))}}},
        "/api/command": {"post": {
            "summary": "Send a command and wait until it is recorded or refused.",
            "description": "Every command needs a token: X-Seat-Token acts for that seat only; "
                           "X-Host-Token (or host_token in the body) acts for the table, and alone "
                           "may send new_game, undo and end_game. `args` of each kind, per game, "
                           "are in `x-commands`.",
            "x-commands": listing,
            "parameters": [{"name": "X-Host-Token", "in": "header", "schema": {"type": "string"}},
                           {"name": "X-Seat-Token", "in": "header", "schema": {"type": "string"}}],
            "requestBody": _body("CommandBody"),
            "responses": {"200": _ok("Recorded.", {"type": "object", "properties": {
                "ok": {"const": True}, "version": {"type": "integer"}}}),
                "400": _error("The body is not a valid command."),
                "403": _error("No token, a host command without the right host token, or an unknown "
                              "seat token."),
                "409": _error("The rules refused the command; the state is unchanged."),
                "503": _error("The table did not answer in time.")}}},
        "/api/events": {"get": {"summary": "Live public updates (Server-Sent Events).",
                                "responses": {"200": _ok(sse, {"type": "string"}, "text/event-stream"),
                                              "503": _error("Too many live pages are open.")}}},
        "/api/export": {"get": {"summary": "The running game's record (host only).", "security": HOST,
                                "responses": {"200": _ok("The records, oldest first."),
                                              "403": _error("Missing or wrong host token.")}}},
        "/api/record": {"get": {
            "summary": "The finished game's record (commands with their draws, players, final view, "
                       "result), once the game is over; ?format=bgstats gives BG Stats' import file.",
            "parameters": [{"name": "format", "in": "query", "required": False,
                            "schema": {"type": "string", "enum": ["json", "bgstats"]}}],
            "responses": {"200": _ok("The record, as a file to keep."),
                          "409": _error("The game is not over yet.")}}},
        "/api/seat/{token}": {"get": {"summary": "A seat's private view (each game's is in x-views).",
                                      "parameters": [SEAT_PARAM],
                                      "responses": {"200": _ok("The private view."),
                                                    "404": _error("No seat has this token.")}}},
        "/api/seat/{token}/events": {"get": {
            "summary": "Live private updates of one seat (Server-Sent Events).", "parameters": [SEAT_PARAM],
            "responses": {"200": _ok(sse, {"type": "string"}, "text/event-stream"),
                          "404": _error("No seat has this token."), "503": _error("Too many live pages.")}}},
        "/api/device": {"get": {"summary": "The device twin: LED dice, status LED, buttons, frame version.",
                                **DEVICE, "responses": {"200": _ok("The device.", _ref("Device")),
                                                        "403": _error(DEVICE_REFUSED)}}},
        "/api/device/frame.png": {"get": {
            "summary": "The current e-ink frame, as the glass shows it (its QR code holds the join code).",
            **DEVICE,
            "responses": {"200": _ok("PNG image.", {"type": "string"}, "image/png"),
                          "403": _error(DEVICE_REFUSED), "404": _error("No frame has been shown yet.")}}},
        "/api/device/press": {"post": {
            "summary": "Press a simulated hardware button; the real button code runs.",
            **DEVICE, "requestBody": _body("PressBody"),
            "responses": {"200": _ok("Pressed; the device as it is now.",
                                     _ref("Device")),
                          "400": _error("Unknown button or malformed body."),
                          "403": _error("Not the host, or a real device: its buttons are pressed by hand."),
                          "409": _error("No device is attached.")}}},
        "/api/seats": {"get": {"summary": "Every seat: number, name, colour, whether it plays now.",
                               "responses": {"200": _ok("The seats.")}}},
        "/api/join": {"post": {"summary": "Take a free seat with the join code; answers its private link.",
                               "requestBody": _body("JoinBody"),
                               "responses": {"200": _ok("The seat's token and link."),
                                             "400": _error("Malformed body."),
                                             "409": _error("Wrong code, taken seat or bad name.")}}},
        "/api/host/claim": {"post": {"summary": "Become the host (the first phone with the join code).",
                                     "requestBody": _body("ClaimHostBody"),
                                     "responses": {"200": _ok("The host token and link."),
                                                   "400": _error("Malformed body."),
                                                   "409": _error("Wrong code, or the table has a host.")}}},
        "/api/host": {"get": {"summary": "The join code, the join QR code's link, the e-ink's language and "
                                         "the phones' address (host only).",
                              "security": HOST,
                              "responses": {"200": _ok("Host details."),
                                            "403": _error("Missing or wrong host token.")}}},
        "/api/seats/{seat}/assign": {"post": {
            "summary": "Give a seat to a named player: a new private link (host only).", "security": HOST,
            "parameters": [SEAT_NUMBER], "requestBody": _body("NameBody"),
            "responses": {"200": _ok("The seat's new token and link."), "400": _error("Malformed body."),
                          "403": _error("Missing or wrong host token."), "409": _error("No such seat.")}}},
        "/api/seats/{seat}/free": {"post": {
            "summary": "Free a seat: its name goes and its link stops working (host only).", "security": HOST,
            "parameters": [SEAT_NUMBER],
            "responses": {"200": _ok("Freed."), "403": _error("Missing or wrong host token."),
                          "409": _error("No such seat.")}}},
        "/api/seats/{seat}/reissue": {"post": {
            "summary": "A new private link for a seat; the old one stops working (host only).",
            "security": HOST, "parameters": [SEAT_NUMBER],
            "responses": {"200": _ok("The seat's new token and link."),
                          "403": _error("Missing or wrong host token."), "409": _error("No such seat.")}}},
        "/api/language": {"post": {"summary": "The e-ink's language (host only).", "security": HOST,
                                   "requestBody": _body("LanguageBody"),
                                   "responses": {"200": _ok("Set."), "400": _error("Malformed body."),
                                                 "403": _error("Missing or wrong host token."),
                                                 "409": _error("Unknown language.")}}},
        "/api/network": {
            "get": {"summary": "The network mode, the join address and the hotspot's name and password "
                               "(host only).", "security": HOST,
                    "responses": {"200": _ok("The network."), "403": _error("Missing or wrong host token.")}},
            "post": {"summary": "Switch to the hotspot or to the venue's Wi-Fi, in the background; a failed "
                                "switch falls back to the previous mode (host only).", "security": HOST,
                     "requestBody": _body("NetworkBody"),
                     "responses": {"202": _ok("Switching."), "400": _error("Malformed body."),
                                   "403": _error("Missing or wrong host token."),
                                   "409": _error("Not managed here, or already switching.")}}},
        "/api/venue": {"get": {"summary": "The venue this table publishes to, whether it reaches the venue's "
                                          "broker and how many messages wait (host only; docs/venue.md).",
                               "security": HOST,
                               "responses": {"200": _ok("The venue link."),
                                             "403": _error("Missing or wrong host token.")}}},
        "/api/qr": {"post": {"summary": "An SVG QR code of a link (host only).", "security": HOST,
                             "requestBody": _body("QrBody"),
                             "responses": {"200": _ok("SVG image.", {"type": "string"}, "image/svg+xml"),
                                           "400": _error("Malformed body."),
                                           "403": _error("Missing or wrong host token.")}}},
        "/api/games": {"get": {"summary": "The games the host can start, with their options as JSON Schema.",
                               "responses": {"200": _ok("The games.")}}},
        "/api/openapi.json": {"get": {"summary": "This document.",
                                      "responses": {"200": _ok("OpenAPI 3.1.")}}},
    }
    from companion.outputs.webapp import MAX_BODY

    for route in paths.values():  # what every change must be (see __init__._cross_site_refused)
        if "post" in route:
            route["post"]["responses"].setdefault("403", _error("Sent by a page of another site."))
            route["post"]["responses"] |= {
                "413": _error(f"The body is over {MAX_BODY // 1024} KB."),
                "415": _error("The body is not sent as application/json.")}
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table companion", "version": companion.__version__,
                 "description": "The phones' API of the table companion. Errors are JSON with a 4xx status. "
                                "Every POST sends its body as application/json, and a browser sends it from "
                                "the table's own pages only."},
        "paths": paths,
        "components": {"schemas": schemas,
                       "securitySchemes": {"hostToken": {"type": "apiKey", "in": "header",
                                                         "name": "X-Host-Token"}}},
    }
