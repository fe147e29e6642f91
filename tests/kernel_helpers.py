"""Checks the kernel test modules share (imported as ``shobu_reference`` and the others are)."""

from __future__ import annotations

from typing import Any

import shogames
from shogames.core.kernel import Kernel, PlayoutBatch
from shogames.core.protocol import Game


def game_from_row(game_id: str, row: dict[str, object]) -> Game[Any]:
    """The game of a row of a test's settings table: ``preset`` names a preset, the rest are settings."""
    settings = dict(row)
    preset = settings.pop("preset", None)
    return shogames.make(game_id, preset if isinstance(preset, str) else None, **settings)


def replay(start: Any, moves: list[Any]) -> Any:
    """The reference state after playing ``moves`` from ``start`` (each checked for legality)."""
    state = start
    for move in moves:
        state = state.play(move)
    return state


def check_random_game(
    kernel: Kernel[Any, Any], batch: PlayoutBatch, seed: int, index: int, start: Any
) -> None:
    """Game ``index`` of ``batch`` (played from ``start`` with ``seed``), replayed by the reference.

    :meth:`~shogames.core.kernel.Kernel.random_game` gives its moves: as many as the batch's plies, legal
    in the reference, and ending the game with the batch's returns.
    """
    moves = kernel.random_game(seed=seed, start=start, index=index)
    assert len(moves) == int(batch.plies[index])
    state = replay(start, moves)
    assert state.is_terminal() and state.returns() == tuple(batch.returns[index])
