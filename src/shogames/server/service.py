"""The games the server runs: creating them, playing moves, clocks, computer players and events.

Each game in use is held in memory as its states, with an :class:`asyncio.Lock` so that the moves of one
game are applied one at a time in this process (lila's one actor per game). A move is checked by the
rules (:meth:`State.parse_move`), then written to the database **together with every chance outcome it
makes due** (the dice after it, the toss) in one transaction, which also raises the game's *version* by
one, but only if the database still holds the version this process started from. Only after the commit
is the move applied in memory and announced. So:

* a restart loses no accepted move, and never finds a game with dice due and nobody to throw them;
* several server processes (``shogames serve --workers N``, or several machines) can share one database:
  a move is accepted only against the version the database holds, and a process whose copy is stale
  brings it up to date from the database first (:meth:`GameService._sync`). On PostgreSQL each commit
  also sends a notification (``LISTEN``/``NOTIFY``) so that every process brings its copy up to date and
  tells its WebSocket listeners at once (:mod:`shogames.server.events`).

Every event (a move with its chance outcomes, a takeback, a resignation, a loss on time) adds one to the
version, and every announcement is a full snapshot carrying it, so a client that reconnects with an old
version catches up with one message.

Chance outcomes are drawn by the server with exactly their probabilities from a system random source and
stored as moves. Computer players think outside the event loop (in worker processes when the app gives a
:class:`~shogames.server.workers.WorkerPool`), with budgets the server bounds (:class:`ComputerLimits`).

A *sweep* runs every second in each process: it marks the process alive (the service clock, so that a
restart charges no player for the time the service was down), flags players whose time ran out, takes over
games whose computer player or dice are due and that no process is driving (after a crash), and evicts
idle and finished games from memory, so that memory stays flat however many games are played.

The server holds no rules: everything about the game comes from the protocol and the records module.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import logging
import math
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import delete as sql_delete
from sqlalchemy import exc as sql_errors
from sqlalchemy import func, insert, select, update
from sqlalchemy import text as sql_text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from shogames.agents import make_agent
from shogames.agents.base import agent_parameters, level_names, parse_agent_spec
from shogames.core.chance import sample_chance
from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import make
from shogames.core.settings import parse_settings_text
from shogames.records import (
    AGREEMENT,
    Record,
    finish_record,
    result_for,
    start_position_text,
    start_record,
    write_record,
)
from shogames.server.db import GameRow, MoveRow, SeatRow, ServiceClockRow, utc_now
from shogames.server.views import last_move_targets, legal_move_views, move_note, views_for

logger = logging.getLogger("shogames.server")

PERSON: Final = "person"
"""Seat kind of a person, who moves with the seat's secret token."""
AI: Final = "ai"
"""Seat kind of the computer, which plays an AI level or agent spec."""

FISCHER: Final = "fischer"
"""Clock kind: a time bank per seat with an increment after each of its moves (a chess clock)."""
PER_MOVE: Final = "per_move"
"""Clock kind: at most so long for each move, or the game is lost (the designers' rule for Shoo)."""

WAITING_PERSON: Final = "person"
"""``games.waiting`` when a person's seat is to move."""
WAITING_AI: Final = "ai"
"""``games.waiting`` when a computer seat is to move."""
WAITING_CHANCE: Final = "chance"
"""``games.waiting`` when the dice (or the toss) are due: only ever seen after a crash of an old server."""

NOTIFY_CHANNEL: Final = "shogames_games"
"""The PostgreSQL channel on which every commit announces ``game_id:version``."""

MAX_NAME = 40


class ServiceError(Exception):
    """A request the server refuses, with an HTTP status and a message saying what was wrong.

    Args:
        status: 400 bad request, 403 no right to do it, 404 no such game, 409 not possible now.
        message: what was wrong and what is expected.
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class DatabaseFullError(ServiceError):
    """The database has no room left for a write (its disk is full): 503, and nothing changed."""

    def __init__(self) -> None:
        super().__init__(
            503,
            "the server's database has no room left (its disk is full): nothing changed; games can still be "
            "read, and moves can be made again once there is room",
        )


def is_disk_full(error: BaseException) -> bool:
    """Whether a database error says that the disk (or the database's room) is full.

    SQLite says ``database or disk is full`` (SQLITE_FULL); PostgreSQL raises SQLSTATE 53100
    (``disk_full``) or reports ``No space left on device``.
    """
    cause = getattr(error, "orig", None) or error
    text = str(cause)
    return (
        getattr(cause, "sqlite_errorcode", None) == 13  # SQLITE_FULL
        or getattr(cause, "sqlstate", None) == "53100"
        or "database or disk is full" in text
        or "No space left on device" in text
    )


class _StaleError(Exception):
    """The database holds a newer version of the game than this process did: nothing was written."""


@dataclass(frozen=True)
class ComputerLimits:
    """What the server lets a computer player spend on one move, whoever asks for it.

    A seat may be played by any level, or by an agent spec whose parameters stay within these bounds.
    Every agent that takes a time budget also gets ``seconds=max_seconds`` unless its spec sets less, so
    that no computer player thinks longer than that, and a move that takes longer still (a stuck worker)
    is abandoned after ``max_seconds + grace_seconds``: the seat then plays a random move, and the players
    are told.

    Attributes:
        max_seconds: the most time one move may take.
        max_work: the largest value of each work parameter (``iterations``, ``nodes``, ``depth``, ...).
        grace_seconds: how long past ``max_seconds`` a move may run before it is abandoned.
    """

    max_seconds: float = 5.0
    max_work: dict[str, int] = field(
        default_factory=lambda: {
            "iterations": 10_000,
            "nodes": 200_000,
            "depth": 8,
            "plies": 4,
            "rollout": 200,
        }
    )
    grace_seconds: float = 10.0

    def check(self, spec: str, game_id: str) -> str:
        """Check a seat's level or agent spec against the limits; returns the spec the server will run.

        Raises:
            ServiceError: an unknown agent or level, an unknown or malformed parameter, or a value out of
                range or past these limits (400), with the bounds in the message.
        """
        try:
            make_agent(spec, seed=0, game=game_id)
            name, params = parse_agent_spec(spec)
        except (ShogamesError, ValueError) as error:
            raise ServiceError(400, str(error)) from None
        if name in level_names():
            return spec
        kinds = agent_parameters(name)
        for key, value_text in params.items():
            if kinds.get(key) not in (int, float):
                continue
            value = float(value_text)
            if key == "seconds" and not 0 < value <= self.max_seconds:
                raise ServiceError(
                    400, f"agent {name!r}: seconds must be more than 0 and at most {self.max_seconds:g} here"
                )
            bound = self.max_work.get(key)
            if bound is not None and kinds.get(key) is int and value > bound:
                raise ServiceError(400, f"agent {name!r}: {key} may be at most {bound} on this server")
        return spec

    def budget(self) -> dict[str, str]:
        """The time budget given to every agent that takes one and whose spec sets none."""
        return {"seconds": f"{self.max_seconds:g}"}


@dataclass(frozen=True)
class SeatRequest:
    """How one seat is played in a game to be created.

    Attributes:
        kind: :data:`PERSON` or :data:`AI`.
        name: the player's name for the record (a person's choice; the level for an AI by default).
        agent: for an AI seat, a level (``hard``) or an agent spec (``mcts:iterations=500``).
    """

    kind: str
    name: str | None = None
    agent: str | None = None


@dataclass(frozen=True)
class TimeControl:
    """A clock: :data:`FISCHER` (``initial_ms``, ``increment_ms``) or :data:`PER_MOVE` (``limit_ms``)."""

    kind: str
    initial_ms: int = 0
    increment_ms: int = 0
    limit_ms: int = 0

    def header(self) -> str:
        """The TimeControl header as PGN writes it: ``300+2`` (seconds), or ``1/60`` (a move a minute)."""
        if self.kind == FISCHER:
            return f"{self.initial_ms // 1000}+{self.increment_ms // 1000}"
        return f"1/{self.limit_ms // 1000}"

    def as_json(self) -> dict[str, Any]:
        """The time control as stored and sent to clients."""
        return {
            "kind": self.kind,
            "initial_ms": self.initial_ms,
            "increment_ms": self.increment_ms,
            "limit_ms": self.limit_ms,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TimeControl | None:
        """Read a stored time control (``None`` for a game without a clock)."""
        if not data:
            return None
        return cls(data["kind"], data["initial_ms"], data["increment_ms"], data["limit_ms"])


@dataclass
class Seat:
    """One seat of a live game."""

    seat: int
    name: str
    kind: str
    agent: str | None
    token: str | None


@dataclass
class LiveGame:
    """A game held in memory: its settings, seats, every state from the start, its clock and listeners."""

    id: str
    game: Game[Any]
    preset: str | None
    mode: str
    seats: list[Seat]
    status: str
    result: str
    termination: str
    version: int
    time_control: TimeControl | None
    clock_ms: list[int] | None
    turn_started: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    states: list[State[Any]]
    start_position: str | None = None
    moves: list[Any] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    ai_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    notice: str | None = None
    """Something the players should know that is not a move: a computer player that failed, say."""
    touched: float = 0.0
    """When (the event loop's clock) the game was last used in this process, for eviction."""
    cached: tuple[int, dict[str, Any]] | None = None
    """The snapshot without its clock, and the version it was made at."""
    notes: list[tuple[State[Any], str | None]] = field(default_factory=list)
    """Each move's note with the state after it, computed once (:meth:`GameService._notes`)."""
    draw_offer: int | None = None
    """The seat that offers a draw, until the other seat answers it or moves (:meth:`GameService.draw`)."""

    @property
    def state(self) -> State[Any]:
        """The current position."""
        return self.states[-1]

    @property
    def is_active(self) -> bool:
        """Whether the game is still being played."""
        return self.status == "active"

    def seat_of_token(self, token: str | None) -> Seat | None:
        """The person's seat whose secret token this is, if any.

        Any text is accepted (an unknown or non-ASCII one matches no seat); tokens are compared as UTF-8
        bytes, in constant time.
        """
        if not token or not isinstance(token, str):
            return None
        given = token.encode("utf-8", "surrogatepass")
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token.encode(), given):
                return seat
        return None


def _new_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def _aware(moment: datetime.datetime | None) -> datetime.datetime | None:
    """SQLite gives back naive datetimes: they were stored in UTC."""
    if moment is not None and moment.tzinfo is None:
        return moment.replace(tzinfo=datetime.UTC)
    return moment


def result_text(game: Game[Any], result: str, termination: str) -> str:
    """The outcome in words: ``Black wins (resignation)``, ``Draw (normal)``, or the scores."""
    if result == "*":
        return "in progress" if termination == "unterminated" else termination
    scores = result.split("-")
    winners = [name for name, score in zip(game.player_names, scores, strict=False) if score == "1"]
    if len(winners) == 1:
        text = f"{winners[0]} wins"
    elif len(set(scores)) == 1:
        text = "Draw"
    else:
        best = max(scores, key=lambda score: score_value(score))
        leaders = [name for name, score in zip(game.player_names, scores, strict=False) if score == best]
        text = " and ".join(leaders) + (" win" if len(leaders) > 1 else " wins")
    return f"{text} ({termination})"


def score_value(text: str) -> float:
    """The value of a score written ``1``, ``0`` or ``a/b``."""
    numerator, _, denominator = text.partition("/")
    return int(numerator) / int(denominator or 1)


Think = Callable[[str, int, str, State[Any], bool], Awaitable[str]]
"""How a computer player's move is found: ``think(spec, seed, game_id, state, interactive)`` gives the move's
text; ``interactive`` says whether a person plays in the game (and so waits for the move)."""


def choose_move(spec: str, seed: int, game_id: str, state: State[Any], budget: dict[str, str]) -> str:
    """Let the agent of ``spec`` choose a move in ``state``; its text (runs in a worker process)."""
    agent = make_agent(spec, seed=seed, game=game_id, budget=budget)
    return state.move_to_text(agent.select_move(state))


@dataclass
class _Change:
    """What one commit writes: the moves it adds, and how the game stands after it."""

    moves: list[tuple[Any, int, str, State[Any]]]
    """Each added move with its mover, its text and the state after it."""
    clock_ms: list[int] | None
    turn_started: datetime.datetime | None
    status: str
    result: str
    termination: str
    move_clocks: list[int | None] = field(default_factory=list)
    truncate_to: int | None = None
    """For a takeback: the number of moves kept."""
    draw_offer: int | None = None
    """The seat that offers a draw after the change (``None``: no offer stands)."""


class GameService:
    """Creates, loads and plays the server's games; the web routes call it and nothing else.

    Args:
        sessions: the database's session factory (:func:`shogames.server.db.open_database`).
        rng: the random source of chance outcomes and AI seeds; the system's by default.
        now: the clock, for tests that move time by hand; UTC wall time by default.
        think: how computer players choose (:data:`Think`); by default in a thread of this process. The
            app passes one that runs them in worker processes.
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
        self.sessions = sessions
        self.rng = rng or random.SystemRandom()
        self.now = now
        self.limits = limits or ComputerLimits()
        self.think: Think = think or self._think_in_thread
        self.live: dict[str, LiveGame] = {}
        self._loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._closed = False
        bind = getattr(sessions, "kw", {}).get("bind")
        self.dialect = bind.dialect.name if bind is not None else "sqlite"
        self.shared = self.dialect != "sqlite" if shared is None else shared
        # SQLite has one writer at a time: queueing writes here beats its busy-wait on a locked file.
        self._serialize_writes = self.dialect == "sqlite"
        self._write_lock = asyncio.Lock()
        self.idle_seconds = idle_seconds
        self.finished_seconds = finished_seconds
        self.sweep_seconds = sweep_seconds
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._full_logged = -math.inf  # when a full disk was last logged (time.monotonic)
        self._full_since_log = 0

    @contextlib.asynccontextmanager
    async def _session(self) -> AsyncIterator[AsyncSession]:
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
    async def _transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction, committed when the block ends (rolled back if it raises)."""
        async with contextlib.AsyncExitStack() as stack:
            if self._serialize_writes:
                await stack.enter_async_context(self._write_lock)
            session = await stack.enter_async_context(self._session())
            await stack.enter_async_context(session.begin())
            yield session

    def _spawn(self, coroutine: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # --- Life cycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Start serving: credit clocks for downtime, resume the games that were due, start the sweep.

        Every running clock is credited with the time the service was down; every game whose computer
        player or dice are due, or whose time ran out meanwhile, goes on.
        """
        try:
            await self._credit_downtime()
        except DatabaseFullError:  # reading works: serve what can be served, and say what cannot
            logger.warning(
                "the database's disk is full: running clocks were not credited for the downtime, and no "
                "change can be saved until there is room"
            )
        async with self._session() as session:
            due = (
                await session.scalars(
                    select(GameRow.id).where(
                        GameRow.status == "active",
                        (GameRow.waiting.in_([WAITING_AI, WAITING_CHANCE]))
                        | GameRow.waiting.is_(None)
                        | GameRow.deadline.is_not(None),
                    )
                )
            ).all()
        for game_id in due:
            with contextlib.suppress(ServiceError):
                await self._resume(await self.get(game_id))
        logger.info("game service started: %d games resumed, database %s", len(due), self.dialect)
        if self.sweep_seconds > 0:
            self._sweeper = asyncio.create_task(self._sweep_forever())

    async def close(self) -> None:
        """Stop the sweep, every computer move and clock timer in flight (what was committed stays)."""
        self._closed = True
        tasks = [task for live in self.live.values() for task in (live.ai_task, live.timer) if task]
        tasks += list(self._tasks)
        if self._sweeper is not None:
            tasks.append(self._sweeper)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def _credit_downtime(self) -> None:
        """Move every running clock forward by the time no server process was alive.

        The service clock row holds when a process was last seen alive (the sweep refreshes it every
        second). If that, or the game's last event if later, is older than a few sweeps, the service was
        down since then: the player's turn starts that much later, so nobody loses time (or a game) to
        the downtime.
        """
        now = self.now()
        grace = datetime.timedelta(seconds=max(3.0, 3 * self.sweep_seconds))
        credited = 0
        async with self._transaction() as session:
            row = await session.get(ServiceClockRow, 1, with_for_update=True)
            if row is None:  # the migration adds the row; a database that lost it gets it back
                await session.execute(
                    insert(ServiceClockRow.__table__).prefix_with("OR IGNORE")  # type: ignore[arg-type]
                    if self.dialect == "sqlite"
                    else pg_insert(ServiceClockRow.__table__).on_conflict_do_nothing(),  # type: ignore[arg-type]
                    {"id": 1, "alive_at": now},
                )
                return
            alive_at = _aware(row.alive_at) or now
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
                gap = now - max(alive_at, _aware(game.updated_at) or alive_at)
                if gap <= grace:
                    continue
                game.turn_started = (_aware(game.turn_started) or now) + gap
                if game.deadline is not None:
                    game.deadline = (_aware(game.deadline) or now) + gap
                credited += 1
        logger.info(
            "the service was down for %.1f s: %d running clocks were credited",
            (now - alive_at).total_seconds(),
            credited,
        )

    async def _heartbeat(self) -> None:
        async with self._transaction() as session:
            await session.execute(
                update(ServiceClockRow).where(ServiceClockRow.id == 1).values(alive_at=self.now())
            )

    async def _sweep_forever(self) -> None:
        """Sweep every ``sweep_seconds``; a failure is logged once, not again while it repeats."""
        failing: str | None = None  # the failure the sweeps meet now, already logged
        repeats = 0
        while not self._closed:
            await asyncio.sleep(self.sweep_seconds)
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
                if isinstance(error, ServiceError):  # a database in trouble, said already by _session
                    logger.warning(
                        "the sweep failed (%s); it is tried every %.1f s", error, self.sweep_seconds
                    )
                else:
                    logger.exception("the sweep failed; it is tried every %.1f s", self.sweep_seconds)
            else:
                if failing is not None:
                    logger.info("the sweep works again, after %d more failures like the last", repeats)
                    failing = None

    async def sweep(self) -> None:
        """Mark this process alive; flag late players; take over due games no one drives; evict idle ones."""
        await self._heartbeat()
        now = self.now()
        stale = now - datetime.timedelta(seconds=self.limits.max_seconds + self.limits.grace_seconds + 5)
        async with self._session() as session:
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
        for game_id in late:
            with contextlib.suppress(ServiceError):
                live = await self.get(game_id)
                async with live.lock:
                    await self._sync(live)
                    flagged = await self._flag_if_late(live)
                if flagged:
                    self._after_event(live)
        for game_id in orphans:
            live_now = self.live.get(game_id)
            if live_now is not None and live_now.ai_task is not None and not live_now.ai_task.done():
                continue
            with contextlib.suppress(ServiceError):
                await self._resume(await self.get(game_id))
        self.evict()

    def evict(self) -> int:
        """Drop from memory the games nobody watches or drives that were idle long enough; how many."""
        clock = asyncio.get_running_loop().time()
        gone = []
        for game_id, live in self.live.items():
            idle = clock - live.touched
            busy = (
                live.listeners or live.lock.locked() or (live.ai_task is not None and not live.ai_task.done())
            )
            limit = self.idle_seconds if live.is_active else self.finished_seconds
            if not busy and idle >= limit:
                gone.append(game_id)
        for game_id in gone:
            live = self.live.pop(game_id)
            if live.timer is not None:
                live.timer.cancel()
        if gone:
            logger.debug("evicted %d idle games from memory (%d stay)", len(gone), len(self.live))
        return len(gone)

    async def _resume(self, live: LiveGame) -> None:
        """Bring a game loaded after a restart (or from a dead process) back to life.

        Throws dice that are due, ends the game if its time ran out, restarts its computer player and its
        clock timer.
        """
        async with live.lock:
            await self._sync(live)
            if live.is_active and live.state.to_move == CHANCE:
                logger.warning("game %s had dice due with nobody to throw them: thrown now", live.id)
                with contextlib.suppress(_StaleError):
                    await self._commit(live, self._change(live, []))
            await self._flag_if_late(live)
        self._after_event(live)

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
        try:
            game_class = make(game_id).__class__
            values = parse_settings_text(game_class.setting_specs, settings) if settings.strip() else {}
            game = make(game_id, preset or None, **values)
        except ShogamesError as error:
            raise ServiceError(400, str(error)) from None
        if len(seats) != game.num_players:
            raise ServiceError(
                400,
                f"{game.name} with these settings has {game.num_players} seats "
                f"({', '.join(game.player_names)}); got {len(seats)} seat choices",
            )
        if time_control is not None:
            _check_time_control(time_control)
        made: list[Seat] = []
        for number, request in enumerate(seats):
            made.append(_make_seat(game, number, request, self.limits))
        mode = _mode_of(made, mode)
        start = game.new_initial_state()
        if position is not None and position.strip():
            try:
                start = game.state_from_text(position.strip())
            except (ShogamesError, ValueError) as error:
                raise ServiceError(400, f"position refused: {error}") from None
            if start.is_terminal():
                raise ServiceError(400, "position refused: the game is already over there")
        start_text = start_position_text(start)
        now = self.now()
        clock = None
        if time_control is not None and time_control.kind == FISCHER:
            clock = [time_control.initial_ms] * game.num_players
        live = LiveGame(
            id=_new_id(),
            game=game,
            preset=preset or None,
            mode=mode,
            seats=made,
            status="active",
            result="*",
            termination="unterminated",
            version=1,
            time_control=time_control,
            clock_ms=clock,
            turn_started=now,
            created_at=now,
            updated_at=now,
            states=[start],
            start_position=start_text,
        )
        change = self._change(live, [])  # the toss, or the first dice, thrown in the same transaction
        async with self._transaction() as session:
            session.add(
                GameRow(
                    id=live.id,
                    game=game.id,
                    settings=game.settings_text(),
                    preset=live.preset,
                    start_position=start_text,
                    mode=mode,
                    status="active",
                    result="*",
                    termination="unterminated",
                    version=0,
                    time_control=time_control.as_json() if time_control else None,
                    clock_ms=clock,
                    turn_started=now,
                    created_at=now,
                    updated_at=now,
                    seats=[
                        SeatRow(seat=s.seat, name=s.name, kind=s.kind, agent=s.agent, token=s.token)
                        for s in made
                    ],
                )
            )
            await session.flush()
            live.version = 0
            await self._write(session, live, change)
        self._apply(live, change)
        live.touched = asyncio.get_running_loop().time()
        self.live[live.id] = live
        logger.info("game %s created: %s, %s", live.id, game.id, mode)
        self._after_event(live)
        return live

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id, loaded from the database (and replayed) on first use.

        Raises:
            ServiceError: no game has this id (404).
        """
        if len(game_id) > 64:
            raise ServiceError(404, "no game with such an id on this server")
        live = self.live.get(game_id)
        if live is None:
            live = await self._load(game_id)
        live.touched = asyncio.get_running_loop().time()
        return live

    async def _load(self, game_id: str) -> LiveGame:
        lock, users = self._loading.setdefault(game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                live = self.live.get(game_id)
                if live is not None:
                    return live
                async with self._session() as session:
                    row = await session.get(
                        GameRow, game_id, options=[selectinload(GameRow.seats), selectinload(GameRow.moves)]
                    )
                if row is None:
                    raise ServiceError(404, f"no game {game_id!r} on this server")
                live = _live_from_row(row)
                self.live[game_id] = live
                return live
        finally:
            users[0] -= 1
            if users[0] == 0:
                self._loading.pop(game_id, None)

    async def fresh(self, game_id: str) -> LiveGame:
        """The game, brought up to date with the database first when other processes share it."""
        live = await self.get(game_id)
        if self.shared:
            async with live.lock:
                await self._sync(live)
        return live

    async def _sync(self, live: LiveGame, *, force: bool = False) -> bool:
        """Bring the copy in memory up to the version the database holds (call with the lock held).

        Only a database shared with other processes can be ahead; then the moves are read again, the
        ones this copy has in common kept, the rest replayed, and the listeners told. Returns whether
        anything changed.
        """
        if not (self.shared or force):
            return False
        async with self._session() as session:
            version = await session.scalar(select(GameRow.version).where(GameRow.id == live.id))
            if version is None or version == live.version:
                return False
            row = await session.get(
                GameRow, live.id, options=[selectinload(GameRow.moves)], populate_existing=True
            )
        assert row is not None
        texts = [move.text for move in row.moves]
        keep = 0
        while keep < min(len(texts), len(live.texts)) and texts[keep] == live.texts[keep]:
            keep += 1
        del live.states[keep + 1 :], live.moves[keep:], live.texts[keep:], live.movers[keep:]
        state = live.state
        for move_row in row.moves[keep:]:
            move = state.parse_move(move_row.text)
            state = state.play_unchecked(move)
            live.states.append(state)
            live.moves.append(move)
            live.texts.append(move_row.text)
            live.movers.append(move_row.seat)
        live.version = row.version
        live.status, live.result, live.termination = row.status, row.result, row.termination
        live.draw_offer = row.draw_offer
        live.clock_ms = list(row.clock_ms) if row.clock_ms is not None else None
        live.turn_started = _aware(row.turn_started)
        live.updated_at = _aware(row.updated_at) or live.updated_at
        live.notice = None
        live.cached = None
        self._publish(live)
        return True

    async def on_remote_event(self, game_id: str, version: int) -> None:
        """Another process committed ``version`` of a game: bring this copy and its listeners up to date.

        Called by the PostgreSQL listener (:mod:`shogames.server.events`).
        """
        live = self.live.get(game_id)
        if live is None or live.version >= version:
            return
        async with live.lock:
            await self._sync(live)

    async def list_games(self, status: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games with this status (``active`` or ``finished``), newest first, for the home page."""
        async with self._session() as session:
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
                    "updated_at": _aware(row.updated_at),
                }
            )
        return games

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
        live = await self.get(game_id)
        async with live.lock:
            seat = self._person_seat(live, token)
            await self._sync(live)
            self._check_can_move(live, seat, version)
            state = live.state
            try:
                move = state.parse_move(text)
            except (ShogamesError, ValueError) as error:
                raise ServiceError(400, f"move {text!r} refused: {error}") from None
            if await self._flag_if_late(live):
                raise ServiceError(
                    409, f"{seat.name}'s time ran out before the move arrived; the game is over"
                )
            try:
                await self._commit(live, self._change(live, [(move, seat.seat)]))
            except _StaleError:
                raise ServiceError(
                    409, "the game changed while the move was on its way (another window moved); reload it"
                ) from None
        self._after_event(live)
        return live

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The seat of ``token`` resigns: it scores 0 and the other seats share the point.

        Raises:
            ServiceError: no such game (404), a missing or wrong token (403), the game is over (409).
        """
        live = await self.get(game_id)
        async with live.lock:
            seat = self._person_seat(live, token)
            await self._sync(live)
            if not live.is_active:
                raise ServiceError(409, "the game is already over")
            try:
                await self._finish(live, resigned=seat.seat, termination="resignation")
            except _StaleError:
                raise ServiceError(409, "the game changed meanwhile; reload it") from None
            if live.ai_task is not None:  # a computer player still thinking stops (its worker is ended)
                live.ai_task.cancel()
                live.ai_task = None
        self._after_event(live)
        return live

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
        live = await self.get(game_id)
        async with live.lock:
            seat = self._person_seat(live, token)
            await self._sync(live)
            if live.game.num_players != 2:
                raise ServiceError(
                    409, f"draw offers are for two-player games; this one has {live.game.num_players} seats"
                )
            if not live.is_active:
                raise ServiceError(
                    409, f"the game is over: {result_text(live.game, live.result, live.termination)}"
                )
            other = live.seats[1 - seat.seat]
            offer = live.draw_offer
            if accept is None and offer == seat.seat:
                raise ServiceError(409, f"{seat.name} already offers a draw; {other.name} has not answered")
            if accept is True and offer != other.seat:
                raise ServiceError(409, f"{other.name} offers no draw to accept")
            if accept is False and offer is None:
                raise ServiceError(409, "no draw is offered, so there is none to decline or withdraw")
            if accept is None and offer is None and other.kind == AI:
                live.notice = f"{other.name} declines the draw offer."
                live.cached = None
                self._publish(live)
                return live
            try:
                if accept is not False and offer == other.seat:
                    if await self._flag_if_late(live):
                        raise ServiceError(409, "time ran out before the draw was agreed; the game is over")
                    await self._finish(live, resigned=None, termination=AGREEMENT)
                    if live.ai_task is not None:
                        live.ai_task.cancel()
                        live.ai_task = None
                else:
                    await self._commit(live, self._offer_change(live, seat.seat if accept is None else None))
            except _StaleError:
                raise ServiceError(409, "the game changed meanwhile; reload it") from None
        self._after_event(live)
        return live

    def _offer_change(self, live: LiveGame, offer: int | None) -> _Change:
        """A change that only sets (or clears) the standing draw offer."""
        return _Change(
            moves=[],
            clock_ms=live.clock_ms,
            turn_started=live.turn_started,
            status=live.status,
            result=live.result,
            termination=live.termination,
            draw_offer=offer,
        )

    async def takeback(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token's seat's last move, and every move after it, against the computer or hot-seat.

        The position goes back to where that seat was to move before its last move, the same dice
        included (a takeback does not re-throw).

        Raises:
            ServiceError: no such game (404), a wrong token (403), a game with no AI seat that is not
                played hot-seat (online players must agree, which this does not ask), a finished game or
                nothing to take back (409).
        """
        live = await self.get(game_id)
        async with live.lock:
            seat = self._person_seat(live, token)
            await self._sync(live)
            if live.mode != "hotseat" and not any(other.kind == AI for other in live.seats):
                raise ServiceError(409, "takeback is only for games against the computer or on one screen")
            if not live.is_active:
                raise ServiceError(409, "the game is over; nothing can be taken back")
            if seat.seat not in live.movers:
                raise ServiceError(409, f"{seat.name} has made no move to take back")
            keep = max(index for index, mover in enumerate(live.movers) if mover == seat.seat)
            if live.ai_task is not None:
                live.ai_task.cancel()
                live.ai_task = None
            change = _Change(
                moves=[],
                clock_ms=live.clock_ms,
                turn_started=self.now(),
                status=live.status,
                result=live.result,
                termination=live.termination,
                truncate_to=keep,
            )
            try:
                await self._commit(live, change)
            except _StaleError:
                raise ServiceError(409, "the game changed meanwhile; reload it") from None
        self._after_event(live)
        return live

    # --- Listening ------------------------------------------------------------------------------------

    def subscribe(self, live: LiveGame) -> asyncio.Queue[dict[str, Any]]:
        """A queue that receives the game's snapshot after every event, until :meth:`unsubscribe`."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=4)
        live.listeners.add(queue)
        return queue

    def unsubscribe(self, live: LiveGame, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Stop sending events to ``queue``."""
        live.listeners.discard(queue)
        live.touched = asyncio.get_running_loop().time()

    def snapshot(self, live: LiveGame) -> dict[str, Any]:
        """Everything a client shows: the game, seats, position, legal moves, move list, clock and result.

        Made once per version (the clock, which changes with time, is added fresh). Never contains a token.
        """
        if live.cached is None or live.cached[0] != live.version:
            live.cached = (live.version, self._snapshot_body(live))
        return {**live.cached[1], "clock": self._clock_view(live)}

    def _snapshot_body(self, live: LiveGame) -> dict[str, Any]:
        game = live.game
        state = live.state
        to_move = state.to_move if live.is_active else None
        last: list[str] = []
        for index in range(len(live.moves) - 1, -1, -1):
            if live.movers[index] != CHANCE:
                last = last_move_targets(live.states[index], live.moves[index])
                break
        return {
            "type": "game",
            "id": live.id,
            "version": live.version,
            "game": {
                "id": game.id,
                "name": game.name,
                "settings": game.settings_text(),
                "preset": live.preset,
                "players": list(game.player_names),
            },
            "mode": live.mode,
            "status": live.status,
            "result": live.result,
            "termination": live.termination,
            "result_text": result_text(game, live.result, live.termination),
            "notice": live.notice,
            "draw_offer": live.draw_offer if live.is_active else None,
            "seats": [
                {"seat": seat.seat, "name": seat.name, "kind": seat.kind, "agent": seat.agent}
                for seat in live.seats
            ],
            "ply": len(live.moves),
            "to_move": to_move,
            "position": views_for(game.id).position_view(state),
            "legal": legal_move_views(state) if live.is_active else [],
            "last": last,
            "moves": [
                {"ply": index + 1, "text": text, "seat": mover, **({"note": note} if note else {})}
                for index, (text, mover, note) in enumerate(
                    zip(live.texts, live.movers, self._notes(live), strict=True)
                )
            ],
        }

    @staticmethod
    def _notes(live: LiveGame) -> list[str | None]:
        """Each move's note (dice lost, a turn passed for want of a legal move), or ``None``."""
        states, moves, cache = live.states, live.moves, live.notes
        if not hasattr(views_for(live.game.id), "move_note"):
            return [None] * len(moves)
        notes: list[str | None] = []
        for index, move in enumerate(moves):
            after = states[index + 1]
            if index < len(cache) and cache[index][0] is after:
                notes.append(cache[index][1])
                continue
            del cache[index:]
            note = move_note(states[index], move, after)
            cache.append((after, note))
            notes.append(note)
        del cache[len(moves) :]
        return notes

    def position_at(self, live: LiveGame, ply: int) -> dict[str, Any]:
        """The position after ``ply`` moves (0 for the start), to step through the game.

        Raises:
            ServiceError: no such ply (404).
        """
        if not 0 <= ply <= len(live.moves):
            raise ServiceError(404, f"ply {ply} is not in this game, which has {len(live.moves)} moves")
        return position_step(live.states, live.moves, live.movers, ply)

    def record(self, live: LiveGame) -> Record:
        """The game's record: headers (with the time control), every move and dice throw, the result."""
        control = live.time_control.header() if live.time_control else None
        record = start_record(
            live.game,
            [seat.name for seat in live.seats],
            time_control=control,
            date=live.created_at.date(),
            position=live.start_position,
        )
        for move_text in live.texts:
            record.add_move(move_text)
        record.headers["Result"] = live.result
        record.headers["Termination"] = live.termination
        return record

    def record_text(self, live: LiveGame) -> str:
        """The record as text (``shogames replay`` reads it)."""
        return write_record(self.record(live))

    # --- Inside -----------------------------------------------------------------------------------------

    def _person_seat(self, live: LiveGame, token: str | None) -> Seat:
        if not token:
            raise ServiceError(403, "this needs the secret token of a seat (from its invite link)")
        seat = live.seat_of_token(token)
        if seat is None:
            raise ServiceError(403, "this token belongs to no seat of this game")
        return seat

    def _check_can_move(self, live: LiveGame, seat: Seat, version: int | None) -> None:
        if not live.is_active:
            raise ServiceError(
                409, f"the game is over: {result_text(live.game, live.result, live.termination)}"
            )
        if version is not None and version != live.version:
            raise ServiceError(
                409,
                f"the game has changed since version {version} (it is at version {live.version}); reload it",
            )
        mover = live.state.to_move
        if mover != seat.seat:
            who = "the dice" if mover == CHANCE else live.seats[mover].name if mover is not None else "nobody"
            raise ServiceError(409, f"it is not {seat.name}'s turn: {who} to move")

    def _change(self, live: LiveGame, played: list[tuple[Any, int]]) -> _Change:
        """The change that plays ``played`` and then every chance outcome that falls due after it."""
        now = self.now()
        clock = list(live.clock_ms) if live.clock_ms is not None else None
        control = live.time_control
        turn_started = live.turn_started
        state = live.state
        moves: list[tuple[Any, int, str, State[Any]]] = []
        move_clocks: list[int | None] = []
        for move, mover in played:
            mover_clock = None
            # A seat's clock starts with its first move (as lichess does): that move costs no time.
            started = mover in live.movers or any(earlier == mover for _, earlier, _, _ in moves)
            if control is not None and control.kind == FISCHER and clock is not None and started:
                spent = int(((now - (turn_started or now)).total_seconds()) * 1000)
                clock[mover] = max(0, clock[mover] - spent) + control.increment_ms
                mover_clock = clock[mover]
            after = state.play_unchecked(move)
            moves.append((move, mover, state.move_to_text(move), after))
            move_clocks.append(mover_clock)
            turn_started = now
            state = after
        while not state.is_terminal() and state.to_move == CHANCE:
            outcome = sample_chance(state, self.rng)
            after = state.play_unchecked(outcome)
            moves.append((outcome, CHANCE, state.move_to_text(outcome), after))
            move_clocks.append(None)
            state = after
        status, result, termination = live.status, live.result, live.termination
        if moves and state.is_terminal():
            status, result, termination = "finished", result_for(state), state.termination() or "normal"
        # A draw offer stands until the offerer's opponent moves (that move declines it) or the game ends.
        offer = live.draw_offer
        if offer is not None and (status != "active" or any(mover != offer for _, mover in played)):
            offer = None
        return _Change(moves, clock, turn_started, status, result, termination, move_clocks, draw_offer=offer)

    def _deadline_after(self, live: LiveGame, change: _Change, state: State[Any]) -> datetime.datetime | None:
        control, mover = live.time_control, state.to_move
        if control is None or change.status != "active" or mover is None or mover == CHANCE:
            return None
        if change.turn_started is None:
            return None
        keep = change.truncate_to if change.truncate_to is not None else len(live.moves)
        if mover not in live.movers[:keep] and all(seat != mover for _, seat, _, _ in change.moves):
            return None  # the seat has not moved yet: its clock has not started
        if control.kind == FISCHER:
            assert change.clock_ms is not None
            budget = change.clock_ms[mover]
        else:
            budget = control.limit_ms
        return change.turn_started + datetime.timedelta(milliseconds=budget)

    async def _write(self, session: AsyncSession, live: LiveGame, change: _Change) -> None:
        """Write a change in an open transaction, against the version this process holds.

        Raises:
            _StaleError: the database holds another version; the transaction is rolled back by the caller.
        """
        now = self.now()
        keep = change.truncate_to if change.truncate_to is not None else len(live.moves)
        state = change.moves[-1][3] if change.moves else live.states[keep]
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
                deadline=self._deadline_after(live, change, state),
                waiting=_waiting_of(live, change.status, state),
                draw_offer=change.draw_offer,
            )
        )
        if getattr(result, "rowcount", 1) != 1:
            raise _StaleError
        if change.truncate_to is not None:
            await session.execute(
                sql_delete(MoveRow).where(MoveRow.game_id == live.id, MoveRow.ply > change.truncate_to)
            )
        if change.moves:
            await session.execute(
                insert(MoveRow.__table__),  # type: ignore[arg-type]
                [
                    {
                        "game_id": live.id,
                        "ply": keep + offset + 1,
                        "text": move_text,
                        "seat": mover,
                        "clock_ms": clock,
                        "played_at": now,
                    }
                    for offset, ((_, mover, move_text, _), clock) in enumerate(
                        zip(change.moves, change.move_clocks, strict=True)
                    )
                ],
            )
        if self.dialect == "postgresql":
            await session.execute(
                sql_text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": f"{live.id}:{live.version + 1}"},
            )

    async def _commit(self, live: LiveGame, change: _Change) -> None:
        """Commit a change (call with the lock held), then apply it in memory and announce it.

        Raises:
            _StaleError: another process changed the game first; this copy was brought up to date, and
                nothing was written.
        """
        try:
            async with self._transaction() as session:
                await self._write(session, live, change)
        except _StaleError:
            await self._sync(live, force=True)
            raise
        self._apply(live, change)

    def _apply(self, live: LiveGame, change: _Change) -> None:
        if change.truncate_to is not None:
            keep = change.truncate_to
            del live.states[keep + 1 :], live.moves[keep:], live.texts[keep:], live.movers[keep:]
        for move, mover, move_text, after in change.moves:
            live.states.append(after)
            live.moves.append(move)
            live.texts.append(move_text)
            live.movers.append(mover)
        live.version += 1
        live.clock_ms = change.clock_ms
        live.turn_started = change.turn_started
        live.status, live.result, live.termination = change.status, change.result, change.termination
        live.draw_offer = change.draw_offer
        live.updated_at = self.now()
        if change.moves or change.truncate_to is not None:
            live.notice = None
        self._publish(live)

    async def _finish(self, live: LiveGame, *, resigned: int | None, termination: str) -> None:
        """End an unfinished game by resignation, loss on time or an agreed draw; call with the lock held.

        ``resigned`` is the seat that resigned or lost on time; ``None`` with termination ``agreement``.

        The clocks keep the time actually left: the running clock is charged up to now, and the seat that
        lost on time has none. A clock of moves (:data:`PER_MOVE`) then stores each seat's time too.
        """
        record = Record({})
        finish_record(record, live.state, resigned=resigned, termination=termination)
        clock = list(live.clock_ms) if live.clock_ms is not None else None
        control = live.time_control
        if control is not None and control.kind == PER_MOVE:
            clock = [control.limit_ms] * live.game.num_players
        deadline = self._deadline(live)
        if deadline is not None and clock is not None:
            clock[deadline[0]] = max(0, int((deadline[1] - self.now()).total_seconds() * 1000))
        if termination == "time forfeit" and clock is not None and resigned is not None:
            clock[resigned] = 0
        change = _Change(
            moves=[],
            clock_ms=clock,
            turn_started=live.turn_started,
            status="finished",
            result=record.result,
            termination=record.termination,
        )
        await self._commit(live, change)
        logger.info("game %s finished: %s (%s)", live.id, record.result, record.termination)

    def _deadline(self, live: LiveGame) -> tuple[int, datetime.datetime] | None:
        """The seat whose clock is running and when it runs out, if a clock is running."""
        control, mover = live.time_control, live.state.to_move
        if (
            control is None
            or not live.is_active
            or mover is None
            or mover == CHANCE
            or live.turn_started is None
            or mover not in live.movers  # a seat's clock starts with its first move
        ):
            return None
        if control.kind == FISCHER:
            assert live.clock_ms is not None
            budget = live.clock_ms[mover]
        else:
            budget = control.limit_ms
        return mover, live.turn_started + datetime.timedelta(milliseconds=budget)

    async def _flag_if_late(self, live: LiveGame) -> bool:
        """End the game on time if the mover's time has run out; call with the lock held."""
        deadline = self._deadline(live)
        if deadline is None or self.now() < deadline[1]:
            return False
        try:
            await self._finish(live, resigned=deadline[0], termination="time forfeit")
        except _StaleError:
            return not live.is_active
        return True

    def _clock_view(self, live: LiveGame) -> dict[str, Any] | None:
        control = live.time_control
        if control is None:
            return None
        deadline = self._deadline(live)
        running = deadline[0] if deadline else None
        remaining = list(live.clock_ms) if live.clock_ms is not None else None
        left = None
        if deadline is not None:
            left = max(0, int((deadline[1] - self.now()).total_seconds() * 1000))
            if remaining is not None:
                remaining[deadline[0]] = left
        return {**control.as_json(), "remaining_ms": remaining, "running": running, "move_left_ms": left}

    def _publish(self, live: LiveGame) -> None:
        if not live.listeners:
            return
        message = self.snapshot(live)
        for queue in list(live.listeners):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(message)

    def _after_event(self, live: LiveGame) -> None:
        """Start the AI's move if an AI seat is to move, and set the timer of the running clock."""
        if self._closed:
            return
        if live.timer is not None:
            live.timer.cancel()
            live.timer = None
        deadline = self._deadline(live)
        if deadline is not None:
            live.timer = asyncio.create_task(self._flag_at(live, deadline[1]))
        mover = live.state.to_move
        if (
            live.is_active
            and mover is not None
            and mover != CHANCE
            and live.seats[mover].kind == AI
            and (live.ai_task is None or live.ai_task.done())
        ):
            live.ai_task = asyncio.create_task(self._ai_move(live))

    async def _flag_at(self, live: LiveGame, deadline: datetime.datetime) -> None:
        delay = (deadline - self.now()).total_seconds()
        await asyncio.sleep(max(0.0, delay) + 0.05)
        async with live.lock:
            await self._sync(live)
            flagged = await self._flag_if_late(live)
        if flagged:
            live.timer = None
            if live.ai_task is not None:
                live.ai_task.cancel()

    async def _think_in_thread(
        self, spec: str, seed: int, game_id: str, state: State[Any], interactive: bool
    ) -> str:
        return await asyncio.to_thread(choose_move, spec, seed, game_id, state, self.limits.budget())

    async def _ai_move(self, live: LiveGame) -> None:
        """Let the AI seat to move choose (outside the event loop); play its move if nothing changed.

        A computer player that fails or runs past its time plays a random move instead; the failure is
        logged, and the players are told (the snapshot's ``notice``).
        """
        version, state = live.version, live.state
        seat = state.to_move
        assert seat is not None and seat != CHANCE
        spec = live.seats[seat].agent or "random"
        notice = None
        # Where a person plays, the move has its time and no more; between computer players, the move may
        # wait for its turn on the engine's study workers first (think's own limit starts when it runs).
        interactive = any(other.kind == PERSON for other in live.seats)
        limit = self.limits.max_seconds + self.limits.grace_seconds if interactive else None
        try:
            move_text = await asyncio.wait_for(
                self.think(spec, self.rng.randrange(2**31), live.game.id, state, interactive), limit
            )
            move = state.parse_move(move_text)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            reason = "took too long" if isinstance(error, TimeoutError) else f"failed ({error})"
            logger.error("game %s: the computer player %s %s; it plays a random move", live.id, spec, reason)
            notice = f"{live.seats[seat].name} {reason}, so a random move was played for it."
            moves = state.legal_moves()
            move = moves[self.rng.randrange(len(moves))]
        async with live.lock:
            if live.version != version or not live.is_active:
                return
            if await self._flag_if_late(live):
                return
            try:
                await self._commit(live, self._change(live, [(move, seat)]))
            except _StaleError:
                return
            if notice is not None:
                live.notice = notice
                live.cached = None
                self._publish(live)
        live.ai_task = None
        self._after_event(live)


def _waiting_of(live: LiveGame, status: str, state: State[Any]) -> str | None:
    if status != "active":
        return None
    mover = state.to_move
    if mover == CHANCE:
        return WAITING_CHANCE
    if mover is None:
        return None
    return WAITING_AI if live.seats[mover].kind == AI else WAITING_PERSON


def position_step(
    states: Sequence[State[Any]], moves: Sequence[Any], movers: Sequence[int], ply: int
) -> dict[str, Any]:
    """The view of the position after ``ply`` moves: the board, who moves, and the last seat's move."""
    state = states[ply]
    last: list[str] = []
    for index in range(ply - 1, -1, -1):
        if movers[index] != CHANCE:
            last = last_move_targets(states[index], moves[index])
            break
    return {
        "ply": ply,
        "to_move": state.to_move,
        "position": views_for(state.game.id).position_view(state),
        "last": last,
    }


def _check_time_control(control: TimeControl) -> None:
    if control.kind == FISCHER:
        if not 1000 <= control.initial_ms <= 6 * 3600 * 1000 or not 0 <= control.increment_ms <= 600 * 1000:
            raise ServiceError(
                400, "a chess clock needs 1 second to 6 hours, and an increment of 0 to 600 seconds"
            )
    elif control.kind == PER_MOVE:
        if not 1000 <= control.limit_ms <= 3600 * 1000:
            raise ServiceError(400, "a time per move must be from 1 second to 1 hour")
    else:
        raise ServiceError(400, f"unknown clock {control.kind!r}; clocks: {FISCHER}, {PER_MOVE}")


MODES: Final = ("computer", "hotseat", "online")
"""How a game is played: against the computer, on one screen, or online by invite links."""


def _mode_of(seats: Sequence[Seat], mode: str | None) -> str:
    persons = sum(seat.kind == PERSON for seat in seats)
    if mode is None:
        return "computer" if persons < len(seats) else "hotseat"
    if mode not in MODES:
        raise ServiceError(400, f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode == "computer" and persons == len(seats):
        raise ServiceError(400, "a game against the computer needs at least one AI seat")
    if mode in ("hotseat", "online") and persons == 0:
        raise ServiceError(400, f"a {mode} game needs at least one person's seat")
    return mode


def _make_seat(game: Game[Any], number: int, request: SeatRequest, limits: ComputerLimits) -> Seat:
    seat_name = game.player_names[number]
    name = (request.name or "").strip()
    if len(name) > MAX_NAME or any(not ch.isprintable() for ch in name):
        raise ServiceError(400, f"the name of {seat_name} must be at most {MAX_NAME} printable characters")
    if request.kind == PERSON:
        return Seat(number, name or "Anonymous", PERSON, None, secrets.token_urlsafe(18))
    if request.kind == AI:
        spec = (request.agent or "").strip()
        if not spec:
            raise ServiceError(
                400, f"{seat_name} is an AI seat but no level was given; levels: {', '.join(level_names())}"
            )
        try:
            spec = limits.check(spec, game.id)
        except ServiceError as error:
            raise ServiceError(400, f"{seat_name}: {error.message}") from None
        return Seat(number, name or f"AI {spec}", AI, spec, None)
    raise ServiceError(400, f"{seat_name}: seat kind must be {PERSON!r} or {AI!r}, got {request.kind!r}")


def _live_from_row(row: GameRow) -> LiveGame:
    cls = make(row.game).__class__
    game = make(row.game, None, **parse_settings_text(cls.setting_specs, row.settings))
    state = game.state_from_text(row.start_position) if row.start_position else game.new_initial_state()
    states: list[State[Any]] = [state]
    moves: list[Any] = []
    for move_row in row.moves:
        move = state.parse_move(move_row.text)
        state = state.play_unchecked(move)
        states.append(state)
        moves.append(move)
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
        turn_started=_aware(row.turn_started),
        created_at=_aware(row.created_at) or utc_now(),
        updated_at=_aware(row.updated_at) or utc_now(),
        states=states,
        start_position=row.start_position,
        moves=moves,
        texts=[m.text for m in row.moves],
        movers=[m.seat for m in row.moves],
        draw_offer=row.draw_offer,
    )
