"""The engine's work by priority and by client (server/engine.py): fair turns, job caps, pools, warm-up."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from shogames.server.engine import COMPUTER_GAMES, Engine, EngineBusyError, FairTurns
from shogames.server.workers import WorkerPool


def test_a_free_turn_goes_to_the_client_served_least_recently() -> None:
    async def scenario() -> list[str]:
        turns = FairTurns(1)
        order: list[str] = []
        release_first = asyncio.Event()

        async def work(client: str, name: str, hold: asyncio.Event | None = None) -> None:
            async with turns.turn(client):
                order.append(name)
                if hold is not None:
                    await hold.wait()

        first = asyncio.create_task(work("a", "a1", release_first))
        await asyncio.sleep(0)
        queued = [asyncio.create_task(work("a", f"a{n}")) for n in (2, 3, 4)]
        await asyncio.sleep(0)
        queued.append(asyncio.create_task(work("b", "b1")))
        await asyncio.sleep(0)
        assert turns.waiting() == 4
        release_first.set()
        await asyncio.gather(first, *queued)
        return order

    # b asked last, behind three of a's, but a was just served: b's one request goes next.
    assert asyncio.run(scenario()) == ["a1", "b1", "a2", "a3", "a4"]


def test_a_wait_given_up_leaves_no_turn_behind() -> None:
    async def scenario() -> None:
        turns = FairTurns(1)
        await turns.acquire("a")
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.05):
                await turns.acquire("b")
        assert turns.waiting() == 0
        turns.release()
        async with asyncio.timeout(1):  # the turn is free again, not held by the abandoned wait
            await turns.acquire("c")

    asyncio.run(scenario())


def test_a_client_may_have_only_so_many_jobs() -> None:
    async def scenario() -> None:
        engine = Engine(1, 1, jobs_per_client=2, warm=False)
        try:
            async with engine.job("a"), engine.job("a"):
                assert engine.jobs_of("a") == 2
                with pytest.raises(EngineBusyError, match="2 engine jobs"):
                    async with engine.job("a"):
                        pass
                async with engine.job("b"):  # another client is not held back
                    pass
            assert engine.jobs_of("a") == 0
        finally:
            engine.close()

    asyncio.run(scenario())


def which_process(pause: float = 0.0) -> tuple[int, int]:
    """The worker's process id and its niceness (in a worker process)."""
    time.sleep(pause)
    return os.getpid(), os.nice(0)


def test_live_moves_and_study_work_run_in_separate_pools() -> None:
    async def scenario() -> None:
        engine = Engine(1, 1, warm=False)
        try:
            study = asyncio.create_task(engine.study_call("a", which_process, 1.0, timeout=30, wait=30))
            await asyncio.sleep(0.2)
            started = time.monotonic()  # the study worker is busy: a live move does not wait for it
            live_pid, live_nice = await engine.move(which_process, timeout=30, interactive=True)
            waited = time.monotonic() - started
            study_pid, study_nice = await study
            assert live_pid != study_pid
            assert study_nice >= live_nice + 10, "study workers yield the CPU to live ones"
            assert waited < 60  # (spawning a cold worker takes a while on a busy machine)
            # A game between computer players thinks on the study workers, as its own client.
            pid, _ = await engine.move(which_process, timeout=30, interactive=False)
            assert pid == study_pid
        finally:
            engine.close()

    asyncio.run(scenario())


def loaded_modules() -> list[str]:
    """Which of the engine's modules this worker has imported (in a worker process)."""
    import sys

    wanted = ("numba", "shogames.agents", "shogames.analysis", "shogames.server.record_view")
    return [name for name in wanted if name in sys.modules]


def test_a_started_pool_is_warm_before_its_first_call() -> None:
    async def scenario() -> None:
        engine = Engine(1, 1)
        try:
            await engine.start()
            loaded = await engine.move(loaded_modules, timeout=10, interactive=True)
            assert "shogames.agents" in loaded and "shogames.server.record_view" in loaded
            assert "numba" in loaded, "each game's kernel was loaded"
            started = time.monotonic()
            await engine.study_call(COMPUTER_GAMES, loaded_modules, timeout=10, wait=10)
            assert time.monotonic() - started < 5, "the study worker was warm too"
        finally:
            engine.close()

    asyncio.run(scenario())


def forever() -> None:
    time.sleep(3600)


def test_a_worker_replaced_after_its_limit_warms_before_it_takes_work(tmp_path: Path) -> None:
    marks = tmp_path / "warm"

    async def scenario() -> None:
        pool = WorkerPool(1, warm=WarmMark(marks))
        try:
            await pool.start()
            assert marks.read_text().count("warm") == 1
            with pytest.raises(Exception, match="past its limit"):
                await pool.run(forever, timeout=0.5)
            pid, _ = await pool.run(which_process, timeout=60)  # the replacement, warmed first
            assert marks.read_text().count("warm") == 2
            assert pid != os.getpid()
        finally:
            pool.close()

    asyncio.run(scenario())


class WarmMark:
    """A warm-up that writes a line to a file (callable in a worker process: it pickles)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> None:
        with self.path.open("a") as file:
            file.write("warm\n")
