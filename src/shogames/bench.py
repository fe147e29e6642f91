"""Speed measurements: perft nodes per second and random playouts per second, with the machine they ran on.

The figures are what ``shogames bench`` prints and what ``docs/benchmarks.md`` quotes. Perft times the core
:func:`~shogames.core.perft` as it is; playouts choose uniformly among the legal moves (chance outcomes by
their probabilities) and play them with :meth:`~shogames.core.State.play_unchecked`, the search fast path.
Where the game has a compiled kernel (:attr:`~shogames.core.Game.kernel`), the same measures are taken
with it in the same run (:func:`bench_kernel`), so the report gives both and their ratios.

>>> info = machine_info()
>>> info.python.startswith(("CPython", "PyPy"))
True
"""

from __future__ import annotations

import os
import platform
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from shogames.core.chance import sample_chance
from shogames.core.kernel import Kernel
from shogames.core.perft import perft
from shogames.core.protocol import CHANCE, Game, State


@dataclass(frozen=True, slots=True)
class MachineInfo:
    """The machine and interpreter a measurement ran on.

    Attributes:
        platform: the operating system and architecture (:func:`platform.platform`).
        python: the interpreter's implementation and version, such as ``CPython 3.11.7``.
        cpu: the processor's model name, from ``/proc/cpuinfo`` where there is one.
        cpu_count: how many logical processors the machine has (0 if unknown).
    """

    platform: str
    python: str
    cpu: str
    cpu_count: int

    def summary(self) -> str:
        """Write the machine as one line for reports."""
        return f"{self.python} on {self.platform}; CPU: {self.cpu} ({self.cpu_count} logical cores)"


@dataclass(frozen=True, slots=True)
class PerftResult:
    """One timed perft run.

    Attributes:
        game_id: the game's id.
        settings: the game's settings as ``name=value`` pairs.
        depth: the perft depth.
        nodes: the perft count (the leaves at ``depth``).
        seconds: the wall-clock time the count took.
    """

    game_id: str
    settings: str
    depth: int
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        """Leaves counted per second of wall-clock time."""
        return self.nodes / self.seconds if self.seconds > 0 else float("inf")

    def summary(self) -> str:
        """Write the result as one line for reports."""
        return (
            f"perft depth {self.depth}: {self.nodes:,} nodes in {self.seconds:.3f} s"
            f" = {self.nodes_per_second:,.0f} nodes/s"
        )


@dataclass(frozen=True, slots=True)
class PlayoutResult:
    """A timed series of random playouts.

    Attributes:
        game_id: the game's id.
        settings: the game's settings as ``name=value`` pairs.
        games: how many games were played to the end.
        plies: how many moves (chance outcomes included) they took in all.
        seconds: the wall-clock time they took.
    """

    game_id: str
    settings: str
    games: int
    plies: int
    seconds: float

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall-clock time."""
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    @property
    def plies_per_second(self) -> float:
        """Plies played per second of wall-clock time."""
        return self.plies / self.seconds if self.seconds > 0 else float("inf")

    @property
    def mean_plies(self) -> float:
        """The average length of a game in plies."""
        return self.plies / self.games if self.games else 0.0

    def summary(self) -> str:
        """Write the result as one line for reports."""
        return (
            f"random playouts: {self.games:,} games, {self.plies:,} plies in {self.seconds:.3f} s"
            f" = {self.games_per_second:,.1f} games/s, {self.plies_per_second:,.0f} plies/s"
            f" (mean length {self.mean_plies:.1f} plies)"
        )


def _cpu_model() -> str:
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        try:
            text = cpuinfo.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        for line in text.splitlines():
            key, sep, value = line.partition(":")
            # x86 says "model name"; some ARM kernels say "Model" or "Hardware".
            if sep and key.strip() in {"model name", "Model", "Hardware"} and value.strip():
                return value.strip()
    return platform.processor() or platform.machine() or "unknown"


def machine_info() -> MachineInfo:
    """Describe the machine and interpreter this process runs on."""
    return MachineInfo(
        platform=platform.platform(),
        python=f"{platform.python_implementation()} {platform.python_version()}",
        cpu=_cpu_model(),
        cpu_count=os.cpu_count() or 0,
    )


def bench_perft(state: State[Any], depth: int) -> PerftResult:
    """Time :func:`~shogames.core.perft` from ``state`` to ``depth``.

    Args:
        state: the position to count from.
        depth: the perft depth, 0 or more.

    Returns:
        The count and the time it took.

    Raises:
        ValueError: the depth is negative.
    """
    started = time.perf_counter()
    nodes = perft(state, depth)
    seconds = time.perf_counter() - started
    game = state.game
    return PerftResult(game.id, game.settings_text(), depth, nodes, seconds)


def random_playout(state: State[Any], rng: random.Random) -> tuple[State[Any], int]:
    """Play uniformly random moves from ``state`` to the end of the game, on the fast path.

    Args:
        state: the position to play from.
        rng: the source of every choice, chance outcomes included.

    Returns:
        The terminal state and how many plies it took to reach it.
    """
    plies = 0
    while not state.is_terminal():
        if state.to_move == CHANCE:
            move = sample_chance(state, rng)
        else:
            moves = state.legal_moves()
            move = moves[rng.randrange(len(moves))]
        state = state.play_unchecked(move)
        plies += 1
    return state, plies


def bench_playouts(
    game: Game[Any],
    *,
    games: int | None = None,
    seconds: float | None = None,
    seed: int | None = 0,
    start: State[Any] | None = None,
) -> PlayoutResult:
    """Play random games to the end and time them.

    Plays ``games`` games, or as many as fit in ``seconds`` (always at least one), or stops at
    whichever limit comes first when both are given.

    Args:
        game: the game (with its settings) to play.
        games: how many games to play.
        seconds: how long to keep starting new games.
        seed: the seed of the random choices.
        start: the position every game starts from; the initial state by default.

    Returns:
        How many games and plies were played, and how long they took.

    Raises:
        ValueError: neither limit is given, or a limit is not positive.
    """
    if games is None and seconds is None:
        raise ValueError("bench_playouts needs a number of games, a number of seconds, or both")
    if (games is not None and games < 1) or (seconds is not None and seconds <= 0):
        raise ValueError(f"bench_playouts limits must be positive, got games={games}, seconds={seconds}")
    rng = random.Random(seed)
    first = start if start is not None else game.new_initial_state()
    played = plies = 0
    started = time.perf_counter()
    elapsed = 0.0
    while True:
        _, length = random_playout(first, rng)
        played += 1
        plies += length
        elapsed = time.perf_counter() - started
        if (games is not None and played >= games) or (seconds is not None and elapsed >= seconds):
            break
    return PlayoutResult(game.id, game.settings_text(), played, plies, elapsed)


@dataclass(frozen=True, slots=True)
class KernelBench:
    """The same measures taken with the game's compiled kernel.

    Attributes:
        warm_up_seconds: compiling (first run on a machine) or loading the cached machine code.
        perft: perft at the report's depth, the last level bulk-counted (as the reference does).
        perft_every_leaf: perft at the same depth with every leaf move generated and played.
        playouts: random playouts run inside compiled code.
    """

    warm_up_seconds: float
    perft: PerftResult
    perft_every_leaf: PerftResult
    playouts: PlayoutResult


def bench_kernel(
    kernel: Kernel[Any, Any], *, depth: int, seconds: float | None, games: int | None, seed: int | None
) -> KernelBench:
    """Time the kernel's perft (bulk-counted and leaf by leaf) and its compiled random playouts.

    Playouts run in batches (each game seeded from ``seed`` and its number) until ``games`` are played
    or ``seconds`` have passed, whichever comes first. Everything runs on one thread, as the reference
    does, so the ratios compare one core with one core (``benchmarks/openspiel_playouts.py --threads``
    measures the batches on every core).
    """
    if games is None and seconds is None:
        raise ValueError("bench_kernel needs a number of games, a number of seconds, or both")
    game = kernel.game
    warm = kernel.warm_up()
    start = game.start_position()
    results = []
    for bulk in (True, False):
        started = time.perf_counter()
        nodes = kernel.perft(start, depth, bulk=bulk, threads=1)
        results.append(
            PerftResult(game.id, game.settings_text(), depth, nodes, time.perf_counter() - started)
        )
    played = plies = 0
    elapsed = 0.0
    batch_size = 16
    round_number = 0
    while True:
        size = batch_size if games is None else min(batch_size, games - played)
        batch = kernel.random_playouts(size, seed=(seed or 0) + 1_000_003 * round_number, threads=1)
        round_number += 1
        played += batch.games
        plies += batch.total_plies
        elapsed += batch.seconds
        if (games is not None and played >= games) or (seconds is not None and elapsed >= seconds):
            break
        batch_size = min(batch_size * 2, 100_000)
        if seconds is not None and elapsed > 0:  # do not run far past the time asked for
            batch_size = max(16, min(batch_size, int(played / elapsed * (seconds - elapsed)) + 1))
    playouts = PlayoutResult(game.id, game.settings_text(), played, plies, elapsed)
    return KernelBench(warm, results[0], results[1], playouts)


@dataclass(frozen=True, slots=True)
class BenchReport:
    """Everything ``shogames bench`` measures for one game, with the machine it ran on.

    Attributes:
        machine: the machine and interpreter.
        perft: the timed perft count from the start position.
        playouts: the timed random playouts from the initial state.
        kernel: the same measures with the game's compiled kernel, or ``None`` (no kernel, or not asked).
    """

    machine: MachineInfo
    perft: PerftResult
    playouts: PlayoutResult
    kernel: KernelBench | None = None

    def lines(self) -> list[str]:
        """Write the report as lines for people: the game, the machine, then each measurement."""
        lines = [
            f"game: {self.perft.game_id} ({self.perft.settings})",
            f"machine: {self.machine.summary()}",
            f"reference (pure Python) {self.perft.summary()}",
            f"reference (pure Python) {self.playouts.summary()}",
        ]
        kernel = self.kernel
        if kernel is not None:
            perft_ratio = kernel.perft.nodes_per_second / self.perft.nodes_per_second
            playout_ratio = kernel.playouts.games_per_second / self.playouts.games_per_second
            lines += [
                f"kernel warm-up (compile or load the cache): {kernel.warm_up_seconds:.2f} s",
                f"kernel {kernel.perft.summary()}",
                f"kernel {kernel.perft_every_leaf.summary()} (every leaf move generated and played)",
                f"kernel {kernel.playouts.summary()}",
                f"kernel / reference (same run): perft {perft_ratio:,.1f}x, "
                f"random playouts {playout_ratio:,.1f}x",
            ]
        return lines


def run_bench(
    game: Game[Any],
    *,
    depth: int = 3,
    seconds: float | None = 3.0,
    games: int | None = None,
    seed: int | None = 0,
    kernel: bool = True,
) -> BenchReport:
    """Measure perft at ``depth`` from the start position and random playouts from the initial state.

    With ``kernel`` and a game that has one, the same measures are also taken with the compiled kernel.

    Args:
        game: the game (with its settings) to measure.
        depth: the perft depth.
        seconds: how long to keep starting random games (see :func:`bench_playouts`).
        games: how many random games to play at most.
        seed: the seed of the random playouts.
        kernel: also measure the game's kernel, if it has one.

    Returns:
        The machine and the measurements.

    Raises:
        ValueError: the depth is negative, or the playout limits are missing or not positive.
    """
    compiled = game.kernel if kernel else None
    return BenchReport(
        machine=machine_info(),
        perft=bench_perft(game.start_position(), depth),
        playouts=bench_playouts(game, games=games, seconds=seconds, seed=seed),
        kernel=None
        if compiled is None
        else bench_kernel(compiled, depth=depth, seconds=seconds, games=games, seed=seed),
    )
