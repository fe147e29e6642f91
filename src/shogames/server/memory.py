"""Which games this process holds in memory: loaded on first use, evicted when idle.

A game is loaded (and replayed) on first use, and leaves memory when nobody watches or drives it and it was
idle long enough, so that memory stays flat however many games are played.

Each game in memory has an :class:`asyncio.Lock` so that its events are applied one at a time in this
process (lila's one actor per game); loading a game twice at once gives one copy.
"""

from __future__ import annotations

import asyncio
import logging

from shogames.server.errors import ServiceError
from shogames.server.live import LiveGame
from shogames.server.storage import GameStore

logger = logging.getLogger("shogames.server")


class LiveGames:
    """The games held in memory, by id.

    Args:
        store: the games in the database, loaded from on first use.
        idle_seconds: a game nobody has used for this long leaves memory (it is loaded again on use).
        finished_seconds: likewise for a finished game.
    """

    def __init__(self, store: GameStore, *, idle_seconds: float, finished_seconds: float) -> None:
        self.store = store
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self.games: dict[str, LiveGame] = {}
        """The games in memory, by id."""
        self.loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        """The games being loaded now: a lock each, and how many wait for it."""

    def add(self, live: LiveGame) -> None:
        """Hold a game just made."""
        live.touched = asyncio.get_running_loop().time()
        self.games[live.id] = live

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id, loaded from the database (and replayed) on first use.

        Raises:
            ServiceError: no game has this id (404).
        """
        if len(game_id) > 64:
            raise ServiceError(404, "no game with such an id on this server")
        live = self.games.get(game_id)
        if live is None:
            live = await self._load(game_id)
        live.touched = asyncio.get_running_loop().time()
        return live

    async def _load(self, game_id: str) -> LiveGame:
        lock, users = self.loading.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                live = self.games.get(game_id)
                if live is not None:
                    return live
                live = await self.store.load(game_id)
                self.games[game_id] = live
                return live
        finally:
            users[0] -= 1
            if users[0] == 0:
                self.loading.pop(game_id, None)

    def evict(self) -> int:
        """Drop from memory the games nobody watches or drives that were idle long enough; how many."""
        clock = asyncio.get_running_loop().time()
        gone = []
        for game_id, live in self.games.items():
            idle = clock - live.touched
            busy = (
                live.listeners or live.lock.locked() or (live.ai_task is not None and not live.ai_task.done())
            )
            limit = self.idle_seconds if live.is_active else self.finished_seconds
            if not busy and idle >= limit:
                gone.append(game_id)
        for game_id in gone:
            live = self.games.pop(game_id)
            if live.timer is not None:
                live.timer.cancel()
        if gone:
            logger.debug("evicted %d idle games from memory (%d stay)", len(gone), len(self.games))
        return len(gone)
