"""The Crash! board: flat-topped hex geometry, and the board file (junkyards, garages) checked on load."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import msgspec

from companion.gamekit import IllegalMove, load_toml

Cell = tuple[int, int]  # axial (q, r): q the column west to east, r down the column north to south

# Clockwise from north. A flat-topped hex has no east or west neighbour: its columns are vertical.
DIRECTIONS = ("n", "ne", "se", "s", "sw", "nw")
STEPS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
PLAYERS = 2
CARS = 6  # per player, numbered 1-6
PARTS = ("side", "junkyards", "garages")  # what a `reconstructed` marker may name


def step(cell: Cell, facing: int) -> Cell:
    """The neighbour of `cell` in direction `facing` (an index into DIRECTIONS)."""
    dq, dr = STEPS[facing]
    return cell[0] + dq, cell[1] + dr


def distance(a: Cell, b: Cell) -> int:
    """How many steps apart two cells are."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return max(abs(dq), abs(dr), abs(dq + dr))


def hexagon(side: int) -> frozenset[Cell]:
    """Every cell of a hexagon with `side` cells a side, centred on (0, 0)."""
    reach = side - 1
    return frozenset((q, r) for q in range(-reach, reach + 1) for r in range(-reach, reach + 1)
                     if abs(q + r) <= reach)


def car_index(seat: int, car: int) -> int:
    """Where car `car` (1-6) of `seat` is kept in a state's tuple of 12 cars."""
    return seat * CARS + car - 1


def car_of(index: int) -> tuple[int, int]:
    """(seat, car number) of a car index."""
    return index // CARS, index % CARS + 1


@dataclass(frozen=True)
class Garage:
    """A start space, off the board: which car waits there and which way it faces."""

    owner: int
    car: int
    cell: Cell
    facing: int


@dataclass(frozen=True)
class Board:
    """A checked board: its cells, each seat's junkyard, and the garages in car-index order."""

    side: int
    cells: frozenset[Cell]
    junkyards: tuple[Cell, ...]  # junkyards[seat]: the cell of the junkyard that seat owns
    garages: tuple[Garage, ...]
    reconstructed: tuple[str, ...] = ()

    def owner_of(self, cell: Cell) -> int | None:
        """The seat owning the junkyard on `cell`, or None."""
        return self.junkyards.index(cell) if cell in self.junkyards else None

    def is_road(self, cell: Cell) -> bool:
        """A cell a car may stand on: on the board and no junkyard."""
        return cell in self.cells and cell not in self.junkyards


Pair = Annotated[list[int], msgspec.Meta(min_length=2, max_length=2)]


class JunkyardFile(msgspec.Struct, forbid_unknown_fields=True):
    cell: Pair
    owner: int


class GarageFile(msgspec.Struct, forbid_unknown_fields=True):
    owner: int
    car: int
    cell: Pair
    facing: str


class BoardFile(msgspec.Struct, forbid_unknown_fields=True):
    junkyards: list[JunkyardFile]
    garages: list[GarageFile]
    side: Annotated[int, msgspec.Meta(ge=2, le=10)] = 4
    reconstructed: list[str] = []


def load_board(text: str, name: str) -> Board:
    """The board in `text` (a TOML file called `name`); IllegalMove names the file, the key and why."""
    data = load_toml(text, BoardFile, name)
    cells = hexagon(data.side)
    for i, part in enumerate(data.reconstructed):
        if part not in PARTS:
            raise IllegalMove("Data file {name}: key '{key}': '{part}' is no part of the board: use side, "
                              "junkyards or garages.", name=name, key=f"reconstructed[{i}]", part=part)
    junkyards = _junkyards(data, cells, name)
    garages = _garages(data, cells, junkyards, name)
    return Board(data.side, cells, junkyards, garages, tuple(data.reconstructed))


def _cell(pair: list[int]) -> Cell:
    return pair[0], pair[1]


def _owner(owner: int, key: str, name: str) -> int:
    if not 0 <= owner < PLAYERS:
        raise IllegalMove("Data file {name}: key '{key}': owner {owner} is not a player: use 0 (north) or "
                          "1 (south).", name=name, key=key, owner=owner)
    return owner


def _junkyards(data: BoardFile, cells: frozenset[Cell], name: str) -> tuple[Cell, ...]:
    owned: dict[int, Cell] = {}
    for i, junkyard in enumerate(data.junkyards):
        key = f"junkyards[{i}]"
        cell = _cell(junkyard.cell)
        if cell not in cells:
            raise IllegalMove("Data file {name}: key '{key}': cell {cell} is off the board (a hexagon of "
                              "side {side}): choose a board cell.", name=name, key=f"{key}.cell",
                              cell=list(cell), side=data.side)
        if cell in owned.values():
            raise IllegalMove("Data file {name}: key '{key}': cell {cell} already holds a junkyard: choose "
                              "another cell.", name=name, key=f"{key}.cell", cell=list(cell))
        owner = _owner(junkyard.owner, f"{key}.owner", name)
        if owner in owned:
            raise IllegalMove("Data file {name}: key '{key}': player {owner} already owns a junkyard: give "
                              "each player one.", name=name, key=f"{key}.owner", owner=owner)
        owned[owner] = cell
    for seat in range(PLAYERS):
        if seat not in owned:
            raise IllegalMove("Data file {name}: key '{key}': player {owner} owns no junkyard: give each "
                              "player one.", name=name, key="junkyards", owner=seat)
    return tuple(owned[seat] for seat in range(PLAYERS))


def _garages(data: BoardFile, cells: frozenset[Cell], junkyards: tuple[Cell, ...],
             name: str) -> tuple[Garage, ...]:
    found: dict[tuple[int, int], Garage] = {}
    taken: set[Cell] = set()
    for i, garage in enumerate(data.garages):
        key = f"garages[{i}]"
        owner = _owner(garage.owner, f"{key}.owner", name)
        if not 1 <= garage.car <= CARS:
            raise IllegalMove("Data file {name}: key '{key}': car {car} does not exist: cars are numbered 1 "
                              "to 6.", name=name, key=f"{key}.car", car=garage.car)
        if (owner, garage.car) in found:
            raise IllegalMove("Data file {name}: key '{key}': player {owner}'s car {car} already has a "
                              "garage: give each car one.", name=name, key=f"{key}.car", owner=owner,
                              car=garage.car)
        cell = _cell(garage.cell)
        if cell in cells:
            raise IllegalMove("Data file {name}: key '{key}': cell {cell} is on the board: garages are off "
                              "the board.", name=name, key=f"{key}.cell", cell=list(cell))
        if cell in taken:
            raise IllegalMove("Data file {name}: key '{key}': cell {cell} already holds a garage: choose "
                              "another cell.", name=name, key=f"{key}.cell", cell=list(cell))
        if garage.facing not in DIRECTIONS:
            raise IllegalMove("Data file {name}: key '{key}': '{facing}' is not a direction: use n, ne, se, "
                              "s, sw or nw.", name=name, key=f"{key}.facing", facing=garage.facing)
        facing = DIRECTIONS.index(garage.facing)
        ahead = step(cell, facing)
        if ahead not in cells or ahead in junkyards:
            raise IllegalMove("Data file {name}: key '{key}': a car leaving {cell} would enter {ahead}, "
                              "which is not a plain board cell: make it face the board.", name=name,
                              key=f"{key}.facing", cell=list(cell), ahead=list(ahead))
        taken.add(cell)
        found[owner, garage.car] = Garage(owner, garage.car, cell, facing)
    for seat in range(PLAYERS):
        for car in range(1, CARS + 1):
            if (seat, car) not in found:
                raise IllegalMove("Data file {name}: key '{key}': player {owner}'s car {car} has no garage: "
                                  "give each car one.", name=name, key="garages", owner=seat, car=car)
    return tuple(found[seat, car] for seat in range(PLAYERS) for car in range(1, CARS + 1))
