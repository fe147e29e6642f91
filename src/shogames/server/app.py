"""The web app: pages, a JSON API and a WebSocket per game, on FastAPI.

The routes are in :mod:`~shogames.server.pages` (the home page, a game's page, the viewer),
:mod:`~shogames.server.api` (the JSON API), :mod:`~shogames.server.sockets` (a game's WebSocket) and
:mod:`~shogames.server.learn` (rules pages, lessons, hints and analysis), with
:mod:`~shogames.server.analysis_board` (the analysis board's page and API); running the app is in
:mod:`~shogames.server.serving`. This module puts them together with the game service and the engine's
workers, which start and stop with the app.

Every refusal is a JSON ``{"error": message}`` with a 4xx status and leaves the game as it was; an unknown
route is a 404 and a wrong method a 405 in the same shape. An unexpected error is logged with its traceback
(logger ``shogames.server``) and answers ``{"error": "internal error"}`` with 500.

The edge's limits (request bodies, WebSocket messages, quotas per client, security headers) are in
:mod:`shogames.server.limits`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from sqlalchemy.engine import make_url
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.utils import ClientDisconnected

from shogames.agents.base import parse_agent_spec
from shogames.core.protocol import State
from shogames.server.analysis_board import SEARCH_BURST, SEARCH_PER_MINUTE, analysis_board_router
from shogames.server.api import api_router, error_response
from shogames.server.db import DEFAULT_DATABASE_URL, migrate, open_database
from shogames.server.engine import Engine, EngineBusyError
from shogames.server.events import PostgresEvents
from shogames.server.learn import learn_router
from shogames.server.limits import (
    MAX_BODY,
    BodyLimit,
    Quota,
    QuotaExceededError,
    Quotas,
    SecurityHeaders,
    SharedTokenBucket,
    TokenBucket,
)
from shogames.server.pages import pages_router
from shogames.server.puzzles import puzzles_router
from shogames.server.service import AI, PERSON, GameService, ServiceError, choose_move
from shogames.server.sockets import socket_router
from shogames.server.views import game_assets

HERE = Path(__file__).parent
logger = logging.getLogger("shogames.server")


def create_app(
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    migrate_first: bool = True,
    quotas: Quotas | None = Quotas(),  # noqa: B008 -- a frozen dataclass, shared safely
    workers: int | None = None,
    warm_workers: bool = False,
    study_workers: int | None = None,
    engine_address: str | None = None,
    shared_quotas: bool = False,
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
        study_workers: the study engine workers (hints, analyses, replays, games between computers):
            a quarter of the cores by default (:func:`~shogames.server.engine.study_size`).
        engine_address: a Ray cluster's address: the engine's work runs on its workers
            (:mod:`~shogames.server.remote_engine`), not in local processes.
        shared_quotas: keep the quotas on new games and WebSockets a minute in the database, shared by every
            process on it (``serve --workers N`` on PostgreSQL), rather than in this process's memory.
    """
    templates = Jinja2Templates(directory=str(HERE / "templates"))
    game_quota: Quota | None = None
    socket_quota: Quota | None = None
    search_quota: Quota | None = None  # the analysis board's searches (server/analysis_board.py)
    if quotas is not None and shared_quotas:

        def sessions() -> Any:
            return app.state.service.sessions

        game_quota = SharedTokenBucket("new games", quotas.games_burst, quotas.games_per_minute, sessions)
        socket_quota = SharedTokenBucket(
            "WebSockets", quotas.sockets_burst, quotas.sockets_per_minute, sessions
        )
        search_quota = SharedTokenBucket("board searches", SEARCH_BURST, SEARCH_PER_MINUTE, sessions)
    elif quotas is not None:
        game_quota = TokenBucket("new games", quotas.games_burst, quotas.games_per_minute)
        socket_quota = TokenBucket("WebSockets", quotas.sockets_burst, quotas.sockets_per_minute)
        search_quota = TokenBucket("board searches", SEARCH_BURST, SEARCH_PER_MINUTE)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        shown = make_url(database_url).render_as_string(hide_password=True)
        logger.info("starting on database %s", shown)
        if migrate_first:
            await asyncio.to_thread(migrate, database_url)
        engine, sessions = open_database(database_url)
        service = GameService(sessions)
        app.state.service = service
        engine_work = Engine(workers, study_workers, warm=warm_workers, address=engine_address)
        app.state.engine = engine_work
        limits = service.limits

        async def think(spec: str, seed: int, game_id: str, state: State[Any], interactive: bool) -> str:
            """A computer player's move: on an engine worker, except the random player's (no thinking)."""
            if parse_agent_spec(spec)[0] == "random":
                return await asyncio.to_thread(choose_move, spec, seed, game_id, state, limits.budget(spec))
            return await engine_work.move(
                choose_move,
                spec,
                seed,
                game_id,
                state,
                limits.budget(spec),
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
    app.include_router(puzzles_router())  # puzzle pages and their ratings (server/puzzles.py)
    app.include_router(analysis_board_router(search_quota))  # the analysis board (server/analysis_board.py)
    app.mount("/static/games", game_assets(), name="game-static")  # before /static, which would match first
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(pages_router(templates))
    app.include_router(api_router(game_quota))
    app.include_router(socket_router(quotas, socket_quota))
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

    @app.exception_handler(ServiceError)
    async def refused(request: Request, failure: ServiceError) -> JSONResponse:
        return error_response(request, failure.status, failure.message)

    @app.exception_handler(QuotaExceededError)
    async def over_quota(request: Request, failure: QuotaExceededError) -> JSONResponse:
        return error_response(request, 429, failure.message, {"Retry-After": str(failure.retry_after)})

    @app.exception_handler(EngineBusyError)
    async def engine_busy(request: Request, failure: EngineBusyError) -> JSONResponse:
        return error_response(request, 429, failure.message, {"Retry-After": "5"})

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, failure: HTTPException) -> JSONResponse:
        if failure.status_code == 404:
            message = f"nothing here: {request.url.path[:200]}"
        elif failure.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path[:200]}"
        else:
            message = str(failure.detail)
        return error_response(request, failure.status_code, message, dict(failure.headers or {}))

    @app.exception_handler(RequestValidationError)
    async def malformed(request: Request, failure: RequestValidationError) -> JSONResponse:
        problems = []
        for item in failure.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{where or 'request'}: {item.get('msg', 'invalid')}")
        return error_response(request, 400, "malformed request: " + "; ".join(problems)[:1000])

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


__all__ = ["AI", "PERSON", "Quotas", "create_app"]
