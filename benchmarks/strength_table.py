"""Print the ladder tables of docs/strength.md from the arena results under docs/strength/.

Usage: python benchmarks/strength_table.py [GAME...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from shogames.agents import level_spec

PAIRS = (("easy", "random"), ("medium", "easy"), ("hard", "medium"), ("hard", "random"))


def main(games: list[str]) -> None:
    root = Path(__file__).resolve().parent.parent / "docs" / "strength"
    for game in games or ["shobu", "shoo", "sho", "shogammon"]:
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


if __name__ == "__main__":
    main(sys.argv[1:])
