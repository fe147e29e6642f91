"""Databases for the server tests: a fresh SQLite file, or a fresh database on a PostgreSQL server.

The PostgreSQL server is the one named by ``SHOGAMES_TEST_POSTGRES_URL`` (an SQLAlchemy URL such as
``postgresql+asyncpg://shogames@127.0.0.1:5433/shogames``); ``./test.sh`` starts a throwaway one and sets it.
Each test gets a database of its own, created for it and dropped after it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import uuid
from collections.abc import Iterator
from pathlib import Path

from sqlalchemy.engine import make_url

POSTGRES_VARIABLE = "SHOGAMES_TEST_POSTGRES_URL"
NO_POSTGRES = (
    f"{POSTGRES_VARIABLE} is not set (./test.sh starts a throwaway PostgreSQL server and sets it; "
    "or point it at a server of your own where this user may create databases)"
)


def sqlite_url(folder: Path) -> str:
    """The URL of a new SQLite file in ``folder``."""
    return f"sqlite+aiosqlite:///{folder / 'games.db'}"


def postgres_server() -> str | None:
    """The URL of the test PostgreSQL server, if one was given."""
    return os.environ.get(POSTGRES_VARIABLE) or None


async def _execute(url: str, statement: str) -> None:
    import asyncpg  # the test extra has it; imported here so that SQLite runs never need it

    parsed = make_url(url)
    connection = await asyncpg.connect(
        host=parsed.host,
        port=parsed.port,
        user=parsed.username,
        password=parsed.password,
        database=parsed.database,
    )
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@contextlib.contextmanager
def fresh_postgres_database() -> Iterator[str]:
    """Create an empty database on the test server; yields its URL and drops it afterwards."""
    server = postgres_server()
    if server is None:
        raise RuntimeError(NO_POSTGRES)
    name = f"shogames_test_{uuid.uuid4().hex[:16]}"
    asyncio.run(_execute(server, f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        asyncio.run(_execute(server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
