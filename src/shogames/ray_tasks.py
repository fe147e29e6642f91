"""Work spread over a Ray cluster: the arena's games, or any list of independent tasks, on many machines.

`Ray <https://docs.ray.io/>`_ (the ``ray`` extra: ``pip install 'shogames[ray]'``) runs each task as a remote
function on the cluster's workers and hands the results back as they finish. Every task carries its own
seeds (the arena's :class:`~shogames.arena.GameTask` does), so the results are the same as in one process,
whatever the cluster and the order the tasks end in.

The address is Ray's: ``"local"`` starts a Ray on this machine for the run (or uses the one this process
already started with :func:`ray.init`), ``"auto"`` joins the cluster this machine is part of, and
``"ray://host:10001"`` connects to a cluster's head from outside. Every machine of a cluster needs shogames
installed, at the same version, as ``docs/ray.md`` says.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

TaskT = TypeVar("TaskT")
ResultT = TypeVar("ResultT")

LOCAL = "local"
"""The address that starts (or reuses) a Ray on this machine."""


def ray_module() -> Any:
    """The ``ray`` package.

    Raises:
        RuntimeError: Ray is not installed; the message says which extra installs it.
    """
    try:
        return importlib.import_module("ray")
    except ImportError as error:
        raise RuntimeError(
            "spreading work over Ray needs the ray package: pip install 'shogames[ray]'"
        ) from error


def run_on_ray(
    function: Callable[[TaskT], ResultT], tasks: Sequence[TaskT], address: str = LOCAL
) -> Iterator[ResultT]:
    """Run ``function`` on every task on a Ray cluster, yielding the results as the tasks finish.

    A Ray this function starts is shut down when the iteration ends; one the caller started is left running.

    Args:
        function: a module-level function (Ray sends it to the workers by reference).
        tasks: the tasks, each a picklable value.
        address: ``"local"``, ``"auto"`` or a ``ray://`` address (see the module's docs).

    Raises:
        RuntimeError: Ray is not installed.
    """
    ray = ray_module()
    started = False
    if not ray.is_initialized():
        if address == LOCAL:
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        started = True
    try:
        remote = ray.remote(function)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for reference in done:
                yield ray.get(reference)
    finally:
        if started:
            ray.shutdown()
