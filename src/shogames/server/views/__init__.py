"""What the browser is told about a position: a drawing description and the clicks that make each move.

Each game names its view module in :attr:`Game.view_module <shogames.core.protocol.Game.view_module>`
(the four games' are ``shogames.games.<game id>.view``). A view module provides two functions:

``position_view(state) -> dict``
    A JSON-ready description of the position for that game's renderer in the browser: the board, hands,
    dice, stacks, whatever the game shows. It reads the state's public attributes, never the position
    text, and holds no rules: legality stays in the game module.

``move_clicks(state, move) -> tuple[str, ...]``
    The *targets* a person clicks, in order, to make ``move`` (a legal move of a seat, never a chance
    outcome). A target is a short string id. Ids of things on the board (``"sq:2:a1"``, ``"shell:23"``)
    are drawn by the renderer as elements with a ``data-target`` attribute. Ids that start with
    ``"opt:"`` are choices that are not on the board (promote or not, hush, which die): the browser
    shows them as buttons labelled with the text after ``"opt:"``.

    Over the legal moves of one state the click sequences are all different and none is a prefix of
    another, so that a person's clicks always end at exactly one move. ``tests/test_web_views.py`` checks
    this over random games of every registered game and setting preset.

Beside the view module, its folder ``static/`` holds the browser's files: ``renderer.js``, an ES module
whose ``render(view, {orientation, names})`` returns the board as SVG markup, and ``renderer.css``. The web
app serves that folder at ``/static/games/<game id>/`` (:func:`game_assets`).

A game without a view module gets :mod:`shogames.server.views.generic`: its diagram as text and each
legal move as a button, so every registered game can be played in the browser.

A view module may also offer a graphical editor of positions for the analysis board
(:mod:`shogames.server.analysis_board`):

``position_edits(state, target) -> list[tuple[str, str]]``
    What a click on the board target ``target`` (an id the renderer draws, such as ``"sq:BD:a1"``) can
    change in the position: each change as a short label for a button (``"White stone"``, ``"remove
    the stone"``, ``"one more horse"``) and the position text after it. The target ``""`` asks for the
    changes of the whole position (whose turn it is, the dice to throw again). The new positions are
    written from the state's public position value and the game's own writer
    (``game.state_from_position(...).to_text()``), never by editing text; :func:`position_edits` keeps
    only those the game reads back. A game without it gets the position text field only.

The browser narrows the legal moves as clicks come in: after clicks ``c1 .. ck`` it highlights every
``c(k+1)`` of the moves that begin with them, and plays the move once its whole sequence is clicked.
The last move is shown by highlighting its board targets (:func:`last_move_targets`).
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable
from pathlib import Path
from typing import Any, Final, Protocol, cast

from fastapi import FastAPI
from fastapi.responses import FileResponse, PlainTextResponse, Response

from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import game_class

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


GENERIC_VIEW: Final = "shogames.server.views.generic"
"""The view module of a game that names none."""


def view_module_name(game_id: str) -> str:
    """The dotted name of the view module of a registered game (the generic one if it names none).

    Raises:
        SettingsError: no game has that id.
    """
    return game_class(game_id).view_module or GENERIC_VIEW


def views_for(game_id: str) -> GameViews:
    """The view module of a registered game.

    Raises:
        SettingsError: no game has that id.
        ImportError: the game's view module cannot be imported.
    """
    return cast(GameViews, importlib.import_module(view_module_name(game_id)))


def assets_folder(game_id: str) -> Path:
    """The folder of a game's browser files (``renderer.js``, ``renderer.css``): ``static/`` beside its view.

    Raises:
        SettingsError: no game has that id.
        ImportError: the game's view module cannot be imported.
    """
    module = importlib.import_module(view_module_name(game_id))
    if module.__file__ is None:
        raise ImportError(f"the view module {module.__name__} has no folder")
    return Path(module.__file__).parent / "static"


async def _game_asset(game_id: str, file_name: str) -> Response:
    try:
        folder = assets_folder(game_id)
    except (ShogamesError, ImportError):
        return PlainTextResponse(f"no browser files for game {game_id!r}", status_code=404)
    path = folder / file_name
    if file_name.startswith(".") or not path.is_file():
        return PlainTextResponse(f"game {game_id!r} has no browser file {file_name!r}", status_code=404)
    return FileResponse(path)


def game_assets() -> FastAPI:
    """An ASGI app serving ``/<game id>/<file>`` from each game's :func:`assets_folder`.

    The web app mounts it at ``/static/games``; games are looked up in the registry when asked for, so a
    game registered after the app started is served too.
    """
    assets = FastAPI(openapi_url=None, docs_url=None, redoc_url=None)
    assets.add_api_route("/{game_id}/{file_name}", _game_asset, methods=["GET", "HEAD"])
    return assets


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
    """The board targets of a seat's move, to highlight it as the last move (no ``opt:`` choices).

    A view module may say more than the clicks with its own ``last_move_targets(state, move)`` (Shobu's
    aggressive stone lands, and may push a stone, where nobody clicks); otherwise the clicks are shown.
    """
    views = views_for(before.game.id)
    own = getattr(views, "last_move_targets", None)
    clicks = own(before, move) if own is not None else views.move_clicks(before, move)
    return [target for target in clicks if not target.startswith(OPTION_PREFIX)]


def move_note(before: State[Any], move: Hashable, after: State[Any]) -> str | None:
    """What a move did that its text does not say (dice lost, a turn passed with no legal move), or ``None``.

    From the view module's own ``move_note(before, move, after)`` where it has one (Sho, Shogammon).
    """
    own = getattr(views_for(before.game.id), "move_note", None)
    if own is None:
        return None
    note: str | None = own(before, move, after)
    return note


def has_position_editor(game_id: str) -> bool:
    """Whether a registered game's view module offers a graphical position editor (``position_edits``)."""
    return getattr(views_for(game_id), "position_edits", None) is not None


def position_edits(state: State[Any], target: str) -> list[tuple[str, str]] | None:
    """The changes a click on ``target`` can make to the position, as (label, new position text).

    From the view module's own ``position_edits(state, target)`` (see the module docstring), keeping only
    the positions the game reads back (a change its reader refuses is not offered); ``None`` where the
    game's view module has no editor.
    """
    own = getattr(views_for(state.game.id), "position_edits", None)
    if own is None:
        return None
    game = state.game
    kept: list[tuple[str, str]] = []
    for label, text in own(state, target):
        try:
            game.state_from_text(text)
        except (ShogamesError, ValueError):
            continue
        kept.append((str(label), str(text)))
    return kept
