"""How much moving first is worth in a two-player game, from arena results, and what a seat's target asks.

    python benchmarks/seat_advantage.py RESULTS.json... [--target 0.8]

For each pair of each ``results.json`` (written by ``shogames arena --out``) that gives the scores by who
moved first, prints the first agent's score moving first and moving second, the share of the points that
went to the side moving first, and the pair's place on a logistic model with a seat term: the first
agent's score moving first is ``sigmoid(d + s)`` and moving second ``sigmoid(d - s)``, so ``d`` (its edge
in strength) and ``s`` (the first move's edge) follow from the two scores (each kept within half a game
of 0% and 100%). Both are printed in Elo (400 / ln 10 per unit of logit). With ``--target T``, it also
prints the edge ``d`` at which the first agent would score ``T`` moving second against the same opponent,
the overall score that edge gives, and how many Elo it lies above the pair's ``d``.

docs/strength.md ("Why master loses as White") reports what this shows for Shobu.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

ELO_PER_LOGIT = 400 / math.log(10)


def logit(score: float, games: int) -> float:
    """The log-odds of ``score``, kept within half a game of 0 and 1 so a perfect score stays finite."""
    margin = 0.5 / max(games, 1)
    score = min(max(score, margin), 1 - margin)
    return math.log(score / (1 - score))


def sigmoid(x: float) -> float:
    """The logistic function: the score a log-odds ``x`` gives."""
    return 1 / (1 + math.exp(-x))


def main() -> None:
    """Print each pair's scores by seat, the first mover's share and the seat model's edges."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("results", nargs="+", type=Path, help="results.json files of two-player arenas")
    parser.add_argument("--target", type=float, default=0.0, help="a score moving second to price (0: none)")
    args = parser.parse_args()
    header = (
        "| match | games | moving first | moving second | first mover's share | edge d (Elo) | seat s (Elo) |"
    )
    rule = "|---|---:|---:|---:|---:|---:|---:|"
    if args.target:
        header += f" d for {100 * args.target:.0f}% moving second (Elo) | overall score there | more Elo |"
        rule += "---:|---:|---:|"
    print(header)
    print(rule)
    for path in args.results:
        report = json.loads(path.read_text())
        for pair in report["pairs"]:
            if "first_score" not in pair:
                continue  # an older results.json, before the scores by seat
            games = pair["games"]
            first, second = pair["first_score"], pair["second_score"]
            up, down = logit(first, games // 2), logit(second, games - games // 2)
            edge, seat = (up + down) / 2, (up - down) / 2
            share = (first + 1 - second) / 2
            row = (
                f"| {path.parent.name} | {games} | {100 * first:.1f}% | {100 * second:.1f}% "
                f"| {100 * share:.1f}% "
                f"| {ELO_PER_LOGIT * edge:+.0f} | {ELO_PER_LOGIT * seat:+.0f} |"
            )
            if args.target:
                needed = seat + math.log(args.target / (1 - args.target))
                overall = (sigmoid(needed + seat) + sigmoid(needed - seat)) / 2
                row += (
                    f" {ELO_PER_LOGIT * needed:+.0f} | {100 * overall:.1f}% "
                    f"| {ELO_PER_LOGIT * (needed - edge):+.0f} |"
                )
            print(row)


if __name__ == "__main__":
    main()
