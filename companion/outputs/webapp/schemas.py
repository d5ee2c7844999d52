"""A game's Structs as pages read them: JSON Schemas titled in the reader's language, and the shapes of the
views and command forms the platform generates for a game that ships no pages of its own."""

from __future__ import annotations

import enum
import typing
from collections.abc import Callable

import msgspec

from companion.gamekit.contract import GameSpec
from companion.gamekit.seat_types import PER_SEAT, SEAT

REF = "#/$defs/"
DEPTH = 16  # a Struct that holds itself shows as plain values below this depth


def translated(schema, tr: Callable[..., str]):
    """A JSON Schema with its titles and descriptions (msgids, marked N_) in the reader's language."""
    if isinstance(schema, dict):
        # an empty msgid would read as the catalog's header: it stays empty
        return {k: tr(v) if k in ("title", "description") and isinstance(v, str) and v else translated(v, tr)
                for k, v in schema.items()}
    if isinstance(schema, list):
        return [translated(v, tr) for v in schema]
    return schema


def readable(name: str) -> str:
    """A name as a label where the game declares none: "set_dice" reads "Set dice"."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def generated_pages(spec: GameSpec, tr: Callable[..., str]) -> dict:
    """What the generated pages of `spec` show, in the language of `tr` (its catalog first): the shapes of
    its public and private views, and each command kind's label and form, in the order the spec lists
    them. Only names and types: nothing here depends on a game's state."""
    structs = [spec.public, spec.private, *spec.commands.values()]
    refs, defs = msgspec.json.schema_components(structs, ref_template=REF + "{name}")
    shape = Shapes(translated(defs, tr), tr, declared_orders(structs))
    return {"public": shape(refs[0]), "private": shape(refs[1]),
            "commands": [{"kind": kind, "label": tr(spec.command_labels.get(kind) or readable(kind)),
                          "form": shape(ref)} for kind, ref in zip(spec.commands, refs[2:], strict=True)]}


class Shapes:
    """Reads msgspec's JSON Schemas (titles already translated) into shapes, which a page renders without
    knowing JSON Schema: `{"kind": ..., ...}` with kind one of

    - object: `fields`, each `{key, label, required, shape}` and a `hint` where the field has a description
    - array: `items` (a shape), `per_seat` (one item per seat), `min_items`, `max_items`
    - map: `values` (a shape), for a dict
    - seat, boolean, string (`min_length`, `max_length`), integer and number (`min`, `max`)
    - choice: `options`, each `{value, label}` (a string value's label is looked up like a name)
    - any: whatever the page cannot do better with

    and `nullable` (None is allowed) and `default` where the schema says so.
    """

    def __init__(self, defs: dict, tr: Callable[..., str], orders: dict[frozenset, list]):
        self.defs, self.tr, self.orders = defs, tr, orders  # orders: see declared_orders

    def __call__(self, schema: dict, depth: int = 0) -> dict:
        out = self._shape(schema, depth)
        if isinstance(schema, dict) and "default" in schema:
            out["default"] = schema["default"]
        return out

    def _shape(self, schema, depth: int) -> dict:
        if depth > DEPTH or not isinstance(schema, dict):
            return {"kind": "any"}
        if "$ref" in schema:
            return self._shape(self.defs.get(schema["$ref"].removeprefix(REF)), depth + 1)
        if "anyOf" in schema:
            options = [s for s in schema["anyOf"] if s.get("type") != "null"]
            out = self._shape(options[0], depth + 1) if len(options) == 1 else {"kind": "any"}
            return out | {"nullable": True} if len(options) < len(schema["anyOf"]) else out
        if "enum" in schema or "const" in schema:
            values = schema["enum"] if "enum" in schema else [schema.get("const")]
            values = self.orders.get(frozenset(values), values)
            return {"kind": "choice", "options": [{"value": value, "label": self._label(value)}
                                                  for value in values]}
        kind = schema.get("type")
        if kind == "integer" and schema.get(SEAT):
            return {"kind": "seat"}
        if kind in ("integer", "number"):
            return {"kind": kind, **_bounds(schema, 1 if kind == "integer" else 0)}
        if kind == "boolean":
            return {"kind": "boolean"}
        if kind == "string":
            return {"kind": "string", **_renamed(schema, minLength="min_length", maxLength="max_length")}
        if kind == "array":
            return self._array(schema, depth)
        if kind == "object" and "properties" in schema:
            required = set(schema.get("required", ()))
            return {"kind": "object", "fields": [self._field(name, field, name in required, depth)
                                                 for name, field in schema["properties"].items()]}
        if kind == "object":
            return {"kind": "map", "values": self._shape(schema.get("additionalProperties"), depth + 1)}
        return {"kind": "any"}

    def _label(self, value) -> str:
        return self.tr(readable(value)) if isinstance(value, str) and value.strip() else str(value)

    def _array(self, schema: dict, depth: int) -> dict:
        items = schema.get("items")
        if not isinstance(items, dict):  # a tuple: one shape when all its places share it
            places = schema.get("prefixItems") or [{}]
            items = places[0] if all(place == places[0] for place in places) else {}
        return {"kind": "array", "items": self(items, depth + 1), "per_seat": bool(schema.get(PER_SEAT)),
                **_renamed(schema, minItems="min_items", maxItems="max_items")}

    def _field(self, name: str, schema: dict, required: bool, depth: int) -> dict:
        # A field's title and description sit beside its type, or in a branch of `X | None` (a Struct's
        # own title, its class name, stays in $defs).
        branches = [schema, *schema.get("anyOf", ())]
        title = next((b["title"] for b in branches if "title" in b), None)
        hint = next((b["description"] for b in branches if "description" in b), None)
        field = {"key": name, "label": title or self.tr(readable(name)), "required": required,
                 "shape": self(schema, depth + 1)}
        return field | {"hint": hint} if hint else field


def declared_orders(types: list) -> dict[frozenset, list]:
    """The values of each Literal and Enum that `types` use, in the order the game declares them (JSON
    Schema sorts them, and "low, medium, high" would read "high, low, medium")."""
    found: dict[frozenset, list] = {}
    seen: set = set()

    def walk(hint) -> None:
        if typing.get_origin(hint) is typing.Literal:
            values = list(typing.get_args(hint))
        elif isinstance(hint, type) and issubclass(hint, enum.Enum):
            values = [member.value for member in hint]
        elif isinstance(hint, type) and issubclass(hint, msgspec.Struct):
            if hint not in seen:
                seen.add(hint)
                for field in typing.get_type_hints(hint, include_extras=True).values():
                    walk(field)
            return
        else:  # a union, a list, a dict, an Annotated type: what it is made of
            for part in typing.get_args(hint):
                walk(part)
            return
        found.setdefault(frozenset(values), values)

    for hint in types:
        walk(hint)
    return found


def _bounds(schema: dict, step: int) -> dict:
    """The inclusive bounds of a number: an exclusive bound of an integer moves one step in."""
    out = {}
    for key, exclusive, name, sign in (("minimum", "exclusiveMinimum", "min", 1),
                                       ("maximum", "exclusiveMaximum", "max", -1)):
        if key in schema:
            out[name] = schema[key]
        elif exclusive in schema:
            out[name] = schema[exclusive] + sign * step
    return out


def _renamed(schema: dict, **names: str) -> dict:
    return {new: schema[old] for old, new in names.items() if old in schema}
