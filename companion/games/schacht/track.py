"""One lane of Crazy Race: where a loco stands, which way it faces, and how it moves."""

from __future__ import annotations

from dataclasses import dataclass

# A loco's progress along its route: 0 the start zone, 1-5 the spaces out, 6 the turntable, 7-11
# the spaces 5 to 1 on the way home, 12 the finish zone (it has left the board).
START, TURNTABLE, FINISH = 0, 6, 12


def space(progress: int) -> int | None:
    """The board space (1-6) a loco at `progress` stands on; None in the start or finish zone."""
    if progress in (START, FINISH):
        return None
    return progress if progress <= TURNTABLE else FINISH - progress


def facing_home(progress: int) -> bool:
    return progress >= TURNTABLE


@dataclass(frozen=True)
class Travel:
    """What one move did: where the loco went, and which points piles it reached."""

    loco: int
    steps: int
    start: int
    end: int
    turned: bool
    finished: bool


def travel(lane: tuple[int, ...], loco: int, steps: int) -> Travel:
    """Move loco `loco` of `lane` by `steps`.

    A space holding another loco of the lane is jumped and costs no step, in either direction. The
    turntable costs a step (a loco may not stop there with steps left); when another loco stands on
    it, the moving loco jumps it and still turns (our ruling). Steps beyond the finish are lost.
    """
    start = progress = lane[loco]
    taken = {space(p) for i, p in enumerate(lane) if i != loco} - {None}
    turned = False
    left = steps
    while left > 0 and progress < FINISH:
        progress += 1
        if progress == FINISH:
            break
        if progress == TURNTABLE:
            turned = True
        if space(progress) in taken:
            continue
        left -= 1
    return Travel(loco, steps, start, progress, turned, progress == FINISH)
