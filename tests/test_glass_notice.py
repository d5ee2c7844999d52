"""The table's one line under any game (its venue unreachable): every game draws it whole on every panel
size, in both languages, inside the panel, the game still drawn above it."""

from __future__ import annotations

import random

import pytest

from companion.core import registry
from companion.gamekit.contract import TableInfo
from companion.gamekit.draws import ScriptedDraws
from companion.gamekit.frame import draw
from companion.gamekit.testing.screens import NAMES, URL, panels
from companion.i18n import plural_translator

NOTICE = ("Venue unreachable: {n} move waiting", "Venue unreachable: {n} moves waiting")


def mid_game(name: str, moves: int = 12, seed: int = 5) -> tuple[dict, int]:
    """A public view of `name` a few random legal moves into a game, and its players."""
    from companion.benchmark.players import legal_command

    spec = registry.get(name)
    rng = random.Random(seed)
    draws = ScriptedDraws(rng)
    options, state = spec.start({}, draws)
    seats = spec.seats_in_play(options)
    for _ in range(moves):
        if spec.over(state):
            break
        command = legal_command(spec, state, seats, rng,
                                draws=lambda: ScriptedDraws(random.Random(rng.random())))
        state, _ = spec.play(state, command, draws)
    return spec.public_json(state), seats if isinstance(seats, int) else len(seats)


@pytest.mark.parametrize("game", registry.names())
def test_every_game_draws_the_tables_notice_whole_on_every_panel_in_both_languages(game):
    spec = registry.get(game)
    view, players = mid_game(game)
    for lang in ("en", "fr"):
        notice = plural_translator(lang)(*NOTICE, 1234)
        assert ("\u202f:" in notice) == (lang == "fr")
        info = TableInfo(URL, "K7QF", tuple(NAMES[:players]), notice=notice)
        for model in panels():
            canvas = draw(spec, view, model, lang, info)
            texts = [e for e in canvas.elements if e.kind == "text"]
            drawn = [e for e in texts if e.label == notice]
            assert len(drawn) == 1 and not drawn[0].shortened, (game, model.name, lang)
            assert all(e.box.within(canvas.bounds) for e in canvas.elements), (game, model.name, lang)
            line = drawn[0].box
            # nothing else drawn over the line: the game keeps the room above it
            assert not [e.label for e in canvas.elements if e is not drawn[0] and e.box.y1 > line.y0
                        and e.box.x0 < line.x1 and e.box.x1 > line.x0], (game, model.name, lang)
