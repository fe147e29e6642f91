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
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")


def default_size() -> int:
    """The pool size the server uses: every core but one, at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


def end_with(server_pid: int) -> None:
    """Make this process end as soon as the process ``server_pid`` is gone (a worker's initializer).

    A daemon thread waits on a pidfd of the server (Linux), or looks every second whether this process's
    parent is still the server (elsewhere), then ends this process at once: a server killed with
    ``kill -9`` runs no clean-up, so its workers must notice for themselves.
    """
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
            Processes start on first use.
    """

    def __init__(self, size: int | None = None) -> None:
        self.size = size if size is not None else default_size()
        if self.size < 1:
            raise ValueError(f"a worker pool needs at least one worker, got {self.size}")
        self._context = multiprocessing.get_context("spawn")
        self._idle: asyncio.Queue[ProcessPoolExecutor] | None = None
        self._executors: list[ProcessPoolExecutor] = []
        self._closed = False

    def _queue(self) -> asyncio.Queue[ProcessPoolExecutor]:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for _ in range(self.size):
                self._idle.put_nowait(self._new_executor())
        return self._idle

    def _new_executor(self) -> ProcessPoolExecutor:
        executor = ProcessPoolExecutor(
            max_workers=1, mp_context=self._context, initializer=end_with, initargs=(os.getpid(),)
        )
        self._executors.append(executor)
        return executor

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
                    idle.put_nowait(self._new_executor())

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
        for executor in list(self._executors):
            self._kill(executor)
