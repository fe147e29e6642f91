"""How well a game's hand-written evaluation predicts the results, and how overconfident it is.

    python benchmarks/evaluation_calibration.py GAME [--settings 'NAME=VALUE ...'] [--games 100]
        [--agent kernel-alphabeta:nodes=300] [--every 4] [--opening 4] [--seed 0]

Plays ``--games`` games of ``--agent`` in every seat, each from its own ``--opening``-ply random opening
(as the arena's; the searchers of the games without dice would otherwise play one game), and keeps every
``--every``-th decision's position, with every seat's return at the end. Over those positions and seats
it prints the mean squared error of ``State.evaluate()`` against the return, the error of predicting 0
(no knowledge at all), and the factor ``k`` that fits ``k * evaluate()`` to the returns best (least
squares) with that fit's error. ``k`` well below 1 says the evaluation is overconfident: an expectimax
averages its values over the dice, so values that promise more than the results give mislead it, where
one-turn greedy, which only ranks a position's moves, is not hurt. The figures are in docs/strength.md.
"""

from __future__ import annotations

import argparse
import random

from shogames.agents.base import build_agent
from shogames.arena import random_opening
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE
from shogames.core.registry import game_class, make
from shogames.core.settings import parse_settings_text


def main() -> None:
    """Play the games and print the errors and the fitted factor."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("game")
    parser.add_argument("--settings", default="")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--agent", default="kernel-alphabeta:nodes=300")
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--opening", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    settings = parse_settings_text(game_class(options.game).setting_specs, options.settings)
    game = make(options.game, None, **settings)
    pairs: list[tuple[float, float]] = []  # (evaluation, return) for each kept position and seat
    for number in range(options.games):
        seed = options.seed * 1_000_003 + number
        rng = random.Random(seed)
        agents = [build_agent(options.agent, seed=seed * 10 + seat) for seat in range(game.num_players)]
        state = random_opening(game, options.opening, seed)
        kept = []
        decisions = 0
        while not state.is_terminal():
            if state.to_move == CHANCE:
                state = state.play_unchecked(sample_chance(state, rng))
                continue
            seat = state.to_move
            assert seat is not None
            if decisions % options.every == 0:
                kept.append(state.evaluate())
            state = state.play_unchecked(agents[seat].select_move(state))
            decisions += 1
        result = state.returns()
        pairs.extend((value[seat], result[seat]) for value in kept for seat in range(game.num_players))
    count = len(pairs)
    error = sum((value - result) ** 2 for value, result in pairs) / count
    zero = sum(result**2 for _, result in pairs) / count
    squares = sum(value**2 for value, _ in pairs)
    k = sum(value * result for value, result in pairs) / squares if squares else 0.0
    fitted = sum((k * value - result) ** 2 for value, result in pairs) / count
    mean_size = sum(abs(value) for value, _ in pairs) / count
    print(f"{game.name} ({game.settings_text()}), {options.games} games of {options.agent}")
    print(f"positions x seats: {count:,}; mean |evaluation| {mean_size:.3f}")
    print(f"mean squared error: evaluation {error:.4f}, predicting 0 {zero:.4f}")
    print(f"best factor k = {k:.3f}: k * evaluation has error {fitted:.4f}")


if __name__ == "__main__":
    main()
