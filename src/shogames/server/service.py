"""The games the server runs: :class:`GameService`, which the web routes call, and the parts it is made of.

Each part answers one question:

* :mod:`~shogames.server.live`: what a game in play is (its seats, clock, and one list of plies);
* :mod:`~shogames.server.creation`: a new game as asked for, checked;
* :mod:`~shogames.server.actions`: what a person may do in a game, and why it is refused;
* :mod:`~shogames.server.changes`: what one event does to a game (with the chance outcomes it makes due);
* :mod:`~shogames.server.storage`: the games in the database, and the service clock;
* :mod:`~shogames.server.sync`: keeping this process's copy in step with other processes;
* :mod:`~shogames.server.memory`: which games are in memory (loading and eviction);
* :mod:`~shogames.server.clocks`: the players' clocks;
* :mod:`~shogames.server.computer`: computer players, their limits and their moves;
* :mod:`~shogames.server.driver`: what happens without a person acting (computer moves, loss on time);
* :mod:`~shogames.server.snapshots`: what clients are sent;
* :mod:`~shogames.server.sweep`: the sweep every second, and starting up.

Each game in use is held in memory with an :class:`asyncio.Lock`, so that the events of one game are
applied one at a time in this process (lila's one actor per game). A move is checked by the rules
(:meth:`State.parse_move`), then written to the database **together with every chance outcome it makes due**
in one transaction, which also raises the game's *version* by one, but only if the database still holds the
version this process started from. Only after the commit is the move applied in memory and announced. So a
restart loses no accepted move, and several server processes (``shogames serve --workers N``, or several
machines) can share one database.

The server holds no rules: everything about the game comes from the protocol and the records module.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import random
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy.ext.asyncio import async_sessionmaker

from shogames.records import Record
from shogames.server import snapshots
from shogames.server.actions import PersonActions
from shogames.server.changes import RemoteEvent, apply, play_change
from shogames.server.computer import ComputerLimits, Think, choose_move, think_in_thread
from shogames.server.creation import MODES, new_game
from shogames.server.db import utc_now
from shogames.server.driver import GameDriver
from shogames.server.errors import DatabaseFullError, ServiceError, is_disk_full
from shogames.server.live import (
    AI,
    FISCHER,
    PER_MOVE,
    PERSON,
    LiveGame,
    Ply,
    Seat,
    SeatRequest,
    TimeControl,
    result_text,
)
from shogames.server.memory import LiveGames
from shogames.server.snapshots import Snapshots, position_step
from shogames.server.storage import NOTIFY_CHANNEL, GameStore
from shogames.server.sweep import Sweeper
from shogames.server.sync import GameSync

__all__ = [
    "AI",
    "FISCHER",
    "MODES",
    "NOTIFY_CHANNEL",
    "PERSON",
    "PER_MOVE",
    "ComputerLimits",
    "DatabaseFullError",
    "GameService",
    "LiveGame",
    "Ply",
    "Seat",
    "SeatRequest",
    "ServiceError",
    "Think",
    "TimeControl",
    "choose_move",
    "is_disk_full",
    "position_step",
    "result_text",
]


class GameService:
    """Creates, loads and plays the server's games; the web routes call it and nothing else.

    Args:
        sessions: the database's session factory (:func:`shogames.server.db.open_database`).
        rng: the random source of chance outcomes and AI seeds; the system's by default.
        now: the clock, for tests that move time by hand; UTC wall time by default.
        think: how computer players choose (:data:`~shogames.server.computer.Think`); by default in a
            thread of this process. The app passes one that runs them in worker processes.
        limits: what a computer player may spend on a move.
        shared: whether other processes may write the same database (then every action first checks the
            version the database holds); by default, when the database is not SQLite.
        idle_seconds: a game nobody has used for this long leaves memory (it is loaded again on use).
        finished_seconds: likewise for a finished game.
        sweep_seconds: how often the sweep runs (0 for never, for tests that drive it by hand).
    """

    def __init__(
        self,
        sessions: async_sessionmaker[Any],
        *,
        rng: random.Random | None = None,
        now: Callable[[], datetime.datetime] = utc_now,
        think: Think | None = None,
        limits: ComputerLimits | None = None,
        shared: bool | None = None,
        idle_seconds: float = 300.0,
        finished_seconds: float = 30.0,
        sweep_seconds: float = 1.0,
    ) -> None:
        self.rng = rng or random.SystemRandom()
        self.now = now
        self.limits = limits or ComputerLimits()
        self.store = GameStore(sessions, now)
        self.dialect = self.store.dialect
        self.shared = self.dialect != "sqlite" if shared is None else shared
        self.snapshots = Snapshots(now)
        self.sync = GameSync(self.store, self.snapshots.publish, shared=self.shared, now=now)
        self.games = LiveGames(self.store, idle_seconds=idle_seconds, finished_seconds=finished_seconds)
        self.live = self.games.games
        self.driver = GameDriver(
            self.sync,
            self.snapshots,
            limits=self.limits,
            think=think or think_in_thread(self.limits),
            rng=self.rng,
            now=now,
        )
        self.actions = PersonActions(
            self.games, self.sync, self.driver, self.snapshots, rng=self.rng, now=now
        )
        self.sweeper = Sweeper(
            self.store, self.games, self.driver, limits=self.limits, seconds=sweep_seconds, now=now
        )

    @property
    def sessions(self) -> async_sessionmaker[Any]:
        """The database's session factory (tests replace it to play a database in trouble)."""
        return self.store.sessions

    @sessions.setter
    def sessions(self, sessions: async_sessionmaker[Any]) -> None:
        self.store.sessions = sessions

    @property
    def think(self) -> Think:
        """How computer players choose; the app sets its own (worker processes) before the service starts."""
        return self.driver.think

    @think.setter
    def think(self, think: Think) -> None:
        self.driver.think = think

    # --- Life cycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving: credit clocks for downtime, resume the games that were due, start the sweep."""
        await self.sweeper.start()

    async def close(self) -> None:
        """Stop the sweep, every computer move and clock timer in flight (what was committed stays)."""
        self.driver.closed = True
        tasks = [task for live in self.live.values() for task in (live.ai_task, live.timer) if task]
        if self.sweeper.task is not None:
            tasks.append(self.sweeper.task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def sweep(self) -> None:
        """Mark this process alive; flag late players; take over due games no one drives; evict idle ones."""
        await self.sweeper.sweep()

    def evict(self) -> int:
        """Drop from memory the games nobody watches or drives that were idle long enough; how many."""
        return self.games.evict()

    # --- Creating and loading --------------------------------------------------------------------------

    async def create(
        self,
        game_id: str,
        *,
        preset: str | None = None,
        settings: str = "",
        seats: Sequence[SeatRequest],
        time_control: TimeControl | None = None,
        mode: str | None = None,
        position: str | None = None,
    ) -> LiveGame:
        """Create a game and store it; returns it with every person's secret token.

        Args:
            game_id: the game.
            preset: a named ruleset or variant of the game.
            settings: ``name=value`` pairs separated by spaces, over the preset.
            seats: who plays each seat, in seat order.
            time_control: the clock, if any.
            mode: ``computer``, ``hotseat`` or ``online`` (derived from the seats if not given).
            position: a position in the game's text to start from, instead of the initial state.

        Raises:
            ServiceError: an unknown game, preset, setting or AI level, an agent spec past the server's
                limits, the wrong number of seats, a bad name, clock or position, or a position where the
                game is already over (400).
        """
        live = new_game(
            game_id,
            preset=preset,
            settings=settings,
            seats=seats,
            time_control=time_control,
            mode=mode,
            position=position,
            limits=self.limits,
            now=self.now(),
        )
        # The toss, or the first dice, are thrown in the same commit.
        change = play_change(live, [], self.now(), self.rng)
        await self.store.insert(live, change)
        apply(live, change, self.now())
        self.snapshots.publish(live)
        self.games.add(live)
        self.driver.after_event(live)
        return live

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id, loaded from the database (and replayed) on first use.

        Raises:
            ServiceError: no game has this id (404).
        """
        return await self.games.get(game_id)

    async def fresh(self, game_id: str) -> LiveGame:
        """The game, brought up to date with the database first when other processes share it."""
        live = await self.get(game_id)
        if self.shared:
            async with live.lock:
                await self.sync.catch_up(live)
        return live

    async def on_remote_event(self, game_id: str, version: int, event: RemoteEvent | None = None) -> None:
        """Another process committed ``version`` of a game: bring this copy and its listeners up to date.

        Called by the PostgreSQL listener (:mod:`shogames.server.events`). With the change itself
        (``event``), a copy at the version before it applies it as it is; otherwise it reads the game.
        """
        live = self.live.get(game_id)
        if live is None or live.version >= version:
            return
        async with live.lock:
            if live.version >= version:
                return
            if event is None or not self.sync.apply_remote(live, event):
                await self.sync.catch_up(live)

    async def list_games(self, status: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games with this status (``active`` or ``finished``), newest first, for the home page."""
        return await self.store.list_games(status, limit)

    # --- Playing --------------------------------------------------------------------------------------

    async def play(self, game_id: str, text: str, token: str | None, version: int | None = None) -> LiveGame:
        """Play a person's move given in the game's notation, with the secret token of the seat to move.

        Args:
            game_id: the game.
            text: the move in the game's notation.
            token: the secret token of the seat that moves.
            version: the version the client saw; if given and the game has moved on since, the move is
                refused rather than played in a position the person did not see.

        Raises:
            ServiceError: no such game (404); no token or a token of no seat here (403); the game is
                over, it is not that seat's turn, or the version is stale (409); the move is malformed or
                illegal (400). In every case the game is left exactly as it was.
        """
        return await self.actions.play(game_id, text, token, version)

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The seat of ``token`` resigns: it scores 0 and the other seats share the point.

        Raises:
            ServiceError: no such game (404), a missing or wrong token (403), the game is over (409).
        """
        return await self.actions.resign(game_id, token)

    async def draw(self, game_id: str, token: str | None, accept: bool | None = None) -> LiveGame:
        """Offer, accept, decline or withdraw a draw, for the seat of ``token`` in a two-player game.

        ``accept`` ``None`` offers a draw (or, if the other seat already offers one, accepts it, as on
        lichess); ``True`` accepts the other seat's offer, and the game ends drawn (every seat the same
        return, Termination ``agreement``); ``False`` declines the other seat's offer or withdraws one's
        own. An offer also lapses when the offerer's opponent moves. Each change is an event with a new
        version. A computer player declines every offer at once (a notice says so; nothing is stored).

        Raises:
            ServiceError: no such game (404), a missing or wrong token (403); a game of more than two
                seats, a finished game, an offer already made, or no offer to answer (409).
        """
        return await self.actions.draw(game_id, token, accept)

    async def takeback(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token's seat's last move, and every move after it, against the computer or hot-seat.

        The position goes back to where that seat was to move before its last move, the same dice
        included (a takeback does not re-throw).

        Raises:
            ServiceError: no such game (404), a wrong token (403), a game with no AI seat that is not
                played hot-seat (online players must agree, which this does not ask), a finished game or
                nothing to take back (409).
        """
        return await self.actions.takeback(game_id, token)

    # --- What clients are sent -------------------------------------------------------------------------

    def subscribe(self, live: LiveGame) -> asyncio.Queue[dict[str, Any]]:
        """A queue that receives the game's snapshot after every event, until :meth:`unsubscribe`."""
        return snapshots.subscribe(live)

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending events to ``queue``."""
        snapshots.unsubscribe(live, queue)

    def snapshot(self, live: LiveGame) -> dict[str, Any]:
        """Everything a client shows: the game, seats, position, legal moves, move list, clock and result.

        Made once per version (the clock, which changes with time, is added fresh). Never contains a token.
        """
        return self.snapshots.snapshot(live)

    def position_at(self, live: LiveGame, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves (0 for the start), to step through the game.

        Raises:
            ServiceError: no such ply (404).
        """
        return snapshots.position_at(live, ply)

    def record(self, live: LiveGame) -> Record:
        """The game's record: headers (with the time control), every move and dice throw, the result."""
        return snapshots.record(live)

    def record_text(self, live: LiveGame) -> str:
        """The record as text (``shogames replay`` reads it)."""
        return snapshots.record_text(live)
