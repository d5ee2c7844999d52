"""The data file of Crazy Race: stage cards, driver cards and points piles, checked on load."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

import msgspec

from companion.gamekit import IllegalMove, load_toml

BUNDLED = "stages.toml"
MODELS = ("A", "B", "C")
STAGES = 8
FREE = ""
ANY = "?"

Source = Literal["rulebook", "external", "reconstructed"]
Distance = Annotated[int, msgspec.Meta(ge=1, le=4)] | Literal["?"]
Points = list[Annotated[int, msgspec.Meta(ge=0, le=99)]]


class SideFile(msgspec.Struct, forbid_unknown_fields=True):
    loco: Literal["A", "B", "C", ""]
    distance: Distance


class StageFile(msgspec.Struct, forbid_unknown_fields=True):
    arrow: Annotated[int, msgspec.Meta(ge=0, le=3)]
    sides: Annotated[list[SideFile], msgspec.Meta(min_length=4, max_length=4)]


class Provenance(msgspec.Struct, forbid_unknown_fields=True):
    drivers: Source = "rulebook"
    turntable: Source = "rulebook"
    finish: Source = "rulebook"
    fewer_points_drop: Source = "rulebook"
    stages: Source = "rulebook"


class DataFile(msgspec.Struct, forbid_unknown_fields=True):
    drivers: Annotated[list[Annotated[int, msgspec.Meta(ge=1, le=6)]],
                       msgspec.Meta(min_length=1, max_length=12)]
    turntable: Points
    finish: Points
    stages: list[StageFile]
    fewer_points_drop: Annotated[int, msgspec.Meta(ge=0)] = 0
    provenance: Provenance = msgspec.field(default_factory=Provenance)


@dataclass(frozen=True)
class Side:
    """One side of a stage card: the loco model drawn there ("" for the free side) and its distance
    (None for "?": as many spaces as cards lie beside it)."""

    loco: str
    distance: int | None


@dataclass(frozen=True)
class Stage:
    """A stage card: four sides clockwise from the top, and which of them has the arrow."""

    sides: tuple[Side, ...]
    arrow: int

    def order(self) -> tuple[int, ...]:
        """The sides in the order they are evaluated: the arrow's side, then clockwise."""
        return tuple((self.arrow + k) % 4 for k in range(4))


@dataclass(frozen=True)
class Deck:
    """Everything the data file gives, as the rules use it."""

    stages: tuple[Stage, ...]
    drivers: tuple[int, ...]
    turntable: tuple[int, ...]
    finish: tuple[int, ...]
    fewer_points_drop: int
    reconstructed: tuple[str, ...]
    name: str


def load(text: str, name: str) -> Deck:
    """The deck in `text`; IllegalMove names the file `name`, the key and why."""
    raw = load_toml(text, DataFile, name)
    if len(raw.stages) != STAGES:
        raise IllegalMove("Data file {name}: key 'stages': the game has {count} stage cards, the file "
                          "has {found}.", name=name, count=STAGES, found=len(raw.stages))
    for i, stage in enumerate(raw.stages):
        locos = sorted(side.loco for side in stage.sides)
        if locos != [FREE, *MODELS]:
            raise IllegalMove("Data file {name}: key 'stages[{index}].sides': a stage card shows the locos "
                              "A, B and C once each and one free side (loco = \"\").", name=name, index=i)
    return Deck(
        stages=tuple(Stage(tuple(Side(s.loco, s.distance if isinstance(s.distance, int) else None)
                                 for s in st.sides), st.arrow) for st in raw.stages),
        drivers=tuple(sorted(raw.drivers)),
        turntable=tuple(sorted(raw.turntable, reverse=True)),
        finish=tuple(sorted(raw.finish, reverse=True)),
        fewer_points_drop=raw.fewer_points_drop,
        reconstructed=tuple(k for k in Provenance.__struct_fields__
                            if getattr(raw.provenance, k) == "reconstructed"),
        name=name,
    )
