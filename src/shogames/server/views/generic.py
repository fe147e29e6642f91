"""The view of a game that has no view module of its own: its diagram as text, each move a button.

It lets every registered game be played in the browser: the renderer (``static/renderer.js`` beside this
module) draws :meth:`State.diagram <shogames.core.protocol.State.diagram>` line by line, and each legal
move of the seat to move is one click on the button ``opt:<the move in notation>``.

View fields (``position_view``): ``game`` (the id), ``players`` (the seats' names), ``diagram`` (a list of
lines), ``text`` (the position text), ``to_move`` (the seat to move, ``-1`` at a chance node, ``None`` once
over), ``terminal`` and ``returns`` (each seat's return once over, else ``None``).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from shogames.core.protocol import CHANCE, State


def position_view(state: State[Any]) -> dict[str, Any]:
    """The position as its text diagram and whose turn it is (fields in the module docstring)."""
    terminal = state.is_terminal()
    return {
        "game": state.game.id,
        "players": list(state.game.player_names),
        "diagram": state.diagram().splitlines(),
        "text": state.to_text(),
        "to_move": state.to_move,
        "terminal": terminal,
        "returns": list(state.returns()) if terminal else None,
    }


def move_clicks(state: State[Any], move: Hashable) -> tuple[str, ...]:
    """One button per move, labelled with its notation; a chance outcome has none (the server plays it)."""
    if state.to_move == CHANCE:
        return ()
    return ("opt:" + state.move_to_text(move),)
