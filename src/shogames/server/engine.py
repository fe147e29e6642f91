"""Engine work (computer moves, hints, analyses, replays) in worker processes, by priority and by client.

lichess keeps engine analysis away from its game servers, so that no one's game waits for someone's
analysis. On one machine, :class:`Engine` does the same with two pools of worker processes
(:class:`~shogames.server.workers.WorkerPool`):

* **live**: the moves of computer players in games where a person plays, the work a person sits waiting
  for; every core but one (:func:`~shogames.server.workers.default_size`). Nothing else runs there.
* **study**: everything else (hints, analyses, record replays, and the moves of games between computer
  players), on :func:`study_size` workers whose scheduling priority is lowered (``nice``
  :data:`STUDY_NICE`), so that on a busy machine the live workers get the CPU first.

Study work is fair between clients. A client (an address) may have at most :data:`JOBS_PER_CLIENT` jobs
running or waiting (a hint, an analysis, a replay each count one); beyond that it is refused with 429. A
free study worker goes to the waiting client served least recently (:class:`FairTurns`), not to whoever
asked first, so one client's queue of work cannot hold back another's hint for long; and a long analysis
is cut into pieces (a game review's, :mod:`shogames.server.review`: 4 positions, then 8 at a time), each
waiting for its turn, so other clients' work runs between them. The games between computer players count
as one client (:data:`COMPUTER_GAMES`): people's work is not held back by theirs.

With ``address`` (``shogames serve --engine-address``) both pools' calls run as Ray tasks on a cluster's
engine workers instead (:class:`~shogames.server.remote_engine.RayPool`), with the same priorities, turns
and limits: the work leaves the machine that serves the games.

Every worker is started and warmed (:func:`warm_worker`: shogames imported, each game's compiled kernel
loaded from numba's cache) when the server starts, before it says it is ready, and a worker that replaces
one killed for running past its limit warms before it takes work: a cold start is never charged to a move.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import importlib
import os
from collections.abc import AsyncIterator, Callable
from typing import Any, Final, Protocol, TypeVar

from shogames.server.workers import WorkerPool, WorkerTimeoutError, default_size

T = TypeVar("T")

JOBS_PER_CLIENT: Final = 2
"""Study jobs (hints, analyses, replays) one client may have running or waiting at once."""

STUDY_NICE: Final = 10
"""How much lower the study workers' scheduling priority is than the server's and the live workers'."""

COMPUTER_GAMES: Final = "games between computer players"
"""The client that the moves of games with no person seat count as: one turn for all of them."""


class EnginePool(Protocol):
    """What the engine needs of a pool: local worker processes or a Ray cluster's workers."""

    size: int
    """How many calls may run at once."""

    async def start(self) -> None:
        """Start and warm the workers; returns when they are ready."""

    async def run(self, fn: Callable[..., T], *args: Any, timeout: float) -> T:
        """Run ``fn(*args)`` on a worker within ``timeout`` seconds."""

    def close(self) -> None:
        """Stop the workers."""


class EngineBusyError(Exception):
    """A client asked for more engine work than it may have running or waiting (429)."""

    def __init__(self, jobs: int) -> None:
        self.message = (
            f"this address already has {jobs} engine jobs (hints, analyses, replays) running or waiting; "
            "try again when one has ended"
        )
        super().__init__(self.message)


def study_size() -> int:
    """The study pool's size: a quarter of the cores, at least one."""
    return max(1, (os.cpu_count() or 1) // 4)


def warm_worker() -> None:
    """A worker's warm-up: import what engine work needs and load every game's kernel from the cache.

    The kernels were compiled into numba's on-disk cache before the server started
    (``shogames serve`` runs ``python -m shogames.kernels.warm`` first), so this only loads them.
    """
    from shogames.kernels.warm import warm_kernels

    # The agents, the analysis and the records' replay, imported here rather than in a first call.
    for module in (
        "shogames.agents",
        "shogames.analysis",
        "shogames.server.record_view",
        "shogames.server.board_search",  # the analysis board's searches
    ):
        importlib.import_module(module)

    warm_kernels()


class FairTurns:
    """A fixed number of turns (study workers), handed to waiting clients least recently served first.

    A client that waits gets the next free turn when no waiting client was served longer ago, whatever the
    number of requests other clients have waiting; its own requests are served in the order they came.

    Args:
        turns: how many may hold a turn at once.
    """

    def __init__(self, turns: int) -> None:
        self._free = turns
        self._waiting: dict[str, collections.deque[asyncio.Future[None]]] = {}
        self._served: dict[str, int] = {}  # client: the number of the turn it was last given
        self._given = 0

    def waiting(self) -> int:
        """How many requests wait for a turn."""
        return sum(len(queue) for queue in self._waiting.values())

    async def acquire(self, client: str) -> None:
        """Take a turn for ``client``, waiting first if none is free (or others wait already).

        A wait that is cancelled (a time limit) gives up its place, or the turn it was just given.
        """
        if self._free > 0 and not self._waiting:
            self._free -= 1
            self._mark(client)
            return
        granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(client, collections.deque()).append(granted)
        try:
            await granted
        except asyncio.CancelledError:
            if granted.done() and not granted.cancelled():  # granted as it was cancelled
                self.release()
            else:
                self._forget(client, granted)
            raise

    @contextlib.asynccontextmanager
    async def turn(self, client: str) -> AsyncIterator[None]:
        """Hold one turn for ``client`` inside the block (:meth:`acquire`, then :meth:`release`)."""
        await self.acquire(client)
        try:
            yield
        finally:
            self.release()

    def release(self) -> None:
        """Give a turn back: it goes to the waiting client served least recently (its first request)."""
        while self._waiting:
            client = min(self._waiting, key=lambda waiting: self._served.get(waiting, -1))
            queue = self._waiting[client]
            granted = queue.popleft()
            if not queue:
                del self._waiting[client]
            if not granted.done():
                self._mark(client)
                granted.set_result(None)
                return
        self._free += 1

    def _mark(self, client: str) -> None:
        self._given += 1
        self._served[client] = self._given
        if len(self._served) > 10_000:  # forget the clients with nothing waiting
            self._served = {name: turn for name, turn in self._served.items() if name in self._waiting}

    def _forget(self, client: str, granted: asyncio.Future[None]) -> None:
        queue = self._waiting.get(client)
        if queue is not None and granted in queue:
            queue.remove(granted)
            if not queue:
                del self._waiting[client]


class Engine:
    """The server's engine work: the live and study pools, the clients' jobs and their turns.

    Args:
        live: live workers (:func:`~shogames.server.workers.default_size` by default).
        study: study workers (:func:`study_size` by default).
        jobs_per_client: study jobs a client may have running or waiting.
        warm: warm each worker (:func:`warm_worker`) before it takes work; tests that never think may
            start cold.
        address: a Ray cluster's address: run every call there
            (:class:`~shogames.server.remote_engine.RayPool`), ``live`` and ``study`` calls at once at most.
    """

    def __init__(
        self,
        live: int | None = None,
        study: int | None = None,
        *,
        jobs_per_client: int = JOBS_PER_CLIENT,
        warm: bool = True,
        address: str | None = None,
    ) -> None:
        warm_up = warm_worker if warm else None
        live_size = live if live is not None else default_size()
        study_size_ = study if study is not None else study_size()
        self.live: EnginePool
        self.study: EnginePool
        if address is not None:
            from shogames.server.remote_engine import RayPool

            self.live = RayPool(address, live_size, warm=warm_up)
            self.study = RayPool(address, study_size_, warm=warm_up)
        else:
            self.live = WorkerPool(live_size, warm=warm_up)
            self.study = WorkerPool(study_size_, nice=STUDY_NICE, warm=warm_up)
        self.jobs_per_client = jobs_per_client
        self._turns = FairTurns(self.study.size)
        self._jobs: collections.Counter[str] = collections.Counter()

    async def start(self) -> None:
        """Start and warm every worker of both pools; returns when all are ready."""
        await asyncio.gather(self.live.start(), self.study.start())

    def close(self) -> None:
        """Stop every worker."""
        self.live.close()
        self.study.close()

    def jobs_of(self, client: str) -> int:
        """The study jobs ``client`` has running or waiting."""
        return self._jobs[client]

    @contextlib.asynccontextmanager
    async def job(self, client: str) -> AsyncIterator[None]:
        """One study job of ``client`` (a hint, an analysis, a replay) inside the block.

        Raises:
            EngineBusyError: the client has :attr:`jobs_per_client` jobs running or waiting already.
        """
        if self._jobs[client] >= self.jobs_per_client:
            raise EngineBusyError(self._jobs[client])
        self._jobs[client] += 1
        try:
            yield
        finally:
            self._jobs[client] -= 1
            if not self._jobs[client]:
                del self._jobs[client]

    async def study_call(
        self, client: str, fn: Callable[..., T], *args: Any, timeout: float, wait: float | None
    ) -> T:
        """Run ``fn(*args)`` on a study worker when ``client``'s turn comes.

        Args:
            client: whose work it is (its address, or :data:`COMPUTER_GAMES`).
            fn: a function defined at the top level of a module.
            args: its arguments, which must pickle.
            timeout: seconds the call may run once it has its turn.
            wait: seconds it may wait for its turn (``None``: as long as it takes; a computer player's move
                in a game between computers waits and then gets its whole time).

        Raises:
            WorkerTimeoutError: the wait, or the call, took longer than allowed.
        """
        if wait is None:
            await self._turns.acquire(client)
        else:
            try:
                async with asyncio.timeout(wait):
                    await self._turns.acquire(client)
            except TimeoutError:
                raise WorkerTimeoutError(f"no study worker was free within {wait:g} seconds") from None
        try:
            return await self.study.run(fn, *args, timeout=timeout)
        finally:
            self._turns.release()

    async def move(self, fn: Callable[..., T], *args: Any, timeout: float, interactive: bool) -> T:
        """Run a computer player's move: on a live worker where a person plays, else on a study worker.

        Args:
            fn: the function choosing the move (top level of a module).
            args: its arguments.
            timeout: the seconds the player may think (the wait for a worker included, on a live worker).
            interactive: whether a person plays in the game (and so waits for the move).
        """
        if interactive:
            return await self.live.run(fn, *args, timeout=timeout)
        return await self.study_call(COMPUTER_GAMES, fn, *args, timeout=timeout, wait=None)
