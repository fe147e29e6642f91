"""Helpers for the server benchmarks: run ``shogames serve`` for a benchmark, and read what its processes use.

:func:`running_server` starts the real server (through the tests' ``server_process`` helper) on a fresh
SQLite file in a temporary folder, or on a database URL you give (a PostgreSQL database, say), with
``--workers N`` when more than one worker is asked for, and kills it afterwards. The server runs in a
session of its own, so :func:`cpu_seconds` and :func:`rss_bytes` add up every process of that session
(the server and its workers) from Linux's ``/proc``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from server_process import free_port, kill_server, start_server

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
NO_WORKERS = "this `shogames serve` has no --workers option yet: run with --workers 1, not {workers}"


@functools.cache
def serve_help() -> str:
    """What ``shogames serve --help`` says (the options this version of the server takes)."""
    shown = subprocess.run(
        [sys.executable, "-m", "shogames.ui.cli", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    return shown.stdout


def serve_has_workers() -> bool:
    """Whether this ``shogames serve`` takes ``--workers``."""
    return "--workers" in serve_help()


@contextlib.contextmanager
def running_server(
    database: str | None = None, workers: int = 1, keep_log: Path | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes], Path]]:
    """A started server: yields its base URL, its process and the folder of its log (and SQLite file).

    ``keep_log``: a file the server's log is appended to when it stops (the folder is removed).
    """
    if workers != 1 and not serve_has_workers():
        raise SystemExit(
            f"this `shogames serve` has no --workers option: run with --workers 1, not {workers}"
        )
    with tempfile.TemporaryDirectory(prefix="shogames-bench-") as name:
        folder = Path(name)
        url = database or f"sqlite+aiosqlite:///{folder / 'bench.db'}"
        port = free_port()
        # A load from one address would run into the quotas per client at once (older servers have none).
        options = ["--no-quotas"] if "--no-quotas" in serve_help() else []
        process = start_server(url, port, folder, workers=workers, options=options)
        try:
            yield f"http://127.0.0.1:{port}", process, folder
        finally:
            kill_server(process)
            if keep_log is not None:
                with keep_log.open("ab") as kept:
                    kept.write((folder / f"server-{port}.log").read_bytes())


def _session_of(pid: str) -> tuple[int, list[str]] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rfind(")") + 2 :].split()  # fields from the 3rd on (the name may hold spaces)
    return int(fields[3]), fields


def session_processes(session: int) -> list[str]:
    """The ids of every process in ``session``."""
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            seen = _session_of(pid)
            if seen is not None and seen[0] == session:
                found.append(pid)
    return found


def cpu_seconds(session: int) -> float:
    """User and system CPU time of every live process in ``session`` (the server's processes)."""
    total = 0
    for pid in session_processes(session):
        seen = _session_of(pid)
        if seen is not None:
            total += int(seen[1][11]) + int(seen[1][12])
    return total / CLOCK_TICKS


def rss_bytes(session: int) -> int:
    """Resident memory of every live process in ``session``."""
    total = 0
    for pid in session_processes(session):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def percentile(values: list[float], share: float) -> float:
    """The value at ``share`` (0.5: the median) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]
