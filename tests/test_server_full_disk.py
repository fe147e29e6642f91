"""The server on a full disk (Server II finding 8): it starts, refuses changes clearly, and logs sparingly.

The disk is a real one: a 1 MiB tmpfs mounted for the test (root only; skipped elsewhere), holding the
SQLite database, filled by creating games until the database has no room left.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from server_process import free_port, kill_server, log_tail, start_server
from shogames.server.service import DatabaseFullError, is_disk_full

PERSON = {"kind": "person"}


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    mount_point = tmp_path / "disk"
    mount_point.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount_point)], capture_output=True, text=True
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here (needs root): {mounted.stderr.strip()[:200]}")
    try:
        yield mount_point
    finally:
        subprocess.run(["umount", "-l", str(mount_point)], check=False)


def new_game(base: str) -> httpx.Response:
    body = {"game": "shoo", "seats": [PERSON, PERSON], "mode": "hotseat"}
    return httpx.post(f"{base}/api/games", json=body, timeout=30)


def test_a_full_disk_is_said_plainly_and_the_server_still_starts(small_disk: Path, tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{small_disk / 'games.db'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(url, port, tmp_path, options=["--no-warm", "--no-quotas"])
    try:
        created = []
        refusal = None
        for _ in range(500):  # a Shoo game takes a few KiB: 1 MiB is full long before
            answer = new_game(base)
            if answer.status_code != 200:
                refusal = answer
                break
            created.append(answer.json()["id"])
        assert refusal is not None and created, "the disk never filled"
        assert refusal.status_code == 503
        assert "disk is full" in refusal.json()["error"], refusal.text  # not "did not answer in time"
        assert httpx.get(f"{base}/api/games/{created[0]}", timeout=10).status_code == 200  # reading works
        time.sleep(3)  # three sweeps on the full disk
    finally:
        kill_server(server)
    log = (tmp_path / f"server-{port}.log").read_text()
    assert log.count("Traceback") == 0, log_tail(tmp_path / f"server-{port}.log")
    assert log.count("the sweep failed") <= 1
    # Start again on the full disk: start-up used to write the service clock and exit with status 3.
    port = free_port()
    server = start_server(url, port, tmp_path, options=["--no-warm", "--no-quotas"])
    try:
        assert httpx.get(f"http://127.0.0.1:{port}/api/games/{created[0]}", timeout=10).status_code == 200
        assert new_game(f"http://127.0.0.1:{port}").status_code == 503
    finally:
        kill_server(server)


def test_disk_full_errors_are_told_apart_from_a_busy_database() -> None:
    import sqlite3

    from sqlalchemy.exc import OperationalError

    full = sqlite3.OperationalError("database or disk is full")
    assert is_disk_full(OperationalError("INSERT ...", {}, full))
    locked = sqlite3.OperationalError("database is locked")
    assert not is_disk_full(OperationalError("INSERT ...", {}, locked))

    class PostgresDiskFullError(Exception):
        sqlstate = "53100"

    assert is_disk_full(OperationalError("INSERT ...", {}, PostgresDiskFullError("could not extend file")))
    assert DatabaseFullError().status == 503 and "disk is full" in DatabaseFullError().message
