"""The web app: pages, a JSON API and a WebSocket per game, on FastAPI.

Routes:

* ``GET /``: the home page: start a game, games in progress, finished games.
* ``GET /game/{id}``: a game's page. A person's secret seat token travels in the link's fragment
  (``/game/{id}#token=...``), which browsers never send to a server; without one the page is read-only,
  which makes ``/game/{id}`` the spectators' link.
* ``GET /viewer``: upload a record and step through it.
* ``GET /api/catalog``: the games, their settings, presets and seats, and the AI levels.
* ``POST /api/games``: create a game; the answer holds each person's seat link (with its token).
* ``GET /api/games?status=active|finished``: the games on the home page.
* ``GET /api/games/{id}``: the game's snapshot (:meth:`GameService.snapshot`).
* ``GET /api/games/{id}/positions/{ply}``: the position after a ply, to step through the game.
* ``GET /api/games/{id}/record``: the game's record, to download.
* ``POST /api/games/{id}/moves``, ``/resign``, ``/takeback``: act, with ``{"token": ...}``.
* ``POST /api/games/{id}/draw`` with ``{"token": ..., "accept": null|true|false}``: offer a draw (null),
  accept the other seat's offer (true), or decline it or withdraw one's own (false); two-player games only
  (:meth:`GameService.draw`).
* ``POST /api/records/replay``: check a record, in a worker process, and return its moves and a window of
  its positions, for the viewer (:mod:`shogames.server.record_view`).
* ``WS /ws/games/{id}?since=VERSION``: the snapshot now (unless the client has ``VERSION`` already)
  and after every event. A client may also send ``{"type": "move", "move": ..., "token": ...,
  "version": ...}``, ``resign``, ``takeback`` or ``draw`` (with ``accept`` as above); a refusal comes
  back to it alone as
  ``{"type": "error", "status": ..., "message": ...}``.

Every refusal is a JSON ``{"error": message}`` with a 4xx status and leaves the game as it was; an unknown
route is a 404 and a wrong method a 405 in the same shape. A WebSocket to an unknown game is accepted and
closed with code 4404 and the reason. A WebSocket from another site's page (its ``Origin``) is refused
with 403, and one over its client's quotas (opened a minute, or held open at once) with 429, in the
error shape, before its handshake is answered. An unexpected error is logged with its traceback (logger
``shogames.server``) and answers ``{"error": "internal error"}`` with 500.

The edge's limits (request bodies, WebSocket messages, quotas per client, security headers) are in
:mod:`shogames.server.limits`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import json
import logging
import math
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field, field_validator
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.utils import ClientDisconnected

from shogames.agents.base import level_names, parse_agent_spec
from shogames.core.errors import ShogamesError
from shogames.core.protocol import State
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import parse_settings_text
from shogames.server.db import DEFAULT_DATABASE_URL, migrate, open_database
from shogames.server.engine import Engine, EngineBusyError
from shogames.server.events import PostgresEvents
from shogames.server.learn import has_rules, learn_router
from shogames.server.limits import (
    MAX_BODY,
    MAX_WS_FRAME,
    BodyLimit,
    MessageError,
    QuotaExceededError,
    Quotas,
    SecurityHeaders,
    TokenBucket,
    client_of,
    decode_message,
)
from shogames.server.record_view import (
    MAX_RECORD_BYTES,
    MAX_STEPS,
    REPLAY_SECONDS,
    RecordError,
    replay_view,
)
from shogames.server.service import (
    AI,
    FISCHER,
    PER_MOVE,
    PERSON,
    GameService,
    SeatRequest,
    ServiceError,
    TimeControl,
    choose_move,
)
from shogames.server.views import game_assets
from shogames.server.workers import WorkerTimeoutError

HERE = Path(__file__).parent
logger = logging.getLogger("shogames.server")
MAX_NUMBER_DIGITS = 18
_VERSION_RE = re.compile(rf"-?[0-9]{{1,{MAX_NUMBER_DIGITS}}}")
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

    Games come in their display order (:attr:`Game.display_order`), each with its one-line blurb and the
    clock its players expect (``None`` for none).
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


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    migrate_first: bool = True,
    quotas: Quotas | None = Quotas(),  # noqa: B008 -- a frozen dataclass, shared safely
    workers: int | None = None,
    warm_workers: bool = False,
) -> FastAPI:
    """The web app on a database; its schema is brought up to date when the app starts.

    Args:
        database_url: an SQLAlchemy async URL; an SQLite file in the working directory by default.
        migrate_first: run the migrations at start-up (tests that migrated already may skip it).
        quotas: how many games each client may create and WebSockets it may open
            (:class:`~shogames.server.limits.Quotas`); ``None`` for no quotas (benchmarks on loopback).
        workers: the live engine workers (``app.state.engine``, :class:`~shogames.server.engine.Engine`):
            every core but one by default.
        warm_workers: start and warm every engine worker before the app says it is ready (``serve``
            does); otherwise they start cold on first use.
    """
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    game_quota = (
        TokenBucket("new games", quotas.games_burst, quotas.games_per_minute) if quotas is not None else None
    )
    socket_quota = (
        TokenBucket("WebSockets", quotas.sockets_burst, quotas.sockets_per_minute)
        if quotas is not None
        else None
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        shown = make_url(database_url).render_as_string(hide_password=True)
        logger.info("starting on database %s", shown)
        if migrate_first:
            await asyncio.to_thread(migrate, database_url)
        engine, sessions = open_database(database_url)
        service = GameService(sessions)
        app.state.service = service
        engine_work = Engine(workers, warm=warm_workers)
        app.state.engine = engine_work
        limits = service.limits

        async def think(spec: str, seed: int, game_id: str, state: State[Any], interactive: bool) -> str:
            """A computer player's move: on an engine worker, except the random player's (no thinking)."""
            if parse_agent_spec(spec)[0] == "random":
                return await asyncio.to_thread(choose_move, spec, seed, game_id, state, limits.budget())
            return await engine_work.move(
                choose_move,
                spec,
                seed,
                game_id,
                state,
                limits.budget(),
                timeout=limits.max_seconds + limits.grace_seconds,
                interactive=interactive,
            )

        service.think = think
        events = PostgresEvents(database_url, service) if engine.dialect.name == "postgresql" else None
        if events is not None:
            await events.start()
        await service.start()
        if warm_workers:
            logger.info("warming the engine's worker processes")
            await engine_work.start()
        logger.info(
            "ready: %d live and %d study engine worker process(es)",
            engine_work.live.size,
            engine_work.study.size,
        )
        try:
            yield
        finally:
            if events is not None:
                await events.close()
            engine_work.close()
            await service.close()
            await engine.dispose()
            logger.info("stopped")

    app = FastAPI(title="shogames", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.include_router(learn_router())  # rules pages, lessons, hints (server/learn.py)
    app.mount("/static/games", game_assets(), name="game-static")  # before /static, which would match first
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.add_middleware(BodyLimit, limit=MAX_BODY)
    app.add_middleware(LastResort)
    app.add_middleware(SecurityHeaders, docs_path="/api/docs")

    async def not_found(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            logger.debug("refused a WebSocket to %s: no such route", scope["path"][:200])
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": 4404, "reason": "no WebSocket here"})
            return
        raise HTTPException(404)

    app.router.default = not_found

    def service_of(request: Request | WebSocket) -> GameService:
        service: GameService = request.app.state.service
        return service

    def error(
        request: Request, status: int, message: str, headers: dict[str, str] | None = None
    ) -> JSONResponse:
        logger.debug("refused %s %s: %d %s", request.method, request.url.path, status, message)
        return JSONResponse({"error": message}, status_code=status, headers=headers)

    @app.exception_handler(ServiceError)
    async def refused(request: Request, failure: ServiceError) -> JSONResponse:
        return error(request, failure.status, failure.message)

    @app.exception_handler(QuotaExceededError)
    async def over_quota(request: Request, failure: QuotaExceededError) -> JSONResponse:
        return error(request, 429, failure.message, {"Retry-After": str(failure.retry_after)})

    @app.exception_handler(EngineBusyError)
    async def engine_busy(request: Request, failure: EngineBusyError) -> JSONResponse:
        return error(request, 429, failure.message, {"Retry-After": "5"})

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, failure: HTTPException) -> JSONResponse:
        if failure.status_code == 404:
            message = f"nothing here: {request.url.path[:200]}"
        elif failure.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path[:200]}"
        else:
            message = str(failure.detail)
        return error(request, failure.status_code, message, dict(failure.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, failure: RequestValidationError) -> JSONResponse:
        problems = []
        for item in failure.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{where or 'request'}: {item.get('msg', 'invalid')}")
        return error(request, 400, "malformed request: " + "; ".join(problems)[:1000])

    # --- Pages ---------------------------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        service = service_of(request)
        active = await service.list_games("active", 30)
        finished = await service.list_games("finished", 30)
        return templates.TemplateResponse(
            request,
            "home.html",
            {"active": active, "finished": finished, "catalog": json.dumps(catalog())},
        )

    @app.get("/game/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: str) -> Response:
        try:
            live = await service_of(request).get(game_id)
        except ServiceError as error:  # a page, not the API's JSON, for a person who followed a bad link
            context = {"status": error.status, "message": error.message}
            return templates.TemplateResponse(request, "missing.html", context, status_code=error.status)
        game = live.game
        context = {"game_id": live.id, "game": game.id, "name": game.name, "has_rules": has_rules(game.id)}
        return templates.TemplateResponse(request, "game.html", context)

    @app.get("/viewer", response_class=HTMLResponse)
    async def viewer_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "viewer.html", {})

    # --- API -----------------------------------------------------------------------------------------

    @app.get("/api/catalog")
    async def get_catalog() -> dict[str, Any]:
        return catalog()

    @app.get("/api/seats")
    async def get_seats(game: str, preset: str = "", settings: str = "") -> dict[str, Any]:
        return {"seats": seat_names(game, preset, settings)}

    @app.post("/api/games/{game_id}/seat")
    async def which_seat(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        live = await service_of(request).get(game_id)
        seat = live.seat_of_token(body.token)
        if seat is None:
            raise ServiceError(403, "this token belongs to no seat of this game")
        return {"seat": seat.seat, "name": seat.name}

    @app.post("/api/games")
    async def create_game(request: Request, body: NewGame) -> dict[str, Any]:
        if game_quota is not None:
            game_quota.take(client_of(request))
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

    @app.get("/api/games")
    async def list_games(request: Request, status: str = "active") -> dict[str, Any]:
        if status not in ("active", "finished"):
            raise ServiceError(400, f"status must be active or finished, got {status[:40]!r}")
        games = await service_of(request).list_games(status)
        for entry in games:
            entry["updated_at"] = entry["updated_at"].isoformat() if entry["updated_at"] else None
        return {"games": games}

    @app.get("/api/games/{game_id}")
    async def get_game(request: Request, game_id: str) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.fresh(game_id))

    @app.get("/api/games/{game_id}/positions/{ply}")
    async def get_position(request: Request, game_id: str, ply: int) -> dict[str, Any]:
        service = service_of(request)
        return service.position_at(await service.get(game_id), ply)

    @app.get("/api/games/{game_id}/record")
    async def get_record(request: Request, game_id: str) -> PlainTextResponse:
        service = service_of(request)
        live = await service.get(game_id)
        return PlainTextResponse(
            service.record_text(live),
            headers={"Content-Disposition": f'attachment; filename="shogames-{live.game.id}-{live.id}.sgr"'},
        )

    @app.post("/api/games/{game_id}/moves")
    async def post_move(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        if not body.move:
            raise ServiceError(400, "a move needs its text in the game's notation, as 'move'")
        service = service_of(request)
        return service.snapshot(await service.play(game_id, body.move, body.token, body.version))

    @app.post("/api/games/{game_id}/resign")
    async def post_resign(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.resign(game_id, body.token))

    @app.post("/api/games/{game_id}/takeback")
    async def post_takeback(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.takeback(game_id, body.token))

    @app.post("/api/games/{game_id}/draw")
    async def post_draw(request: Request, game_id: str, body: Action) -> dict[str, Any]:
        service = service_of(request)
        return service.snapshot(await service.draw(game_id, body.token, body.accept))

    @app.post("/api/records/replay")
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
            return error(
                request,
                503,
                f"replaying this record took over {REPLAY_SECONDS:g} seconds; try again later",
                {"Retry-After": "30"},
            )
        except BrokenProcessPool as crash:
            logger.error("a record's replay stopped its worker process: %s", crash)
            return error(
                request, 503, "the worker replaying this record stopped; try again", {"Retry-After": "5"}
            )
        return view

    # --- Live games ----------------------------------------------------------------------------------

    open_sockets: collections.Counter[str] = collections.Counter()  # WebSockets open now, per client

    def socket_denial(websocket: WebSocket) -> JSONResponse | None:
        """Why a WebSocket is refused before its handshake is answered (an HTTP answer), or ``None``.

        Refusing before accepting costs the server one HTTP answer; accepting first, then closing, cost a
        whole handshake each and stalled every client when a thousand came at once.
        """
        origin = websocket.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != websocket.headers.get("host", ""):
            message = f"WebSockets are open to this site's own pages, not to {origin[:100]!r}"
            return JSONResponse({"error": message}, status_code=403)
        if quotas is None or socket_quota is None:
            return None
        client = client_of(websocket)
        if open_sockets[client] >= quotas.sockets_open:
            message = f"a client may hold at most {quotas.sockets_open} WebSockets open at once"
            return JSONResponse({"error": message}, status_code=429, headers={"Retry-After": "10"})
        try:
            socket_quota.take(client)
        except QuotaExceededError as refusal:
            headers = {"Retry-After": str(refusal.retry_after)}
            return JSONResponse({"error": refusal.message}, status_code=429, headers=headers)
        return None

    @app.websocket("/ws/games/{game_id}")
    async def live_game(websocket: WebSocket, game_id: str) -> None:
        denial = socket_denial(websocket)
        if denial is not None:
            logger.debug("refused a WebSocket to %s: %d", game_id[:40], denial.status_code)
            await websocket.send_denial_response(denial)
            return
        client = client_of(websocket)
        open_sockets[client] += 1
        try:
            await _live_game(websocket, service_of(websocket), game_id)
        finally:
            open_sockets[client] -= 1
            if not open_sockets[client]:
                del open_sockets[client]

    return app


class LastResort:
    """ASGI middleware: an unexpected error is logged with its traceback and answered, never dropped.

    An HTTP request gets ``{"error": "internal error"}`` with 500 (when its answer had not started); a
    WebSocket is closed with code 1011 and the reason ``internal error``.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = closed = False

        async def watched(message: Message) -> None:
            nonlocal started, closed
            if message["type"] in ("http.response.start", "websocket.accept"):
                started = True
            elif message["type"] == "websocket.close":
                closed = True
            await send(message)

        try:
            await self.app(scope, receive, watched)
        except (WebSocketDisconnect, ClientDisconnected):  # the client left (in its handshake, say)
            logger.debug("a client left its WebSocket to %s", scope.get("path", "")[:200])
        except Exception:
            if scope["type"] not in ("http", "websocket"):
                raise
            logger.exception(
                "unexpected error on %s %s", scope.get("method", "WS"), scope.get("path", "")[:200]
            )
            with contextlib.suppress(Exception):
                if scope["type"] == "http" and not started:
                    body = json.dumps({"error": "internal error"}).encode()
                    await send(
                        {
                            "type": "http.response.start",
                            "status": 500,
                            "headers": [
                                (b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                            ],
                        }
                    )
                    await send({"type": "http.response.body", "body": body})
                elif scope["type"] == "websocket" and not closed:
                    if not started:
                        await send({"type": "websocket.accept"})
                    await send({"type": "websocket.close", "code": 1011, "reason": "internal error"})


async def _live_game(websocket: WebSocket, service: GameService, game_id: str) -> None:
    """Serve one game's WebSocket: the snapshot, then every event, while handling what the client sends.

    An unknown game is accepted and closed with 4404 and the reason (a browser's WebSocket cannot read an
    HTTP refusal), as a refusal of the game service is with 4000 + its status.
    """
    try:
        live = await service.fresh(game_id)
    except ServiceError as refusal:
        code = 4000 + refusal.status
        logger.debug("refused a WebSocket to %s: %d %s", game_id[:40], code, refusal.message)
        await websocket.accept()
        await websocket.close(code=code, reason=refusal.message[:120])
        return
    await websocket.accept()
    since = websocket.query_params.get("since")
    queue = service.subscribe(live)
    try:
        if since is None or not _VERSION_RE.fullmatch(since) or int(since) != live.version:
            await websocket.send_json(service.snapshot(live))
        receiver = asyncio.create_task(_receive(websocket, service, game_id))
        try:
            while not receiver.done():
                getter = asyncio.create_task(queue.get())
                done, _ = await asyncio.wait({getter, receiver}, return_when=asyncio.FIRST_COMPLETED)
                if getter in done:
                    await websocket.send_json(getter.result())
                else:
                    getter.cancel()
            receiver.result()  # an unexpected error of the receiver goes on to LastResort
        finally:
            receiver.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        service.unsubscribe(live, queue)


async def _receive(websocket: WebSocket, service: GameService, game_id: str) -> None:
    """Handle what a client sends on its WebSocket until it goes away.

    A message that is refused gets ``{"type": "error", "status": ..., "message": ...}`` back, and the socket
    stays open.
    """
    while True:
        raw = await websocket.receive()
        if raw["type"] == "websocket.disconnect":
            return
        try:
            message = decode_message(raw)
            await _act(websocket, service, game_id, message)
        except (ServiceError, MessageError) as refusal:
            logger.debug("refused a WebSocket message on %s: %d %s", game_id, refusal.status, refusal.message)
            await websocket.send_json({"type": "error", "status": refusal.status, "message": refusal.message})


async def _act(websocket: WebSocket, service: GameService, game_id: str, message: dict[str, Any]) -> None:
    """Do what one WebSocket message asks.

    Raises:
        ServiceError: the message is malformed or its action is refused.
    """
    kind = message.get("type")
    token = message.get("token")
    token = token if isinstance(token, str) else None
    if kind == "move":
        text, version = message.get("move"), message.get("version")
        if not isinstance(text, str) or not text:
            raise ServiceError(400, "a move message needs 'move': the move in the game's notation")
        if len(text) > 200:
            raise ServiceError(400, "'move' may have at most 200 characters")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise ServiceError(400, "'version' must be a whole number")
        await service.play(game_id, text, token, version)
    elif kind == "resign":
        await service.resign(game_id, token)
    elif kind == "takeback":
        await service.takeback(game_id, token)
    elif kind == "draw":
        accept = message.get("accept")
        if accept is not None and not isinstance(accept, bool):
            raise ServiceError(400, "'accept' must be true, false or null (to offer a draw)")
        await service.draw(game_id, token, accept)
    elif kind == "ping":
        await websocket.send_json({"type": "pong"})
    else:
        shown = repr(kind)[:40] if isinstance(kind, str) or kind is None else type(kind).__name__
        raise ServiceError(400, f"unknown message type {shown}; types: move, resign, takeback, draw, ping")


DATABASE_VARIABLE = "SHOGAMES_DATABASE_URL"
"""The environment variable through which :func:`serve` gives worker processes the database URL."""
LOG_LEVEL_VARIABLE = "SHOGAMES_LOG_LEVEL"
"""The environment variable through which :func:`serve` gives worker processes the log level."""
NO_QUOTAS_VARIABLE = "SHOGAMES_NO_QUOTAS"
"""Set (to ``1``) by :func:`serve` for worker processes that keep no quotas."""


def _configure_logging(log_level: str) -> int:
    level: int = getattr(logging, log_level.upper())
    # Other libraries (aiosqlite, asyncio, alembic) log at warning and above; ours at the level asked for.
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("shogames").setLevel(level)
    return level


def app_from_environment() -> FastAPI:
    """The app of one worker process started by ``serve --workers N`` (migrations already ran)."""
    _configure_logging(os.environ.get(LOG_LEVEL_VARIABLE, "info"))
    quotas = None if os.environ.get(NO_QUOTAS_VARIABLE) == "1" else Quotas()
    return create_app(
        os.environ[DATABASE_VARIABLE], migrate_first=False, quotas=quotas, workers=1, warm_workers=True
    )


def warm_kernels_in_a_child() -> None:
    """Compile the games' kernels into numba's cache (or load them), printing what it does.

    Runs ``python -m shogames.kernels.warm`` in a child process, so this process never holds numba or
    the compiler's memory: the computer players and analyses run in worker processes, which then load the
    compiled code from the cache in well under a second instead of compiling it while a person waits.
    A failure is reported and the server goes on: the reference engines play where a kernel is missing.
    """
    print(
        "shogames: preparing the games' compiled kernels (the first run on a machine compiles them, "
        "about a minute; after that they load from the cache in a second)",
        flush=True,
    )
    command = [sys.executable, "-m", "shogames.kernels.warm"]
    with tempfile.TemporaryFile("w+") as errors:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True) as child:
            assert child.stdout is not None
            for line in child.stdout:  # one line a game, as each is ready
                print(f"  {line.rstrip()}", flush=True)
        if child.returncode != 0:
            errors.seek(0)
            last = (errors.read().strip().splitlines() or [f"exit status {child.returncode}"])[-1]
            print(f"  the kernels could not be prepared ({last}): the pure-Python engines play", flush=True)
            logger.warning("warming the kernels failed: %s", last)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    workers: int = 1,
    log_level: str = "info",
    quotas: Quotas | None = Quotas(),  # noqa: B008 -- a frozen dataclass, shared safely
    warm: bool = True,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Run the web app with uvicorn until interrupted, after printing the address to open.

    Args:
        host: the address to listen on.
        port: the port to listen on.
        database_url: the database (an SQLAlchemy async URL).
        workers: server processes sharing the port; more than one needs PostgreSQL, whose notifications
            carry each process's events to the others (each process has quotas of its own).
        log_level: ``debug``, ``info``, ``warning`` or ``error``: the level of the ``shogames.server`` log
            (refused requests are logged at ``debug``, unexpected errors with their traceback at ``error``).
        quotas: the quotas per client; ``None`` for none.
        warm: first compile the games' kernels into the cache, or load them
            (:func:`warm_kernels_in_a_child`), so that no player waits for a compile.
        forwarded_allow_ips: the proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are trusted
            for the client's address (comma-separated addresses or networks, ``*`` for any, ``""`` for
            none); ``None``: uvicorn's default, the ``FORWARDED_ALLOW_IPS`` variable or 127.0.0.1.

    Raises:
        ValueError: several workers were asked for on a database other than PostgreSQL.
    """
    import uvicorn

    from shogames.server.http_protocol import HttpProtocol
    from shogames.server.websocket_protocol import WebSocketProtocol

    if workers > 1 and not database_url.startswith("postgresql"):
        raise ValueError(
            "several workers need PostgreSQL (--database postgresql+asyncpg://...): SQLite has one writer "
            "and no way to tell the other processes about moves"
        )
    level = _configure_logging(log_level)
    if warm:
        warm_kernels_in_a_child()
    shown = make_url(database_url).render_as_string(hide_password=True)
    print(
        f"shogames is running at http://{host}:{port}/ (database {shown}"
        f"{f', {workers} workers' if workers > 1 else ''}); Ctrl+C stops it",
        flush=True,
    )
    logger.info("listening on http://%s:%d/", host, port)
    if workers == 1:
        uvicorn.run(
            create_app(database_url, quotas=quotas, warm_workers=warm),
            host=host,
            port=port,
            log_level=max(level, logging.WARNING),
            http=HttpProtocol,
            ws=WebSocketProtocol,
            ws_max_size=MAX_WS_FRAME,
            forwarded_allow_ips=forwarded_allow_ips,
        )
        return
    migrate(database_url)
    os.environ[DATABASE_VARIABLE] = database_url
    os.environ[LOG_LEVEL_VARIABLE] = log_level
    os.environ[NO_QUOTAS_VARIABLE] = "1" if quotas is None else "0"
    uvicorn.run(
        "shogames.server.app:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level=max(level, logging.WARNING),
        http=HttpProtocol,
        ws=WebSocketProtocol,
        ws_max_size=MAX_WS_FRAME,
        forwarded_allow_ips=forwarded_allow_ips,
    )


__all__ = ["AI", "PERSON", "Quotas", "create_app", "seat_names", "serve"]
