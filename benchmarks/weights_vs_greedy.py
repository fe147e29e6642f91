"""One-turn greedy with a weights file against one-turn greedy with the hand-written evaluation.

    python benchmarks/weights_vs_greedy.py GAME WEIGHTS [--games 200] [--first 0] [--settings TEXT]

Measures a network that does not ship (a run's ``value.npz`` or a checkpoint's weights) as the issue's
learned-evaluation target asks: game ``n`` (from ``--first``) throws the dice of seed ``2,000,000 + n // 2``
from the game's start (no random opening: the dice vary the games) with the network's greedy in seat
``n % 2`` (with three or four players, ``n % players``, the other seats hand-written greedy), so each seed
is played from both seats. Prints each game as a JSON line (its number, the network's share of the
points, plies, seconds, termination) and then the score with its 95% Wilson interval. The seeds are not
the training's measure's (:meth:`~shogames.learning.td.Training.measure`, from 1,000,000), so a run's own
curve and this measure are separate samples. docs/strength.md ("Sho, and Shogammon's earlier attempts"
and "Shogammon") reports what it gave.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from shogames.agents.greedy import GreedyAgent
from shogames.arena import wilson_interval
from shogames.core.registry import game_class, make
from shogames.core.settings import parse_settings_text
from shogames.learning.network import ValueNet, return_scale
from shogames.match import play_game

FIRST_SEED = 2_000_000
"""The dice seed of the first pair of games."""


def main() -> None:
    """Play the games and print each, then the score."""
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("weights", type=Path, help="a value.npz written by shogames train")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="the first game's number (to go on)")
    parser.add_argument("--settings", default="", help="the game's settings, as shogames arena takes them")
    options = parser.parse_args()
    settings = parse_settings_text(game_class(options.game).setting_specs, options.settings)
    game = make(options.game, None, **settings)
    network = ValueNet.load(options.weights.read_bytes())[0]
    network.check_game(game)
    low, high = return_scale(game)
    players = game.num_players
    points = 0.0
    for number in range(options.first, options.first + options.games):
        seed = FIRST_SEED + number // 2
        seat = number % players if players > 2 else number % 2
        agents = [
            GreedyAgent(seed=seed * 10 + other, network=network if other == seat else None)
            for other in range(players)
        ]
        started = time.perf_counter()
        final, record = play_game(game, agents, seed=seed)
        share = (final.returns()[seat] - low) / (high - low)
        points += share
        line = {
            "game": number,
            "points": share,
            "plies": len(record.moves),
            "seconds": round(time.perf_counter() - started, 1),
            "termination": record.headers.get("Termination"),
        }
        print(json.dumps(line), flush=True)
    score = points / options.games
    low_end, high_end = wilson_interval(score, options.games)
    print(f"{options.game}: {100 * score:.1f}% ({100 * low_end:.1f}-{100 * high_end:.1f}%)", end="")
    print(f" over {options.games} games")


if __name__ == "__main__":
    main()
