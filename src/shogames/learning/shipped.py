"""The learned evaluations that ship inside the game packages (``games/<id>/value.npz``).

A game's learned evaluation is a file beside its rules module, written by ``shogames train`` (its header
says the command, the budget and the seed that made it). Nothing is downloaded: a game without the file
has no learned evaluation, and agents that need one refuse it in words.
"""

from __future__ import annotations

import functools
import importlib
import importlib.resources
from typing import Any

from shogames.core.protocol import Game
from shogames.learning.network import ValueNet, WeightsError

FILE_NAME = "value.npz"
"""The name of a game's learned evaluation, in the game's package."""


def shipped_path(game: Game[Any]) -> Any:
    """Where ``game``'s learned evaluation lives (a resource traversable; the file may not exist)."""
    return importlib.resources.files(_package_of(game)).joinpath(FILE_NAME)


@functools.lru_cache(maxsize=16)
def _read(module: str) -> ValueNet:
    resource = importlib.resources.files(module).joinpath(FILE_NAME)
    if not resource.is_file():
        raise WeightsError("no learned evaluation ships with this game (no value.npz in its package)")
    return ValueNet.load(resource.read_bytes())[0]


def has_shipped_value(game: Game[Any]) -> bool:
    """Whether ``game`` ships a learned evaluation that reads its observation with these settings."""
    try:
        shipped_value(game)
    except WeightsError:
        return False
    return True


def shipped_value(game: Game[Any]) -> ValueNet:
    """``game``'s shipped learned evaluation, read once per process.

    Raises:
        WeightsError: the game has none, or it was trained for settings whose observation differs.
    """
    module = _package_of(game)
    try:
        network = _read(module)
        network.check_game(game)
    except WeightsError as error:
        raise WeightsError(f"{game.name}: {error}") from None
    return network


def _package_of(game: Game[Any]) -> str:
    """The package that holds ``game``'s rules module (the module itself when it is a package)."""
    name = type(game).__module__
    module = importlib.import_module(name)
    return name if hasattr(module, "__path__") else name.rpartition(".")[0]
