"""The JSON API: the catalog of games, creating games, reading them, acting in them, replaying records.

* ``GET /api/catalog``: the games, their settings, presets and seats, and the AI levels.
* ``GET /api/seats?game=...&preset=...&settings=...``: a game's seat names under a preset and settings.
* ``POST /api/games``: create a game; the answer holds each person's seat link (with its token).
* ``GET /api/games?status=active|finished``: the games on the home page.
* ``GET /api/games/{id}``: the game's snapshot (:meth:`GameService.snapshot`).
* ``POST /api/games/{id}/seat``: which seat a token is.
* ``GET /api/games/{id}/positions/{ply}``: the position after a ply, to step through the game.
* ``GET /api/games/{id}/record``: the game's record, to download.
* ``POST /api/games/{id}/moves``, ``/resign``, ``/takeback``: act, with ``{"token": ...}``.
* ``POST /api/games/{id}/draw`` with ``{"token": ..., "accept": null|true|false}``: offer a draw (null),
  accept the other seat's offer (true), or decline it or withdraw one's own (false); two-player games only
  (:meth:`GameService.draw`).
* ``POST /api/records/replay``: check a record, in a worker process, and return its moves and a window of
  its positions, for the viewer (:mod:`shogames.server.record_view`).

Every refusal is a JSON ``{"error": message}`` with a 4xx status and leaves the game as it was.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import re
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from fastapi import APIRouter, Request, WebSocket
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, Field, field_validator

from shogames.agents.base import level_names
from shogames.agents.levels import level_line
from shogames.core.errors import ShogamesError
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import parse_settings_text
from shogames.server.engine import Engine
from shogames.server.limits import Quota, client_of
from shogames.server.record_view import MAX_RECORD_BYTES, MAX_STEPS, REPLAY_SECONDS, RecordError, replay_view
from shogames.server.service import FISCHER, PER_MOVE, GameService, SeatRequest, ServiceError, TimeControl
from shogames.server.workers import WorkerTimeoutError

logger = logging.getLogger("shogames.server")
MAX_NUMBER_DIGITS = 18
_LONG_NUMBER_RE = re.compile(rf"[0-9]{{{MAX_NUMBER_DIGITS + 1}}}")


class SeatChoice(BaseModel):
    """A seat in a new game: ``person`` or ``ai`` with a level (or agent spec), and a name."""

    kind: str = Field(description="person or ai")
    name: str | None = Field(default=None, max_length=40)
    agent: str | None = Field(default=None, max_length=128)


class ClockChoice(BaseModel):
    """The clock of a new game: ``fischer`` (minutes and increment seconds) or ``per_move`` (seconds)."""

    kind: str
    minutes: float = 0
    increment: float = 0
    seconds: float = 0


class NewGame(BaseModel):
    """A request to create a game."""

    game: str
    preset: str | None = None
    settings: str = Field(default="", max_length=2000)
    mode: str | None = None
    seats: list[SeatChoice]
    clock: ClockChoice | None = None
    position: str | None = Field(default=None, max_length=5000)

    @field_validator("position")
    @classmethod
    def _numbers_of_a_sensible_length(cls, value: str | None) -> str | None:
        """Refuse a position with a number of more than 18 digits before any game's reader sees it."""
        if value is not None and _LONG_NUMBER_RE.search(value):
            raise ValueError(f"a number in a position may have at most {MAX_NUMBER_DIGITS} digits")
        return value


class Action(BaseModel):
    """A move, resignation, takeback or draw answer, with the secret token of the seat that acts."""

    token: str | None = Field(default=None, max_length=64)
    move: str | None = Field(default=None, max_length=200)
    version: int | None = None
    accept: bool | None = Field(
        default=None, description="for /draw: null offers, true accepts, false declines or withdraws"
    )


class RecordText(BaseModel):
    """A game record to replay in the viewer, and the window of its positions to draw."""

    record: str
    around: int | None = Field(
        default=None, description="the ply at the window's centre; the last by default"
    )
    count: int = Field(default=MAX_STEPS, description=f"positions in the window, 1 to {MAX_STEPS}")


def _time_control(choice: ClockChoice | None) -> TimeControl | None:
    """The time control a client chose, its numbers checked for range before they are rounded.

    Raises:
        ServiceError: an unknown clock, or a number that is not finite or out of the clock's range (400).
    """
    if choice is None or choice.kind in ("", "none"):
        return None
    if choice.kind == FISCHER:
        if not (0 <= choice.minutes <= 360 and 0 <= choice.increment <= 600):  # NaN fails both
            raise ServiceError(
                400, "a chess clock needs 1 second to 6 hours, and an increment of 0 to 600 seconds"
            )
        return TimeControl(
            FISCHER, initial_ms=round(choice.minutes * 60_000), increment_ms=round(choice.increment * 1000)
        )
    if choice.kind == PER_MOVE:
        if not 0 <= choice.seconds <= 3600 or not math.isfinite(choice.seconds):
            raise ServiceError(400, "a time per move must be from 1 second to 1 hour")
        return TimeControl(PER_MOVE, limit_ms=round(choice.seconds * 1000))
    raise ServiceError(400, f"unknown clock {choice.kind!r}; clocks: none, {FISCHER}, {PER_MOVE}")


def catalog() -> dict[str, Any]:
    """The games, with their settings, presets and default seats, and the AI levels, for the new-game form.

    Games come in their display order (:attr:`Game.display_order`), each with its one-line blurb, the
    clock its players expect (``None`` for none) and its levels, weakest first, each with a line on what
    it is and how it measured (:func:`shogames.agents.levels.level_line`).
    """
    games = []
    for cls in sorted(available_games(), key=lambda cls: (cls.display_order, cls.id)):
        game = make(cls.id)
        clock = cls.suggested_clock
        games.append(
            {
                "id": cls.id,
                "name": cls.name,
                "blurb": cls.blurb,
                "clock": None if clock is None else dataclasses.asdict(clock),
                "players": list(game.player_names),
                "presets": sorted(cls.presets),
                "levels": [{"name": level, "line": level_line(level, cls.id)} for level in level_names()],
                "settings": [
                    {
                        "name": spec.name,
                        "default": spec.default,
                        "description": spec.description,
                        "values": spec.describe_values(),
                        "choices": list(spec.choices) if spec.choices else None,
                    }
                    for spec in cls.setting_specs
                ],
            }
        )
    return {"games": games, "levels": level_names()}


def seat_names(game_id: str, preset: str | None, settings: str) -> list[str]:
    """The seat names of a game under a preset and settings (Sho's number of players is a setting).

    Raises:
        ServiceError: an unknown game, preset or setting (400), with the reason.
    """
    try:
        cls = game_class(game_id)
        values = parse_settings_text(cls.setting_specs, settings) if settings.strip() else {}
        return list(make(game_id, preset or None, **values).player_names)
    except ShogamesError as error:
        raise ServiceError(400, str(error)) from None


def service_of(request: Request | WebSocket) -> GameService:
    """The app's game service."""
    service: GameService = request.app.state.service
    return service


def error_response(
    request: Request, status: int, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """A refusal in the API's shape, ``{"error": message}``, logged at debug."""
    logger.debug("refused %s %s: %d %s", request.method, request.url.path, status, message)
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def api_router(game_quota: Quota | None) -> APIRouter:
    """The API's routes.

    Args:
        game_quota: how many games each client may create, if there is a quota.
    """
    router = APIRouter()

    @router.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        return catalog()

    @router.get("/api/seats")
    async def get_seats(game: str, preset: str = "", settings: str = "") -> dict[str, Any]:
        return {"seats": seat_names(game, preset, settings)}

    @router.post("/api/games/{game_id}/seat")
    async def which_seat(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        live = await service_of(request).get(game_id)
        seat = live.seat_of_token(body.token)
        if seat is None:
            raise ServiceError(403, "this token belongs to no seat of this game")
        return {"seat": seat.seat, "name": seat.name}

    @router.post("/api/games")
    async def create_game(request: Request, body: NewGame) -> dict[str, Any]:
        if game_quota is not None:
            await game_quota.spend(client_of(request))
        seats = [SeatRequest(seat.kind, seat.name, seat.agent) for seat in body.seats]
        live = await service_of(request).create(
            body.game,
            preset=body.preset,
            settings=body.settings,
            seats=seats,
            time_control=_time_control(body.clock),
            mode=body.mode,
            position=body.position,
        )
        base = f"/game/{live.id}"
        return {
            "id": live.id,
            "url": base,
            "spectate": base,
            "seats": [
                {
                    "seat": seat.seat,
                    "name": seat.name,
                    "kind": seat.kind,
                    "link": f"{base}#token={seat.token}" if seat.token else None,
                }
                for seat in live.seats
            ],
        }

    @router.get("/api/games")
    async def list_games(request: Request, status: str = "active") -> dict[str, Any]:
        if status not in ("active", "finished"):
            raise ServiceError(400, f"status must be active or finished, got {status[:40]!r}")
        games = await service_of(request).list_games(status)
        for entry in games:
            entry["updated_at"] = entry["updated_at"].isoformat() if entry["updated_at"] else None
        return {"games": games}

    @router.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.fresh(game_id))

    @router.get("/api/games/{game_id}/positions/{ply}")
    async def get_position(request: Request, game_id: str, ply: int) -> dict[str, Any]:
        service = service_of(request)
        return service.position_at(await service.get(game_id), ply)

    @router.get("/api/games/{game_id}/record")
    async def get_record(request: Request, game_id: str) -> PlainTextResponse:
        service = service_of(request)
        live = await service.get(game_id)
        return PlainTextResponse(
            service.record_text(live),
            headers={"Content-Disposition": f'attachment; filename="shogames-{live.game.id}-{live.id}.sgr"'},
        )

    @router.post("/api/games/{game_id}/moves")
    async def post_move(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        if not body.move:
            raise ServiceError(400, "a move needs its text in the game's notation, as 'move'")
        service = service_of(request)
        return service.snapshot(await service.play(game_id, body.move, body.token, body.version))

    @router.post("/api/games/{game_id}/resign")
    async def post_resign(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.resign(game_id, body.token))

    @router.post("/api/games/{game_id}/takeback")
    async def post_takeback(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.takeback(game_id, body.token))

    @router.post("/api/games/{game_id}/draw")
    async def post_draw(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.draw(game_id, body.token, body.accept))

    @router.post("/api/records/replay")
    async def replay_record(request: Request, body: RecordText) -> Any:
        if len(body.record) > MAX_RECORD_BYTES:
            raise ServiceError(413, f"a record may have at most {MAX_RECORD_BYTES} bytes")
        if not 1 <= body.count <= MAX_STEPS:
            raise ServiceError(400, f"'count' must be from 1 to {MAX_STEPS}, got {body.count}")
        if body.around is not None and body.around < 0:
            raise ServiceError(400, f"'around' must be a ply from 0, got {body.around}")
        around = None if body.around is None else min(body.around, 10**9)
        engine_work: Engine = request.app.state.engine
        client = client_of(request)
        try:
            async with engine_work.job(client):
                view: dict[str, Any] = await engine_work.study_call(
                    client,
                    replay_view,
                    body.record,
                    around,
                    body.count,
                    timeout=REPLAY_SECONDS,
                    wait=REPLAY_SECONDS,
                )
        except RecordError as refusal:
            raise ServiceError(refusal.status, refusal.message) from None
        except WorkerTimeoutError:
            logger.warning("a record's replay ran past %g seconds and was stopped", REPLAY_SECONDS)
            return error_response(
                request,
                503,
                f"replaying this record took over {REPLAY_SECONDS:g} seconds; try again later",
                {"Retry-After": "30"},
            )
        except BrokenProcessPool as crash:
            logger.error("a record's replay stopped its worker process: %s", crash)
            return error_response(
                request, 503, "the worker replaying this record stopped; try again", {"Retry-After": "5"}
            )
        return view

    return router
