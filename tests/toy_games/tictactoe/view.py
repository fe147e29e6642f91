"""Tic-tac-toe in the browser: the board as JSON, and a move as one click on its square.

View fields: ``size`` (the board's width and height), ``line`` (the marks in a row that win), ``files``
(the files' letters), ``marks`` (one entry per square, by index ``row * size + column`` from the bottom
left: ``"x"``, ``"o"`` or ``""``), ``players``, ``to_move`` (the seat to move, ``None`` once over),
``terminal`` and ``winner`` (the seat that made a line, else ``None``).

Clicks: a move is one click on its square, ``sq:<name>`` (``sq:b2``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from shogames.core.protocol import State
from toy_games.tictactoe import FILES, TicTacToeState, square_name


def _tictactoe(state: State[Any]) -> TicTacToeState:
    if not isinstance(state, TicTacToeState):
        raise TypeError(f"not a tic-tac-toe state: {type(state).__name__}")
    return state


def position_view(state: State[Any]) -> dict[str, Any]:
    """The position for ``static/renderer.js`` (fields in the module docstring)."""
    ttt = _tictactoe(state)
    game = ttt.tictactoe
    return {
        "size": game.size,
        "line": game.line,
        "files": FILES[: game.size],
        "marks": [ttt.mark_at(square) for square in range(game.size * game.size)],
        "players": list(game.player_names),
        "to_move": ttt.to_move,
        "terminal": ttt.is_terminal(),
        "winner": ttt.winner,
    }


def move_clicks(state: State[Any], move: Hashable) -> tuple[str, ...]:
    """The square the mark goes on."""
    assert isinstance(move, int)
    return (f"sq:{square_name(move, _tictactoe(state).tictactoe.size)}",)
