"""The registry of games: :func:`make` builds a game by id, :func:`available_games` lists them.

Game modules register their class with :func:`register` when :mod:`shogames.games` is imported, which
:func:`make` and :func:`available_games` do on first use.

>>> game = make("shobu", max_turns=50)
>>> game.id, game.settings["max_turns"]
('shobu', 50)
"""

from __future__ import annotations

import importlib
from typing import Any, TypeVar

from shogames.core.errors import SettingsError
from shogames.core.protocol import Game

_GAMES: dict[str, type[Game[Any]]] = {}
_loaded = False

GameClassT = TypeVar("GameClassT", bound=type[Game[Any]])


def register(game_class: GameClassT) -> GameClassT:
    """Add a game class to the registry under its ``id``; usable as a class decorator."""
    existing = _GAMES.get(game_class.id)
    if existing is not None and existing is not game_class:
        raise ValueError(f"game id {game_class.id!r} is already registered to {existing.__name__}")
    _GAMES[game_class.id] = game_class
    return game_class


def _load_games() -> None:
    global _loaded
    if not _loaded:
        importlib.import_module("shogames.games")
        _loaded = True


def game_class(game_id: str) -> type[Game[Any]]:
    """The class registered under ``game_id``.

    Raises:
        SettingsError: no game has that id; the message lists the ids there are.
    """
    _load_games()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES))
        raise SettingsError(f"unknown game {game_id!r}; games: {known}") from None


def make(game_id: str, preset: str | None = None, **settings: object) -> Game[Any]:
    """Build the game ``game_id`` with an optional preset and explicit settings.

    Raises:
        SettingsError: an unknown game, preset or setting, or a value that is not allowed.
    """
    return game_class(game_id)(preset, **settings)


def available_games() -> list[type[Game[Any]]]:
    """Every registered game class, sorted by id."""
    _load_games()
    return [_GAMES[game_id] for game_id in sorted(_GAMES)]
