"""Adapters that make every registered game an environment of the research libraries.

Each adapter sees the games only through :mod:`shogames.core.protocol` and the registry, so a game gets
all three by numbering its moves and drawing its observation tensor (``docs/research.md``):

* :mod:`shogames.adapters.openspiel`: every game registered with OpenSpiel as a Python game
  (``pyspiel.load_game("shogames_shobu(max_turns=100)")``); extra ``openspiel``.
* :mod:`shogames.adapters.pettingzoo`: an AEC environment per game (``env("sho", players=4)``) with action
  masks, the dice drawn inside; extra ``pettingzoo``.
* :mod:`shogames.adapters.gymnasium`: one single-agent environment per game (``shogames/Shobu-v0``) where
  the agent plays one seat against an opponent from :mod:`shogames.agents`; extra ``gymnasium``.

This package imports none of those libraries: each submodule imports its own, and ``import shogames``
imports no adapter. What the three share is here: the rules for naming and for finding the settings that
change how many seats a game has.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from shogames.core.errors import SettingsError
from shogames.core.protocol import Game
from shogames.core.settings import SettingValue

MAX_SCANNED_VALUES = 16
"""The widest range of a whole-number setting that :func:`seat_count_settings` tries value by value."""


def camel_name(game_id: str) -> str:
    """The game id in CamelCase, as environment names are written (``shogammon`` -> ``Shogammon``).

    >>> camel_name("toy_dice_race")
    'ToyDiceRace'
    """
    return "".join(part.capitalize() for part in game_id.split("_"))


def seat_count_settings(game_class: type[Game[Any]]) -> dict[int, Mapping[str, SettingValue]]:
    """For each number of seats the game can have, settings that give it, found from the setting specs.

    The defaults come first; then every whole-number setting with a range of at most
    :data:`MAX_SCANNED_VALUES` values is tried one value at a time (the others at their defaults), and
    the first value that gives a new number of seats is kept. Sho's ``players=2`` and ``players=4`` are
    found this way, with no game named. Values the game refuses are passed over.

    >>> from shogames.core.registry import game_class
    >>> sorted(seat_count_settings(game_class("shobu")))
    [2]
    """
    found: dict[int, Mapping[str, SettingValue]] = {game_class().num_players: {}}
    for spec in game_class.setting_specs:
        if spec.kind is not int or spec.minimum is None or spec.maximum is None:
            continue
        if spec.maximum - spec.minimum >= MAX_SCANNED_VALUES:
            continue
        for value in range(spec.minimum, spec.maximum + 1):
            try:
                seats = game_class(None, **{spec.name: value}).num_players
            except SettingsError:
                continue
            found.setdefault(seats, {spec.name: value})
    return found


LENGTH_CAP_SETTING = "max_turns"
"""The setting every game caps its length with (the protocol's glossary): what a short test game lowers."""


def short_game_settings(game_class: type[Game[Any]], turns: int) -> dict[str, SettingValue]:
    """Settings that cap a game at about ``turns`` turns, for quick tests: ``{}`` where there is no cap.

    The cap is the :data:`LENGTH_CAP_SETTING` setting, lowered to ``turns`` (never below the setting's
    minimum, nor above its default unless the default means no cap).
    """
    for spec in game_class.setting_specs:
        if spec.name == LENGTH_CAP_SETTING and spec.kind is int:
            assert isinstance(spec.default, int)
            value = turns if spec.default <= 0 else min(turns, spec.default)
            return {spec.name: max(value, spec.minimum or 1)}
    return {}
