"""Engine work on another machine's workers: the engine's pools as Ray tasks on an outside Ray cluster.

A Ray head with its own workers is started here as an outside process (``ray start --head --block``, on
loopback, its files in a temporary folder of its own), as an engine machine would run it; the engine joins
it by address and its calls run in that cluster's worker processes, never in processes of this one.
Needs the ``ray`` extra (``./test.sh`` installs it); without it the tests say so and skip.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from shogames.server.engine import Engine
from shogames.server.workers import WorkerTimeoutError

ray = pytest.importorskip("ray", reason="the ray extra is not installed: pip install -e '.[ray]'")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def outside_cluster() -> Iterator[str]:
    """The address of a Ray head started as an outside process with 2 CPUs; stopped at the end."""
    folder = Path(tempfile.mkdtemp(prefix="rayh", dir="/tmp"))
    port = _free_port()
    command = [
        str(Path(sys.executable).with_name("ray")),
        "start",
        "--head",
        "--block",
        f"--port={port}",
        "--node-ip-address=127.0.0.1",
        "--num-cpus=2",
        "--include-dashboard=false",
        f"--temp-dir={folder}",
    ]
    log = folder / "head.log"
    with log.open("wb") as output:
        head = subprocess.Popen(
            command,
            stdout=output,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={
                **os.environ,
                "RAY_AUTH_MODE": "disabled",  # on loopback only; a cluster sets its own
                # No draining on SIGTERM: the group's SIGTERM below stops the GCS too, so the drain would
                # only wait out its 30 s for an answer before the head shuts down anyway.
                "RAY_GRACEFUL_SHUTDOWN_DRAIN_TIMEOUT_S": "0",
            },
        )
    address = f"127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 180
        while "Ray runtime started" not in log.read_text(errors="replace"):
            if time.monotonic() > deadline or head.poll() is not None:
                raise RuntimeError(f"the outside Ray head did not start: {log.read_text()[-2000:]}")
            time.sleep(0.5)
        yield address
    finally:
        if ray.is_initialized():
            ray.shutdown()
        os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def test_engine_calls_run_on_the_outside_clusters_workers(outside_cluster: str) -> None:
    async def scenario() -> None:
        engine = Engine(1, 1, warm=False, address=outside_cluster)
        await engine.start()
        try:
            # The calls are functions of installed modules: the cluster's workers import them by name.
            worker_parent = await engine.move(os.getppid, timeout=60, interactive=True)
            assert worker_parent not in (os.getpid(), os.getppid())  # not a process of this test's
            assert await engine.study_call("client", os.getpid, timeout=60, wait=60) != os.getpid()
            with pytest.raises(ValueError, match="invalid literal"):  # raised there, raised here
                await engine.move(int, "no number", timeout=60, interactive=True)
            with pytest.raises(WorkerTimeoutError, match="past its limit"):
                await engine.move(time.sleep, 30, timeout=2, interactive=True)
            assert await engine.move(sum, (1, 2), timeout=60, interactive=True) == 3  # the slot came back
        finally:
            engine.close()

    asyncio.run(scenario())


def _local_engine_workers(pid: int) -> list[str]:
    """The command lines of ``pid``'s child processes that are multiprocessing workers (local engines)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parent = next((line.split()[1] for line in status.splitlines() if line.startswith("PPid:")), "")
        if parent == str(pid) and "multiprocessing" in command:
            found.append(command)
    return found


def test_a_server_plays_against_the_computer_through_the_outside_workers(
    outside_cluster: str, tmp_path: Path
) -> None:
    """`serve --engine-address`: the computer moves come from the cluster; the server starts no workers."""
    import httpx

    from server_process import free_port, kill_server, start_server

    port = free_port()
    server = start_server(
        f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
        port,
        tmp_path,
        timeout=240,
        options=["--engine-address", outside_cluster, "--engine-live", "1", "--engine-study", "1"],
    )
    base = f"http://127.0.0.1:{port}"
    try:
        created = httpx.post(
            f"{base}/api/games",
            json={"game": "shobu", "seats": [{"kind": "person"}, {"kind": "ai", "agent": "easy"}]},
        ).json()
        token = created["seats"][0]["link"].split("#token=")[1]
        for _ in range(3):  # three moves each: every reply is the computer's, none a random stand-in
            snap = httpx.get(f"{base}/api/games/{created['id']}").json()
            ply = snap["ply"]
            answer = httpx.post(
                f"{base}/api/games/{created['id']}/moves",
                json={"move": snap["legal"][0]["text"], "token": token},
            )
            assert answer.status_code == 200, answer.text
            deadline = time.monotonic() + 60
            while snap["ply"] < ply + 2 and time.monotonic() < deadline:
                time.sleep(0.2)
                snap = httpx.get(f"{base}/api/games/{created['id']}").json()
            assert snap["ply"] == ply + 2, snap
            assert not snap.get("notice"), snap["notice"]
        assert _local_engine_workers(server.pid) == []
    finally:
        kill_server(server)
