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
* The game review (:mod:`shogames.server.review`, its routes included here): ``POST /api/review`` (a
  record's review, piece by piece, on the engine's study workers), ``POST /api/review/position`` and
  ``POST /api/review/try`` (learn from your mistakes), ``POST /api/analysis`` (the whole review at once).

The browser knows no rules here either: every verdict comes from the server, which asks the engine.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from shogames.agents.base import level_names
from shogames.core.protocol import CHANCE
from shogames.core.registry import game_class
from shogames.server.engine import Engine
from shogames.server.guides import games_in_order, guide_file, guide_html, has_rules
from shogames.server.lessons import lesson_view, lessons_of, try_move
from shogames.server.limits import client_of
from shogames.server.review import review_router
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
# --- Routes -----------------------------------------------------------------------------------------------


class TryBody(BaseModel):
    """A learner's move in a lesson."""

    move: str = Field(max_length=200)


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
    router.include_router(review_router())

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

    return router


__all__ = ["guides_catalog", "has_rules", "learn_router", "lessons_of"]
