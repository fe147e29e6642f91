"""Random playouts of OpenSpiel's C++ games and of ours, in one run, so that every ratio is measured.

OpenSpiel (``pip install open_spiel``; not a dependency of shogames) plays each game to its end with two
(or more) uniformly random bots entirely in C++ (``pyspiel.evaluate_bots``): backgammon, shogi, chess and
Mensch ärgere Dich nicht (``maedn``, with 2, 3 and 4 players). In the same process, each of our games is
played by its compiled kernel and by the pure-Python reference. Each measure is the median of
``--repeats`` timed runs of ``--seconds`` each. Without OpenSpiel the script says so and measures only
ours. Our games run with their default settings, and Sho with 2, 3 and 4 players as well.

Games differ in length, so both games/s and plies/s (moves, chance outcomes included) are printed.
``evaluate_bots`` does not count plies, so an OpenSpiel game's mean length is measured apart (untimed:
``--length-games`` games played through pyspiel's Python API with uniformly random actions and chance
outcomes drawn with their probabilities) and its plies/s is games/s times that length. Then the ratios
the issue and our findings quote are printed, each from figures of this one run.

Usage: python benchmarks/openspiel_playouts.py [--seconds 2] [--repeats 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
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


def openspiel_game(short_name: str, params: dict[str, int]) -> Any:
    """The OpenSpiel game, loaded with its parameters."""
    import pyspiel

    return pyspiel.load_game(short_name, params) if params else pyspiel.load_game(short_name)


def openspiel_length(short_name: str, params: dict[str, int], games: int, seed: int) -> float:
    """The mean plies (chance outcomes included) of ``games`` uniformly random OpenSpiel games (untimed)."""
    game = openspiel_game(short_name, params)
    rng = random.Random(seed)
    plies = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            plies += 1
    return plies / games


def openspiel_rate(short_name: str, params: dict[str, int], seconds: float, seed: int) -> float:
    import pyspiel

    game = openspiel_game(short_name, params)
    players = game.num_players()

    def batch(round_number: int) -> int:
        bots = [pyspiel.make_uniform_random_bot(p, seed + 101 * round_number + p) for p in range(players)]
        for index in range(10):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + 1000 * round_number + index)
        return 10

    return timed_rate(batch, seconds)


def kernel_rate(kernel: Any, seconds: float, seed: int) -> tuple[float, float]:
    """(games/s, plies/s) of the kernel's compiled random playouts, batches of 200 games."""
    plies = 0

    def batch(round_number: int) -> int:
        nonlocal plies
        result = kernel.random_playouts(200, seed=1000 * seed + round_number)
        plies += result.total_plies
        games: int = result.games
        return games

    started = time.perf_counter()
    games_per_second = timed_rate(batch, seconds)
    return games_per_second, plies / (time.perf_counter() - started)


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
    ("shogames kernel Sho, 2 players", "OpenSpiel C++ Mensch ärgere Dich nicht, 2 players"),
    ("shogames kernel Sho, 3 players", "OpenSpiel C++ Mensch ärgere Dich nicht, 3 players"),
    ("shogames kernel Sho, 4 players", "OpenSpiel C++ Mensch ärgere Dich nicht, 4 players"),
]
"""The pairs (ours, theirs) whose ratios are printed, where both were measured."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--length-games", type=int, default=50, help="untimed OpenSpiel games for the length")
    args = parser.parse_args()
    print(f"machine: {machine_info().summary()}")
    print(f"{args.repeats} repeats of {args.seconds} s each, median shown; all in one process\n")
    rows: dict[str, tuple[float, float]] = {}  # label: (games/s, plies/s)
    if importlib.util.find_spec("pyspiel") is None:
        print("OpenSpiel is not installed (pip install open_spiel): measuring only our games.\n")
    else:
        for label, short_name, params in OPENSPIEL_GAMES:
            rates = [openspiel_rate(short_name, params, args.seconds, seed) for seed in range(args.repeats)]
            length = openspiel_length(short_name, params, args.length_games, seed=1)
            rate = statistics.median(rates)
            rows[f"OpenSpiel C++ {label}"] = (rate, rate * length)
    for game_id, settings in OUR_GAMES:
        game: Any = shogames.make(game_id, None, **settings)
        name = game.name if game_id != "sho" else f"{game.name}, {len(game.player_names)} players"
        kernel = game.kernel
        if kernel is not None:
            kernel.warm_up()  # compile or load the cache outside the timed runs
            pairs = [kernel_rate(kernel, args.seconds, seed) for seed in range(args.repeats)]
            rows[f"shogames kernel {name}"] = (
                statistics.median(pair[0] for pair in pairs),
                statistics.median(pair[1] for pair in pairs),
            )
        results = [bench_playouts(game, seconds=args.seconds, seed=seed) for seed in range(args.repeats)]
        rows[f"shogames reference {name}"] = (
            statistics.median(result.games_per_second for result in results),
            statistics.median(result.plies / result.seconds for result in results),
        )
    print("| random playouts | games/s | plies/s |")
    print("|---|---:|---:|")
    for label, (games, plies) in rows.items():
        print(f"| {label} | {games:,.1f} | {plies:,.0f} |")
    print("\n| ours / theirs, this run | games/s | plies/s |")
    print("|---|---:|---:|")
    for ours, theirs in RATIOS:
        if ours in rows and theirs in rows:
            games_ratio = rows[ours][0] / rows[theirs][0]
            plies_ratio = rows[ours][1] / rows[theirs][1]
            print(f"| {ours} / {theirs} | {games_ratio:.2f} | {plies_ratio:.2f} |")
    for label in list(rows):
        if label.startswith("shogames kernel "):
            reference = label.replace("kernel", "reference", 1)
            print(f"| {label} / reference | {rows[label][0] / rows[reference][0]:.0f}x | |")


if __name__ == "__main__":
    main()
