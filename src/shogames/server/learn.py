"""Learning in the browser: the rules pages and lessons' routes, and a hint or an analysis from the engine.

The guides themselves are in :mod:`shogames.server.guides` (the rules, in Markdown) and
:mod:`shogames.server.lessons` (the lessons, checked by the engine).

Routes (an :class:`fastapi.APIRouter` the app includes):

* ``GET /rules``, ``GET /rules/{game}``: the rules pages.
* ``GET /learn``, ``GET /learn/{game}``: the lessons pages.
* ``GET /api/guides``: which games have rules and how many lessons.
* ``GET /api/lessons/{game}``: the lessons with their boards (position view and legal moves' clicks).
* ``POST /api/lessons/{game}/{lesson}/try``: ``{"move": text}``; the engine checks it (``parse_move``):
  an illegal move gets the engine's own reason, a legal one the lesson's verdict and the position after it.
* ``POST /api/games/{id}/hint``: ``{"token"}``: the strongest level's move for the seat to move, in games
  against the computer or on one screen (never online, where it would help one player against another).
* ``POST /api/analysis``: ``{"record": text}``: every seat move of a record analysed as ``shogames
  analyse`` does (:func:`shogames.analysis.analyse_record`), with a smaller budget (:data:`ANALYSIS`), in a
  worker process, one analysis at a time; the record viewer draws it as a graph and flags the mistakes.

The browser knows no rules here either: every verdict comes from the server, which asks the engine.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from shogames.agents.base import level_names
from shogames.analysis import BLUNDER, MISTAKE, MoveAnalysis, analyse_moves, kernel_analyser
from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import game_class
from shogames.records import Record, parse_record, replay
from shogames.server.engine import Engine
from shogames.server.guides import games_in_order, guide_file, guide_html, has_rules
from shogames.server.lessons import lesson_view, lessons_of, try_move
from shogames.server.limits import client_of
from shogames.server.service import GameService, ServiceError, choose_move
from shogames.server.views import views_for
from shogames.server.workers import WorkerTimeoutError

HERE = Path(__file__).parent
HINT_SECONDS = 3.0
"""The most time a hint may think (the strongest level, with this budget where it takes one)."""
HINT_GRACE = 5.0
"""How long past that a hint may run before it is given up (the page is told there is none)."""
HINT_WAIT = 30.0
"""How long a hint may wait for its turn on the engine's study workers (others' work runs first)."""
ANALYSIS: dict[str, Any] = {"depth": 2, "nodes": 5_000, "seconds": 0.1}
"""The analysing search's budget per position in the browser (``shogames analyse`` takes more)."""
ANALYSIS_WITH_KERNEL: dict[str, Any] = {"depth": 8, "nodes": 100_000, "seconds": 0.1}
"""The budget where the game's compiled kernel searches (:func:`shogames.analysis.kernel_analyser`): the
same time, spent on a search some hundred times faster, so it goes deeper."""
ANALYSIS_MAX_PLIES = 400
"""The longest record analysed in the browser (``shogames analyse`` takes any)."""
ANALYSIS_SECONDS = 120.0
"""How long one piece of an analysis may wait for its turn, and then run, before the analysis is stopped
(a 503 that says so)."""
ANALYSIS_PIECE = 16
"""Positions analysed in one engine job: a long record is analysed in pieces, each waiting for its turn
on the study workers, so that other clients' hints and replays run between them (a piece takes about
1.6 s at the browser's 0.1 s a position)."""


# --- Routes -----------------------------------------------------------------------------------------------


class TryBody(BaseModel):
    """A learner's move in a lesson."""

    move: str = Field(max_length=200)


class RecordBody(BaseModel):
    """A game record to analyse."""

    record: str = Field(max_length=1_000_000)


class HintBody(BaseModel):
    """A request for a hint, with the secret token of the seat to move."""

    token: str | None = Field(default=None, max_length=64)


def guides_catalog() -> dict[str, Any]:
    """Each game with a guide: its name, whether it has a rules page, and its lessons' ids."""
    games = []
    for cls in games_in_order():
        lessons = lessons_of(cls.id)
        if has_rules(cls.id) or lessons:
            games.append(
                {
                    "id": cls.id,
                    "name": cls.name,
                    "blurb": cls.blurb,
                    "rules": has_rules(cls.id),
                    "lessons": [lesson.id for lesson in lessons],
                }
            )
    return {"games": games}


def _settings_rows(game_id: str) -> list[dict[str, Any]]:
    cls = game_class(game_id)
    return [
        {
            "name": spec.name,
            "default": spec.default,
            "description": spec.description,
            "allowed": spec.describe_values(),  # not "values": a template's s.values is the dict's method
        }
        for spec in cls.setting_specs
    ]


def _presets(game_id: str) -> list[dict[str, str]]:
    cls = game_class(game_id)
    return [
        {"name": name, "settings": " ".join(f"{key}={value}" for key, value in values.items()) or "defaults"}
        for name, values in sorted(cls.presets.items())
    ]


def _missing(templates: Jinja2Templates, request: Request, message: str) -> Response:
    return templates.TemplateResponse(
        request, "missing.html", {"status": 404, "message": message}, status_code=404
    )


def learn_router() -> APIRouter:
    """The rules pages, the lessons and hints (the app includes this router)."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    router = APIRouter()
    analysed: dict[str, dict[str, Any]] = {}  # the latest analyses, by the record text's SHA-256

    @router.get("/rules", response_class=HTMLResponse)
    async def rules_index(request: Request) -> Response:
        return templates.TemplateResponse(request, "guides.html", {**guides_catalog(), "kind": "rules"})

    @router.get("/rules/{game_id}", response_class=HTMLResponse)
    async def rules_page(request: Request, game_id: str) -> Response:
        path = guide_file(game_id, "rules.md")
        if path is None:
            return _missing(templates, request, f"no rules page for a game called {game_id!r}")
        cls = game_class(game_id)
        context = {
            "game": game_id,
            "name": cls.name,
            "blocks": guide_html(game_id, path.read_text(encoding="utf-8")),
            "settings": _settings_rows(game_id),
            "presets": _presets(game_id),
            "lessons": len(lessons_of(game_id)),
        }
        return templates.TemplateResponse(request, "rules.html", context)

    @router.get("/learn", response_class=HTMLResponse)
    async def learn_index(request: Request) -> Response:
        return templates.TemplateResponse(request, "guides.html", {**guides_catalog(), "kind": "lessons"})

    @router.get("/learn/{game_id}", response_class=HTMLResponse)
    async def learn_page(request: Request, game_id: str) -> Response:
        if not lessons_of(game_id):
            return _missing(templates, request, f"no lessons for a game called {game_id!r}")
        cls = game_class(game_id)
        context = {"game": game_id, "name": cls.name, "rules": has_rules(game_id)}
        return templates.TemplateResponse(request, "learn.html", context)

    @router.get("/api/guides")
    async def get_guides() -> dict[str, Any]:
        return guides_catalog()

    @router.get("/api/lessons/{game_id}")
    async def get_lessons(game_id: str) -> dict[str, Any]:
        lessons = lessons_of(game_id)
        if not lessons:
            raise ServiceError(404, f"no lessons for a game called {game_id!r}")
        cls = game_class(game_id)
        return {
            "game": {"id": game_id, "name": cls.name},
            "lessons": [lesson_view(game_id, lesson) for lesson in lessons],
        }

    @router.post("/api/lessons/{game_id}/{lesson_id}/try")
    async def post_try(game_id: str, lesson_id: str, body: TryBody) -> dict[str, Any]:
        lesson = next((lesson for lesson in lessons_of(game_id) if lesson.id == lesson_id), None)
        if lesson is None:
            raise ServiceError(404, f"no lesson {lesson_id!r} for a game called {game_id!r}")
        if not body.move.strip():
            raise ServiceError(400, "a try needs 'move': the move in the game's notation")
        return try_move(game_id, lesson, body.move.strip())

    @router.post("/api/games/{game_id}/hint")
    async def post_hint(request: Request, game_id: str, body: HintBody) -> dict[str, Any]:
        service: GameService = request.app.state.service
        live = await service.get(game_id)
        seat = live.seat_of_token(body.token)
        if seat is None:
            raise ServiceError(403, "a hint needs the secret token of a seat of this game")
        if live.mode == "online":
            raise ServiceError(409, "no hints in online games: they would help one player against another")
        state = live.state
        if not live.is_active or state.to_move != seat.seat:
            raise ServiceError(409, f"it is not {seat.name}'s turn: no hint to give")
        level = level_names()[-1]
        budget = {"seconds": f"{HINT_SECONDS:g}"}
        seed = random.SystemRandom().randrange(2**31)
        engine: Engine = request.app.state.engine
        client = client_of(request)
        async with engine.job(client):
            try:
                text = await engine.study_call(
                    client,
                    choose_move,
                    level,
                    seed,
                    live.game.id,
                    state,
                    budget,
                    timeout=HINT_SECONDS + HINT_GRACE,
                    wait=HINT_WAIT,
                )
            except WorkerTimeoutError:
                raise ServiceError(503, "the computer took too long to find a hint; try again") from None
        move = state.parse_move(text)
        clicks = views_for(live.game.id).move_clicks(state, move) if state.to_move != CHANCE else ()
        return {"move": text, "level": level, "clicks": list(clicks), "version": live.version}

    @router.post("/api/analysis")
    async def post_analysis(request: Request, body: RecordBody) -> dict[str, Any]:
        key = hashlib.sha256(body.record.encode("utf-8", "surrogatepass")).hexdigest()
        if key in analysed:
            return analysed[key]
        try:
            record = parse_record(body.record)
        except ShogamesError as error:
            raise ServiceError(400, f"record refused: {error}") from None
        if len(record.moves) > ANALYSIS_MAX_PLIES:
            raise ServiceError(
                400,
                f"the record has {len(record.moves)} plies; the browser analyses at most "
                f"{ANALYSIS_MAX_PLIES} (shogames analyse takes any)",
            )
        engine: Engine = request.app.state.engine
        client = client_of(request)
        async with engine.job(client):
            try:
                names, budget, pairs = await engine.study_call(
                    client, _replay_for_analysis, record, timeout=ANALYSIS_SECONDS, wait=ANALYSIS_SECONDS
                )
                moves: list[MoveAnalysis] = []
                for first in range(0, len(pairs), ANALYSIS_PIECE):  # each piece waits for its turn
                    piece = pairs[first : first + ANALYSIS_PIECE]
                    moves += await engine.study_call(
                        client, _analyse_piece, piece, budget, timeout=ANALYSIS_SECONDS, wait=ANALYSIS_SECONDS
                    )
            except ShogamesError as error:
                raise ServiceError(400, f"record refused: {error}") from None
            except WorkerTimeoutError:
                raise ServiceError(
                    503,
                    f"a piece of the analysis took more than {ANALYSIS_SECONDS:g} seconds; it was stopped",
                ) from None
        answer = {
            "budget": budget,
            "mistake": MISTAKE,
            "blunder": BLUNDER,
            "moves": [
                {
                    "ply": move.ply,
                    "seat": names.index(move.mover),
                    "played": move.played,
                    "played_value": round(move.played_value, 4),
                    "best": move.best,
                    "best_value": round(move.best_value, 4),
                    "loss": round(move.loss, 4),
                    "verdict": move.verdict(),
                }
                for move in moves
            ],
        }
        if len(analysed) >= 32:
            analysed.pop(next(iter(analysed)))
        analysed[key] = answer
        return answer

    return router


def _replay_for_analysis(
    record: Record,
) -> tuple[list[str], dict[str, Any], list[tuple[State[Any], Any]]]:
    """The seats' names, the analysis budget and each position with the move played there (in a worker).

    The game's compiled kernel searches where it has an alpha-beta searcher, with the deeper budget.

    Raises:
        ShogamesError: the record does not replay.
    """
    game_replay = replay(record)
    game = game_replay.game
    budget = ANALYSIS_WITH_KERNEL if kernel_analyser(game, 1) is not None else ANALYSIS
    pairs = list(zip(game_replay.states, game_replay.moves, strict=False))
    return list(game.player_names), {**budget, "kernel": budget is ANALYSIS_WITH_KERNEL}, pairs


def _analyse_piece(pairs: list[tuple[State[Any], Any]], budget: dict[str, Any]) -> list[MoveAnalysis]:
    """The seat moves of one piece of a record analysed with ``budget`` (in a worker process)."""
    return analyse_moves(
        pairs,
        depth=budget["depth"],
        nodes=budget["nodes"],
        seconds=budget["seconds"],
        kernel=budget["kernel"],
    )


__all__ = ["guides_catalog", "has_rules", "learn_router", "lessons_of"]
