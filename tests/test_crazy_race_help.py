"""Both Crazy Races' rules help (their specs' `help`): how to play and what each card does, French and
English, every Gewalt action card covered."""

from __future__ import annotations

import pytest

from companion.core import registry
from companion.games.gewalt import data as gewalt_data
from companion.i18n import translator

GAMES = ("schacht", "gewalt")


def rules_help(game: str):
    return registry.get(game).help


@pytest.mark.parametrize("game", GAMES)
def test_the_help_has_the_shape_the_seat_page_reads_and_is_in_french(game):
    found = rules_help(game)
    assert found.how and found.cards
    assert set(found.names) == set(found.cards)
    french, english = translator("fr", registry.get(game)), translator("en", registry.get(game))
    for msgid in [found.how, *found.cards.values()]:  # a name may read the same ("double")
        assert english(msgid) == msgid
        assert french(msgid) != msgid, f"{game}: no French for {msgid[:40]!r}"
    assert len(french(found.how).split("\n\n")) == len(found.how.split("\n\n"))  # the same paragraphs


def test_every_gewalt_action_card_is_explained_under_its_own_name():
    found = rules_help("gewalt")
    assert set(found.cards) == set(gewalt_data.ACTIONS)
    fr = translator("fr", registry.get("gewalt"))
    assert fr(found.names["no_roll"]) == "pas de dés"
    assert fr(found.cards["no_roll"]).startswith("Attaque\u202f:")
    for card in gewalt_data.ATTACKS:
        assert found.cards[card].startswith("Attack: ")
    for card in gewalt_data.SELF_CARDS:
        assert found.cards[card].startswith("For yourself: ")


def test_schacht_help_tells_the_early_end_and_the_driver_values():
    found = rules_help("schacht")
    assert "the game ends after that stage" in found.how
    assert found.cards["driver"].startswith("1, 1, 2, 2, 3, 3, 4 and 6")
