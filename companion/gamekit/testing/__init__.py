"""Conformance checks a game's author runs with pytest: one call, `check_game(SPEC)`, in a test file.

    from companion.gamekit.testing import check_game
    from mygame import SPEC

    def test_mygame_keeps_the_contract():
        check_game(SPEC)

A game that hides something also passes `twin=`; one whose command args are hard to guess, `moves=`
(see `check_game`). The pieces run one by one too: `check_spec`, `check_play` (returns the game
played), `check_replay`, `check_secrecy`, `check_views`, `check_screens`. They need hypothesis
(`pip install "table-companion[test]"`); the platform never imports this package.
"""

from companion.gamekit.testing.args import random_args, random_options
from companion.gamekit.testing.game import check_game
from companion.gamekit.testing.play import check_play
from companion.gamekit.testing.replay import check_replay
from companion.gamekit.testing.report import Played, Step
from companion.gamekit.testing.screens import NAMES, check_screens, panels
from companion.gamekit.testing.secrecy import check_secrecy
from companion.gamekit.testing.spec import check_spec
from companion.gamekit.testing.views import check_result, check_views

__all__ = ["NAMES", "Played", "Step", "check_game", "check_play", "check_replay", "check_result",
           "check_screens", "check_secrecy", "check_spec", "check_views", "panels", "random_args",
           "random_options"]
