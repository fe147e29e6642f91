"""Random playouts of OpenSpiel's C++ games and of ours, in one run, so that every ratio is measured.

OpenSpiel (``pip install open_spiel``; not a dependency of shogames) plays each game to its end with
uniformly random bots entirely in C++ (``pyspiel.evaluate_bots``): backgammon, shogi, chess, Chinese
checkers and Mensch ärgere Dich nicht (``maedn``, with 2, 3 and 4 players). In the same process, each of
our games is played by its compiled kernel (on one thread) and, unless ``--no-reference``, by the
pure-Python reference. Each figure is the median of ``--repeats`` runs of ``--seconds`` each.

**Per CPU-second.** Every run is timed by the process's CPU time (``time.process_time``) as well as the
wall clock, and the ratios are taken per CPU-second: on a shared machine the wall clock counts the time
other programs held the core, the CPU time only ours. The kernels run on one thread here (``threads=1``),
so that one CPU-second is one core's second on both sides.

**Plies.** A ply is one action, chance outcomes included, on both sides. ``evaluate_bots`` plays on the
state it is given, so each timed OpenSpiel game's length is read from that state's history after the
timed loop: the plies are those of the games timed, not an estimate from other games.

**Pairings.** Shobu against chess, Shogammon against shogi and backgammon, Shoo against Chinese checkers
(a race of pieces across a board to the far home, as Shoo's travellers race), Sho with 2, 3 and 4 players
against Mensch ärgere Dich nicht with as many.

**Threads.** ``--threads`` also times each kernel's batch on every core against one thread (wall clock,
games/s), the parallel speed-up of the batch loops.

Usage: python benchmarks/openspiel_playouts.py [--seconds 2] [--repeats 3] [--threads] [--no-reference]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import shogames
from shogames.bench import bench_playouts, machine_info

OPENSPIEL_GAMES: list[tuple[str, str, dict[str, int]]] = [
    ("backgammon", "backgammon", {}),
    ("shogi", "shogi", {}),
    ("chess", "chess", {}),
    ("Chinese checkers", "chinese_checkers", {}),
    ("Mensch ärgere Dich nicht, 2 players", "maedn", {"players": 2}),
    ("Mensch ärgere Dich nicht, 3 players", "maedn", {"players": 3}),
    ("Mensch ärgere Dich nicht, 4 players", "maedn", {"players": 4}),
]

OUR_GAMES: list[tuple[str, dict[str, object]]] = [
    ("shobu", {}),
    ("shoo", {}),
    ("sho", {"players": 2}),
    ("sho", {}),
    ("sho", {"players": 4}),
    ("shogammon", {}),
]
"""Our games in the run: default settings, and Sho with 2, 3 (its default) and 4 players."""

RATIOS: list[tuple[str, str]] = [
    ("shogames kernel Shobu", "OpenSpiel C++ chess"),
    ("shogames kernel Shogammon", "OpenSpiel C++ shogi"),
    ("shogames kernel Shogammon", "OpenSpiel C++ backgammon"),
    ("shogames kernel Shoo", "OpenSpiel C++ Chinese checkers"),
    ("shogames kernel Sho, 2 players", "OpenSpiel C++ Mensch ärgere Dich nicht, 2 players"),
    ("shogames kernel Sho, 3 players", "OpenSpiel C++ Mensch ärgere Dich nicht, 3 players"),
    ("shogames kernel Sho, 4 players", "OpenSpiel C++ Mensch ärgere Dich nicht, 4 players"),
]
"""The pairs (ours, theirs) whose ratios are printed, where both were measured."""


@dataclass(frozen=True)
class Run:
    """One timed run: games and plies played, wall-clock and CPU seconds."""

    games: int
    plies: int
    wall: float
    cpu: float


@dataclass(frozen=True)
class Rates:
    """The medians over the repeats of one row."""

    games_per_second: float
    plies_per_second: float
    plies_per_cpu_second: float
    mean_length: float

    @classmethod
    def of(cls, runs: list[Run]) -> Rates:
        """Each rate's median over ``runs``."""
        return cls(
            statistics.median(run.games / run.wall for run in runs),
            statistics.median(run.plies / run.wall for run in runs),
            statistics.median(run.plies / run.cpu for run in runs),
            sum(run.plies for run in runs) / sum(run.games for run in runs),
        )


def timed(run_batch: Callable[[int], tuple[int, int]], seconds: float) -> Run:
    """Call ``run_batch(round)`` (returning games and plies played) until ``seconds`` of wall clock pass."""
    games = plies = round_number = 0
    wall, cpu = time.perf_counter(), time.process_time()
    while True:
        batch_games, batch_plies = run_batch(round_number)
        games += batch_games
        plies += batch_plies
        round_number += 1
        elapsed = time.perf_counter() - wall
        if elapsed >= seconds:
            return Run(games, plies, elapsed, time.process_time() - cpu)


def openspiel_run(short_name: str, params: dict[str, int], seconds: float, seed: int) -> Run:
    """One timed run of OpenSpiel's C++ random games, with the plies of the games timed."""
    import pyspiel

    game = pyspiel.load_game(short_name, params) if params else pyspiel.load_game(short_name)
    players = game.num_players()
    finished: list[Any] = []

    def batch(round_number: int) -> tuple[int, int]:
        bots = [pyspiel.make_uniform_random_bot(p, seed + 101 * round_number + p) for p in range(players)]
        for index in range(10):
            state = game.new_initial_state()
            pyspiel.evaluate_bots(state, bots, seed + 1000 * round_number + index)
            finished.append(state)  # evaluate_bots plays on this state: its history is the game
        return 10, 0

    run = timed(batch, seconds)
    plies = sum(len(state.history()) for state in finished)  # counted after the clock stopped
    return Run(run.games, plies, run.wall, run.cpu)


def kernel_run(kernel: Any, seconds: float, seed: int, threads: int | None = 1) -> Run:
    """One timed run of the kernel's compiled random playouts, batches of 200 games."""

    def batch(round_number: int) -> tuple[int, int]:
        result = kernel.random_playouts(200, seed=1000 * seed + round_number, threads=threads)
        return result.games, result.total_plies

    return timed(batch, seconds)


def reference_run(game: Any, seconds: float, seed: int) -> Run:
    """One timed run of the pure-Python reference's random games."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = bench_playouts(game, seconds=seconds, seed=seed)
    return Run(result.games, result.plies, time.perf_counter() - wall, time.process_time() - cpu)


def label_of(game: Any) -> str:
    """The row label of one of our games (Sho with its number of players)."""
    return game.name if game.id != "sho" else f"{game.name}, {len(game.player_names)} players"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-reference", action="store_true", help="skip the pure-Python reference")
    parser.add_argument("--threads", action="store_true", help="also time each kernel on every core")
    args = parser.parse_args()
    print(f"machine: {machine_info().summary()}; load average at start: {os.getloadavg()[0]:.2f}")
    print(f"{args.repeats} repeats of {args.seconds} s each, median shown; all in one process\n")
    rows: dict[str, Rates] = {}
    if importlib.util.find_spec("pyspiel") is None:
        print("OpenSpiel is not installed (pip install open_spiel): measuring only our games.\n")
    else:
        for label, short_name, params in OPENSPIEL_GAMES:
            runs = [openspiel_run(short_name, params, args.seconds, seed) for seed in range(args.repeats)]
            rows[f"OpenSpiel C++ {label}"] = Rates.of(runs)
    speedups: dict[str, tuple[float, float]] = {}
    for game_id, settings in OUR_GAMES:
        game: Any = shogames.make(game_id, None, **settings)
        name = label_of(game)
        kernel = game.kernel
        if kernel is not None:
            kernel.warm_up()  # compile or load the cache outside the timed runs
            runs = [kernel_run(kernel, args.seconds, seed) for seed in range(args.repeats)]
            rows[f"shogames kernel {name}"] = Rates.of(runs)
            if args.threads:
                every = [kernel_run(kernel, args.seconds, seed, None) for seed in range(args.repeats)]
                one = statistics.median(run.games / run.wall for run in runs)
                speedups[name] = (one, statistics.median(run.games / run.wall for run in every))
        if not args.no_reference:
            runs = [reference_run(game, args.seconds, seed) for seed in range(args.repeats)]
            rows[f"shogames reference {name}"] = Rates.of(runs)
    print("| random playouts | games/s | plies/s | plies per CPU-second | plies a game |")
    print("|---|---:|---:|---:|---:|")
    for label, rates in rows.items():
        print(
            f"| {label} | {rates.games_per_second:,.1f} | {rates.plies_per_second:,.0f} "
            f"| {rates.plies_per_cpu_second:,.0f} | {rates.mean_length:,.1f} |"
        )
    print("\n| ours / theirs, this run | plies per CPU-second | plies per wall-clock second |")
    print("|---|---:|---:|")
    for ours, theirs in RATIOS:
        if ours in rows and theirs in rows:
            cpu_ratio = rows[ours].plies_per_cpu_second / rows[theirs].plies_per_cpu_second
            wall_ratio = rows[ours].plies_per_second / rows[theirs].plies_per_second
            print(f"| {ours} / {theirs} | {cpu_ratio:.2f} | {wall_ratio:.2f} |")
    if not args.no_reference:
        print("\n| kernel / reference, this run | plies per CPU-second |")
        print("|---|---:|")
        for label in list(rows):
            reference = label.replace("kernel", "reference", 1)
            if label.startswith("shogames kernel ") and reference in rows:
                ratio = rows[label].plies_per_cpu_second / rows[reference].plies_per_cpu_second
                print(f"| {label} | {ratio:,.0f}x |")
    if speedups:
        cores = os.cpu_count()
        print(f"\n| kernel batch on {cores} cores / one thread | games/s, one | games/s, {cores} | x |")
        print("|---|---:|---:|---:|")
        for name, (one_rate, every_rate) in speedups.items():
            print(f"| {name} | {one_rate:,.0f} | {every_rate:,.0f} | {every_rate / one_rate:.2f} |")


if __name__ == "__main__":
    main()
