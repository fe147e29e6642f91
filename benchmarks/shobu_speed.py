"""The Shobu kernel's speed per CPU-second: playouts, perft, alpha-beta, and the reference's playouts.

Every figure is work divided by the CPU time of the process (``time.process_time()``) around one
single-threaded compiled loop, so that it holds on a shared machine where wall-clock time does not;
each is the median of ``--repeats`` runs. These are the figures of issue 23 and ``docs/benchmarks.md``:

- random playouts: plies per CPU-second of ``random_playouts(--games)`` from the start, one thread;
- perft from the start: bulk-counted leaves per CPU-second at ``--perft-depth``, and every leaf built
  at ``--every-leaf-depth``;
- alpha-beta: positions per CPU-second and CPU-seconds to a fixed ``--search-depth`` over the midgame
  positions of ``benchmarks/kernels.py`` (seed 2026, 20-60 random plies in), one new searcher each;
- the pure-Python reference's random playouts (what ``shogames bench shobu`` plays), plies per
  CPU-second;
- ``parallel`` (not in the default set): the wall-clock speed-up of ``random_playouts(--parallel-games)``
  on 2 threads over 1 thread, alternating, best of ``--repeats`` each, with the load average: a wall-clock
  figure, meaningful only on a machine with two idle cores.

Usage: python benchmarks/shobu_speed.py [--repeats 5] [--games 20000] [--perft-depth 4]
    [--every-leaf-depth 3] [--search-depth 4] [--positions 8] [--reference-games 100]
    [--parallel-games 200000] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable

from kernels import midgame_positions

import shogames
from shogames.bench import bench_playouts, machine_info
from shogames.games.shobu.kernel import ShobuKernel

MEASURES = ("playouts", "perft", "every-leaf", "alphabeta", "reference")
EXTRA_MEASURES = ("parallel",)


def cpu_timed(run: Callable[[], int]) -> tuple[int, float]:
    """(what ``run`` returns, the process's CPU seconds it took)."""
    started = time.process_time()
    work = run()
    return work, time.process_time() - started


def report(label: str, rates: list[float], unit: str) -> None:
    """One line: the median rate and the range over the repeats."""
    print(
        f"{label}: {statistics.median(rates):,.0f} {unit} per CPU-second "
        f"(min {min(rates):,.0f}, max {max(rates):,.0f}, {len(rates)} repeats)"
    )


def playouts(kernel: ShobuKernel, games: int, repeat: int) -> int:
    """The plies of one single-threaded batch of random games."""
    return kernel.random_playouts(games, seed=repeat, threads=1).total_plies


def perft(kernel: ShobuKernel, depth: int, bulk: bool) -> int:
    """The leaves of one single-threaded perft from the start."""
    return kernel.perft(kernel.game.new_initial_state(), depth, bulk=bulk, threads=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--perft-depth", type=int, default=4)
    parser.add_argument("--every-leaf-depth", type=int, default=3)
    parser.add_argument("--search-depth", type=int, default=4)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--reference-games", type=int, default=100)
    parser.add_argument("--parallel-games", type=int, default=200_000)
    parser.add_argument("--only", nargs="*", choices=MEASURES + EXTRA_MEASURES, default=list(MEASURES))
    args = parser.parse_args()

    game = shogames.make("shobu")
    kernel = game.kernel
    assert isinstance(kernel, ShobuKernel), "the Shobu kernel is not available"
    print(f"machine: {machine_info().summary()}; load average {os.getloadavg()[0]:.1f} at the start")
    _, warm_cpu = cpu_timed(lambda: int(kernel.warm_up()))
    print(f"warm-up: {warm_cpu:.2f} CPU-seconds")

    if "playouts" in args.only:
        rates = []
        for repeat in range(args.repeats):
            plies, seconds = cpu_timed(lambda: playouts(kernel, args.games, repeat))  # noqa: B023
            rates.append(plies / seconds)
        report(f"kernel random playouts ({args.games:,} games, 1 thread)", rates, "plies")
    if "perft" in args.only:
        leaves_rates = []
        for _ in range(args.repeats):
            leaves, seconds = cpu_timed(lambda: perft(kernel, args.perft_depth, True))
            leaves_rates.append(leaves / seconds)
        report(f"kernel perft {args.perft_depth} bulk ({leaves:,} leaves)", leaves_rates, "leaves")
    if "every-leaf" in args.only:
        leaves_rates = []
        for _ in range(args.repeats):
            leaves, seconds = cpu_timed(lambda: perft(kernel, args.every_leaf_depth, False))
            leaves_rates.append(leaves / seconds)
        report(f"kernel perft {args.every_leaf_depth} every leaf ({leaves:,} leaves)", leaves_rates, "leaves")
    if "alphabeta" in args.only:
        positions = midgame_positions(game, args.positions, seed=2026, plies=(20, 61))
        node_rates, totals, node_totals = [], [], []
        for _ in range(args.repeats):
            nodes_sum, cpu_sum = 0, 0.0
            for index, state in enumerate(positions):
                searcher = kernel.alphabeta(seed=index, depth=args.search_depth)
                assert searcher is not None
                result, seconds = cpu_timed(lambda: searcher.search(state, work=10**12).nodes)  # noqa: B023
                nodes_sum += result
                cpu_sum += seconds
            node_rates.append(nodes_sum / cpu_sum)
            totals.append(cpu_sum)
            node_totals.append(nodes_sum)
        report(
            f"kernel alpha-beta depth {args.search_depth}, {len(positions)} midgame positions "
            f"({node_totals[0]:,} positions)",
            node_rates,
            "positions",
        )
        median_total = statistics.median(totals)
        print(f"  CPU-seconds to depth {args.search_depth} over the positions: median {median_total:.3f}")
    if "reference" in args.only:
        rates = []
        for repeat in range(args.repeats):
            plies, seconds = cpu_timed(
                lambda: bench_playouts(game, games=args.reference_games, seed=repeat).plies  # noqa: B023
            )
            rates.append(plies / seconds)
        report(f"reference random playouts ({args.reference_games} games)", rates, "plies")
    if "parallel" in args.only:
        walls: dict[int, list[float]] = {1: [], 2: []}
        loads = []
        for repeat in range(args.repeats):
            for threads in (1, 2):
                loads.append(os.getloadavg()[0])
                batch = kernel.random_playouts(args.parallel_games, seed=repeat, threads=threads)
                walls[threads].append(batch.seconds)
        print(
            f"random playouts ({args.parallel_games:,} games), wall clock, best of {args.repeats}: "
            f"1 thread {min(walls[1]):.3f} s, 2 threads {min(walls[2]):.3f} s, speed-up "
            f"{min(walls[1]) / min(walls[2]):.2f} (load average {min(loads):.1f}-{max(loads):.1f})"
        )


if __name__ == "__main__":
    main()
