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
* ``POST /api/records/replay``: check a record and return every position of it, for the viewer.
* ``WS /ws/games/{id}?since=VERSION``: the snapshot now (unless the client has ``VERSION`` already)
  and after every event. A client may also send ``{"type": "move", "move": ..., "token": ...,
  "version": ...}``, ``resign`` or ``takeback``; a refusal comes back to it alone as
  ``{"type": "error", "status": ..., "message": ...}``.

Every refusal is a JSON ``{"error": message}`` with a 4xx status and leaves the game as it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, Field

from shogames.agents.base import level_names
from shogames.core.errors import ShogamesError
from shogames.core.registry import available_games, game_class, make
from shogames.core.settings import parse_settings_text
from shogames.records import parse_record, replay
from shogames.server.db import DEFAULT_DATABASE_URL, migrate, open_database
from shogames.server.events import PostgresEvents
from shogames.server.learn import has_rules, learn_router
from shogames.server.service import (
    AI,
    FISCHER,
    PER_MOVE,
    PERSON,
    GameService,
    SeatRequest,
    ServiceError,
    TimeControl,
    position_step,
    result_text,
)
from shogames.server.views import game_assets

HERE = Path(__file__).parent
MAX_RECORD = 1_000_000


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


class Action(BaseModel):
    """A move, resignation or takeback, with the secret token of the seat that acts."""

    token: str | None = Field(default=None, max_length=64)
    move: str | None = Field(default=None, max_length=200)
    version: int | None = None


class RecordText(BaseModel):
    """A game record to replay in the viewer."""

    record: str = Field(max_length=MAX_RECORD)


def _time_control(choice: ClockChoice | None) -> TimeControl | None:
    if choice is None or choice.kind in ("", "none"):
        return None
    if choice.kind == FISCHER:
        return TimeControl(
            FISCHER, initial_ms=round(choice.minutes * 60_000), increment_ms=round(choice.increment * 1000)
        )
    if choice.kind == PER_MOVE:
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


def create_app(database_url: str = DEFAULT_DATABASE_URL, *, migrate_first: bool = True) -> FastAPI:
    """The web app on a database; its schema is brought up to date when the app starts.

    Args:
        database_url: an SQLAlchemy async URL; an SQLite file in the working directory by default.
        migrate_first: run the migrations at start-up (tests that migrated already may skip it).
    """
    templates = Jinja2Templates(directory=str(HERE / "templates"))

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if migrate_first:
            await asyncio.to_thread(migrate, database_url)
        engine, sessions = open_database(database_url)
        service = GameService(sessions)
        app.state.service = service
        events = PostgresEvents(database_url, service) if engine.dialect.name == "postgresql" else None
        if events is not None:
            await events.start()
        await service.start()
        try:
            yield
        finally:
            if events is not None:
                await events.close()
            await service.close()
            await engine.dispose()

    app = FastAPI(title="shogames", lifespan=lifespan, docs_url="/api/docs", redoc_url=None)
    app.include_router(learn_router())  # rules pages, lessons, hints (server/learn.py)
    app.mount("/static/games", game_assets(), name="game-static")  # before /static, which would match first
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")

    def service_of(request: Request | WebSocket) -> GameService:
        service: GameService = request.app.state.service
        return service

    @app.exception_handler(ServiceError)
    async def refused(_request: Request, error: ServiceError) -> JSONResponse:
        return JSONResponse({"error": error.message}, status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def malformed(_request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            where = ".".join(str(part) for part in item.get("loc", ()) if part != "body")
            problems.append(f"{where or 'request'}: {item.get('msg', 'invalid')}")
        return JSONResponse({"error": "malformed request: " + "; ".join(problems)}, status_code=400)

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
            raise ServiceError(400, f"status must be active or finished, got {status!r}")
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

    @app.post("/api/records/replay")
    async def replay_record(body: RecordText) -> dict[str, Any]:
        try:
            played = replay(parse_record(body.record))
        except ShogamesError as error:
            raise ServiceError(400, f"record refused: {error}") from None
        record = parse_record(body.record)
        movers = [state.to_move for state in played.states[:-1]]
        steps = [
            position_step(played.states, played.moves, [m if m is not None else -1 for m in movers], ply)
            for ply in range(len(played.states))
        ]
        game = played.game
        return {
            "game": {
                "id": game.id,
                "name": game.name,
                "settings": game.settings_text(),
                "players": list(game.player_names),
            },
            "names": [record.headers.get(seat, "?") for seat in game.player_names],
            "result_text": result_text(game, record.result, record.termination),
            "moves": [
                {"ply": index + 1, "text": text, "seat": movers[index]}
                for index, text in enumerate(record.moves)
            ],
            "steps": steps,
        }

    # --- Live games ----------------------------------------------------------------------------------

    @app.websocket("/ws/games/{game_id}")
    async def live_game(websocket: WebSocket, game_id: str) -> None:
        service = service_of(websocket)
        try:
            live = await service.get(game_id)
        except ServiceError as error:
            await websocket.close(code=4404, reason=error.message)
            return
        await websocket.accept()
        since = websocket.query_params.get("since")
        queue = service.subscribe(live)
        try:
            if since is None or not since.lstrip("-").isdigit() or int(since) != live.version:
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
            finally:
                receiver.cancel()
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            service.unsubscribe(live, queue)

    return app


async def _receive(websocket: WebSocket, service: GameService, game_id: str) -> None:
    """Handle what a client sends on its WebSocket until it goes away."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            try:
                message = await websocket.receive_json()
            except (json.JSONDecodeError, KeyError, ValueError):
                await websocket.send_json(
                    {"type": "error", "status": 400, "message": "messages must be JSON objects"}
                )
                continue
            if not isinstance(message, dict):
                await websocket.send_json(
                    {"type": "error", "status": 400, "message": "messages must be JSON objects"}
                )
                continue
            kind = message.get("type")
            token = message.get("token")
            token = token if isinstance(token, str) else None
            try:
                if kind == "move":
                    text, version = message.get("move"), message.get("version")
                    if not isinstance(text, str) or not text:
                        raise ServiceError(
                            400, "a move message needs 'move': the move in the game's notation"
                        )
                    if version is not None and not isinstance(version, int):
                        raise ServiceError(400, "'version' must be a whole number")
                    await service.play(game_id, text, token, version)
                elif kind == "resign":
                    await service.resign(game_id, token)
                elif kind == "takeback":
                    await service.takeback(game_id, token)
                elif kind == "ping":
                    await websocket.send_json({"type": "pong"})
                else:
                    raise ServiceError(
                        400, f"unknown message type {kind!r}; types: move, resign, takeback, ping"
                    )
            except ServiceError as error:
                await websocket.send_json({"type": "error", "status": error.status, "message": error.message})


DATABASE_VARIABLE = "SHOGAMES_DATABASE_URL"
"""The environment variable through which :func:`serve` gives worker processes the database URL."""


def app_from_environment() -> FastAPI:
    """The app of one worker process started by ``serve --workers N`` (migrations already ran)."""
    return create_app(os.environ[DATABASE_VARIABLE], migrate_first=False)


def serve(
    host: str = "127.0.0.1", port: int = 8000, database_url: str = DEFAULT_DATABASE_URL, *, workers: int = 1
) -> None:
    """Run the web app with uvicorn until interrupted, after printing the address to open.

    Args:
        host: the address to listen on.
        port: the port to listen on.
        database_url: the SQLAlchemy async URL of the database.
        workers: server processes sharing the port; more than one needs PostgreSQL, whose notifications
            carry each process's events to the others.

    Raises:
        ValueError: several workers were asked for on a database other than PostgreSQL.
    """
    import uvicorn

    if workers > 1 and not database_url.startswith("postgresql"):
        raise ValueError(
            "several workers need PostgreSQL (--database postgresql+asyncpg://...): SQLite has one writer "
            "and no way to tell the other processes about moves"
        )
    print(
        f"shogames is running at http://{host}:{port}/ (database {database_url}"
        f"{f', {workers} workers' if workers > 1 else ''}); Ctrl+C stops it",
        flush=True,
    )
    if workers == 1:
        uvicorn.run(create_app(database_url), host=host, port=port, log_level="warning")
        return
    migrate(database_url)
    os.environ[DATABASE_VARIABLE] = database_url
    uvicorn.run(
        "shogames.server.app:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
    )


__all__ = ["AI", "PERSON", "create_app", "seat_names", "serve"]
