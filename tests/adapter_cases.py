"""The game cases the adapters' tests share: every registered game under every preset and seat count.

A case is a game id, a preset (``None`` for the defaults) and settings. Each game gives its defaults, each
of its presets, and each number of seats it can have that no preset has
(:func:`shogames.adapters.seat_count_settings`, found from its setting specs: Sho's ``players``). Case ids
start with the game's id, as ``test_all_games_tested.py`` reads them.

Tests play short games: :func:`make_case` lowers the length cap (:func:`shogames.adapters.
short_game_settings`) where a game has it, so that long random games stay cheap; truncation is then
tested too.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from shogames.adapters import seat_count_settings, short_game_settings
from shogames.core.protocol import Game
from shogames.core.registry import available_games, game_class
from shogames.core.settings import SettingValue


def install_hint(extra: str) -> str:
    """How to install the extra an adapter's tests need, for their skip message."""
    return f"pip install -e '.[{extra}]' (or '.[test,openspiel,pettingzoo,gymnasium]' for every adapter)"


def game_cases() -> list[Any]:
    """One ``pytest.param(game_id, preset, settings)`` per registered game and setting bundle."""
    cases = []
    for cls in sorted(available_games(), key=lambda cls: cls.id):
        cases.append(pytest.param(cls.id, None, {}, id=f"{cls.id}-default"))
        cases.extend(pytest.param(cls.id, preset, {}, id=f"{cls.id}-{preset}") for preset in cls.presets)
        covered = {cls(preset).num_players for preset in [None, *cls.presets]}
        cases.extend(
            pytest.param(cls.id, None, dict(settings), id=f"{cls.id}-{seats}p")
            for seats, settings in seat_count_settings(cls).items()
            if seats not in covered
        )
    return cases


def game_ids() -> list[Any]:
    """One ``pytest.param(game_id)`` per registered game."""
    return [pytest.param(cls.id, id=cls.id) for cls in sorted(available_games(), key=lambda cls: cls.id)]


def case_settings(game_id: str, settings: Mapping[str, SettingValue], turns: int) -> dict[str, SettingValue]:
    """A case's settings with the length cap lowered to ``turns`` turns where the game has the cap."""
    return {**short_game_settings(game_class(game_id), turns), **settings}


def make_case(
    game_id: str, preset: str | None, settings: Mapping[str, SettingValue], turns: int
) -> Game[Any]:
    """The game of a case, capped at ``turns`` turns where the game has the cap."""
    return game_class(game_id)(preset, **case_settings(game_id, settings, turns))
