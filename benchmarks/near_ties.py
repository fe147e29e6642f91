"""How finely a game's hand-written evaluation tells one position's moves apart, and what a tiny change costs.

    python benchmarks/near_ties.py [GAME] [--settings TEXT] [--games 40] [--match 600] [--weight 0.001]

1. **Gaps.** Plays ``--games`` games from 4-ply random openings in which every seat plays the move whose
   position, one move ahead, the hand-written evaluation likes best. At each decision with more than one
   move it takes the gap between the best and the second-best move's value, and prints the share of
   decisions whose gap is at most 0, 1e-6, 1e-4, 0.001, 0.01, 0.03 and 0.1 (values on the returns'
   scale, -1 .. 1 in a two-player game).
2. **A tiny change.** Plays ``--match`` games of one-turn greedy with a learned evaluation that is the
   hand-written one plus a tiny correction against one-turn greedy with the hand-written one, as
   training measures its networks (:meth:`~shogames.learning.td.Training.measure`: fixed 4-ply
   openings, each played with both seats). The network (:class:`~shogames.learning.network.ValueNet`,
   16 hidden units over the game's observation, ``prior=True``) starts as a copy of the hand-written
   evaluation; its output weights are then drawn at random with the standard deviation ``--weight``,
   which moves a position's value by about that much. Printed beside it, the same network without the
   correction (it ranks moves as the hand-written evaluation does, so it scores about 50%).

docs/strength.md ("Sho, and Shogammon's earlier attempts") reports what this shows for two-player Sho: its
evaluation often cannot tell moves apart, so a learned correction much smaller than any a network learns
decides those moves.
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np

from shogames.arena import random_opening
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, Game
from shogames.core.registry import game_class
from shogames.core.settings import parse_settings_text
from shogames.learning.network import ValueNet
from shogames.learning.td import Adam, Training, TrainingOptions

THRESHOLDS = (0.0, 1e-6, 1e-4, 1e-3, 1e-2, 3e-2, 1e-1)
"""The gaps whose shares of decisions are printed."""


def gaps(game: Game[Any], games: int) -> list[float]:
    """The gap between the best and second-best move's hand-written value at each decision."""
    found: list[float] = []
    for number in range(games):
        state = random_opening(game, 4, number)
        rng = random.Random(number)
        while not state.is_terminal():
            if state.to_move == CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
                continue
            seat = state.to_move
            assert seat is not None
            children = [state.play_unchecked(move) for move in state.legal_moves()]
            values = [child.evaluate()[seat] for child in children]
            if len(values) > 1:
                top, second = sorted(values, reverse=True)[:2]
                found.append(top - second)
            state = children[int(np.argmax(values))]
    return found


def score(game: Game[Any], network: ValueNet, games: int) -> tuple[float, float, float]:
    """Greedy with ``network`` against hand-written greedy (the training's own measure, 4-ply openings,
    each played with both seats): the score and its 95% interval."""
    training = Training(game, TrainingOptions(opening=4), network, Adam.new(network))
    point = training.measure(games)
    return point.score, point.low, point.high


def main() -> None:
    """Print the gaps and the two matches."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game", nargs="?", default="sho")
    parser.add_argument("--settings", default="players=2")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--match", type=int, default=600)
    parser.add_argument("--weight", type=float, default=0.001)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    cls = game_class(options.game)
    game = cls(None, **parse_settings_text(cls.setting_specs, options.settings))
    found = np.array(gaps(game, options.games))
    print(f"{len(found)} decisions with more than one move in {options.games} games")
    for threshold in THRESHOLDS:
        print(f"  gap <= {threshold:g}: {100 * float(np.mean(found <= threshold)):.1f}%")
    inputs = int(np.prod(game.observation_shape))
    network = ValueNet.new(inputs, 16, prior=True, seed=options.seed)
    result, low, high = score(game, network, options.match)
    interval = f"({100 * low:.1f}-{100 * high:.1f}%)"
    print(f"the hand-written evaluation as a network: {100 * result:.1f}% {interval}")
    rng = np.random.default_rng(options.seed)
    network.arrays["w2"] = (rng.standard_normal(16) * options.weight).astype(np.float32)
    result, low, high = score(game, network, options.match)
    print(
        f"plus output weights of {options.weight:g}: {100 * result:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)"
        f" over {options.match} games"
    )


if __name__ == "__main__":
    main()
