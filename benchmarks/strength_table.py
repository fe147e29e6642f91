"""Print the ladder tables of docs/strength.md from the arena results under docs/strength/, and draw
each game's ladder (docs/strength/<game>/ladder.png): the levels' Elo, random at 0, chained through the
adjacent pairs (each step from its pair's score, with one virtual draw; the bars chain the ends of the
pairs' Wilson intervals, so they widen up the ladder).

Usage: python benchmarks/strength_table.py [GAME...]
"""

from __future__ import annotations

import itertools
import json
import math
import sys
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from shogames.agents import level_spec
from shogames.games import BUILTIN_GAMES

PAIRS = (("easy", "random"), ("medium", "easy"), ("hard", "medium"), ("hard", "random"))
LADDER = ("random", "easy", "medium", "hard")


def elo_step(score: float, games: int) -> float:
    """The Elo difference a score implies, with one virtual draw so that 100% stays finite."""
    wins = score * games + 0.5
    return 400 * math.log10(wins / (games + 1 - wins))


def draw_ladder(game: str, folder: Path) -> None:
    """Chain the adjacent pairs into one Elo ladder and plot it."""
    elo, low, high = [0.0], [0.0], [0.0]
    for weaker, stronger in itertools.pairwise(LADDER):
        path = folder / f"{stronger}-vs-{weaker}" / "results.json"
        if not path.exists():
            return
        (pair,) = json.loads(path.read_text())["pairs"]
        n = pair["games"]
        elo.append(elo[-1] + elo_step(pair["score"], n))
        low.append(low[-1] + elo_step(pair["low"], n))
        high.append(high[-1] + elo_step(pair["high"], n))
    figure, axes = plt.subplots(figsize=(7, 3))
    axes.errorbar(
        elo,
        range(len(LADDER)),
        xerr=[
            [e - lo for e, lo in zip(elo, low, strict=True)],
            [hi - e for e, hi in zip(elo, high, strict=True)],
        ],
        fmt="o",
        capsize=4,
        color="#2a5d8f",
    )
    axes.set_yticks(range(len(LADDER)), list(LADDER))
    axes.set_xlabel("Elo above random, chained through adjacent levels (95% interval)")
    axes.set_title(f"{game}: the level ladder")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(folder / "ladder.png", dpi=120)
    plt.close(figure)


def main(games: list[str]) -> None:
    root = Path(__file__).resolve().parent.parent / "docs" / "strength"
    for game in games or sorted(BUILTIN_GAMES):
        print(f"### {game}\n")
        print("| level | agent |")
        print("|---|---|")
        for level in ("random", "easy", "medium", "hard"):
            print(f"| {level} | `{level_spec(level, game)}` |")
        print()
        print("| pair | games | won | drawn | lost | score | 95% interval | plies/game | s/game | command |")
        print("|---|---:|---:|---:|---:|---:|---|---:|---:|---|")
        for first, second in PAIRS:
            path = root / game / f"{first}-vs-{second}" / "results.json"
            if not path.exists():
                continue
            report = json.loads(path.read_text())
            (pair,) = report["pairs"]
            command = (
                f"`shogames arena {game} --agents {first} {second} --games {report['games_per_pair']} "
                f"--jobs 2 --seed {report['seed']}`"
            )
            print(
                f"| {first} vs {second} | {pair['games']} | {pair['wins']} | {pair['draws']} "
                f"| {pair['losses']} "
                f"| {100 * pair['score']:.1f}% | {100 * pair['low']:.1f}–{100 * pair['high']:.1f}% "
                f"| {pair['mean_plies']:.0f} | {pair['seconds_per_game']:.2f} | {command} |"
            )
        print()
        draw_ladder(game, root / game)
        print(f"![{game} ladder](strength/{game}/ladder.png)\n")


if __name__ == "__main__":
    main(sys.argv[1:])
