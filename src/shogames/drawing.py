"""Boards drawn as SVG in Python: for notebooks, documents and anything that wants a picture of a state.

Each game that draws itself names two modules on its game class:
:attr:`~shogames.core.protocol.Game.view_module`, whose ``position_view(state)`` describes the position
as a JSON-ready dict, and
:attr:`~shogames.core.protocol.Game.render_module`, whose ``board_svg(view, orientation=0, names=(),
over=False)`` draws that description. The browser draws the same description with the game's
``static/renderer.js``; ``tests/test_render_agreement.py`` checks, over random positions of every preset,
that the two give the same markup character for character, so a notebook shows exactly the board a player
sees. ``docs/drawing.md`` says why the browser keeps a renderer of its own.

Example::

    >>> import shogames
    >>> from shogames.drawing import board_svg
    >>> svg = board_svg(shogames.make("shobu").new_initial_state())
    >>> svg.startswith("<svg")
    True
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from typing import Any

from shogames.core.protocol import Game, State


def has_drawing(game: Game[Any]) -> bool:
    """Whether ``game`` names both a view module and a render module, so :func:`board_svg` can draw it."""
    return game.view_module is not None and game.render_module is not None


def board_svg(
    state: State[Any],
    *,
    orientation: int = 0,
    names: Sequence[str | None] = (),
    over: bool = False,
) -> str:
    """The board of ``state`` as an ``<svg>`` element, as the web app draws it.

    Args:
        state: any state of a game that draws itself (:func:`has_drawing`).
        orientation: the seat whose side is shown at the bottom (0 by default).
        names: names to show for the seats in place of their colours, by seat; ``None`` or ``""`` keeps a
            seat's colour.
        over: draw the game as finished even where the position is not (a resignation, a loss on time).

    Raises:
        ValueError: the game has no drawing, or ``orientation`` is not one of its seats.
    """
    game = state.game
    if not has_drawing(game):
        raise ValueError(
            f"{game.id} has no drawing: its game class names no view_module and render_module; "
            "use state.diagram() for a text picture"
        )
    players = game.num_players
    if not (isinstance(orientation, int) and 0 <= orientation < players):
        raise ValueError(f"orientation is a seat, an int from 0 to {players - 1}, got {orientation!r}")
    view = importlib.import_module(str(game.view_module)).position_view(state)
    render = importlib.import_module(str(game.render_module))
    return str(render.board_svg(view, orientation=orientation, names=tuple(names), over=over))
