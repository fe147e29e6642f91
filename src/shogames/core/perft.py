"""Perft: counting the leaves of the game tree to a fixed depth, for checking move generators.

Every move counts as one level, chance outcomes included; a terminal state reached before the depth
adds nothing. The last level is counted with :meth:`State.count_legal_moves`, which games may make
faster than generating the moves ("bulk counting").
"""

from __future__ import annotations

from typing import Any

from shogames.core.protocol import State


def check_perft_depth(depth: int) -> None:
    """Refuse a negative perft depth, for this perft and every kernel's.

    Raises:
        ValueError: ``depth`` is below 0.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, got {depth}")


def perft(state: State[Any], depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``state``.

    >>> from shogames import make
    >>> perft(make("shobu").new_initial_state(), 1)
    232
    """
    check_perft_depth(depth)
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    if depth == 1:
        return state.count_legal_moves()
    return sum(perft(state.play_unchecked(move), depth - 1) for move in state.legal_moves())


def perft_divide(state: State[Any], depth: int) -> list[tuple[str, int]]:
    """Perft split by first move: each legal move in notation with the leaves below it."""
    if depth < 1:
        raise ValueError(f"perft --divide needs a depth of 1 or more, got {depth}")
    return [
        (state.move_to_text(move), perft(state.play_unchecked(move), depth - 1))
        for move in state.legal_moves()
    ]
