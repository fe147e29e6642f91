"""A game's WebSocket: its snapshot now and after every event, and the actions its client sends.

``WS /ws/games/{id}?since=VERSION``: the snapshot now (unless the client has ``VERSION`` already) and after
every event. A client may also send ``{"type": "move", "move": ..., "token": ..., "version": ...}``,
``resign``, ``takeback`` or ``draw`` (with ``accept`` as for ``POST /api/games/{id}/draw``), or ``ping``; a
refusal comes back to it alone as ``{"type": "error", "status": ..., "message": ...}``.

A WebSocket to an unknown game is accepted and closed with code 4404 and the reason. A WebSocket from
another site's page (its ``Origin``) is refused with 403, and one over its client's quotas (opened a
minute, or held open at once) with 429, in the error shape, before its handshake is answered.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import JSONResponse

from shogames.server.api import MAX_NUMBER_DIGITS, service_of
from shogames.server.limits import (
    MessageError,
    Quota,
    QuotaExceededError,
    Quotas,
    client_of,
    decode_message,
)
from shogames.server.service import GameService, ServiceError

logger = logging.getLogger("shogames.server")
_VERSION_RE = re.compile(rf"-?[0-9]{{1,{MAX_NUMBER_DIGITS}}}")


def socket_router(quotas: Quotas | None, socket_quota: Quota | None) -> APIRouter:
    """The route of games' WebSockets.

    Args:
        quotas: the quotas per client (how many WebSockets one may hold open at once), if any.
        socket_quota: how many WebSockets each client may open a minute, if there is a quota.
    """
    router = APIRouter()
    open_sockets: collections.Counter[str] = collections.Counter()  # WebSockets open now, per client

    async def socket_denial(websocket: WebSocket) -> JSONResponse | None:
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
            await socket_quota.spend(client)
        except QuotaExceededError as refusal:
            headers = {"Retry-After": str(refusal.retry_after)}
            return JSONResponse({"error": refusal.message}, status_code=429, headers=headers)
        return None

    @router.websocket("/ws/games/{game_id}")
    async def live_game(websocket: WebSocket, game_id: str) -> None:
        denial = await socket_denial(websocket)
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

    return router


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
