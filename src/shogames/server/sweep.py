"""The sweep, which runs every second in each process, and what a process does when it starts.

A sweep marks the process alive (the service clock, so that a restart charges no player for the time the
service was down), flags players whose time ran out, takes over games whose computer player or dice are
due and that no process is driving (after a crash), and evicts idle and finished games from memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
from collections.abc import Callable

from shogames.server.computer import ComputerLimits
from shogames.server.driver import GameDriver
from shogames.server.errors import DatabaseFullError, ServiceError
from shogames.server.memory import LiveGames
from shogames.server.storage import GameStore

logger = logging.getLogger("shogames.server")


class Sweeper:
    """Starts a process's service and sweeps every ``seconds``.

    Args:
        store: the games in the database.
        games: the games in memory.
        driver: moves games on by themselves.
        limits: what a computer player may spend on a move (how long one may seem stuck).
        seconds: how often the sweep runs (0 for never, for tests that drive it by hand).
        now: the clock (UTC wall time).
    """

    def __init__(
        self,
        store: GameStore,
        games: LiveGames,
        driver: GameDriver,
        *,
        limits: ComputerLimits,
        seconds: float,
        now: Callable[[], datetime.datetime],
    ) -> None:
        self.store = store
        self.games = games
        self.driver = driver
        self.limits = limits
        self.seconds = seconds
        self.now = now
        self.task: asyncio.Task[None] | None = None
        """The sweep running every ``seconds``, once started."""

    async def start(self) -> None:
        """Start serving: credit clocks for downtime, resume the games that were due, start the sweep.

        Every running clock is credited with the time the service was down; every game whose computer
        player or dice are due, or whose time ran out meanwhile, goes on.
        """
        try:
            await self.store.credit_downtime(datetime.timedelta(seconds=max(3.0, 3 * self.seconds)))
        except DatabaseFullError:  # reading works: serve what can be served, and say what cannot
            logger.warning(
                "the database's disk is full: running clocks were not credited for the downtime, and no "
                "change can be saved until there is room"
            )
        due = await self.store.due_games()
        for game_id in due:
            with contextlib.suppress(ServiceError):
                await self.driver.resume(await self.games.get(game_id))
        logger.info("game service started: %d games resumed, database %s", len(due), self.store.dialect)
        if self.seconds > 0:
            self.task = asyncio.create_task(self._sweep_forever())

    async def sweep(self) -> None:
        """Mark this process alive; flag late players; take over due games no one drives; evict idle ones."""
        await self.store.heartbeat()
        now = self.now()
        stale = now - datetime.timedelta(seconds=self.limits.max_seconds + self.limits.grace_seconds + 5)
        late, orphans = await self.store.late_and_orphaned(now, stale)
        for game_id in late:
            with contextlib.suppress(ServiceError):
                await self.driver.flag_late(await self.games.get(game_id))
        for game_id in orphans:
            live_now = self.games.games.get(game_id)
            if live_now is not None and live_now.ai_task is not None and not live_now.ai_task.done():
                continue
            with contextlib.suppress(ServiceError):
                await self.driver.resume(await self.games.get(game_id))
        self.games.evict()

    async def _sweep_forever(self) -> None:
        """Sweep every ``seconds``; a failure is logged once, not again while it repeats."""
        failing: str | None = None  # the failure the sweeps meet now, already logged
        repeats = 0
        while not self.driver.closed:
            await asyncio.sleep(self.seconds)
            try:
                await self.sweep()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                seen = f"{type(error).__name__}: {error}"
                if seen == failing:
                    repeats += 1
                    continue
                failing, repeats = seen, 0
                if isinstance(error, ServiceError):  # a database in trouble, said already by the store
                    logger.warning("the sweep failed (%s); it is tried every %.1f s", error, self.seconds)
                else:
                    logger.exception("the sweep failed; it is tried every %.1f s", self.seconds)
            else:
                if failing is not None:
                    logger.info("the sweep works again, after %d more failures like the last", repeats)
                    failing = None
