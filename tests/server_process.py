"""Start the real server (``shogames serve``) in a child process on a free port, for tests that need one."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(
    url: str,
    port: int,
    cwd: Path,
    *,
    workers: int = 1,
    timeout: float = 60.0,
    env: dict[str, str] | None = None,
    options: Sequence[str] = (),
) -> subprocess.Popen[bytes]:
    """Run ``shogames serve`` on ``port`` with database ``url`` and wait until it answers.

    ``cwd`` is the first folder on the server's ``sys.path``; ``env`` adds environment variables. The
    server's output is appended to ``server-PORT.log`` in ``cwd`` (a pipe nobody reads would fill up and
    stall a server that logs). It runs in a session of its own, so :func:`kill_server` can end every
    process it started (``--workers`` is passed only when more than one is asked for). ``options`` are
    more options of ``serve`` (``--no-quotas``).
    """
    command = [sys.executable, "-m", "shogames.ui.cli", "serve", "--port", str(port), "--database", url]
    if workers != 1:
        command += ["--workers", str(workers)]
    command += list(options)
    log_path = cwd / f"server-{port}.log"
    with log_path.open("ab") as log:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env={**os.environ, **(env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server stopped: {log_tail(log_path)}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    kill_server(process)
    raise AssertionError(f"the server did not answer within {timeout:.0f} seconds: {log_tail(log_path)}")


def kill_server(process: subprocess.Popen[bytes]) -> None:
    """``kill -9`` the server and every process of its session (its workers), and wait for it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def log_tail(path: Path, size: int = 4000) -> str:
    """The end of a server's log, for a failure message."""
    try:
        return path.read_bytes()[-size:].decode("utf-8", "replace")
    except OSError:
        return "(no log)"
