"""The Shoo kernel's speed per CPU-second, beside OpenSpiel's C++ Chinese checkers in the same run.

Every figure is work divided by the CPU time of this process (``time.process_time``), so a busy machine
slows the wall clock but not the figures much; the single-threaded ones run with one numba thread. Each
measure is the median of ``--repeats`` repeats, the measures taking turns within each repeat so that a
change in the machine's load touches them alike.

- OpenSpiel C++ Chinese checkers (``pyspiel.load_game("chinese_checkers")``, uniformly random bots through
  ``pyspiel.evaluate_bots``, all in C++): games per CPU-second times the mean game length, measured apart
  (untimed games through pyspiel's Python API with uniformly random actions), as
  ``benchmarks/openspiel_playouts.py`` does. Skipped when OpenSpiel is not installed.
- The Shoo kernel's random playouts from the toss (default settings): plies per CPU-second.
- The kernel's perft 4 from the start position, bulk-counted and every leaf played: leaves per CPU-second.
- The kernel's alpha-beta and MCTS on midgame positions of seeded random games (a fixed node or simulation
  budget): positions and simulations per CPU-second.
- The reference (pure Python): perft 3 from the start position and seeded random playouts, per CPU-second.
- ``--threads N``: the kernel's playouts again with N threads, wall clock against one thread.
- ``--compile``: the kernel's compile time on an empty cache and its load time from the cache, each a
  ``warm_up()`` in a new process (the cache files of ``shogames/games/shoo`` deleted before the first).

Usage: python benchmarks/shoo_speed.py [--repeats 3] [--seconds 2] [--threads 2] [--compile]
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import random
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import shogames
from shogames.bench import bench_playouts, machine_info
from shogames.core.kernel import require_kernel
from shogames.core.perft import perft
from shogames.core.protocol import State


def cpu_rate(run: Callable[[], float], seconds: float) -> float:
    """Work per CPU-second: call ``run()`` (which returns the work it did) until ``seconds`` of CPU pass."""
    work = 0.0
    started = time.process_time()
    while True:
        work += run()
        spent = time.process_time() - started
        if spent >= seconds:
            return work / spent


def openspiel_rate(seconds: float, seed: int) -> float:
    """Chinese checkers games per CPU-second, random bots in C++."""
    import pyspiel

    game = pyspiel.load_game("chinese_checkers")
    rounds = [0]

    def batch() -> float:
        rounds[0] += 1
        bots = [pyspiel.make_uniform_random_bot(p, seed + 101 * rounds[0] + p) for p in range(2)]
        for index in range(10):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + 1000 * rounds[0] + index)
        return 10.0

    return cpu_rate(batch, seconds)


def openspiel_length(games: int, seed: int) -> float:
    """The mean length in plies of uniformly random Chinese checkers games (untimed)."""
    import pyspiel

    game = pyspiel.load_game("chinese_checkers")
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / games


def playouts(kernel: Any, games: int, seed: int, threads: int | None) -> Any:
    """The kernel's random playouts, on ``threads`` threads where the kernel takes the argument."""
    if "threads" in inspect.signature(kernel.random_playouts).parameters:
        return kernel.random_playouts(games, seed=seed, threads=threads)
    return kernel.random_playouts(games, seed=seed)


def kernel_plies_rate(kernel: Any, seconds: float, seed: int) -> float:
    """Plies per CPU-second of the kernel's single-threaded random playouts, batches of 100 games."""
    rounds = [0]

    def batch() -> float:
        rounds[0] += 1
        return float(playouts(kernel, 100, seed * 1_000_003 + rounds[0], 1).total_plies)

    return cpu_rate(batch, seconds)


def midgames(game: Any, count: int) -> list[State[Any]]:
    """Positions 30 to 90 random plies into seeded games, a seat to move."""
    positions = []
    for seed in range(count):
        rng = random.Random(seed)
        state = game.new_initial_state()
        target = 30 + 60 * seed // max(count, 1)
        while state.ply < target or state.to_move is None or state.to_move < 0:
            moves = state.legal_moves()
            state = state.play_unchecked(moves[rng.randrange(len(moves))])
            if state.is_terminal():
                state = game.new_initial_state()
        positions.append(state)
    return positions


def search_rates(
    kernel: Any, positions: list[State[Any]], nodes: int, simulations: int
) -> tuple[float, float]:
    """(alpha-beta positions, MCTS simulations) per CPU-second over the positions."""
    spent = work = 0.0
    for state in positions:
        searcher = kernel.alphabeta(seed=0)
        started = time.process_time()
        work += searcher.search(state, work=nodes).nodes
        spent += time.process_time() - started
    alphabeta = work / spent
    spent = work = 0.0
    for state in positions:
        searcher = kernel.mcts(seed=0)
        started = time.process_time()
        work += searcher.search(state, work=simulations).nodes
        spent += time.process_time() - started
    return alphabeta, work / spent


def perft_rate(kernel: Any, state: State[Any], depth: int, bulk: bool) -> float:
    started = time.process_time()
    leaves: int = kernel.perft(state, depth, bulk=bulk)
    return leaves / (time.process_time() - started)


def reference_rates(game: Any, seed: int) -> tuple[float, float]:
    """(perft 3 leaves, random playout plies) per CPU-second of the pure-Python reference."""
    start = game.start_position()
    started = time.process_time()
    leaves = perft(start, 3)
    perft_rate = leaves / (time.process_time() - started)
    started = time.process_time()
    result = bench_playouts(game, games=2, seed=seed)
    return perft_rate, result.plies / (time.process_time() - started)


def wall_speed_up(kernel: Any, threads: int, games: int) -> tuple[float, float, bool]:
    """(wall seconds on 1 thread, on ``threads``, whether the results agree) of one large batch."""
    started = time.perf_counter()
    one = playouts(kernel, games, 7, 1)
    single = time.perf_counter() - started
    started = time.perf_counter()
    many = playouts(kernel, games, 7, threads)
    parallel = time.perf_counter() - started
    same = one.plies.tolist() == many.plies.tolist() and one.returns.tolist() == many.returns.tolist()
    return single, parallel, same


def compile_cost() -> tuple[float, float, float, float]:
    """(wall, CPU) seconds of ``warm_up()`` in a new process on an empty cache, then from the cache."""
    import shogames.games.shoo as package

    cache = Path(package.__file__).parent / "__pycache__"
    for pattern in ("*.nbi", "*.nbc"):
        for path in cache.glob(pattern):
            path.unlink()
    code = (
        "import time, resource; t = time.perf_counter(); import shogames; "
        "k = shogames.make('shoo').kernel; k.warm_up(); u = resource.getrusage(resource.RUSAGE_SELF); "
        "print(time.perf_counter() - t, u.ru_utime + u.ru_stime)"
    )
    figures = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        wall, cpu = done.stdout.split()[-2:]
        figures += [float(wall), float(cpu)]
    return figures[0], figures[1], figures[2], figures[3]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per playout measure")
    parser.add_argument("--positions", type=int, default=6, help="midgame positions for the searches")
    parser.add_argument("--nodes", type=int, default=200_000, help="alpha-beta nodes per search")
    parser.add_argument("--simulations", type=int, default=20_000, help="MCTS simulations per search")
    parser.add_argument("--threads", type=int, default=0, help="also time a batch on this many threads")
    parser.add_argument("--batch", type=int, default=2000, help="games in the threaded batch")
    parser.add_argument("--compile", action="store_true", help="measure compile and load first")
    parser.add_argument("--no-reference", action="store_true", help="skip the pure-Python reference")
    args = parser.parse_args()
    print(f"machine: {machine_info().summary()}")
    load = " ".join(f"{x:.2f}" for x in __import__("os").getloadavg())
    print(f"load average at the start: {load}")
    if args.compile:
        wall, cpu, load_wall, load_cpu = compile_cost()
        print(f"compile (empty cache): {wall:.1f} s wall, {cpu:.1f} s CPU; "
              f"load (cache): {load_wall:.2f} s wall, {load_cpu:.2f} s CPU")  # fmt: skip
    game = shogames.make("shoo")
    kernel = require_kernel(game)
    kernel.warm_up()
    has_openspiel = importlib.util.find_spec("pyspiel") is not None
    length = openspiel_length(50, seed=1) if has_openspiel else 0.0
    positions = midgames(game, args.positions)
    start = game.start_position()
    rows: dict[str, list[float]] = {}
    for repeat in range(args.repeats):
        if has_openspiel:
            rows.setdefault("OpenSpiel C++ chinese_checkers plies/CPU-s", []).append(
                openspiel_rate(args.seconds, repeat) * length
            )
        rows.setdefault("Shoo kernel playouts plies/CPU-s (1 thread)", []).append(
            kernel_plies_rate(kernel, args.seconds, repeat)
        )
        rows.setdefault("Shoo kernel perft 4 bulk leaves/CPU-s", []).append(
            perft_rate(kernel, start, 4, True)
        )
        rows.setdefault("Shoo kernel perft 4 every leaf leaves/CPU-s", []).append(
            perft_rate(kernel, start, 4, False)
        )
        alphabeta, mcts = search_rates(kernel, positions, args.nodes, args.simulations)
        rows.setdefault("Shoo kernel alpha-beta positions/CPU-s", []).append(alphabeta)
        rows.setdefault("Shoo kernel MCTS simulations/CPU-s", []).append(mcts)
        if not args.no_reference:
            reference_perft, reference_plies = reference_rates(game, repeat)
            rows.setdefault("Shoo reference perft 3 leaves/CPU-s", []).append(reference_perft)
            rows.setdefault("Shoo reference playouts plies/CPU-s", []).append(reference_plies)
    if has_openspiel:
        print(f"OpenSpiel chinese_checkers mean length: {length:.1f} plies (50 untimed games)")
    print(f"{args.repeats} repeats, median (min - max):")
    for label, values in rows.items():
        print(f"  {label}: {statistics.median(values):,.0f} ({min(values):,.0f} - {max(values):,.0f})")
    if has_openspiel:
        ratios = [
            ours / theirs
            for ours, theirs in zip(
                rows["Shoo kernel playouts plies/CPU-s (1 thread)"],
                rows["OpenSpiel C++ chinese_checkers plies/CPU-s"],
                strict=True,
            )
        ]
        print(f"  Shoo kernel / OpenSpiel chinese_checkers, same repeat: {statistics.median(ratios):.3f}x "
              f"({min(ratios):.3f} - {max(ratios):.3f})")  # fmt: skip
    if args.threads > 1:
        single, parallel, same = wall_speed_up(kernel, args.threads, args.batch)
        print(f"{args.batch} games, wall clock: 1 thread {single:.2f} s, {args.threads} threads "
              f"{parallel:.2f} s: {single / parallel:.2f}x; results the same: {same}")  # fmt: skip
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"process CPU: {usage.ru_utime + usage.ru_stime:.1f} s; load average at the end: "
          + " ".join(f"{x:.2f}" for x in __import__("os").getloadavg()))  # fmt: skip


if __name__ == "__main__":
    main()
