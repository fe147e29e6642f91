"""What happens in a game without a person acting: computer moves, clocks running out, games taken up again.

That is the computer seat's move, the timer of the running clock, the loss on time, and a game taken up
again after a restart.

After every event (:meth:`GameDriver.after_event`) the timer of the running clock is set again, and if a
computer seat is to move its move is started; the computer thinks outside the game's lock, and its move is
played only if the game has not changed meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import random
from collections.abc import Callable

from shogames.core.protocol import CHANCE
from shogames.server.changes import finish_change, play_change
from shogames.server.clocks import deadline
from shogames.server.computer import ComputerLimits, Think, computer_move
from shogames.server.errors import StaleError
from shogames.server.live import AI, LiveGame
from shogames.server.snapshots import Snapshots
from shogames.server.sync import GameSync

logger = logging.getLogger("shogames.server")


class GameDriver:
    """Moves games on by themselves: computer players, clocks running out, dice due after a restart.

    Args:
        sync: commits changes and brings copies up to date.
        snapshots: tells the players.
        limits: what a computer player may spend on a move.
        think: how computer players choose (may be replaced before games start).
        rng: the random source of chance outcomes and computer players' seeds.
        now: the clock (UTC wall time).
    """

    def __init__(
        self,
        sync: GameSync,
        snapshots: Snapshots,
        *,
        limits: ComputerLimits,
        think: Think,
        rng: random.Random,
        now: Callable[[], datetime.datetime],
    ) -> None:
        self.sync = sync
        self.snapshots = snapshots
        self.limits = limits
        self.think = think
        self.rng = rng
        self.now = now
        self.closed = False
        """Set when the service closes: no computer move or timer starts after that."""

    async def finish(self, live: LiveGame, *, resigned: int | None, termination: str) -> None:
        """End an unfinished game by resignation, loss on time or an agreed draw; call with the lock held.

        ``resigned`` is the seat that resigned or lost on time; ``None`` with termination ``agreement``.

        Raises:
            StaleError: another process changed the game first (this copy was brought up to date).
        """
        await self.sync.commit(live, finish_change(live, resigned, termination, self.now()))
        logger.info("game %s finished: %s (%s)", live.id, live.result, live.termination)

    async def flag_if_late(self, live: LiveGame) -> bool:
        """End the game on time if the mover's time has run out; call with the lock held."""
        running = deadline(live)
        if running is None or self.now() < running[1]:
            return False
        try:
            await self.finish(live, resigned=running[0], termination="time forfeit")
        except StaleError:
            return not live.is_active
        return True

    @staticmethod
    def stop_computer(live: LiveGame) -> None:
        """Stop a computer player still thinking in the game (its worker is ended)."""
        if live.ai_task is not None:
            live.ai_task.cancel()
            live.ai_task = None

    def after_event(self, live: LiveGame) -> None:
        """Start the computer's move if a computer seat is to move, and set the timer of the running clock."""
        if self.closed:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        running = deadline(live)
        if running is not None:
            live.timer = asyncio.create_task(self._flag_at(live, running[1]))
        mover = live.state.to_move
        if (
            live.is_active
            and mover is not None
            and mover != CHANCE
            and live.seats[mover].kind == AI
            and (live.ai_task is None or live.ai_task.done())
        ):
            live.ai_task = asyncio.create_task(self._computer_plays(live))

    async def resume(self, live: LiveGame) -> None:
        """Bring a game loaded after a restart (or from a dead process) back to life.

        Throws dice that are due, ends the game if its time ran out, restarts its computer player and its
        clock timer.
        """
        async with live.lock:
            await self.sync.catch_up(live)
            if live.is_active and live.state.to_move == CHANCE:
                logger.warning("game %s had dice due with nobody to throw them: thrown now", live.id)
                with contextlib.suppress(StaleError):
                    await self.sync.commit(live, play_change(live, [], self.now(), self.rng))
            await self.flag_if_late(live)
        self.after_event(live)

    async def flag_late(self, live: LiveGame) -> None:
        """End the game on time if its time ran out (the sweep finds such games in the database)."""
        async with live.lock:
            await self.sync.catch_up(live)
            flagged = await self.flag_if_late(live)
        if flagged:
            self.after_event(live)

    async def _flag_at(self, live: LiveGame, when: datetime.datetime) -> None:
        delay = (when - self.now()).total_seconds()
        await asyncio.sleep(max(0.0, delay) + 0.05)
        async with live.lock:
            await self.sync.catch_up(live)
            flagged = await self.flag_if_late(live)
        if flagged:
            live.timer = None
            if live.ai_task is not None:
                live.ai_task.cancel()

    async def _computer_plays(self, live: LiveGame) -> None:
        """Let the computer seat to move choose (outside the event loop); play its move if nothing changed."""
        version, seat = live.version, live.state.to_move
        assert seat is not None
        move, notice = await computer_move(live, self.think, self.limits, self.rng)
        async with live.lock:
            if live.version != version or not live.is_active:
                return
            if await self.flag_if_late(live):
                return
            try:
                await self.sync.commit(live, play_change(live, [(move, seat)], self.now(), self.rng))
            except StaleError:
                return
            if notice is not None:
                self.snapshots.tell(live, notice)
        live.ai_task = None
        self.after_event(live)
