"""Print the ladder tables of docs/strength.md from the arenas of benchmarks/ladder.sh, draw each game's
ladder (docs/strength/<game>/ladder.png: the levels' Elo above random, chained through the adjacent steps,
each step from its score with one virtual draw; the bars chain the ends of the steps' Wilson intervals, so
they widen up the ladder), and with --package write the measured steps into the package
(src/shogames/agents/ladder.json), where the web app's level lines read them (the games named replace
their own steps there; the others keep theirs).

Usage: python benchmarks/strength_table.py [--package] [GAME...]
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from shogames.agents.levels import LADDER_FILE, LEVELS, changed_step, level_spec
from shogames.games import BUILTIN_GAMES

ROOT = Path(__file__).resolve().parent.parent
LADDER = ("random", *LEVELS)
"""Random, then the levels, weakest first: each step is a level against the one before it."""


def elo_step(score: float, games: int) -> float:
    """The Elo difference a score implies, with one virtual draw so that 100% stays finite."""
    wins = score * games + 0.5
    return 400 * math.log10(wins / (games + 1 - wins))


def steps(game: str) -> list[tuple[str, str, dict[str, Any] | None]]:
    """(level, the level below, its arena report or None where not measured) for each step.

    A step's agents are its levels by name or their specs written out (a step first played as a candidate
    for a level). A step whose report names another spec for one of its levels than the level has today
    (the arena keeps them since 2026-12-06) is not a measure of today's levels: it counts as not measured.
    """
    found = []
    for weaker, stronger in itertools.pairwise(LADDER):
        path = ROOT / "docs" / "strength" / game / "ladder" / f"{stronger}-vs-{weaker}" / "results.json"
        report = json.loads(path.read_text()) if path.exists() else None
        if report is not None and changed_step(
            report["agents"], report.get("levels", {}), game, [stronger, weaker]
        ):
            report = None
        found.append((stronger, weaker, report))
    return found


def draw_ladder(game: str, measured: list[tuple[str, str, dict[str, Any] | None]]) -> bool:
    """Chain the measured steps from random up into one Elo ladder and plot it; False where none is."""
    names, elo, low, high = ["random"], [0.0], [0.0], [0.0]
    for stronger, _weaker, report in measured:
        if report is None:
            break
        (pair,) = report["pairs"]
        n = pair["games"]
        names.append(stronger)
        elo.append(elo[-1] + elo_step(pair["score"], n))
        low.append(low[-1] + elo_step(pair["low"], n))
        high.append(high[-1] + elo_step(pair["high"], n))
    if len(names) < 2:
        return False
    figure, axes = plt.subplots(figsize=(7, 3.2))
    axes.errorbar(
        elo,
        range(len(names)),
        xerr=[
            [max(e - lo, 0.0) for e, lo in zip(elo, low, strict=True)],
            [max(hi - e, 0.0) for e, hi in zip(elo, high, strict=True)],  # a Wilson end may round below 100%
        ],
        fmt="o",
        capsize=4,
        color="#2a5d8f",
    )
    axes.set_yticks(range(len(names)), names)
    axes.set_xlabel("Elo above random, chained through adjacent levels (95% interval)")
    axes.set_title(f"{game}: the level ladder")
    axes.grid(axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(ROOT / "docs" / "strength" / game / "ladder.png", dpi=120)
    plt.close(figure)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--package", action="store_true", help=f"also write src/shogames/agents/{LADDER_FILE}"
    )
    parser.add_argument("games", nargs="*", default=list(BUILTIN_GAMES))
    args = parser.parse_args()
    package: dict[str, dict[str, Any]] = {}
    for game in args.games:
        measured = steps(game)
        print(f"### {game}\n")
        print("| level | agent |")
        print("|---|---|")
        for level in LEVELS:
            print(f"| {level} | `{level_spec(level, game, kernel=True)}` |")
        print()
        print("| step | games | won | drawn | lost | score | 95% interval | plies/game | s/game | command |")
        print("|---|---:|---:|---:|---:|---:|---|---:|---:|---|")
        for stronger, weaker, report in measured:
            if report is None:
                command = f"`bash benchmarks/ladder.sh {game}`"
                print(f"| {stronger} vs {weaker} | not measured | | | | | | | | {command} |")
                continue
            (pair,) = report["pairs"]
            # A step played under other names (a candidate, or the levels of an earlier ladder whose
            # specs today's levels have) is replayed by the specs that played it.
            played = report.get("levels", {})
            agents = [
                agent if agent == level else played.get(agent, agent)
                for level, agent in zip((stronger, weaker), report["agents"], strict=True)
            ]
            command = (
                f"`shogames arena {game} --agents {' '.join(agents)} "
                f"--games {report['games_per_pair']} "
                f"--opening 4 --seed {report['seed']}`"
            )
            print(
                f"| {stronger} vs {weaker} | {pair['games']} | {pair['wins']} | {pair['draws']} "
                f"| {pair['losses']} "
                f"| {100 * pair['score']:.1f}% | {100 * pair['low']:.1f}–{100 * pair['high']:.1f}% "
                f"| {pair['mean_plies']:.0f} | {pair['seconds_per_game']:.2f} | {command} |"
            )
            package.setdefault(game, {})[stronger] = {
                "below": weaker,
                "games": pair["games"],
                "score": round(pair["score"], 4),
                "low": round(pair["low"], 4),
                "high": round(pair["high"], 4),
            }
        print()
        if draw_ladder(game, measured):
            print(f"![{game} ladder](strength/{game}/ladder.png)\n")
    if args.package:
        path = ROOT / "src" / "shogames" / "agents" / LADDER_FILE
        # The games not named keep what the file holds: `--package shoo` updates Shoo's steps only.
        kept: dict[str, dict[str, Any]] = {}
        if path.exists():
            kept = json.loads(path.read_text(encoding="utf-8"))
        kept.update(package)
        path.write_text(json.dumps(kept, indent=1, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
