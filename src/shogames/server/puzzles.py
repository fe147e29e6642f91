"""Puzzles in the browser: one after another, a wrong move refuted by the engine, ratings by Glicko-2.

The puzzles are the ones each game ships (:mod:`shogames.puzzles`, ``docs/puzzles.md``). A person clicks
a move on the board; the server says whether it is the solution. A wrong move is refuted by the game's
compiled alpha-beta on a study worker of the engine (:func:`shogames.puzzles.refute`): its value at the
puzzle's depth against the solution's, and how play goes on (the best reply; with dice, after the throw
worst for the solver). The first try of a puzzle in a browser is rated, as lichess rates its puzzles: the
puzzle and the solver play one Glicko-2 game (:mod:`shogames.glicko`), which the solver wins by solving
it. A puzzle's rating is kept in the database (table ``puzzle_ratings``, made by migration 0005); the
solver's lives in the browser (``localStorage``, with the solved puzzles and the one on the board), which
sends it with each rated try and keeps what comes back.

Routes (an :class:`fastapi.APIRouter` the app includes):

* ``GET /puzzles``: the games with puzzles; ``GET /puzzles/{game}``: a game's puzzle page.
* ``GET /api/puzzles``: each game's number of puzzles.
* ``GET /api/puzzles/{game}/next?after=ID``: the puzzle after ``ID`` (the first without), with its board
  (:func:`puzzle_view`); ``GET /api/puzzles/{game}/{id}``: one puzzle.
* ``POST /api/puzzles/{game}/{id}/attempt``: ``{"move": text, "rated": bool, "solver": {"rating",
  "deviation", "volatility"}}``: right or wrong, the board after it, the refutation of a wrong move, the
  ratings after a rated try.

The browser knows no rules here either: every verdict comes from the server.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any, Final

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field
from sqlalchemy import DateTime, Float, Integer, String, select
from sqlalchemy.orm import Mapped, mapped_column

from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import game_class
from shogames.glicko import Rating, update
from shogames.puzzles import (
    FIRST_DEVIATION,
    FIRST_VOLATILITY,
    KIND_THEMES,
    Puzzle,
    PuzzleSet,
    line_words,
    refute,
    shipped_puzzles,
    value_phrase,
    value_words,
)
from shogames.server.db import Base, utc_now
from shogames.server.guides import games_in_order
from shogames.server.limits import client_of
from shogames.server.service import GameService, ServiceError
from shogames.server.views import last_move_targets, legal_move_views, views_for
from shogames.server.workers import WorkerTimeoutError

HERE = Path(__file__).parent
REFUTE_SECONDS: Final = 20.0
"""The most time a refutation may take on a study worker before it is given up (a 503 says so)."""
REFUTE_WAIT: Final = 30.0
"""How long a refutation may wait for its turn on the study workers."""
SOLVER_BOUNDS: Final = ((100.0, 3500.0), (30.0, 350.0), (0.01, 0.2))
"""The solver's rating, deviation and volatility a browser may send are kept within these."""
TASKS: Final = {
    "win": "find the only move that wins by force",
    "defence": "find the only move that does not lose by force",
    "advantage": "find the move that gains clearly more than any other",
}
"""What each kind of puzzle asks, after who is to move."""


class PuzzleRatingRow(Base):
    """A puzzle's Glicko-2 rating as the solvers' first tries have moved it (absent: its first rating)."""

    __tablename__ = "puzzle_ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(16), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer)
    solved: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class SolverBody(BaseModel):
    """The solver's own rating, kept in the browser."""

    rating: float = Field(default=1500.0, allow_inf_nan=False)
    deviation: float = Field(default=350.0, allow_inf_nan=False)
    volatility: float = Field(default=0.06, allow_inf_nan=False)


class AttemptBody(BaseModel):
    """A try at a puzzle: the move, whether it is the browser's first (rated), the solver's rating."""

    move: str = Field(max_length=200)
    rated: bool = False
    solver: SolverBody | None = None


def puzzle_games() -> list[dict[str, Any]]:
    """Each registered game that ships puzzles: id, name and how many, in the games' display order."""
    games = []
    for cls in games_in_order():
        try:
            puzzle_set = shipped_puzzles(cls.id)
        except ShogamesError:
            puzzle_set = None
        if puzzle_set is not None and puzzle_set.puzzles:
            games.append({"id": cls.id, "name": cls.name, "count": len(puzzle_set.puzzles)})
    return games


def puzzles_of(game_id: str) -> PuzzleSet:
    """A game's shipped puzzles.

    Raises:
        ServiceError: 404 for a game that has none (or no such game).
    """
    try:
        puzzle_set = shipped_puzzles(game_id)
    except ShogamesError:
        puzzle_set = None
    if puzzle_set is None or not puzzle_set.puzzles:
        raise ServiceError(404, f"no puzzles for a game called {game_id!r}")
    return puzzle_set


def puzzle_of(game_id: str, puzzle_id: str) -> tuple[PuzzleSet, Puzzle]:
    """A game's puzzles and one of them.

    Raises:
        ServiceError: 404 for an unknown game or puzzle.
    """
    puzzle_set = puzzles_of(game_id)
    puzzle = puzzle_set.by_id(puzzle_id)
    if puzzle is None:
        raise ServiceError(404, f"{game_id} has no puzzle {puzzle_id!r}")
    return puzzle_set, puzzle


def rating_view(row: PuzzleRatingRow | None, puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle's rating for the page: the stored one, or its first rating before anyone tried it."""
    if row is None:
        return {"rating": puzzle.rating, "deviation": FIRST_DEVIATION, "attempts": 0, "solved": 0}
    return {
        "rating": round(row.rating),
        "deviation": round(row.deviation),
        "attempts": row.attempts,
        "solved": row.solved,
    }


def puzzle_view(puzzle_set: PuzzleSet, puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle for the page: the task, the board, the legal moves' clicks and where it stands in the set."""
    state = puzzle.start()
    game = state.game
    names = list(game.player_names)
    mover = state.to_move
    assert mover is not None and mover != CHANCE
    theme_names = {**KIND_THEMES, **game.move_theme_names}
    return {
        "id": puzzle.id,
        "game": {"id": game.id, "name": game.name},
        "number": puzzle_set.puzzles.index(puzzle) + 1,
        "count": len(puzzle_set.puzzles),
        "kind": puzzle.kind,
        "depth": puzzle.depth,
        "task": f"{names[mover]} to move: {TASKS[puzzle.kind]} (searched {puzzle.depth} moves deep).",
        "themes": [{"id": theme, "text": theme_names.get(theme, theme)} for theme in puzzle.themes],
        "position": puzzle.position,
        "settings": puzzle.settings,
        "view": views_for(game.id).position_view(state),
        "names": names,
        "to_move": mover,
        "legal": legal_move_views(state),
    }


def _board_after(before: State[Any], texts: list[str]) -> tuple[State[Any], list[str]]:
    """The position after the moves ``texts`` from ``before``, with the last seat move's targets."""
    state, last = before, []
    for text in texts:
        move = state.parse_move(text)
        if state.to_move != CHANCE:
            last = last_move_targets(state, move)
        state = state.play(move)
    return state, last


def solved_view(puzzle: Puzzle) -> dict[str, Any]:
    """The board after the solution and its line, with what to say."""
    state = puzzle.start()
    names = state.game.player_names
    line: list[tuple[int, str]] = []
    after = state.play(state.parse_move(puzzle.solution))
    for text in puzzle.line:
        mover = after.to_move
        assert mover is not None
        line.append((mover, text))
        after = after.play(after.parse_move(text))
    final, last = _board_after(state, [puzzle.solution, *puzzle.line])
    message = (
        f"Right: {puzzle.solution} {value_phrase(puzzle.value)}, "
        f"and no other move does better than {value_words(puzzle.second)}."
    )
    if line:
        message += f" The line: {line_words(names, line)}."
    return {"message": message, "view": views_for(state.game.id).position_view(final), "last": last}


def refutation_view(puzzle: Puzzle, move_text: str) -> dict[str, Any]:
    """A wrong move refuted (on a study worker): the refutation, and the board after it and its line."""
    refutation = refute(puzzle, move_text)
    state = puzzle.start()
    final, last = _board_after(state, [refutation.move, *(text for _, text in refutation.line)])
    return {
        "refutation": {
            "text": refutation.text,
            "value": round(refutation.value, 4),
            "solution_value": round(puzzle.value, 4),
            "line": [{"seat": seat, "move": text} for seat, text in refutation.line],
        },
        "view": views_for(state.game.id).position_view(final),
        "last": last,
    }


def _clamped(solver: SolverBody | None) -> Rating:
    values = (solver or SolverBody()).model_dump()
    bounds = dict(zip(("rating", "deviation", "volatility"), SOLVER_BOUNDS, strict=True))
    return Rating(*(min(max(values[name], low), high) for name, (low, high) in bounds.items()))


def _missing(templates: Jinja2Templates, request: Request, message: str) -> Response:
    return templates.TemplateResponse(
        request, "missing.html", {"status": 404, "message": message}, status_code=404
    )


def puzzles_router() -> APIRouter:
    """The puzzle pages and their API (the app includes this router)."""
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    router = APIRouter()

    async def stored(request: Request, game_id: str, puzzle_id: str) -> PuzzleRatingRow | None:
        service: GameService = request.app.state.service
        async with service.store.session() as session:
            row: PuzzleRatingRow | None = await session.get(PuzzleRatingRow, (game_id, puzzle_id))
            return row

    async def rate(request: Request, puzzle: Puzzle, solved: bool, solver: Rating) -> dict[str, Any]:
        """One Glicko-2 game between the solver and the puzzle; the new ratings of both."""
        service: GameService = request.app.state.service
        async with service.store.transaction() as session:
            query = (
                select(PuzzleRatingRow)
                .where(PuzzleRatingRow.game == puzzle.game, PuzzleRatingRow.puzzle == puzzle.id)
                .with_for_update()
            )
            row = (await session.execute(query)).scalar_one_or_none()
            if row is None:
                row = PuzzleRatingRow(
                    game=puzzle.game,
                    puzzle=puzzle.id,
                    rating=float(puzzle.rating),
                    deviation=FIRST_DEVIATION,
                    volatility=FIRST_VOLATILITY,
                    attempts=0,
                    solved=0,
                    updated_at=utc_now(),
                )
                session.add(row)
            before = Rating(row.rating, row.deviation, row.volatility)
            after = update(before, [(solver, 0.0 if solved else 1.0)])
            solver_after = update(solver, [(before, 1.0 if solved else 0.0)])
            row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
            row.attempts += 1
            row.solved += int(solved)
            row.updated_at = utc_now()
            puzzle_rating = rating_view(row, puzzle)
        return {
            "puzzle_rating": puzzle_rating,
            "solver": {
                "rating": round(solver_after.rating, 1),
                "deviation": round(solver_after.deviation, 1),
                "volatility": round(solver_after.volatility, 6),
            },
        }

    @router.get("/puzzles", response_class=HTMLResponse)
    async def puzzles_index(request: Request) -> Response:
        return templates.TemplateResponse(request, "puzzles.html", {"games": puzzle_games(), "game": None})

    @router.get("/puzzles/{game_id}", response_class=HTMLResponse)
    async def puzzles_page(request: Request, game_id: str) -> Response:
        try:
            puzzle_set = puzzles_of(game_id)
        except ServiceError as error:
            return _missing(templates, request, error.message)
        context = {"game": game_id, "name": game_class(game_id).name, "count": len(puzzle_set.puzzles)}
        return templates.TemplateResponse(request, "puzzles.html", context)

    @router.get("/api/puzzles")
    async def get_puzzle_games() -> dict[str, Any]:
        return {"games": puzzle_games()}

    @router.get("/api/puzzles/{game_id}/next")
    async def get_next(
        request: Request, game_id: str, after: str | None = Query(default=None, max_length=64)
    ) -> dict[str, Any]:
        puzzle_set = puzzles_of(game_id)
        puzzle = puzzle_set.after(after)
        return {
            **puzzle_view(puzzle_set, puzzle),
            **rating_view(await stored(request, game_id, puzzle.id), puzzle),
        }

    @router.get("/api/puzzles/{game_id}/{puzzle_id}")
    async def get_puzzle(request: Request, game_id: str, puzzle_id: str) -> dict[str, Any]:
        puzzle_set, puzzle = puzzle_of(game_id, puzzle_id)
        return {
            **puzzle_view(puzzle_set, puzzle),
            **rating_view(await stored(request, game_id, puzzle.id), puzzle),
        }

    @router.post("/api/puzzles/{game_id}/{puzzle_id}/attempt")
    async def post_attempt(
        request: Request, game_id: str, puzzle_id: str, body: AttemptBody
    ) -> dict[str, Any]:
        _, puzzle = puzzle_of(game_id, puzzle_id)
        text = body.move.strip()
        if not text:
            raise ServiceError(400, "an attempt needs 'move': the move in the game's notation")
        state = puzzle.start()
        try:
            move = state.parse_move(text)
        except (ShogamesError, ValueError) as error:
            return {"legal": False, "right": False, "message": f"The rules do not allow that: {error}"}
        played = state.move_to_text(move)
        right = played == puzzle.solution
        if right:
            answer: dict[str, Any] = {"legal": True, "right": True, "move": played, **solved_view(puzzle)}
        else:
            from shogames.server.engine import Engine

            engine: Engine = request.app.state.engine
            client = client_of(request)
            async with engine.job(client):
                try:
                    work = await engine.study_call(
                        client, refutation_view, puzzle, played, timeout=REFUTE_SECONDS, wait=REFUTE_WAIT
                    )
                except WorkerTimeoutError:
                    raise ServiceError(
                        503, "the engine took too long to refute that move; try again"
                    ) from None
            answer = {
                "legal": True,
                "right": False,
                "move": played,
                "message": f"{played} is not the solution.",
                "solution": puzzle.solution,
                **work,
            }
        if body.rated:
            answer.update(await rate(request, puzzle, right, _clamped(body.solver)))
        return answer

    return router


__all__ = ["PuzzleRatingRow", "puzzle_games", "puzzle_view", "puzzles_router", "refutation_view"]
