"""Shared test configuration: hypothesis profiles, and the databases the server tests run on.

``dev`` (the default) explores more examples; ``ci`` (chosen when the ``CI`` environment variable is set)
keeps runs short and never fails a test for being slow on a busy machine. Tests marked ``slow`` run only
with ``--run-slow``.

The toy games of ``tests/toy_games`` (a dice race, the same without a view, and tic-tac-toe with a
compiled kernel) are installed for the whole run as an outside package is installed: a distribution whose
entry points (group ``shogames.games``) name them, in a temporary folder put on ``sys.path`` before any
test module is collected. The registry finds them as it would find any installed game, so every suite
parametrized by the registry tests them, and no shared test names them (``test_all_games_tested.py``).

A test that asks for ``database_url`` runs twice: on a fresh SQLite file and on a fresh PostgreSQL database
(see ``server_db``; skipped, with the reason, only when no PostgreSQL server was given). ``postgres_url`` is
a fresh PostgreSQL database alone, for tests of what only a shared database server allows.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from server_db import NO_POSTGRES, fresh_postgres_database, postgres_server, sqlite_url
from toy_games import install_toy_games

settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile("ci", max_examples=50, deadline=None, print_blob=True)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


_TOY_SITE = Path(tempfile.mkdtemp(prefix="shogames-toy-games-"))
"""Where the toy games' distribution is installed for this run (removed at its end)."""


def pytest_configure(config: pytest.Config) -> None:
    """Install the toy games through their entry points before any test module is collected."""
    install_toy_games(_TOY_SITE)
    sys.path.insert(0, str(_TOY_SITE))


@pytest.fixture
def toy_games_path(monkeypatch: pytest.MonkeyPatch) -> str:
    """``PYTHONPATH`` for child processes that should find the toy games as this run does; it is set."""
    path = os.pathsep.join([str(Path(__file__).parent), str(_TOY_SITE), os.environ.get("PYTHONPATH", "")])
    monkeypatch.setenv("PYTHONPATH", path.rstrip(os.pathsep))
    return path


def pytest_unconfigure(config: pytest.Config) -> None:
    if str(_TOY_SITE) in sys.path:
        sys.path.remove(str(_TOY_SITE))
    shutil.rmtree(_TOY_SITE, ignore_errors=True)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--run-slow", action="store_true", help="also run the tests marked slow (long sweeps)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked slow run only with --run-slow (or when chosen with -m slow): they are for benchmarks."""
    if config.getoption("--run-slow") or "slow" in (config.getoption("-m") or "").replace("not slow", ""):
        return
    skip = pytest.mark.skip(reason="slow: run with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, then a PostgreSQL database."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path)
        return
    if postgres_server() is None:
        pytest.skip(NO_POSTGRES)
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh, empty PostgreSQL database."""
    if postgres_server() is None:
        pytest.skip(NO_POSTGRES)
    with fresh_postgres_database() as url:
        yield url
