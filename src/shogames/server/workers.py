"""Worker processes for work that must not run in the server's event loop (replaying records, thinking).

A :class:`WorkerPool` holds a few worker processes, started with the ``spawn`` method, so a worker never
inherits the server's open sockets, database connections or threads, and each is a child of the server
itself. A worker ends as soon as the server process is gone, even after ``kill -9`` (a thread watches the
server's process), so none is left running, and neither is multiprocessing's resource tracker, which ends
when the last process using it does.

:meth:`WorkerPool.run` sends one call to an idle worker and awaits its result
with a time limit; a call that runs past its limit raises :class:`WorkerTimeoutError`, and its worker is
killed and replaced, so a stuck call never holds a worker for good. Calls beyond the pool's size wait for a
free worker (that wait counts against their time limit too).

The function and its arguments travel to the worker by pickling: the function must be defined at the top
level of an importable module, and its arguments and result must pickle.

>>> import asyncio, math
>>> async def square_root() -> float:
...     pool = WorkerPool(1)
...     try:
...         return await pool.run(math.sqrt, 16.0, timeout=60)
...     finally:
...         pool.close()
>>> asyncio.run(square_root())
4.0
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

logger = logging.getLogger("shogames.server")

T = TypeVar("T")


def default_size() -> int:
    """The pool size the server uses: every core but one, at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def start_worker(server_pid: int, nice: int) -> None:
    """A worker's initializer: lower its priority by ``nice``, and end it as soon as the server is gone.

    A daemon thread waits on a pidfd of the server (Linux), or looks every second whether this process's
    parent is still the server (elsewhere), then ends this process at once: a server killed with
    ``kill -9`` runs no clean-up, so its workers must notice for themselves.
    """
    if nice:
        os.nice(nice)
    threading.Thread(target=_wait_for_the_end_of, args=(server_pid,), daemon=True, name="end-with").start()


def _wait_for_the_end_of(server_pid: int) -> None:
    try:
        handle = os.pidfd_open(server_pid)
    except (AttributeError, OSError):  # no pidfd here, or the server is gone already
        while os.getppid() == server_pid:
            time.sleep(1.0)
    else:
        select.select([handle], [], [])  # readable once the process has ended
    os._exit(0)


class WorkerTimeoutError(Exception):
    """A call to a worker ran past its time limit; the worker was killed and replaced."""


class WorkerPool:
    """A fixed number of worker processes running calls with a time limit each.

    Args:
        size: how many calls may run at once, each in its own process (:func:`default_size` by default).
        nice: how much to lower the workers' scheduling priority (0: as the server's; 10: they get the
            CPU only when processes of higher priority leave it).
        warm: a function (top level of a module) each new worker runs before it takes any call: imports,
            compiled code loaded, so that no call pays for a cold start. A worker killed for running past
            its limit is replaced by one that warms before it is used.

    Workers start on first use, or all at once with :meth:`start`.
    """

    def __init__(
        self, size: int | None = None, *, nice: int = 0, warm: Callable[[], object] | None = None
    ) -> None:
        self.size = size if size is not None else default_size()
        if self.size < 1:
            raise ValueError(f"a worker pool needs at least one worker, got {self.size}")
        self.nice = nice
        self.warm = warm
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[ProcessPoolExecutor] | None = None
        self._executors: list[ProcessPoolExecutor] = []
        self._warming: set[asyncio.Task[None]] = set()
        self._closed = False

    def _queue(self) -> asyncio.Queue[ProcessPoolExecutor]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.size):
                self._add_worker()
        return self._idle

    async def start(self) -> None:
        """Start every worker now and return once each is warm and waiting for calls."""
        self._queue()
        while self._warming:
            await asyncio.gather(*self._warming, return_exceptions=True)

    def _add_worker(self) -> None:
        """Start a worker; it joins the idle ones once warm."""
        assert self._idle is not None
        executor = ProcessPoolExecutor(
            max_workers=1,
            mp_context=self._context,
            initializer=start_worker,
            initargs=(os.getpid(), self.nice),
        )
        self._executors.append(executor)
        if self.warm is None:
            self._idle.put_nowait(executor)
            return
        task = asyncio.get_running_loop().create_task(self._warm_up(executor, self.warm))
        self._warming.add(task)
        task.add_done_callback(self._warming.discard)

    async def _warm_up(self, executor: ProcessPoolExecutor, warm: Callable[[], object]) -> None:
        try:
            await asyncio.get_running_loop().run_in_executor(executor, warm)
        except Exception:  # a warm-up that fails leaves a worker as cold as without one, but working
            logger.exception("a worker's warm-up failed; it takes calls cold")
        if self._closed:
            return
        assert self._idle is not None
        self._idle.put_nowait(executor)

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        """Run ``fn(*args)`` in a worker process and return its result.

        Args:
            fn: a function defined at the top level of a module (it travels by name).
            args: its arguments, which must pickle.
            timeout: seconds the call may take, waiting for a free worker included.

        Raises:
            WorkerTimeoutError: the call ran past ``timeout``; its worker was killed and replaced.
            RuntimeError: the pool is closed.
            Exception: whatever ``fn`` raised, as the worker raised it.
        """
        if self._closed:
            raise RuntimeError("the worker pool is closed")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        idle = self._queue()
        try:
            executor = await asyncio.wait_for(idle.get(), timeout)
        except TimeoutError:
            raise WorkerTimeoutError(f"no worker was free within {timeout:g} seconds") from None
        healthy = False  # until the call is handed to the worker
        try:
            future = loop.run_in_executor(executor, fn, *args)
            healthy = True
            try:
                return await asyncio.wait_for(future, max(0.0, deadline - loop.time()))
            except TimeoutError:
                healthy = False
                raise WorkerTimeoutError(f"the call ran past its limit of {timeout:g} seconds") from None
            except (asyncio.CancelledError, BrokenProcessPool):
                healthy = False
                raise
        finally:
            if healthy and not self._closed:
                idle.put_nowait(executor)
            else:
                self._kill(executor)
                if not self._closed:
                    self._add_worker()

    def _kill(self, executor: ProcessPoolExecutor) -> None:
        processes = list((executor._processes or {}).values())
        for process in processes:
            process.kill()
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.join(timeout=5)
        if executor in self._executors:
            self._executors.remove(executor)

    def close(self) -> None:
        """Stop every worker, killing those still busy; calls in flight fail."""
        self._closed = True
        for task in list(self._warming):
            task.cancel()
        for executor in list(self._executors):
            self._kill(executor)
