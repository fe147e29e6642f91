"""Start the real server (``shogames serve``) in a child process on a free port, for tests that need one."""

from __future__ import annotations

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


def start_server(url: str, port: int, cwd: Path, extra: Sequence[str] = ()) -> subprocess.Popen[bytes]:
    """Run ``shogames serve`` on ``port`` with database ``url`` (and ``extra`` options) until it answers."""
    process = subprocess.Popen(
        [sys.executable, "-m", "shogames.ui.cli", "serve", "--port", str(port), "--database", url, *extra],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"the server stopped: {process.stderr.read() if process.stderr else b''!r}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/catalog", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.2)
    process.kill()
    raise AssertionError("the server did not answer within 60 seconds")
