"""`check_game`: every conformance check of one game, over random games that hypothesis draws and shrinks."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.gamekit.contract import GameSpec
from companion.gamekit.testing.args import random_options
from companion.gamekit.testing.play import Moves, OptionsRefused, check_play
from companion.gamekit.testing.replay import check_replay
from companion.gamekit.testing.report import Played, fail
from companion.gamekit.testing.screens import check_screens, panels
from companion.gamekit.testing.secrecy import Twin, check_secrecy
from companion.gamekit.testing.spec import check_spec
from companion.gamekit.testing.views import check_result, check_views
from companion.i18n import LANGUAGES

OPTION_TRIES = 20  # options drawn that setup may refuse (a first player beyond the players) before failing
SEEDS = 256  # the choices of a step that hypothesis draws: few, so that a failing game shrinks fast
Options = Mapping[str, Any] | Sequence[Mapping[str, Any]] | None


def check_game(spec: GameSpec, *, options: Options = None, moves: Moves | None = None,
               twin: Twin | None = None, examples: int = 5, max_steps: int = 2000, stops: int = 3) -> None:
    """Check that `spec` keeps the platform's contract; an AssertionError names the check that failed,
    what went wrong, how to fix it and the game that showed it.

    - the spec: names, shapes, French for every text it declares, data files, default options;
    - random legal games, a first from fixed seeds then `examples` that hypothesis draws step by step
      (so a failure shrinks): each ends within `max_steps` commands (a game that keeps the default
      `over` plays that many), and no command, refused or accepted, changes the state it was given;
    - the replay of each game from its record gives the same states;
    - at `stops` random states of each game, its start and its end: the views are plain JSON of their
      Structs, a twin of each seat's secrets shows the others the same, and the screen draws;
    - at the first game's start, middle and end, the screen draws on every supported panel, in French
      and English, with long accented names.

    `options`: the options to play with; a mapping fixes some, the others are drawn within their bounds
    for each game (a sequence of mappings: one of them each game). `moves(state, seat, rng)`: commands
    worth trying for `seat` (None: the table) when made-up args are rarely accepted. `twin(state, seat,
    rng)`: needed by a game that hides something (see `check_secrecy`).
    """
    check_spec(spec)
    if spec.hidden and twin is None:
        fail("secrecy", "the game hides something (spec.hidden) but check_game was given no twin",
             "give check_game twin(state, seat, rng): a state where only seat's secrets differ (None if it "
             "has none now); or set hidden=False if the game keeps nothing from anyone")
    choices = [options or {}] if options is None or isinstance(options, Mapping) else list(options)
    twins: list[int] = []

    def play(fixed: Mapping[str, Any], rng: random.Random, seeds: Callable[[], int]) -> Played:
        """A game with `fixed` options and the others drawn: drawn again while the game refuses them."""
        for _ in range(OPTION_TRIES - 1):
            try:
                return check_play(spec, random_options(spec.options, fixed, rng), moves=moves,
                                  max_steps=max_steps, seeds=seeds)
            except OptionsRefused:
                pass
        return check_play(spec, random_options(spec.options, fixed, rng), moves=moves, max_steps=max_steps,
                          seeds=seeds)  # the last try: its refusal is the failure

    def one_game(seeds: Callable[[], int], first: bool = False) -> None:
        """Play a game from `seeds`, then check its replay, its views, twins and screen at some of its
        states, and its result. The first game's screen is drawn on every panel at its start, middle and
        end."""
        rng = random.Random(seeds())
        played = play(choices[0] if first else rng.choice(choices), rng, seeds)
        check_replay(played)
        last = len(played.states) - 1
        for index in sorted({0, last, *(rng.randint(0, last) for _ in range(stops))}):
            check_views(played, index)
            if twin is not None:
                twins.append(check_secrecy(played, index, twin, rng, moves))
            view = spec.public_json(played.states[index])
            check_screens(spec, [view], played.players, models=[rng.choice(panels())],
                          languages=[rng.choice(LANGUAGES)], played=played)
        check_result(played)
        if first:
            check_screens(spec, [spec.public_json(played.states[i]) for i in (0, last // 2, last)],
                          played.players, played=played)

    # A first game from fixed seeds, before hypothesis: most faults show in any game, and are told at once
    # rather than after minutes of shrinking.
    fixed = random.Random(0)
    one_game(step_seeds(0, lambda: fixed.randrange(SEEDS)), first=True)

    @settings(max_examples=examples, deadline=None, suppress_health_check=[
        HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example])
    @given(st.data())
    def games(data: st.DataObject) -> None:
        one_game(step_seeds(data.draw(st.integers(0, 2**32 - 1), label="game"),
                            lambda: data.draw(st.integers(0, SEEDS - 1), label="step")))

    games()
    if twin is not None and not sum(twins):
        fail("secrecy", f"twin(state, seat, rng) returned None for every seat at every state checked "
             f"({len(twins)} states): nothing was compared", "return a twin wherever a seat holds a secret")


def step_seeds(game: int, choose: Callable[[], int]) -> Callable[[], int]:
    """Each step's seed: the game's, the step's number and a choice. Choices that hypothesis shrinks to the
    same value still give every step its own dice: a game never rolls the same die for ever."""
    steps = itertools.count()
    return lambda: (game << 40) + (next(steps) << 8) + choose()
