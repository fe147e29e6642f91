"""The pages: the home page, a game's page, and the record viewer.

* ``GET /``: the home page: start a game, games in progress, finished games.
* ``GET /game/{id}``: a game's page. A person's secret seat token travels in the link's fragment
  (``/game/{id}#token=...``), which browsers never send to a server; without one the page is read-only,
  which makes ``/game/{id}`` the spectators' link. A game that is not there gets a page that says so.
* ``GET /viewer``: upload a record and step through it.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from fastapi.templating import Jinja2Templates

from shogames.server.api import catalog, service_of
from shogames.server.guides import has_rules
from shogames.server.service import ServiceError


def pages_router(templates: Jinja2Templates) -> APIRouter:
    """The pages' routes, drawn with ``templates``."""
    router = APIRouter()

    @router.get("/", response_class=HTMLResponse)
    async def home(request: Request) -> Response:
        service = service_of(request)
        active = await service.list_games("active", 30)
        finished = await service.list_games("finished", 30)
        return templates.TemplateResponse(
            request,
            "home.html",
            {"active": active, "finished": finished, "catalog": json.dumps(catalog())},
        )

    @router.get("/game/{game_id}", response_class=HTMLResponse)
    async def game_page(request: Request, game_id: str) -> Response:
        try:
            live = await service_of(request).get(game_id)
        except ServiceError as error:  # a page, not the API's JSON, for a person who followed a bad link
            context = {"status": error.status, "message": error.message}
            return templates.TemplateResponse(request, "missing.html", context, status_code=error.status)
        game = live.game
        context = {"game_id": live.id, "game": game.id, "name": game.name, "has_rules": has_rules(game.id)}
        return templates.TemplateResponse(request, "game.html", context)

    @router.get("/viewer", response_class=HTMLResponse)
    async def viewer_page(request: Request) -> Response:
        return templates.TemplateResponse(request, "viewer.html", {})

    return router
