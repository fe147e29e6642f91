"""Random playouts of OpenSpiel's C++ games and of ours, in one run, so that every ratio is measured.

OpenSpiel (``pip install open_spiel``; not a dependency of shogames) plays each game to its end with two
(or more) uniformly random bots entirely in C++ (``pyspiel.evaluate_bots``): backgammon, shogi, chess and
Mensch ärgere Dich nicht (``maedn``, with 2, 3 and 4 players). In the same process, each of our games is
played by its compiled kernel (where it has one) and by the pure-Python reference. Each measure is the
median of ``--repeats`` timed runs of ``--seconds`` each. Without OpenSpiel the script says so and
measures only ours. Our games run with their default settings (Sho: 3 players).

Usage: python benchmarks/openspiel_playouts.py [--seconds 2] [--repeats 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from collections.abc import Callable
from typing import Any

import shogames
from shogames.bench import bench_playouts, machine_info

OPENSPIEL_GAMES: list[tuple[str, str, dict[str, int]]] = [
    ("backgammon", "backgammon", {}),
    ("shogi", "shogi", {}),
    ("chess", "chess", {}),
    ("Mensch ärgere Dich nicht, 2 players", "maedn", {"players": 2}),
    ("Mensch ärgere Dich nicht, 3 players", "maedn", {"players": 3}),
    ("Mensch ärgere Dich nicht, 4 players", "maedn", {"players": 4}),
]


def timed_rate(run_batch: Callable[[int], int], seconds: float) -> float:
    """Games per second: call ``run_batch(round)`` (which returns the games it played) for ``seconds``."""
    played = 0
    started = time.perf_counter()
    round_number = 0
    while True:
        played += run_batch(round_number)
        round_number += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return played / elapsed


def openspiel_rate(short_name: str, params: dict[str, int], seconds: float, seed: int) -> float:
    import pyspiel

    game = pyspiel.load_game(short_name, params) if params else pyspiel.load_game(short_name)
    players = game.num_players()

    def batch(round_number: int) -> int:
        bots = [pyspiel.make_uniform_random_bot(p, seed + 101 * round_number + p) for p in range(players)]
        for index in range(10):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + 1000 * round_number + index)
        return 10

    return timed_rate(batch, seconds)


def kernel_rate(kernel: Any, seconds: float, seed: int) -> float:
    def batch(round_number: int) -> int:
        games: int = kernel.random_playouts(200, seed=1000 * seed + round_number).games
        return games

    return timed_rate(batch, seconds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {machine_info().summary()}")
    print(f"{args.repeats} repeats of {args.seconds} s each, median shown; all in one process\n")
    rows: list[tuple[str, float]] = []
    if importlib.util.find_spec("pyspiel") is None:
        print("OpenSpiel is not installed (pip install open_spiel): measuring only our games.\n")
    else:
        for label, short_name, params in OPENSPIEL_GAMES:
            rates = [openspiel_rate(short_name, params, args.seconds, seed) for seed in range(args.repeats)]
            rows.append((f"OpenSpiel C++ {label}", statistics.median(rates)))
    for cls in shogames.available_games():
        game: Any = cls()
        kernel = game.kernel
        if kernel is not None:
            kernel.warm_up()  # compile or load the cache outside the timed runs
            rates = [kernel_rate(kernel, args.seconds, seed) for seed in range(args.repeats)]
            rows.append((f"shogames kernel {game.name}", statistics.median(rates)))
        rates = [
            bench_playouts(game, seconds=args.seconds, seed=seed).games_per_second
            for seed in range(args.repeats)
        ]
        rows.append((f"shogames reference {game.name}", statistics.median(rates)))
    print("| random playouts | games/s |")
    print("|---|---:|")
    for label, rate in rows:
        print(f"| {label} | {rate:,.1f} |")


if __name__ == "__main__":
    main()
