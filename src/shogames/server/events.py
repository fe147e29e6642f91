"""Events between server processes that share one PostgreSQL database: ``LISTEN``/``NOTIFY``.

Every commit of a game (:meth:`~shogames.server.storage.GameStore.write`) sends
a notification on ``shogames_games`` in its transaction, so PostgreSQL delivers it exactly when the
change is visible: the change itself as JSON (the moves added, the plies kept after a takeback, the
clocks and how the game stands; :func:`~shogames.server.changes.event_payload`), or ``ID:VERSION`` where
that is too long. Each process listens on that channel with a connection of its own; a copy at the
version before the change applies it as it is, and any other copy in memory at an older version reads
the game again; then it tells its WebSocket listeners (:meth:`GameService.on_remote_event`). A process
that holds no copy of the game ignores it, and will read the game fresh when it is asked for it.

If the listening connection is lost, notifications may have been missed: the listener reconnects (with
a growing pause) and then brings every game it holds up to date.

Only PostgreSQL has this; on SQLite the server runs as one process and needs no events.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from sqlalchemy.engine import make_url

from shogames.server.changes import read_event
from shogames.server.service import NOTIFY_CHANNEL, GameService

logger = logging.getLogger("shogames.server")


def asyncpg_dsn(database_url: str) -> str:
    """The plain ``postgresql://`` address asyncpg takes, from the SQLAlchemy URL the server was given.

    >>> asyncpg_dsn("postgresql+asyncpg://game:secret@127.0.0.1:5432/shogames")
    'postgresql://game:secret@127.0.0.1:5432/shogames'
    """
    return make_url(database_url).set(drivername="postgresql").render_as_string(hide_password=False)


class PostgresEvents:
    """Listens for other processes' commits and brings this process's games up to date.

    Args:
        database_url: the server's SQLAlchemy URL (``postgresql+asyncpg://...``).
        service: the process's game service.
    """

    def __init__(self, database_url: str, service: GameService) -> None:
        self.dsn = asyncpg_dsn(database_url)
        self.service = service
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> None:
        """Start listening; returns once the first connection listens (or failed to, then retrying)."""
        self._task = asyncio.create_task(self._listen_forever())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10)

    async def close(self) -> None:
        """Stop listening."""
        for task in [self._task, *self._tasks]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    def _on_notification(self, _connection: Any, _pid: int, _channel: str, payload: str) -> None:
        read = read_event(payload)
        if read is None:
            return
        game_id, version, event = read
        task = asyncio.ensure_future(self.service.on_remote_event(game_id, version, event))
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        """Forget a finished update; log one that failed (a busy database, say).

        The copy is then brought up to date by the next request or notification for that game.
        """
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            logger.warning(
                "could not bring a game up to date after another process's move: %s", task.exception()
            )

    async def _listen_forever(self) -> None:
        import asyncpg  # the postgres extra; only imported when the server runs on PostgreSQL

        pause = 0.5
        first = True
        while True:
            connection = None
            try:
                connection = await asyncpg.connect(self.dsn)
                lost = asyncio.Event()
                connection.add_termination_listener(lambda _connection, lost=lost: lost.set())
                await connection.add_listener(NOTIFY_CHANNEL, self._on_notification)
                if not first:
                    logger.warning("listening to other processes again: bringing every game up to date")
                    for game_id, live in list(self.service.live.items()):
                        await self.service.on_remote_event(game_id, live.version + 1)
                first = False
                pause = 0.5
                self._ready.set()
                await lost.wait()
                logger.warning("the connection that listens to other processes was lost; reconnecting")
            except asyncio.CancelledError:
                raise
            except Exception as error:
                logger.error("cannot listen to other processes (%s); trying again in %.1f s", error, pause)
                self._ready.set()
                await asyncio.sleep(pause)
                pause = min(pause * 2, 10.0)
            finally:
                if connection is not None:
                    with contextlib.suppress(Exception):
                        await connection.close()
