"""Sho and Shogammon per CPU-second: the kernels, the references and OpenSpiel's C++ peers, in one run.

Every rate here is a count over CPU time (``time.process_time``), not wall-clock time, so that a busy
machine changes the figures little; each is the median of ``--repeats`` runs. What is measured:

- **Kernels**: compiled random playouts (one thread), plies per CPU-second. A ply is any move, the
  throws of the dice included.
- **OpenSpiel's C++ peers** (``pip install open_spiel``; not a dependency): Mensch ärgere Dich nicht
  (``maedn``, 2, 3 and 4 players) beside Sho with as many players, shogi and backgammon beside
  Shogammon. Each repeat plays ``--peer-games`` games with ``pyspiel.evaluate_bots`` (uniformly random
  bots, entirely in C++) and is timed; the same games are then played again untimed, with each bot
  wrapped so that it sees the game's history, which counts their plies (chance outcomes included), so
  both sides of a ratio count plies the same way, in the same games that were timed.
- **References**: the pure-Python engines' random playouts (``shogames.bench.random_playout``) over
  fixed seeds, so that two runs of this script before and after a change play the same games: CPU
  microseconds per ply.
- ``--threads``: the wall-clock speed-up of one big playout batch on 2 threads over 1 (a kernel whose
  ``random_playouts`` takes ``threads``), with the load average beside it.
- ``--searches``: the kernels' alpha-beta (positions per CPU-second, a fixed node budget) and MCTS
  (simulations per CPU-second, a fixed number) on midgame positions of seeded random games.
- ``--compile``: each kernel's ``warm_up()`` in a fresh process with an empty numba cache (a new
  ``NUMBA_CACHE_DIR``), then again in another fresh process with that cache filled: wall and CPU seconds.

Usage: python benchmarks/dice_kernels.py [--repeats 3] [--kernel-games 400] [--peer-games 200]
    [--reference-games 20] [--threads] [--searches] [--compile] [--skip-openspiel] [--skip-reference]
"""

from __future__ import annotations

import argparse
import importlib.util
import inspect
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import shogames
from shogames.bench import machine_info, random_playout

OURS: list[tuple[str, str, dict[str, object]]] = [
    ("Sho, 2 players", "sho", {"players": 2}),
    ("Sho, 3 players", "sho", {}),
    ("Sho, 4 players", "sho", {"players": 4}),
    ("Shogammon", "shogammon", {}),
]
"""Our games: Sho with 2, 3 (its default) and 4 players (teams), Shogammon with its defaults."""

PEERS: list[tuple[str, str, dict[str, int]]] = [
    ("maedn, 2 players", "maedn", {"players": 2}),
    ("maedn, 3 players", "maedn", {"players": 3}),
    ("maedn, 4 players", "maedn", {"players": 4}),
    ("shogi", "shogi", {}),
    ("backgammon", "backgammon", {}),
]
"""OpenSpiel's C++ games."""

PAIRS: list[tuple[str, str]] = [
    ("Sho, 2 players", "maedn, 2 players"),
    ("Sho, 3 players", "maedn, 3 players"),
    ("Sho, 4 players", "maedn, 4 players"),
    ("Shogammon", "shogi"),
    ("Shogammon", "backgammon"),
]


def one_thread(kernel: Any) -> dict[str, object]:
    """``threads=1`` where the kernel's ``random_playouts`` takes it (the keyword is new), else nothing."""
    return {"threads": 1} if "threads" in inspect.signature(kernel.random_playouts).parameters else {}


def kernel_rate(kernel: Any, games: int, seed: int) -> float:
    """Plies per CPU-second of one batch of ``games`` compiled random playouts on one thread."""
    started = time.process_time()
    batch = kernel.random_playouts(games, seed=seed, **one_thread(kernel))
    return float(batch.total_plies) / (time.process_time() - started)


def reference_rate(game: Any, games: int, seed: int) -> tuple[float, int]:
    """(CPU microseconds per ply, plies) of ``games`` reference random playouts from fixed seeds."""
    plies = 0
    started = time.process_time()
    for index in range(games):
        _, length = random_playout(game.new_initial_state(), random.Random(1000 * seed + index))
        plies += length
    return 1e6 * (time.process_time() - started) / plies, plies


def peer_rate(short_name: str, params: dict[str, int], games: int, seed: int) -> tuple[float, float]:
    """(plies per CPU-second, mean plies) of ``games`` OpenSpiel games played by uniformly random bots.

    The games are timed in C++ (``evaluate_bots``), then played again with each bot wrapped to see the
    history (the same seeds give the same games): that counts their plies, chance outcomes included.
    """
    import pyspiel

    game = pyspiel.load_game(short_name, params) if params else pyspiel.load_game(short_name)
    players = game.num_players()

    class Counting(pyspiel.Bot):  # type: ignore[misc]
        """The uniformly random bot, remembering the longest history it was asked to move in."""

        def __init__(self, inner: Any, longest: list[int]) -> None:
            pyspiel.Bot.__init__(self)
            self.inner, self.longest = inner, longest

        def step(self, state: Any) -> int:
            self.longest[0] = max(self.longest[0], len(state.history()) + 1)
            action: int = self.inner.step(state)
            return action

        def restart_at(self, state: Any) -> None:
            self.inner.restart_at(state)

    def bots(index: int) -> list[Any]:
        return [pyspiel.make_uniform_random_bot(p, 7919 * (seed * games + index) + p) for p in range(players)]

    started = time.process_time()
    for index in range(games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots(index), seed * games + index)
    seconds = time.process_time() - started
    plies = 0
    for index in range(games):
        longest = [0]
        wrapped = [Counting(bot, longest) for bot in bots(index)]
        pyspiel.evaluate_bots(game.new_initial_state(), wrapped, seed * games + index)
        plies += longest[0]  # every peer game ends with a player's move
    return plies / seconds, plies / games


def thread_speedup(kernel: Any, games: int, repeats: int) -> tuple[float, float, float, float, float]:
    """(1-thread wall s, 2-thread wall s, speed-up, 2-thread CPU s, load average) of one batch.

    Medians of ``repeats`` runs, one and two threads alternating. The CPU seconds of the 2-thread run
    show whether both threads ran at once (about twice the wall time) or took turns on one free core.
    """
    load = os.getloadavg()[0]
    kernel.random_playouts(8, seed=0, threads=2)  # start the thread pool outside the timing
    walls: dict[int, list[float]] = {1: [], 2: []}
    cpus: list[float] = []
    for _ in range(repeats):
        for threads in (1, 2):
            wall, cpu = time.perf_counter(), time.process_time()
            batch = kernel.random_playouts(games, seed=1, threads=threads)
            walls[threads].append(time.perf_counter() - wall)
            if threads == 2:
                cpus.append(time.process_time() - cpu)
            assert batch.games == games
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    return one, two, one / two, statistics.median(cpus), load


def midgames(game: Any, count: int) -> list[Any]:
    """``count`` positions with a seat to move, 40 to 200 plies into seeded random games."""
    from shogames.core.chance import sample_chance
    from shogames.core.protocol import CHANCE

    found: list[Any] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        seed += 1
        state = game.new_initial_state()
        goal = rng.randrange(40, 200)
        while not state.is_terminal() and (state.ply < goal or state.to_move == CHANCE):
            if state.to_move == CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
            else:
                state = state.play_unchecked(rng.choice(state.legal_moves()))
        if not state.is_terminal() and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def search_rates(kernel: Any, positions: list[Any], nodes: int, simulations: int) -> tuple[float, float]:
    """(alpha-beta positions per CPU-second, MCTS simulations per CPU-second) over ``positions``."""
    searched = simulated = 0
    ab_seconds = mcts_seconds = 0.0
    for state in positions:
        searcher = kernel.alphabeta(seed=0)
        started = time.process_time()
        searched += searcher.search(state, work=nodes).nodes
        ab_seconds += time.process_time() - started
        searcher = kernel.mcts(seed=0)
        started = time.process_time()
        simulated += searcher.search(state, work=simulations).nodes
        mcts_seconds += time.process_time() - started
    return searched / ab_seconds, simulated / mcts_seconds


COMPILE_CHILD = """
import json, time
import shogames
game = shogames.make({game_id!r})
wall, cpu = time.perf_counter(), time.process_time()
game.kernel.warm_up()  # the kernel's module is imported here, numba with it
print(json.dumps([time.perf_counter() - wall, time.process_time() - cpu]))
"""


def compile_cost(game_id: str) -> tuple[list[float], list[float]]:
    """([wall, CPU] seconds of the kernel's import and warm_up with an empty numba cache, and with it filled).

    Functions with explicit signatures compile (or load) when their module is imported, so the import
    is counted with ``warm_up()``.
    """
    code = COMPILE_CHILD.format(game_id=game_id)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        runs = []
        for _ in range(2):
            done = subprocess.run(
                [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
            )
            runs.append(json.loads(done.stdout.splitlines()[-1]))
    return runs[0], runs[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--kernel-games", type=int, default=400, help="games per kernel batch")
    parser.add_argument("--peer-games", type=int, default=200, help="OpenSpiel games per repeat")
    parser.add_argument("--reference-games", type=int, default=20, help="reference games per repeat")
    parser.add_argument("--threads", action="store_true", help="measure 2 threads over 1 (wall clock)")
    parser.add_argument("--thread-games", type=int, default=4000, help="games of the threads' batch")
    parser.add_argument("--compile", action="store_true", help="measure the compile and cache-load time")
    parser.add_argument("--searches", action="store_true", help="measure the alpha-beta and the MCTS")
    parser.add_argument("--skip-openspiel", action="store_true")
    parser.add_argument("--skip-reference", action="store_true")
    args = parser.parse_args()
    print(f"machine: {machine_info().summary()}; load average {os.getloadavg()[0]:.2f}")
    print(f"shogames from {os.path.dirname(shogames.__file__)}")
    print(f"median of {args.repeats} repeats; rates per CPU-second (time.process_time)\n")
    if args.compile:
        print("| kernel | compile, empty cache: wall s | CPU s | load from cache: wall s | CPU s |")
        print("|---|---:|---:|---:|---:|")
        for game_id in ("sho", "shogammon"):
            cold, warm = compile_cost(game_id)
            print(f"| {game_id} | {cold[0]:.1f} | {cold[1]:.1f} | {warm[0]:.2f} | {warm[1]:.2f} |")
        print()
    rates: dict[str, float] = {}
    print("| random playouts, one thread | plies per CPU-second | mean plies |")
    print("|---|---:|---:|")
    for label, game_id, settings in OURS:
        game: Any = shogames.make(game_id, None, **settings)
        kernel = game.kernel
        kernel.warm_up()
        kernel_rate(kernel, 20, 99)  # the first batch of a batch size may allocate more
        samples = [kernel_rate(kernel, args.kernel_games, seed) for seed in range(args.repeats)]
        mean = kernel.random_playouts(args.kernel_games, seed=0, **one_thread(kernel)).total_plies
        rates[label] = statistics.median(samples)
        print(f"| shogames kernel {label} | {rates[label]:,.0f} | {mean / args.kernel_games:,.1f} |")
    if not args.skip_openspiel and importlib.util.find_spec("pyspiel") is not None:
        for label, short_name, params in PEERS:
            pairs = [peer_rate(short_name, params, args.peer_games, seed) for seed in range(args.repeats)]
            rates[label] = statistics.median(pair[0] for pair in pairs)
            length = statistics.mean(pair[1] for pair in pairs)
            print(f"| OpenSpiel C++ {label} | {rates[label]:,.0f} | {length:,.1f} |")
        print("\n| ours / theirs, plies per CPU-second, this run | ratio |")
        print("|---|---:|")
        for ours, theirs in PAIRS:
            print(f"| {ours} / {theirs} | {rates[ours] / rates[theirs]:.2f} |")
    if not args.skip_reference:
        print("\n| reference random playouts (fixed seeds) | CPU us per ply | plies |")
        print("|---|---:|---:|")
        for label, game_id, settings in OURS:
            game = shogames.make(game_id, None, **settings)
            results = [reference_rate(game, args.reference_games, seed) for seed in range(args.repeats)]
            micro = statistics.median(result[0] for result in results)
            print(f"| {label} | {micro:.1f} | {sum(result[1] for result in results):,} |")
    if args.searches:
        print("\n| searches, 6 midgames | alpha-beta positions per CPU-s | MCTS simulations per CPU-s |")
        print("|---|---:|---:|")
        for label, game_id, settings in OURS:
            game = shogames.make(game_id, None, **settings)
            kernel = game.kernel
            positions = midgames(game, 6)
            search_rates(kernel, positions[:1], 1000, 100)  # compile outside the timing
            pairs = [search_rates(kernel, positions, 200_000, 5_000) for _ in range(args.repeats)]
            ab = statistics.median(pair[0] for pair in pairs)
            mcts = statistics.median(pair[1] for pair in pairs)
            print(f"| {label} | {ab:,.0f} | {mcts:,.0f} |")
    if args.threads:
        print("\n| one batch | games | 1 thread (s) | 2 threads (s) | speed-up | 2 threads: CPU s | load |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, game_id, settings in OURS:
            kernel = shogames.make(game_id, None, **settings).kernel
            if kernel is None or not one_thread(kernel):
                continue
            one, two, speedup, cpu, load = thread_speedup(kernel, args.thread_games, args.repeats)
            print(
                f"| {label} | {args.thread_games} | {one:.2f} | {two:.2f} | {speedup:.2f}x | {cpu:.2f} "
                f"| {load:.2f} |"
            )


if __name__ == "__main__":
    main()
