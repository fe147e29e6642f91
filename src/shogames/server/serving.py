"""Running the web app: ``shogames serve``, with one server process or several sharing a port.

Several processes (``--workers N``) need PostgreSQL, whose notifications carry each process's events to the
others; each worker process builds its app from the environment (:func:`app_from_environment`). Before the
server listens, the games' compiled kernels are prepared in a child process (:func:`warm_kernels_in_a_child`).
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile

from fastapi import FastAPI
from sqlalchemy.engine import make_url

from shogames.server.app import create_app
from shogames.server.db import DEFAULT_DATABASE_URL, migrate
from shogames.server.limits import MAX_WS_FRAME, Quotas

logger = logging.getLogger("shogames.server")


DATABASE_VARIABLE = "SHOGAMES_DATABASE_URL"
"""The environment variable through which :func:`serve` gives worker processes the database URL."""
LOG_LEVEL_VARIABLE = "SHOGAMES_LOG_LEVEL"
"""The environment variable through which :func:`serve` gives worker processes the log level."""
NO_QUOTAS_VARIABLE = "SHOGAMES_NO_QUOTAS"
"""Set (to ``1``) by :func:`serve` for worker processes that keep no quotas."""
ENGINE_VARIABLE = "SHOGAMES_ENGINE"
"""The engine's address and pool sizes (``ADDRESS,LIVE,STUDY``, empty parts for defaults), for workers."""


def _configure_logging(log_level: str) -> int:
    level: int = getattr(logging, log_level.upper())
    # Other libraries (aiosqlite, asyncio, alembic) log at warning and above; ours at the level asked for.
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("shogames").setLevel(level)
    return level


def app_from_environment() -> FastAPI:
    """The app of one worker process started by ``serve --workers N`` (migrations already ran)."""
    _configure_logging(os.environ.get(LOG_LEVEL_VARIABLE, "info"))
    quotas = None if os.environ.get(NO_QUOTAS_VARIABLE) == "1" else Quotas()
    address, live, study = (os.environ.get(ENGINE_VARIABLE) or ",,").split(",")
    return create_app(
        os.environ[DATABASE_VARIABLE],
        migrate_first=False,
        quotas=quotas,
        workers=int(live) if live else 1,
        study_workers=int(study) if study else None,
        warm_workers=True,
        engine_address=address or None,
        shared_quotas=True,
    )


def warm_kernels_in_a_child() -> None:
    """Compile the games' kernels into numba's cache (or load them), printing what it does.

    Runs ``python -m shogames.kernels.warm`` in a child process, so this process never holds numba or
    the compiler's memory: the computer players and analyses run in worker processes, which then load the
    compiled code from the cache in well under a second instead of compiling it while a person waits.
    A failure is reported and the server goes on: the reference engines play where a kernel is missing.
    """
    print(
        "shogames: preparing the games' compiled kernels (the first run on a machine compiles them, "
        "about a minute; after that they load from the cache in a second)",
        flush=True,
    )
    command = [sys.executable, "-m", "shogames.kernels.warm"]
    with tempfile.TemporaryFile("w+") as errors:
        with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, text=True) as child:
            assert child.stdout is not None
            for line in child.stdout:  # one line a game, as each is ready
                print(f"  {line.rstrip()}", flush=True)
        if child.returncode != 0:
            errors.seek(0)
            last = (errors.read().strip().splitlines() or [f"exit status {child.returncode}"])[-1]
            print(f"  the kernels could not be prepared ({last}): the pure-Python engines play", flush=True)
            logger.warning("warming the kernels failed: %s", last)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    database_url: str = DEFAULT_DATABASE_URL,
    *,
    workers: int = 1,
    log_level: str = "info",
    quotas: Quotas | None = Quotas(),  # noqa: B008 -- a frozen dataclass, shared safely
    warm: bool = True,
    forwarded_allow_ips: str | None = None,
    engine_address: str | None = None,
    engine_live: int | None = None,
    engine_study: int | None = None,
) -> None:
    """Run the web app with uvicorn until interrupted, after printing the address to open.

    Args:
        host: the address to listen on.
        port: the port to listen on.
        database_url: the database (an SQLAlchemy async URL).
        workers: server processes sharing the port; more than one needs PostgreSQL, whose notifications
            carry each process's events to the others (each process has quotas of its own).
        log_level: ``debug``, ``info``, ``warning`` or ``error``: the level of the ``shogames.server`` log
            (refused requests are logged at ``debug``, unexpected errors with their traceback at ``error``).
        quotas: the quotas per client; ``None`` for none.
        warm: first compile the games' kernels into the cache, or load them
            (:func:`warm_kernels_in_a_child`), so that no player waits for a compile.
        forwarded_allow_ips: the proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are trusted
            for the client's address (comma-separated addresses or networks, ``*`` for any, ``""`` for
            none); ``None``: uvicorn's default, the ``FORWARDED_ALLOW_IPS`` variable or 127.0.0.1.
        engine_address: a Ray cluster's address to run the engine's work on (computer moves, hints,
            analyses, replays) instead of local worker processes (:mod:`shogames.server.remote_engine`).
        engine_live: how many live calls (computer moves in games with a person) run at once; every core
            but one by default (one per server process with several).
        engine_study: how many study calls (hints, analyses, replays) run at once; a quarter of the cores
            by default.

    Raises:
        ValueError: several workers were asked for on a database other than PostgreSQL.
    """
    import uvicorn

    from shogames.server.http_protocol import HttpProtocol
    from shogames.server.websocket_protocol import WebSocketProtocol

    if workers > 1 and not database_url.startswith("postgresql"):
        raise ValueError(
            "several workers need PostgreSQL (--database postgresql+asyncpg://...): SQLite has one writer "
            "and no way to tell the other processes about moves"
        )
    level = _configure_logging(log_level)
    if warm:
        warm_kernels_in_a_child()
    shown = make_url(database_url).render_as_string(hide_password=True)
    print(
        f"shogames is running at http://{host}:{port}/ (database {shown}"
        f"{f', {workers} workers' if workers > 1 else ''}); Ctrl+C stops it",
        flush=True,
    )
    logger.info("listening on http://%s:%d/", host, port)
    if workers == 1:
        uvicorn.run(
            create_app(
                database_url,
                quotas=quotas,
                warm_workers=warm,
                workers=engine_live,
                study_workers=engine_study,
                engine_address=engine_address,
            ),
            host=host,
            port=port,
            log_level=max(level, logging.WARNING),
            http=HttpProtocol,
            ws=WebSocketProtocol,
            ws_max_size=MAX_WS_FRAME,
            forwarded_allow_ips=forwarded_allow_ips,
        )
        return
    migrate(database_url)
    os.environ[DATABASE_VARIABLE] = database_url
    os.environ[LOG_LEVEL_VARIABLE] = log_level
    os.environ[NO_QUOTAS_VARIABLE] = "1" if quotas is None else "0"
    os.environ[ENGINE_VARIABLE] = ",".join(
        "" if value is None else str(value) for value in (engine_address, engine_live, engine_study)
    )
    uvicorn.run(
        "shogames.server.serving:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level=max(level, logging.WARNING),
        http=HttpProtocol,
        ws=WebSocketProtocol,
        ws_max_size=MAX_WS_FRAME,
        forwarded_allow_ips=forwarded_allow_ips,
    )


__all__ = ["Quotas", "app_from_environment", "serve", "warm_kernels_in_a_child"]
