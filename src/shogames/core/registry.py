"""The registry of games: :func:`make` builds a game by id, :func:`available_games` lists them.

Games come from two places, both read on first use and never at import time, so that the registry
imports no game and no game imports the registry (there is no import cycle):

* the games shipped with shogames, named in :data:`shogames.games.BUILTIN_GAMES`;
* games of other installed packages, declared as entry points in the group :data:`ENTRY_POINT_GROUP`.
  A package ``shogames-go`` adds the game ``go`` with this in its ``pyproject.toml``::

      [project.entry-points."shogames.games"]
      go = "shogames_go:GoGame"

  The entry point's name must be the game's :attr:`~shogames.core.protocol.Game.id`.

:func:`register` adds a class at run time (tests use it for their toy games). Each reference is written
``module:ClassName``, as entry points are.

>>> game = make("shobu", max_turns=50)
>>> game.id, game.settings["max_turns"]
('shobu', 50)
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any, Final, TypeVar

from shogames.core.errors import SettingsError
from shogames.core.protocol import Game

ENTRY_POINT_GROUP: Final = "shogames.games"
"""The entry point group through which an installed package adds games."""

_GAMES: dict[str, type[Game[Any]]] = {}
_loaded = False

GameClassT = TypeVar("GameClassT", bound=type[Game[Any]])


class GameLoadError(ImportError):
    """A game named by shogames or by an entry point cannot be loaded; the message says which and why."""


def register(game_class: GameClassT) -> GameClassT:
    """Add a game class to the registry under its ``id``; usable as a class decorator.

    Raises:
        ValueError: another class is registered under the same id.
    """
    existing = _GAMES.get(game_class.id)
    if existing is not None and existing is not game_class:
        raise ValueError(
            f"game id {game_class.id!r} is already registered to {existing.__module__}.{existing.__name__}"
        )
    _GAMES[game_class.id] = game_class
    return game_class


def load_reference(reference: str) -> type[Game[Any]]:
    """The game class named by ``module:ClassName``.

    Raises:
        GameLoadError: the module cannot be imported, has no such class, or it is not a game class.
    """
    module_name, _, attribute = reference.partition(":")
    try:
        found: object = importlib.import_module(module_name)
        for part in attribute.split("."):
            found = getattr(found, part)
    except (ImportError, AttributeError) as error:
        raise GameLoadError(f"cannot load the game {reference!r}: {error}") from error
    if not (isinstance(found, type) and issubclass(found, Game)):
        raise GameLoadError(f"{reference!r} is not a game class (a subclass of shogames.core.Game)")
    return found


def _load_games() -> None:
    global _loaded
    if _loaded:
        return
    from shogames.games import BUILTIN_GAMES  # the package only names its games; it imports none

    for game_id, reference in BUILTIN_GAMES.items():
        _register_loaded(game_id, load_reference(reference), reference)
    for entry_point in entry_points(group=ENTRY_POINT_GROUP):
        _register_loaded(entry_point.name, load_reference(entry_point.value), entry_point.value)
    _loaded = True  # only once every game loaded: a refused entry point is refused on every call


def _register_loaded(game_id: str, cls: type[Game[Any]], reference: str) -> None:
    if cls.id != game_id:
        raise GameLoadError(f"{reference!r} is registered as {game_id!r} but its id is {cls.id!r}")
    register(cls)


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
