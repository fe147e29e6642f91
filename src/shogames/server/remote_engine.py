"""Engine work on other machines: a pool whose calls run as Ray tasks on a Ray cluster's engine workers.

lichess sends its analyses to a fleet of engine machines, away from its game servers. ``shogames serve
--engine-address ADDRESS`` does the same through `Ray <https://docs.ray.io/>`_ (the ``ray`` extra): every
computer move, hint, analysis and record replay runs as a Ray task on the cluster's workers instead of in
local worker processes, while the server keeps its priorities (live moves first, fair turns between
clients, the jobs a client may have; :mod:`shogames.server.engine`). :class:`RayPool` has the interface of
:class:`~shogames.server.workers.WorkerPool`, so the engine uses either.

A call that runs past its limit is cancelled (its Ray worker process is killed: ``force=True``) and the
call fails with :class:`~shogames.server.workers.WorkerTimeoutError`, as a local worker would be killed.
Each engine machine needs shogames installed at the server's version, with its kernels compiled
(``shogames warm``); ``docs/web.md`` ("Engine workers on other machines") gives the deployment.
"""

from __future__ import annotations

import asyncio
import importlib
import threading
from collections.abc import Callable
from typing import Any, TypeVar

from shogames.server.workers import WorkerTimeoutError

T = TypeVar("T")

_joining = threading.Lock()
"""Held while this process joins a cluster: the engine's two pools start at once."""


def _call(fn: Callable[..., T], args: tuple[Any, ...]) -> T:
    """Run one engine call on a Ray worker (the remote function every call goes through)."""
    return fn(*args)


class RayPool:
    """Calls run as Ray tasks on a cluster, at most ``size`` at once from this pool.

    Args:
        address: the Ray cluster's address (``"auto"``, ``"HOST:PORT"`` of its head, or ``ray://...``).
        size: how many calls may run at once.
        warm: a function (top level of a module) run once on the cluster's workers by :meth:`start`, so
            that the first calls find shogames imported and the kernels loaded.

    Raises:
        RuntimeError: Ray is not installed (the message names the extra).
        ValueError: ``size`` below 1.
    """

    def __init__(self, address: str, size: int, *, warm: Callable[[], object] | None = None) -> None:
        if size < 1:
            raise ValueError(f"an engine pool needs at least one slot, got {size}")
        try:
            self._ray = importlib.import_module("ray")
        except ImportError as error:
            raise RuntimeError(
                "engine workers on other machines need Ray: pip install 'shogames[ray]'"
            ) from error
        self.address = address
        self.size = size
        self.warm = warm
        self._slots: asyncio.Semaphore | None = None
        self._remote: Any = None
        self._closed = False

    def _connect(self) -> None:
        """Join the cluster (once per process) and make the remote function."""
        with _joining:
            if self._remote is not None:
                return
            ray = self._ray
            if not ray.is_initialized():
                ray.init(address=self.address, include_dashboard=False, log_to_driver=False)
            self._remote = ray.remote(num_cpus=1, max_retries=0)(_call)

    def _semaphore(self) -> asyncio.Semaphore:
        if self._slots is None:
            self._slots = asyncio.Semaphore(self.size)
        return self._slots

    async def start(self) -> None:
        """Join the cluster and run the warm-up on as many workers as this pool may use at once."""
        await asyncio.to_thread(self._connect)
        if self.warm is not None:
            await asyncio.gather(*(self._remote.remote(self.warm, ()) for _ in range(self.size)))

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        """Run ``fn(*args)`` on a Ray worker and return its result.

        Args:
            fn: a function defined at the top level of a module.
            args: its arguments, which must pickle.
            timeout: seconds the call may take, waiting for a free slot included.

        Raises:
            WorkerTimeoutError: the call ran past ``timeout``; it was cancelled on the cluster.
            RuntimeError: the pool is closed.
            Exception: whatever ``fn`` raised.
        """
        if self._closed:
            raise RuntimeError("the engine pool is closed")
        if self._remote is None:
            await asyncio.to_thread(self._connect)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        slots = self._semaphore()
        try:
            await asyncio.wait_for(slots.acquire(), timeout)
        except TimeoutError:
            raise WorkerTimeoutError(f"no engine slot was free within {timeout:g} seconds") from None
        try:
            reference = self._remote.remote(fn, args)
            try:
                result: T = await asyncio.wait_for(reference, max(0.0, deadline - loop.time()))
            except TimeoutError:
                self._ray.cancel(reference, force=True)
                raise WorkerTimeoutError(f"the call ran past its limit of {timeout:g} seconds") from None
            except asyncio.CancelledError:
                self._ray.cancel(reference, force=True)
                raise
            except self._ray.exceptions.RayTaskError as error:
                raise error.as_instanceof_cause() from None
            return result
        finally:
            slots.release()

    def close(self) -> None:
        """Refuse new calls; calls in flight finish on the cluster (the connection ends with the process)."""
        self._closed = True
