"""Repeat `shogames bench` for one game several times and print a Markdown table of the medians.

The figures in docs/benchmarks.md come from this script. Each repeat runs perft from the start position
(bulk-counted last level, as `shogames perft` does) and a fixed number of seeded random playouts; the
median of the repeats damps the noise of a shared machine.

Usage: python benchmarks/bench_report.py GAME [--preset P] [--depth N] [--games N] [--repeats N]
"""

from __future__ import annotations

import argparse
import statistics

import shogames
from shogames.bench import bench_perft, bench_playouts, machine_info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    game = shogames.make(args.game, args.preset)
    perfts = [bench_perft(game.start_position(), args.depth) for _ in range(args.repeats)]
    playouts = [bench_playouts(game, games=args.games, seed=repeat) for repeat in range(args.repeats)]
    print(f"machine: {machine_info().summary()}")
    print(f"game: {game.id} ({game.settings_text()}), {args.repeats} repeats, median shown\n")
    print("| measure | median | min | max |")
    print("|---|---:|---:|---:|")
    rows: list[tuple[str, list[float]]] = [
        (
            f"perft depth {args.depth} nodes/s ({perfts[0].nodes:,} leaves)",
            [p.nodes_per_second for p in perfts],
        ),
        (f"random playouts games/s ({args.games} games)", [p.games_per_second for p in playouts]),
        ("random playouts plies/s", [p.plies_per_second for p in playouts]),
        ("mean game length (plies)", [p.mean_plies for p in playouts]),
    ]
    for label, values in rows:
        print(f"| {label} | {statistics.median(values):,.1f} | {min(values):,.1f} | {max(values):,.1f} |")


if __name__ == "__main__":
    main()
