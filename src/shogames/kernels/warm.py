"""Warm the compiled kernels: compile them into numba's on-disk cache, or load them from it.

A kernel's first use on a machine compiles its numba functions (seconds to tens of seconds a game) and
writes the machine code to the cache beside the module (``__pycache__``); every later process loads it
from there in well under a second. :func:`warm_kernels` does that for every registered game that names a
kernel module, so that nobody waits for a compile later: ``shogames serve`` (and so ``./start.sh``) runs
it before it says where it is running, and ``shogames warm`` runs it by hand.

``python -m shogames.kernels.warm`` prints one line a game, so a server can warm the cache in a child
process and keep numba out of its own memory.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from shogames.core.kernel import compiled_so_far, unavailable_reason
from shogames.core.protocol import Game
from shogames.core.registry import available_games, make

__all__ = ["WarmUp", "main", "warm_kernel", "warm_kernels", "warm_kernels_in_processes"]


@dataclass(frozen=True, slots=True)
class WarmUp:
    """How one game's kernel was made ready.

    Attributes:
        game: the game's name.
        seconds: the wall-clock time it took.
        compiled: how many compiled functions had to be compiled (0: everything came from the cache).
        missing: why the game has no kernel here (empty when it has one).
    """

    game: str
    seconds: float
    compiled: int
    missing: str = ""

    def line(self) -> str:
        """One line for a person: compiled, loaded, or why there is no kernel."""
        if self.missing:
            return f"{self.game}: no compiled kernel ({self.missing})"
        if self.compiled:
            return f"{self.game}: compiled in {self.seconds:.1f} s ({self.compiled} functions, now cached)"
        return f"{self.game}: loaded from the cache in {self.seconds:.2f} s"


def warm_kernel(game: Game[Any], batch: bool = False) -> WarmUp:
    """Compile or load ``game``'s kernel and run its compiled loops once (its batch too, with ``batch``)."""
    started = time.perf_counter()
    before = compiled_so_far()
    kernel = game.kernel  # (the command line's announcer warms it here already)
    if kernel is None:
        return WarmUp(game.name, time.perf_counter() - started, 0, unavailable_reason(game))
    kernel.warm_up(batch=batch)
    return WarmUp(game.name, time.perf_counter() - started, compiled_so_far() - before)


def warm_kernels(
    games: Iterable[Game[Any]] | None = None,
    report: Callable[[WarmUp], None] | None = None,
    batch: bool = False,
) -> list[WarmUp]:
    """Warm the kernel of each game (by default every registered game that names a kernel module).

    Args:
        games: the games, each with the settings to warm (the kernels' compiled code does not depend on
            the settings, so the defaults warm every setting).
        report: called with each game's result as soon as it is ready.
        batch: also each kernel's compiled batch of games (:meth:`Kernel.warm_up`).
    """
    chosen = list(games) if games is not None else [cls() for cls in available_games() if cls.kernel_module]
    results = []
    for game in chosen:
        result = warm_kernel(game, batch)
        if report is not None:
            report(result)
        results.append(result)
    return results


def _warm_game(game_id: str, batch: bool = False) -> WarmUp:
    """Warm the kernel of the game ``game_id`` under its defaults (in a worker process)."""
    return warm_kernel(make(game_id), batch)


def warm_kernels_in_processes(
    jobs: int | None = None, report: Callable[[WarmUp], None] | None = None, batch: bool = False
) -> list[WarmUp]:
    """Warm every registered game's kernel, several games at once in processes of their own.

    A compile runs on one core, so on a machine's first run the games compile side by side, ``jobs`` at
    a time (one per core by default); the results come in the order the games finish.

    Args:
        jobs: how many processes at once; 1 warms in this process, one game after another.
        report: called with each game's result as soon as it is ready.
        batch: also each kernel's compiled batch of games.
    """
    ids = [cls.id for cls in available_games() if cls.kernel_module]
    jobs = min(len(ids), jobs if jobs is not None else os.cpu_count() or 1)
    if jobs <= 1:
        return warm_kernels([make(game_id) for game_id in ids], report, batch)
    results = []
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        for done in as_completed([pool.submit(_warm_game, game_id, batch) for game_id in ids]):
            result = done.result()
            if report is not None:
                report(result)
            results.append(result)
    return results


def main(argv: Sequence[str] | None = None) -> None:
    """Warm every kernel, one process a core, printing a line a game (``python -m shogames.kernels.warm``).

    With ``--batch`` (the first argument), each kernel's compiled batch of games too.
    """
    arguments = list(sys.argv[1:] if argv is None else argv)
    batch = arguments == ["--batch"]
    warm_kernels_in_processes(report=lambda result: print(result.line(), flush=True), batch=batch)


if __name__ == "__main__":
    main()
