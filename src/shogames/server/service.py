"""The games the server runs: creating them, playing moves one at a time, clocks, AI seats and events.

Each live game is held in memory as its states, with an :class:`asyncio.Lock` so that the moves of one game
are applied one at a time (lila's one actor per game). A move is checked by the rules
(:meth:`State.parse_move`), written to the database and committed, and only then applied in memory and
announced: a restart loses no accepted move, and a move that fails to commit changes nothing. Every event
(a move, a chance outcome, a takeback, a resignation, a loss on time) adds one to the game's *version*, and
every announcement is a full snapshot carrying it, so a client that reconnects with an old version catches
up with one message.

Chance outcomes (dice, the toss) are drawn by the server with exactly their probabilities from a system
random source and stored as moves. AI seats move in a worker thread, so the server keeps answering.

The server holds no rules: everything about the game comes from the protocol and the records module.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import random
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sqlalchemy import delete, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from sqlalchemy.orm import selectinload

from shogames.agents import Agent, make_agent
from shogames.agents.base import level_names
from shogames.core.chance import sample_chance
from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import make
from shogames.core.settings import parse_settings_text
from shogames.records import (
    Record,
    finish_record,
    result_for,
    start_position_text,
    start_record,
    write_record,
)
from shogames.server.db import GameRow, MoveRow, SeatRow, utc_now
from shogames.server.views import last_move_targets, legal_move_views, views_for

PERSON: Final = "person"
"""Seat kind of a person, who moves with the seat's secret token."""
AI: Final = "ai"
"""Seat kind of the computer, which plays an AI level or agent spec."""

FISCHER: Final = "fischer"
"""Clock kind: a time bank per seat with an increment after each of its moves (a chess clock)."""
PER_MOVE: Final = "per_move"
"""Clock kind: at most so long for each move, or the game is lost (the designers' rule for Shoo)."""

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
    agents: dict[int, Agent] = field(default_factory=dict)
    ai_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None

    @property
    def state(self) -> State[Any]:
        """The current position."""
        return self.states[-1]

    @property
    def is_active(self) -> bool:
        """Whether the game is still being played."""
        return self.status == "active"

    def seat_of_token(self, token: str | None) -> Seat | None:
        """The person's seat whose secret token this is, if any (tokens are compared as UTF-8 bytes)."""
        if not token:
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


class GameService:
    """Creates, loads and plays the server's games; the web routes call it and nothing else.

    Args:
        sessions: the database's session factory (:func:`shogames.server.db.open_database`).
        rng: the random source of chance outcomes and AI seeds; the system's by default.
        now: the clock, for tests that move time by hand; UTC wall time by default.
    """

    def __init__(
        self,
        sessions: async_sessionmaker[Any],
        *,
        rng: random.Random | None = None,
        now: Callable[[], datetime.datetime] = utc_now,
    ) -> None:
        self.sessions = sessions
        self.rng = rng or random.SystemRandom()
        self.now = now
        self.live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._closed = False
        # SQLite has one writer at a time: queueing writes here beats its busy-wait on a locked file.
        bind = getattr(sessions, "kw", {}).get("bind")
        self._serialize_writes = bind is None or bind.dialect.name == "sqlite"
        self._write_lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def _transaction(self) -> AsyncIterator[AsyncSession]:
        """A session in a transaction, committed when the block ends (rolled back if it raises)."""
        async with contextlib.AsyncExitStack() as stack:
            if self._serialize_writes:
                await stack.enter_async_context(self._write_lock)
            session = await stack.enter_async_context(self.sessions())
            await stack.enter_async_context(session.begin())
            yield session

    # --- Life cycle ------------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every game still being played, and let its AI seats, dice and clocks carry on."""
        async with self.sessions() as session:
            ids = (await session.scalars(select(GameRow.id).where(GameRow.status == "active"))).all()
        for game_id in ids:
            live = await self.get(game_id)
            self._after_event(live)

    async def close(self) -> None:
        """Stop every AI move and clock timer in flight (what was committed stays committed)."""
        self._closed = True
        tasks = [task for live in self.live.values() for task in (live.ai_task, live.timer) if task]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

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
            ServiceError: an unknown game, preset, setting or AI level, the wrong number of seats, a bad
                name, clock or position, or a position where the game is already over (400).
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
            made.append(_make_seat(game, number, request))
        mode = _mode_of(made, mode)
        start = game.new_initial_state()
        if position is not None and position.strip():
            try:
                start = game.state_from_text(position.strip())
            except ShogamesError as error:
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
                    version=live.version,
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
        self.live[live.id] = live
        async with live.lock:
            await self._play_chance(live)
        self._after_event(live)
        return live

    async def get(self, game_id: str) -> LiveGame:
        """The game with this id, loaded from the database (and replayed) on first use.

        Raises:
            ServiceError: no game has this id (404).
        """
        live = self.live.get(game_id)
        if live is not None:
            return live
        lock = self._loading.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self.live.get(game_id)
            if live is not None:
                return live
            async with self.sessions() as session:
                row = await session.get(
                    GameRow, game_id, options=[selectinload(GameRow.seats), selectinload(GameRow.moves)]
                )
            if row is None:
                raise ServiceError(404, f"no game {game_id!r} on this server")
            live = _live_from_row(row)
            self.live[game_id] = live
            return live

    async def list_games(self, status: str, limit: int = 50) -> list[dict[str, Any]]:
        """The latest games with this status (``active`` or ``finished``), newest first, for the home page."""
        async with self.sessions() as session:
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
            self._check_can_move(live, seat, version)
            state = live.state
            try:
                move = state.parse_move(text)
            except ShogamesError as error:
                raise ServiceError(400, f"move {text!r} refused: {error}") from None
            if await self._flag_if_late(live):
                raise ServiceError(
                    409, f"{seat.name}'s time ran out before the move arrived; the game is over"
                )
            await self._commit_move(live, move, seat.seat)
            await self._play_chance(live)
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
            if not live.is_active:
                raise ServiceError(409, "the game is already over")
            await self._finish(live, resigned=seat.seat, termination="resignation")
        self._after_event(live)
        return live

    async def takeback(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the token's seat's last move, and every move after it, in a game against the computer.

        The position goes back to where that seat was to move before its last move, the same dice
        included (a takeback does not re-throw).

        Raises:
            ServiceError: no such game (404), a wrong token (403), a game with no AI seat, a finished game
                or nothing to take back (409).
        """
        live = await self.get(game_id)
        async with live.lock:
            seat = self._person_seat(live, token)
            if not any(other.kind == AI for other in live.seats):
                raise ServiceError(409, "takeback is only for games against the computer")
            if not live.is_active:
                raise ServiceError(409, "the game is over; nothing can be taken back")
            if seat.seat not in live.movers:
                raise ServiceError(409, f"{seat.name} has made no move to take back")
            keep = max(index for index, mover in enumerate(live.movers) if mover == seat.seat)
            if live.ai_task is not None:
                live.ai_task.cancel()
                live.ai_task = None
            now = self.now()
            async with self._transaction() as session:
                await session.execute(delete(MoveRow).where(MoveRow.game_id == live.id, MoveRow.ply > keep))
                await session.execute(
                    update(GameRow)
                    .where(GameRow.id == live.id)
                    .values(version=live.version + 1, turn_started=now, updated_at=now)
                )
            del live.states[keep + 1 :], live.moves[keep:], live.texts[keep:], live.movers[keep:]
            live.version += 1
            live.turn_started = now
            live.updated_at = now
            for agent in live.agents.values():
                agent.reset()
            self._publish(live)
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

    def snapshot(self, live: LiveGame) -> dict[str, Any]:
        """Everything a client shows: the game, seats, position, legal moves, move list, clock and result.

        Never contains a token.
        """
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
                {"ply": index + 1, "text": text, "seat": mover}
                for index, (text, mover) in enumerate(zip(live.texts, live.movers, strict=True))
            ],
            "clock": self._clock_view(live),
        }

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
        for text in live.texts:
            record.add_move(text)
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

    async def _commit_move(self, live: LiveGame, move: Any, mover: int) -> None:
        """Store one move, commit, then apply it in memory and announce it."""
        state = live.state
        after = state.play_unchecked(move)
        text = state.move_to_text(move)
        now = self.now()
        clock = list(live.clock_ms) if live.clock_ms is not None else None
        mover_clock = None
        control = live.time_control
        if mover != CHANCE and control is not None and control.kind == FISCHER and clock is not None:
            started = live.turn_started or now
            spent = int((now - started).total_seconds() * 1000)
            clock[mover] = max(0, clock[mover] - spent) + control.increment_ms
            mover_clock = clock[mover]
        turn_started = now if mover != CHANCE else live.turn_started
        status, result, termination = live.status, live.result, live.termination
        if after.is_terminal():
            status, result, termination = "finished", result_for(after), after.termination() or "normal"
        ply = len(live.moves) + 1
        async with self._transaction() as session:
            session.add(
                MoveRow(game_id=live.id, ply=ply, text=text, seat=mover, clock_ms=mover_clock, played_at=now)
            )
            await session.execute(
                update(GameRow)
                .where(GameRow.id == live.id)
                .values(
                    version=live.version + 1,
                    clock_ms=clock,
                    turn_started=turn_started,
                    status=status,
                    result=result,
                    termination=termination,
                    updated_at=now,
                )
            )
        live.states.append(after)
        live.moves.append(move)
        live.texts.append(text)
        live.movers.append(mover)
        live.version += 1
        live.clock_ms = clock
        live.turn_started = turn_started
        live.status, live.result, live.termination = status, result, termination
        live.updated_at = now
        self._publish(live)

    async def _play_chance(self, live: LiveGame) -> None:
        """Throw the dice (or toss the coin) for as long as chance is to move; call with the lock held."""
        while live.is_active and live.state.to_move == CHANCE:
            await self._commit_move(live, sample_chance(live.state, self.rng), CHANCE)

    async def _finish(self, live: LiveGame, *, resigned: int, termination: str) -> None:
        """End an unfinished game by resignation or loss on time of ``resigned``; call with the lock held."""
        record = Record({})
        finish_record(record, live.state, resigned=resigned, termination=termination)
        now = self.now()
        async with self._transaction() as session:
            await session.execute(
                update(GameRow)
                .where(GameRow.id == live.id)
                .values(
                    version=live.version + 1,
                    status="finished",
                    result=record.result,
                    termination=record.termination,
                    updated_at=now,
                )
            )
        live.version += 1
        live.status, live.result, live.termination = "finished", record.result, record.termination
        live.updated_at = now
        self._publish(live)

    def _deadline(self, live: LiveGame) -> tuple[int, datetime.datetime] | None:
        """The seat whose clock is running and when it runs out, if a clock is running."""
        control, mover = live.time_control, live.state.to_move
        if (
            control is None
            or not live.is_active
            or mover is None
            or mover == CHANCE
            or live.turn_started is None
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
        await self._finish(live, resigned=deadline[0], termination="time forfeit")
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
            flagged = await self._flag_if_late(live)
        if flagged:
            live.timer = None
            if live.ai_task is not None:
                live.ai_task.cancel()

    async def _ai_move(self, live: LiveGame) -> None:
        """Let the AI seat to move choose in a worker thread; play its move if nothing changed meanwhile."""
        version, state = live.version, live.state
        seat = state.to_move
        assert seat is not None and seat != CHANCE
        agent = live.agents.get(seat)
        if agent is None:
            spec = live.seats[seat].agent or "random"
            agent = make_agent(spec, seed=self.rng.randrange(2**31), game=live.game.id)
            live.agents[seat] = agent
        move = await asyncio.to_thread(agent.select_move, state)
        async with live.lock:
            if live.version != version or not live.is_active:
                return
            if await self._flag_if_late(live):
                return
            await self._commit_move(live, move, seat)
            await self._play_chance(live)
        live.ai_task = None
        self._after_event(live)


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


def _make_seat(game: Game[Any], number: int, request: SeatRequest) -> Seat:
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
            make_agent(spec, seed=0, game=game.id)
        except ShogamesError as error:
            raise ServiceError(400, f"{seat_name}: {error}") from None
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
    )
