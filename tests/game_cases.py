"""The cases of the shared suites that run every registered game under its defaults and each preset.

A case is ``pytest.param(game_id, preset)`` with the id ``<game>-<preset or default>``, the form
``test_all_games_tested.py`` reads.
"""

from __future__ import annotations

from typing import Any

import pytest

from shogames.core.registry import available_games


def preset_cases() -> list[Any]:
    """One case per registered game and setting bundle: the defaults, then each preset."""
    classes = {cls.id: cls for cls in available_games()}
    return [
        pytest.param(game_id, preset, id=f"{game_id}-{preset or 'default'}")
        for game_id, cls in sorted(classes.items())
        for preset in [None, *cls.presets]
    ]
