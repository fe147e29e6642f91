"""The database: the tables of games, seats and moves, and how to open (and migrate) a database.

SQLAlchemy 2 (async) maps the tables; Alembic manages the schema (``server/migrations``). The default
database is an embedded SQLite file (``sqlite+aiosqlite:///shogames.db``); any SQLAlchemy async URL works,
PostgreSQL included (``postgresql+asyncpg://user:password@host/db``, with ``pip install asyncpg``).

A game is stored as what its record needs: the game id and settings, one row per seat, and one row per
move in the game's notation (chance outcomes included), numbered by ply. The primary key
``(game_id, ply)`` means that two moves can never be stored for one ply of a game.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, Text, event
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///shogames.db"
"""The database used when none is given: a SQLite file in the working directory."""

MIGRATIONS = Path(__file__).with_name("migrations")


def utc_now() -> datetime.datetime:
    """The current time in UTC, as stored in the tables."""
    return datetime.datetime.now(datetime.UTC)


class Base(DeclarativeBase):
    """The declarative base of every table."""


class GameRow(Base):
    """One game: what was chosen when it was created, where it stands, and its clock.

    ``deadline`` is when the running clock runs out (``None`` when no clock runs), and ``waiting`` says
    who is to move: ``person``, ``ai`` or ``chance`` (``None`` once the game is over). Both are kept with
    every event so that any server process can find, with one indexed query, the games whose time is up
    or whose computer player or dice are due (after a restart, or when the process that was driving them
    died).
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    settings: Mapped[str] = mapped_column(Text)
    preset: Mapped[str | None] = mapped_column(String(64))
    start_position: Mapped[str | None] = mapped_column(Text)
    mode: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    result: Mapped[str] = mapped_column(String(64), default="*")
    termination: Mapped[str] = mapped_column(String(32), default="unterminated")
    version: Mapped[int] = mapped_column(Integer, default=0)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    clock_ms: Mapped[list[int] | None] = mapped_column(JSON)
    turn_started: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True))
    deadline: Mapped[datetime.datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    waiting: Mapped[str | None] = mapped_column(String(8), index=True)
    draw_offer: Mapped[int | None] = mapped_column(Integer)
    """The seat that offers a draw, until the other seat answers or moves; ``None`` when none is offered."""
    created_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)
    updated_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)

    seats: Mapped[list[SeatRow]] = relationship(
        back_populates="game_row", order_by="SeatRow.seat", cascade="all, delete-orphan"
    )
    moves: Mapped[list[MoveRow]] = relationship(
        back_populates="game_row", order_by="MoveRow.ply", cascade="all, delete-orphan"
    )


class ServiceClockRow(Base):
    """When a server process was last seen alive (one row).

    A restart reads it to tell how long the service was down, and charges no player's clock for that time.
    """

    __tablename__ = "service_clock"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alive_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class QuotaBucketRow(Base):
    """One client's token bucket of one quota, shared by every server process on the database."""

    __tablename__ = "quota_buckets"

    name: Mapped[str] = mapped_column(String(16), primary_key=True)
    client: Mapped[str] = mapped_column(String(64), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    """One seat of a game: a person (with the secret token that lets them move) or an AI level."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    kind: Mapped[str] = mapped_column(String(16))
    agent: Mapped[str | None] = mapped_column(String(128))
    token: Mapped[str | None] = mapped_column(String(64), unique=True)

    game_row: Mapped[GameRow] = relationship(back_populates="seats")


class MoveRow(Base):
    """One move (or chance outcome) of a game, in the game's notation, with the mover's clock after it."""

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(String(200))
    seat: Mapped[int] = mapped_column(Integer)
    clock_ms: Mapped[int | None] = mapped_column(Integer)
    played_at: Mapped[datetime.datetime] = mapped_column(DateTime(timezone=True), default=utc_now)

    game_row: Mapped[GameRow] = relationship(back_populates="moves")


def alembic_config(database_url: str) -> Config:
    """An Alembic configuration for ``database_url`` with this package's migrations."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", database_url.replace("%", "%%"))
    return config


def migrate(database_url: str) -> None:
    """Bring the database's schema up to date (``alembic upgrade head``); creates a new SQLite file.

    Runs Alembic's async environment in its own event loop, so call it before the server's loop starts
    (or from a worker thread).
    """
    command.upgrade(alembic_config(database_url), "head")


def open_database(database_url: str) -> tuple[AsyncEngine, async_sessionmaker[Any]]:
    """An engine and a session factory for a database whose schema is up to date."""
    options: dict[str, Any] = {}
    if database_url.startswith("postgresql"):
        # Every game in play may want a connection at once; a queue of waiting requests beats errors.
        options = {"pool_size": 10, "max_overflow": 10, "pool_timeout": 60}
    engine = create_async_engine(database_url, **options)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine, async_sessionmaker(engine, expire_on_commit=False)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    """Write-ahead logging (readers never wait for the writer) and a wait, not an error, when busy.

    ``synchronous=NORMAL`` with WAL keeps every committed move through a crash or kill of the server
    process (what a restart needs); only a power cut or an OS crash could lose the last moments.
    """
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
