"""The games in the database, read and written, and the service clock that says when a server was alive.

Each change is written against the version this process holds.

A change is written in one transaction that raises the game's version by one, but only if the database
still holds the version this process started from (:meth:`GameStore.write`); on PostgreSQL the same
transaction announces ``game_id:version`` on :data:`NOTIFY_CHANNEL` (:mod:`shogames.server.events`).
SQLite has one writer at a time, so writes are queued here rather than left to its busy-wait.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import math
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, Final

from sqlalchemy import delete as sql_delete
from sqlalchemy import exc as sql_errors
from sqlalchemy import func, insert, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from shogames.core.errors import ShogamesError
from shogames.core.protocol import State
from shogames.core.registry import make
from shogames.core.settings import parse_settings_text
from shogames.server.changes import WAITING_AI, WAITING_CHANCE, Change, event_payload
from shogames.server.db import GameRow, MoveRow, SeatRow, ServiceClockRow, utc_now
from shogames.server.errors import DatabaseFullError, ServiceError, StaleError, is_disk_full
from shogames.server.live import LiveGame, Ply, Seat, TimeControl

logger = logging.getLogger("shogames.server")

NOTIFY_CHANNEL: Final = "shogames_games"
"""The PostgreSQL channel on which every commit announces ``game_id:version``."""


def aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    """A stored moment with its time zone: SQLite gives back naive datetimes, which were stored in UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.UTC)
    return moment


class GameStore:
    """Reads and writes the server's games in the database.

    Args:
        sessions: the database's session factory (:func:`shogames.server.db.open_database`).
        now: the clock (UTC wall time), for the moments stored.
    """

    def __init__(self, sessions: async_sessionmaker[Any], now: Callable[[], datetime.datetime]) -> None:
        self.sessions = sessions
        self.now = now
        bind = getattr(sessions, "kw", {}).get("bind")
        self.dialect: str = bind.dialect.name if bind is not None else "sqlite"
        # SQLite has one writer at a time: queueing writes here beats its busy-wait on a locked file.
        self._serialize_writes = self.dialect == "sqlite"
        self._write_lock = asyncio.Lock()
        self._full_logged = -math.inf  # when a full disk was last logged (time.monotonic)
        self._full_since_log = 0

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """A database session.

        A database that cannot be reached, or has no connection free in time, is a 503 that says so: the
        request changed nothing and may be sent again.
        """
        try:
            async with self.sessions() as session:
                yield session
        except (sql_errors.TimeoutError, sql_errors.OperationalError, sql_errors.InterfaceError) as error:
            first_line = str(error).splitlines()[0][:200]
            if is_disk_full(error):
                now = time.monotonic()
                self._full_since_log += 1
                if now - self._full_logged >= 60:  # once a minute while it lasts, not on every write
                    logger.error(
                        "the database's disk is full (%d writes refused since the last report): %s",
                        self._full_since_log,
                        first_line,
                    )
                    self._full_logged, self._full_since_log = now, 0
                raise DatabaseFullError() from None
            logger.error("the database did not answer: %s", first_line)
            raise ServiceError(
                503, "the server is busy (its database did not answer in time); nothing changed, try again"
            ) from None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction, committed when the block ends (rolled back if it raises)."""
        async with contextlib.AsyncExitStack() as stack:
            if self._serialize_writes:
                await stack.enter_async_context(self._write_lock)
            session = await stack.enter_async_context(self.session())
            await stack.enter_async_context(session.begin())
            yield session

    # --- Games ------------------------------------------------------------------------------------------

    async def insert(self, live: LiveGame, change: Change) -> None:
        """Store a new game with its seats and its first change (the toss, or the first dice): version 1."""
        async with self.transaction() as session:
            session.add(
                GameRow(
                    id=live.id,
                    game=live.game.id,
                    settings=live.game.settings_text(),
                    preset=live.preset,
                    start_position=live.start_position,
                    mode=live.mode,
                    status="active",
                    result="*",
                    termination="unterminated",
                    version=0,
                    time_control=live.time_control.as_json() if live.time_control else None,
                    clock_ms=live.clock_ms,
                    turn_started=live.turn_started,
                    created_at=live.created_at,
                    updated_at=live.updated_at,
                    seats=[
                        SeatRow(seat=s.seat, name=s.name, kind=s.kind, agent=s.agent, token=s.token)
                        for s in live.seats
                    ],
                )
            )
            await session.flush()
            live.version = 0
            await self.write(session, live, change)

    async def write(self, session: AsyncSession, live: LiveGame, change: Change) -> None:
        """Write a change in an open transaction, against the version this process holds.

        Raises:
            StaleError: the database holds another version; the transaction is rolled back by the caller.
        """
        now = self.now()
        keep = change.kept(live)
        # Core statements (no ORM bookkeeping): this runs for every move.
        result = await session.execute(
            update(GameRow.__table__)  # type: ignore[arg-type]
            .where(GameRow.id == live.id, GameRow.version == live.version)
            .values(
                version=live.version + 1,
                clock_ms=change.clock_ms,
                turn_started=change.turn_started,
                status=change.status,
                result=change.result,
                termination=change.termination,
                updated_at=now,
                deadline=change.deadline(live),
                waiting=change.waiting(live),
                draw_offer=change.draw_offer,
            )
        )
        if getattr(result, "rowcount", 1) != 1:
            raise StaleError
        if change.truncate_to is not None:
            await session.execute(
                sql_delete(MoveRow).where(MoveRow.game_id == live.id, MoveRow.ply > change.truncate_to)
            )
        if change.plies:
            await session.execute(
                insert(MoveRow.__table__),  # type: ignore[arg-type]
                [
                    {
                        "game_id": live.id,
                        "ply": keep + offset + 1,
                        "text": ply.text,
                        "seat": ply.mover,
                        "clock_ms": clock,
                        "played_at": now,
                    }
                    for offset, (ply, clock) in enumerate(zip(change.plies, change.move_clocks, strict=True))
                ],
            )
        if self.dialect == "postgresql":
            await session.execute(
                sql_text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": event_payload(live, change, now)},
            )

    async def load(self, game_id: str) -> LiveGame:
        """Read a game and replay its moves.

        Raises:
            ServiceError: no game has this id (404).
        """
        async with self.session() as session:
            row = await session.get(
                GameRow, game_id, options=[selectinload(GameRow.seats), selectinload(GameRow.moves)]
            )
        if row is None:
            raise ServiceError(404, f"no game {game_id!r} on this server")
        return _live_from_row(row)

    async def read_if_newer(self, game_id: str, version: int) -> GameRow | None:
        """The game's row with its moves if the database holds a version other than ``version``."""
        async with self.session() as session:
            stored = await session.scalar(select(GameRow.version).where(GameRow.id == game_id))
            if stored is None or stored == version:
                return None
            return await session.get(
                GameRow, game_id, options=[selectinload(GameRow.moves)], populate_existing=True
            )

    async def list_games(self, status: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games with this status (``active`` or ``finished``), newest first, for the home page."""
        async with self.session() as session:
            rows = (
                await session.scalars(
                    select(GameRow)
                    .where(GameRow.status == status)
                    .options(selectinload(GameRow.seats))
                    .order_by(GameRow.updated_at.desc())
                    .limit(limit)
                )
            ).all()
            plies = await session.execute(
                select(MoveRow.game_id, func.count())
                .where(MoveRow.game_id.in_([row.id for row in rows]))
                .group_by(MoveRow.game_id)
            )
            counts: dict[str, int] = {game_id: count for game_id, count in plies}
        games = []
        for row in rows:
            try:
                game = make(row.game)
                name = game.name
            except ShogamesError:
                name = row.game
            games.append(
                {
                    "id": row.id,
                    "game": row.game,
                    "name": name,
                    "mode": row.mode,
                    "players": [seat.name for seat in row.seats],
                    "plies": counts.get(row.id, 0),
                    "result": row.result,
                    "termination": row.termination,
                    "updated_at": aware(row.updated_at),
                }
            )
        return games

    async def due_games(self) -> list[str]:
        """The active games that go on by themselves: a computer or the dice to move, or a clock running."""
        async with self.session() as session:
            return list(
                (
                    await session.scalars(
                        select(GameRow.id).where(
                            GameRow.status == "active",
                            (GameRow.waiting.in_([WAITING_AI, WAITING_CHANCE]))
                            | GameRow.waiting.is_(None)
                            | GameRow.deadline.is_not(None),
                        )
                    )
                ).all()
            )

    async def late_and_orphaned(
        self, now: datetime.datetime, stale: datetime.datetime
    ) -> tuple[list[str], list[str]]:
        """The active games whose clock ran out by ``now``, and those no process drives.

        A game no process drives has dice due, or a computer seat to move and nothing written since ``stale``.
        """
        async with self.session() as session:
            late = (
                await session.scalars(
                    select(GameRow.id).where(GameRow.status == "active", GameRow.deadline <= now)
                )
            ).all()
            orphans = (
                await session.scalars(
                    select(GameRow.id).where(
                        GameRow.status == "active",
                        (GameRow.waiting == WAITING_CHANCE)
                        | ((GameRow.waiting == WAITING_AI) & (GameRow.updated_at < stale)),
                    )
                )
            ).all()
        return list(late), list(orphans)

    # --- The service clock ------------------------------------------------------------------------------

    async def heartbeat(self) -> None:
        """Mark a server process alive now (the service clock)."""
        async with self.transaction() as session:
            await session.execute(
                update(ServiceClockRow).where(ServiceClockRow.id == 1).values(alive_at=self.now())
            )

    async def credit_downtime(self, grace: datetime.timedelta) -> None:
        """Move every running clock forward by the time no server process was alive.

        The service clock row holds when a process was last seen alive (the sweep refreshes it every
        second). If that, or the game's last event if later, is older than ``grace``, the service was
        down since then: the player's turn starts that much later, so nobody loses time (or a game) to
        the downtime.
        """
        now = self.now()
        credited = 0
        async with self.transaction() as session:
            row = await session.get(ServiceClockRow, 1, with_for_update=True)
            if row is None:  # the migration adds the row; a database that lost it gets it back
                await session.execute(
                    insert(ServiceClockRow.__table__).prefix_with("OR IGNORE")  # type: ignore[arg-type]
                    if self.dialect == "sqlite"
                    else pg_insert(ServiceClockRow.__table__).on_conflict_do_nothing(),  # type: ignore[arg-type]
                    {"id": 1, "alive_at": now},
                )
                return
            alive_at = aware(row.alive_at) or now
            row.alive_at = now
            if now - alive_at <= grace:
                return
            games = (
                await session.scalars(
                    select(GameRow).where(GameRow.status == "active", GameRow.turn_started.is_not(None))
                )
            ).all()
            for game in games:
                if game.time_control is None:
                    continue
                gap = now - max(alive_at, aware(game.updated_at) or alive_at)
                if gap <= grace:
                    continue
                game.turn_started = (aware(game.turn_started) or now) + gap
                if game.deadline is not None:
                    game.deadline = (aware(game.deadline) or now) + gap
                credited += 1
        logger.info(
            "the service was down for %.1f s: %d running clocks were credited",
            (now - alive_at).total_seconds(),
            credited,
        )


def replay(start: State[Any], rows: list[MoveRow]) -> list[Ply]:
    """The plies of stored moves, played from ``start``."""
    plies: list[Ply] = []
    state = start
    for move_row in rows:
        ply = Ply.played(state, state.parse_move(move_row.text), move_row.seat, move_row.text)
        plies.append(ply)
        state = ply.after
    return plies


def _live_from_row(row: GameRow) -> LiveGame:
    cls = make(row.game).__class__
    game = make(row.game, None, **parse_settings_text(cls.setting_specs, row.settings))
    start = game.state_from_text(row.start_position) if row.start_position else game.new_initial_state()
    return LiveGame(
        id=row.id,
        game=game,
        preset=row.preset,
        mode=row.mode,
        seats=[Seat(s.seat, s.name, s.kind, s.agent, s.token) for s in row.seats],
        status=row.status,
        result=row.result,
        termination=row.termination,
        version=row.version,
        time_control=TimeControl.from_json(row.time_control),
        clock_ms=list(row.clock_ms) if row.clock_ms is not None else None,
        turn_started=aware(row.turn_started),
        created_at=aware(row.created_at) or utc_now(),
        updated_at=aware(row.updated_at) or utc_now(),
        start=start,
        start_position=row.start_position,
        plies=replay(start, list(row.moves)),
        draw_offer=row.draw_offer,
    )
