"""Measure a game's compiled kernel against its pure-Python reference, in one run, with medians.

Prints Markdown tables for docs/benchmarks.md ("Kernels"): the first-run compile cost and the cached load,
random playouts (reference and kernel, and their ratio in each repeat), perft by depth with and without
bulk counting, and the searches (alpha-beta positions/s and MCTS simulations/s, kernel and reference) on
midgame positions taken from seeded random games.

Besides wall-clock rates, the compile cost, the kernel's playouts and its bulk perft are also given per
CPU-second (``time.process_time()``, the child's CPU time for the compile), which holds on a shared
machine; the kernel's batch loops run on one thread for these (where a kernel takes ``threads``).

Usage:
    python benchmarks/kernels.py [GAME] [--repeats 5] [--perft-depth 4] [--every-leaf-depth 3]
        [--reference-perft-depth 3] [--positions 12] [--search-seconds 0.5] [--min-plies 20]
        [--max-plies 61] [--skip-compile]

``--every-leaf-depth 4`` plays all 1,410,935,460 leaves of Shobu's depth 4 (about two minutes a repeat).
"""

from __future__ import annotations

import argparse
import inspect
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import shogames
from shogames.agents import AlphaBetaAgent, MCTSAgent
from shogames.bench import bench_playouts, machine_info
from shogames.core.chance import random_plies, sample_chance
from shogames.core.kernel import require_kernel
from shogames.core.perft import perft
from shogames.core.protocol import CHANCE, Game, State


def median_row(label: str, values: list[float], digits: int = 0) -> str:
    spec = f",.{digits}f"
    return (
        f"| {label} | {format(statistics.median(values), spec)} | {format(min(values), spec)} "
        f"| {format(max(values), spec)} |"
    )


def compile_cost(game_id: str) -> tuple[tuple[float, float], tuple[float, float]]:
    """(wall, CPU) seconds of warm_up() in a new process with an empty numba cache, then with it filled.

    The CPU seconds are the child process's (user and system, all its threads).
    """
    code = (
        "import time; t = time.perf_counter(); import shogames; "
        f"k = shogames.make({game_id!r}).kernel; k.warm_up(); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        times = []
        for _ in range(2):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            times.append((float(done.stdout.split()[-1]), cpu))
    return times[0], times[1]


def one_thread(method: Any) -> dict[str, Any]:
    """``{"threads": 1}`` where a kernel's batch method takes ``threads``, else nothing."""
    return {"threads": 1} if "threads" in inspect.signature(method).parameters else {}


def midgame_positions(game: Game[Any], count: int, seed: int, plies: tuple[int, int]) -> list[State[Any]]:
    """Positions ``plies`` plies into seeded random games (exact chance): a seat to choose among two or
    more moves."""
    rng = random.Random(seed)
    positions: list[State[Any]] = []
    while len(positions) < count:
        state = random_plies(game.new_initial_state(), rng.randrange(*plies), rng)
        while not state.is_terminal() and state.to_move == CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
        if not state.is_terminal() and len(state.legal_moves()) >= 2:  # agents do not search one move
            positions.append(state)
    return positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="?", default="shobu")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--perft-depth", type=int, default=4)
    parser.add_argument("--every-leaf-depth", type=int, default=3)
    parser.add_argument("--reference-games", type=int, default=100)
    parser.add_argument("--kernel-games", type=int, default=20_000)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--search-seconds", type=float, default=0.5)
    parser.add_argument("--min-plies", type=int, default=20)
    parser.add_argument("--max-plies", type=int, default=61)
    parser.add_argument("--reference-perft-depth", type=int, default=3)
    parser.add_argument("--skip-compile", action="store_true")
    args = parser.parse_args()

    game = shogames.make(args.game)
    kernel = require_kernel(game)
    print(f"machine: {machine_info().summary()}")
    print(f"game: {game.id} ({game.settings_text()}), {args.repeats} repeats, median shown\n")

    if not args.skip_compile:
        (first, first_cpu), (cached, cached_cpu) = compile_cost(args.game)
        print(
            "| warm-up in a new process (import, then compile or load every kernel function) "
            "| seconds | CPU-seconds |"
        )
        print("|---|---:|---:|")
        print(f"| first run, empty numba cache (compiles) | {first:.1f} | {first_cpu:.1f} |")
        print(f"| later runs (loads the cache) | {cached:.2f} | {cached_cpu:.2f} |\n")
    kernel.warm_up()

    # Random playouts, reference and kernel alternating, each repeat giving its own ratio.
    ref_rates, kernel_rates, kernel_plies, kernel_cpu_plies, ratios = [], [], [], [], []
    single = one_thread(kernel.random_playouts)
    for repeat in range(args.repeats):
        reference = bench_playouts(game, games=args.reference_games, seed=repeat)
        started = time.process_time()
        batch = kernel.random_playouts(args.kernel_games, seed=repeat, **single)
        cpu = time.process_time() - started
        ref_rates.append(reference.games_per_second)
        kernel_rates.append(batch.games_per_second)
        kernel_plies.append(batch.plies_per_second)
        kernel_cpu_plies.append(batch.total_plies / cpu)
        ratios.append(batch.games_per_second / reference.games_per_second)
    print("| random playouts | median | min | max |")
    print("|---|---:|---:|---:|")
    print(median_row(f"reference games/s ({args.reference_games} games)", ref_rates, 1))
    print(median_row(f"kernel games/s ({args.kernel_games:,} games)", kernel_rates, 0))
    print(median_row("kernel plies/s", kernel_plies, 0))
    print(median_row("kernel plies per CPU-second", kernel_cpu_plies, 0))
    print(median_row("kernel / reference, same repeat", ratios, 0))
    print()

    # Perft by depth.
    start = game.start_position()
    print(
        "| perft from the start | leaves | kernel bulk s | bulk leaves per CPU-s | kernel every leaf s "
        "| every leaf leaves/s | reference s |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    single = one_thread(kernel.perft)
    for depth in range(1, args.perft_depth + 1):
        bulk_times, bulk_cpu, leaf_times = [], [], []
        nodes = 0
        for _ in range(args.repeats):
            started, started_cpu = time.perf_counter(), time.process_time()
            nodes = kernel.perft(start, depth, **single)
            bulk_times.append(time.perf_counter() - started)
            bulk_cpu.append(time.process_time() - started_cpu)
            if depth <= args.every_leaf_depth:
                started = time.perf_counter()
                assert kernel.perft(start, depth, bulk=False, **single) == nodes
                leaf_times.append(time.perf_counter() - started)
        reference_time = "-"
        if depth <= args.reference_perft_depth:
            started = time.perf_counter()
            assert perft(start, depth) == nodes
            reference_time = f"{time.perf_counter() - started:.3f}"
        leaf = statistics.median(leaf_times) if leaf_times else 0.0
        cpu = statistics.median(bulk_cpu)
        print(
            f"| depth {depth} | {nodes:,} | {statistics.median(bulk_times):.4f} | "
            f"{f'{nodes / cpu:,.0f}' if cpu > 0 else '-'} | "
            f"{f'{leaf:.3f}' if leaf_times else '-'} | {f'{nodes / leaf:,.0f}' if leaf_times else '-'} "
            f"| {reference_time} |"
        )
    print()

    # Searches on midgame positions.
    has_alphabeta = kernel.alphabeta() is not None
    has_mcts = kernel.mcts() is not None
    if not (has_alphabeta or has_mcts):
        print(f"The {game.name} kernel has no searchers yet.")
        return
    positions = midgame_positions(game, args.positions, seed=2026, plies=(args.min_plies, args.max_plies))
    rows: dict[str, list[float]] = {}
    for index, state in enumerate(positions):
        if has_alphabeta:
            ab = kernel.alphabeta(seed=index)
            assert ab is not None
            found = ab.search(state, seconds=args.search_seconds)
            agent = AlphaBetaAgent(seed=index, depth=64, nodes=20_000)
            started = time.perf_counter()
            agent.select_move(state)
            reference_nps = agent.budget.used / (time.perf_counter() - started)
            rows.setdefault("kernel alpha-beta positions/s", []).append(found.nodes_per_second)
            rows.setdefault("kernel alpha-beta depth reached", []).append(found.depth)
            rows.setdefault("reference alpha-beta positions/s (nodes=20000)", []).append(reference_nps)
            rows.setdefault("alpha-beta kernel / reference, same position", []).append(
                found.nodes_per_second / reference_nps
            )
        if has_mcts:
            mcts = kernel.mcts(seed=index)
            assert mcts is not None
            simulated = mcts.search(state, seconds=args.search_seconds)
            if not simulated.nodes:
                continue  # a move that wins at once: nothing was searched
            python_mcts = MCTSAgent(seed=index, iterations=1000, rollout=0, reuse=0)
            started = time.perf_counter()
            python_mcts.select_move(state)
            reference_sims = 1000 / (time.perf_counter() - started)
            rows.setdefault("kernel MCTS simulations/s", []).append(simulated.nodes_per_second)
            rows.setdefault("reference MCTS simulations/s (rollout=0, 1,000 iterations)", []).append(
                reference_sims
            )
            rows.setdefault("MCTS kernel / reference, same position", []).append(
                simulated.nodes_per_second / reference_sims
            )
    print(
        f"{len(positions)} positions {args.min_plies}-{args.max_plies} random plies into the game, "
        f"{args.search_seconds} s per kernel search\n"
    )
    print("| search | median | min | max |")
    print("|---|---:|---:|---:|")
    for label, values in rows.items():
        print(median_row(label, values, 1 if "depth" in label else 0))


if __name__ == "__main__":
    main()
