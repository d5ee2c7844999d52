"""The Rallye's expected length at a table: the model shipped as game data, and its shorter settings."""

from __future__ import annotations

import pytest
from bench_rallye_length import TARGET, minutes, rally

from companion.games.rallye import length


def test_the_expected_length_grows_with_players_cards_and_laps():
    for players in range(2, 7):
        assert length.expected_minutes(players, 15, 2) < length.expected_minutes(players, 30, 4)
        assert length.expected_minutes(players, 30, 3) <= length.expected_minutes(players, 30, 4)
    assert [length.expected_minutes(p, 30, 4) for p in (2, 4, 6)] == sorted(
        length.expected_minutes(p, 30, 4) for p in (2, 4, 6))


def test_large_tables_are_offered_shorter_settings_under_the_target():
    """Issue 24, problem 4: the Rallye at 5-6 players is an evening at the defaults."""
    for players in (5, 6):
        cards, laps = length.suggestion(players)
        assert length.expected_minutes(players, 30, 4) > TARGET
        assert length.expected_minutes(players, cards, laps) <= TARGET
    assert all(length.suggestion(players) is None for players in (2, 3, 4))


@pytest.mark.slow
def test_a_simulated_rally_at_the_suggested_settings_is_near_the_model():
    players = 6
    cards, laps = length.suggestion(players)
    played = [minutes(rally(seed, players, cards, laps)) for seed in range(3)]
    assert abs(sum(played) / len(played) - length.expected_minutes(players, cards, laps)) < 25
