"""The analysis board: any position set up, moves and dice played for every seat, the engine searching.

Routes (an :class:`fastapi.APIRouter` the app includes):

* ``GET /analysis``: the games, each with a link to its board.
* ``GET /analysis/{game}``: the board page (``templates/analysis.html``, ``static/analysis.js``). The
  address holds what is on the board, so it can be shared: ``settings`` (``name=value`` pairs, the
  defaults left out), ``position`` (the start position's text; the game's start when absent), ``moves``
  (the moves from there, comma-separated, with ``%`` and ``,`` inside a move written ``%25`` and ``%2C``)
  and ``at`` (how many of them lead to the position shown; all by default).
* ``POST /api/analysis/{game}/position``: ``{"settings", "preset", "position", "moves"}``: the position
  after the moves: its view for the renderer, the legal moves with their clicks, the dice to throw (every
  outcome with its probability), whose turn, the result once over, the position text, and each move
  played as the engine writes it (:func:`position_answer`).
* ``POST /api/analysis/{game}/search``: the same, and ``"nodes"``: the strongest level's search of that
  position within the budget (:func:`shogames.server.board_search.search_position`): the best lines with
  their values, or at dice each outcome's best play and the expectation. It runs on the engine's study
  workers, as a hint does, one job of the client's at a time; a request searches at most
  :data:`~shogames.server.board_search.SEARCH_SECONDS` (plus its lines) and
  :data:`~shogames.server.board_search.MAX_NODES` nodes, and a client may make
  :data:`SEARCH_BURST` requests at once, then :data:`SEARCH_PER_MINUTE` a minute, so that one analyst
  cannot hold back others' computer opponents or hints.
* ``POST /api/analysis/{game}/edits``: the same, and ``"target"``: what a click on that board target can
  change in the position (a stone put or taken away, a stack, a hand, whose turn), each as a label and the
  new position text, from the game's view module (:func:`shogames.server.views.position_edits`); the
  target ``""`` asks for the changes of the whole position. A game whose view module has no editor gets
  404 (the page offers it the position text only).

Every refusal is ``{"error": message}`` with 400 (a bad setting, position or move, saying which and
why), 404 (no such game, no editor) or 429 (the quota; the engine's jobs), never a 500.

The page knows no rules: the server reads every position text and move with the game's own readers and
answers with the game's view module's descriptions.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import parse_settings_text
from shogames.records import result_for
from shogames.server.board_search import FIRST_NODES, LINE_SECONDS, SEARCH_SECONDS, node_cap, search_position
from shogames.server.engine import Engine
from shogames.server.limits import Quota, client_of
from shogames.server.live import result_text
from shogames.server.service import ServiceError
from shogames.server.views import (
    has_position_editor,
    last_move_targets,
    legal_move_views,
    move_note,
    position_edits,
    views_for,
)
from shogames.server.workers import WorkerTimeoutError

HERE = Path(__file__).parent

MAX_MOVES: Final = 500
"""The most moves a request may play from its start position."""
MAX_NUMBER_DIGITS: Final = 18
"""The longest number a position text may hold here (the kernels count in 64-bit integers)."""
SEARCH_BURST: Final = 40
"""Searches a client may ask for at once (a page asks a few times a position, with growing budgets)."""
SEARCH_PER_MINUTE: Final = 240.0
"""Searches a client may ask for a minute once its burst is spent."""
SEARCH_TIMEOUT: Final = 10.0
"""How long a search may run once it has a worker before it is given up (503): far past its own caps."""
SEARCH_WAIT: Final = 15.0
"""How long a search may wait for its turn on the study workers (others' work runs first)."""

_LONG_NUMBER = re.compile(rf"[0-9]{{{MAX_NUMBER_DIGITS + 1}}}")


class PositionBody(BaseModel):
    """A position on the analysis board: the game's settings, a start position and the moves from it."""

    settings: str = Field(default="", max_length=2000, description="name=value pairs, space-separated")
    preset: str | None = Field(default=None, max_length=64, description="a preset of the game, or none")
    position: str | None = Field(
        default=None, max_length=5000, description="the start position's text; the game's start if empty"
    )
    moves: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list, max_length=MAX_MOVES, description="moves and dice from the start, in notation"
    )


class SearchBody(PositionBody):
    """A position to search, and the budget in nodes (capped by the server)."""

    nodes: int = Field(default=FIRST_NODES, ge=1, le=10**12, description="the nodes to search (capped)")


class EditBody(PositionBody):
    """A position to edit, and the board target clicked (``""``: the whole position)."""

    target: str = Field(default="", max_length=100)


# --- Reading a request's position ------------------------------------------------------------------------


def game_of(game_id: str, preset: str | None, settings: str) -> Game[Any]:
    """The game under a preset and ``name=value`` settings.

    Raises:
        ServiceError: no such game (404), or a bad preset or setting (400), with the reason.
    """
    try:
        cls = game_class(game_id)
    except ShogamesError:
        known = ", ".join(sorted(cls.id for cls in available_games()))
        raise ServiceError(404, f"no game called {game_id!r}; the games are {known}") from None
    try:
        values = parse_settings_text(cls.setting_specs, settings) if settings.strip() else {}
        return make(game_id, preset or None, **values)
    except (ShogamesError, ValueError) as error:
        raise ServiceError(400, f"settings refused: {error}") from None


def short_settings(game: Game[Any]) -> str:
    """The game's settings that differ from the defaults, as ``name=value`` pairs (a preset's included)."""
    return " ".join(
        f"{spec.name}={game.settings[spec.name]}"
        for spec in game.setting_specs
        if game.settings[spec.name] != spec.default
    )


def start_of(game: Game[Any], position: str | None) -> State[Any]:
    """The start position: the game's own where ``position`` is empty, else the text read by the game.

    Raises:
        ServiceError: a position the game does not read (400), with the reader's reason.
    """
    if position is None or not position.strip():
        start: State[Any] = game.start_position()
        return start
    if _LONG_NUMBER.search(position):
        raise ServiceError(
            400, f"position refused: a number in a position may have at most {MAX_NUMBER_DIGITS} digits"
        )
    try:
        state: State[Any] = game.state_from_text(position.strip())
    except (ShogamesError, ValueError, ArithmeticError, RecursionError) as error:
        raise ServiceError(400, f"position refused: {error}") from None
    return state


def play_moves(start: State[Any], moves: list[str]) -> list[tuple[State[Any], Any]]:
    """Each position from ``start`` with the move read there, the moves in order.

    Raises:
        ServiceError: a move the game does not read or allow there, or one after the end (400), naming it.
    """
    pairs: list[tuple[State[Any], Any]] = []
    state = start
    for number, text in enumerate(moves, start=1):
        if state.is_terminal():
            raise ServiceError(400, f"move {number} ({text!r}) comes after the end of the game")
        try:
            move = state.parse_move(text.strip())
        except (ShogamesError, ValueError) as error:
            raise ServiceError(400, f"move {number} ({text!r}) refused: {error}") from None
        pairs.append((state, move))
        state = state.play(move)
    return pairs


Played = list[tuple[State[Any], Any]]
"""Each position of a line with the move played there, in order."""


def board_state(game_id: str, body: PositionBody) -> tuple[Game[Any], State[Any], Played]:
    """The request's game, its start position and each move played from it (in order).

    Raises:
        ServiceError: a bad game, setting, position or move (4xx).
    """
    game = game_of(game_id, body.preset, body.settings)
    start = start_of(game, body.position)
    return game, start, play_moves(start, body.moves)


def _current(start: State[Any], pairs: list[tuple[State[Any], Any]]) -> State[Any]:
    if not pairs:
        return start
    before, move = pairs[-1]
    return before.play(move)


def position_answer(game: Game[Any], start: State[Any], pairs: Played) -> dict[str, Any]:
    """What the page draws of the position after the moves (fields in ``docs/web.md``)."""
    views = views_for(game.id)
    moves: list[dict[str, Any]] = []
    after = start
    last: list[str] = []
    for before, move in pairs:
        after = before.play(move)
        mover = before.to_move if before.to_move is not None else CHANCE
        entry: dict[str, Any] = {"text": before.move_to_text(move), "seat": mover}
        note = move_note(before, move, after)
        if note:
            entry["note"] = note
        moves.append(entry)
        if mover != CHANCE:
            last = last_move_targets(before, move)
    state = after
    terminal = state.is_terminal()
    chance = state.to_move == CHANCE and not terminal
    result = None
    if terminal:
        result = result_text(game, result_for(state), state.termination() or "normal")
    return {
        "game": {
            "id": game.id,
            "name": game.name,
            "settings": short_settings(game),
            "players": list(game.player_names),
        },
        "start": start.to_text(),
        "moves": moves,
        "text": state.to_text(),
        "view": views.position_view(state),
        "to_move": None if terminal else state.to_move,
        "terminal": terminal,
        "returns": list(state.returns()) if terminal else None,
        "result": result,
        "legal": legal_move_views(state),
        "chance": [
            {"text": state.move_to_text(outcome), "probability": str(probability), "p": float(probability)}
            for outcome, probability in state.chance_outcomes()
        ]
        if chance
        else [],
        "last": last,
        "editor": has_position_editor(game.id),
    }


# --- Routes ------------------------------------------------------------------------------------------------


def _games() -> list[dict[str, str]]:
    return [
        {"id": cls.id, "name": cls.name, "blurb": cls.blurb}
        for cls in sorted(available_games(), key=lambda cls: (cls.display_order, cls.id))
    ]


def analysis_board_router(search_quota: Quota | None = None) -> APIRouter:
    """The analysis board's page and API (the app includes this router).

    Args:
        search_quota: how many searches each client may ask for, if there is a quota.
    """
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    router = APIRouter()

    @router.get("/analysis", response_class=HTMLResponse)
    async def analysis_index(request: Request) -> Response:
        return templates.TemplateResponse(request, "analysis.html", {"game": None, "games": _games()})

    @router.get("/analysis/{game_id}", response_class=HTMLResponse)
    async def analysis_page(request: Request, game_id: str) -> Response:
        try:
            cls = game_class(game_id)
        except ShogamesError:
            context = {"status": 404, "message": f"no game called {game_id[:100]!r} to analyse"}
            return templates.TemplateResponse(request, "missing.html", context, status_code=404)
        context = {
            "game": game_id,
            "name": cls.name,
            "games": _games(),
            "first_nodes": FIRST_NODES,
            "presets": sorted(cls.presets),
        }
        return templates.TemplateResponse(request, "analysis.html", context)

    @router.post("/api/analysis/{game_id}/position")
    async def post_position(game_id: str, body: PositionBody) -> dict[str, Any]:
        game, start, pairs = board_state(game_id, body)
        return position_answer(game, start, pairs)

    @router.post("/api/analysis/{game_id}/edits")
    async def post_edits(game_id: str, body: EditBody) -> dict[str, Any]:
        game, start, pairs = board_state(game_id, body)
        edits = position_edits(_current(start, pairs), body.target)
        if edits is None:
            raise ServiceError(404, f"{game.name} has no position editor here: edit the position text")
        return {"target": body.target, "edits": [{"label": label, "position": text} for label, text in edits]}

    @router.post("/api/analysis/{game_id}/search")
    async def post_search(request: Request, game_id: str, body: SearchBody) -> dict[str, Any]:
        _, start, pairs = board_state(game_id, body)
        state = _current(start, pairs)
        client = client_of(request)
        if search_quota is not None:
            await search_quota.spend(client)
        engine: Engine = request.app.state.engine
        async with engine.job(client):
            try:
                answer: dict[str, Any] = await engine.study_call(
                    client, search_position, state, body.nodes, timeout=SEARCH_TIMEOUT, wait=SEARCH_WAIT
                )
            except WorkerTimeoutError:
                raise ServiceError(503, "the engine is busy or took too long; try again") from None
        answer["text"] = state.to_text()
        answer["ply"] = len(pairs)
        return answer

    return router


__all__ = [
    "LINE_SECONDS",
    "MAX_MOVES",
    "SEARCH_BURST",
    "SEARCH_PER_MINUTE",
    "SEARCH_SECONDS",
    "EditBody",
    "PositionBody",
    "SearchBody",
    "analysis_board_router",
    "board_state",
    "game_of",
    "node_cap",
    "play_moves",
    "position_answer",
    "short_settings",
    "start_of",
]
