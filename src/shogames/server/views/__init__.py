"""What the browser is told about a position: a drawing description and the clicks that make each move.

Each game has a view module here (``shogames.server.views.<game id>``) with two functions:

``position_view(state) -> dict``
    A JSON-ready description of the position for that game's renderer in the browser
    (``static/games/<game id>.js``): the board, hands, dice, stacks, whatever the game shows. It reads the
    state's public attributes and holds no rules: legality stays in the game module.

``move_clicks(state, move) -> tuple[str, ...]``
    The *targets* a person clicks, in order, to make ``move`` (a legal move of a seat, never a chance
    outcome). A target is a short string id. Ids of things on the board (``"sq:2:a1"``, ``"shell:23"``)
    are drawn by the renderer as elements with a ``data-target`` attribute. Ids that start with
    ``"opt:"`` are choices that are not on the board (promote or not, hush, which die): the browser
    shows them as buttons labelled with the text after ``"opt:"``.

    Over the legal moves of one state the click sequences are all different and none is a prefix of
    another, so that a person's clicks always end at exactly one move. ``tests/test_web_views.py`` checks
    this over random games of every game and setting preset.

The browser narrows the legal moves as clicks come in: after clicks ``c1 .. ck`` it highlights every
``c(k+1)`` of the moves that begin with them, and plays the move once its whole sequence is clicked.
The last move is shown by highlighting its board targets (:func:`last_move_targets`).
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from types import ModuleType
from typing import Any, Protocol, cast

from shogames.core.protocol import CHANCE, State

OPTION_PREFIX = "opt:"
"""Targets that start with this are choices shown as buttons, not things on the board."""


class GameViews(Protocol):
    """The two functions each game's view module provides (see the module docstring)."""

    def position_view(self, state: State[Any]) -> dict[str, Any]:
        """A JSON-ready description of the position for the game's renderer."""
        ...

    def move_clicks(self, state: State[Any], move: Hashable) -> tuple[str, ...]:
        """The targets clicked, in order, to make ``move``."""
        ...


def views_for(game_id: str) -> GameViews:
    """The view module of a game.

    Raises:
        KeyError: the game has no view module (it cannot be shown in the browser).
    """
    try:
        module: ModuleType = importlib.import_module(f"{__name__}.{game_id}")
    except ModuleNotFoundError:
        raise KeyError(f"no browser view for game {game_id!r}") from None
    return cast(GameViews, module)


def legal_move_views(state: State[Any]) -> list[dict[str, Any]]:
    """Every legal move of the seat to move as ``{"text": notation, "clicks": [targets]}``.

    Empty at a chance node and at the end of the game.
    """
    if state.is_terminal() or state.to_move == CHANCE:
        return []
    views = views_for(state.game.id)
    return [
        {"text": state.move_to_text(move), "clicks": list(views.move_clicks(state, move))}
        for move in state.legal_moves()
    ]


def last_move_targets(before: State[Any], move: Hashable) -> list[str]:
    """The board targets of a seat's move, to highlight it as the last move (no ``opt:`` choices)."""
    clicks = views_for(before.game.id).move_clicks(before, move)
    return [target for target in clicks if not target.startswith(OPTION_PREFIX)]
