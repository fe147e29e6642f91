"""Time per move, depth and positions searched per second of every level, in every game: docs/strength.md.

For each game (the defaults), the positions a seat is to move in, taken every few plies from seeded games
between two `medium` players from 4-ply random openings; each level searches each position once, from a
fresh agent, on one thread, after a warm-up (nothing compiles while timed). Prints per level the mean and
the largest seconds a move, the mean depth of the last finished iteration and positions per second.

Usage: python benchmarks/level_times.py [--positions N] [--settings TEXT] [--agents SPEC...] [GAME...]

``--agents`` times those agent specs instead of the levels (a rollout search has no depth, and its
column of positions counts playouts, marked so); ``--settings`` plays the games with those settings
(``players=2``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import shogames
from shogames.agents import make_agent
from shogames.agents.base import parse_agent_spec
from shogames.agents.levels import LEVELS, level_spec
from shogames.arena import random_opening
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, State
from shogames.core.settings import parse_settings_text
from shogames.games import BUILTIN_GAMES


def sample_positions(game_id: str, count: int, seed: int, settings: str = "") -> list[State[Any]]:
    """``count`` positions with a seat to move, every fifth ply of seeded games between medium players."""
    game_class = shogames.game_class(game_id)
    game = game_class(None, **parse_settings_text(game_class.setting_specs, settings))
    found: list[State[Any]] = []
    number = 0
    while len(found) < count:
        rng = random.Random(seed + number)
        players = [
            make_agent("medium", seed + number + seat, game=game_id) for seat in range(game.num_players)
        ]
        state = random_opening(game, 4, seed + number)
        ply = 0
        while not state.is_terminal() and len(found) < count:
            if state.to_move == CHANCE:
                state = state.play(sample_chance(state, rng))
                continue
            if ply % 5 == 0:
                found.append(state)
            seat = state.to_move
            assert seat is not None
            state = state.play(players[seat].select_move(state))
            ply += 1
        number += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--settings", default="", help="the games' settings, as the arena takes them")
    parser.add_argument("--agents", nargs="+", default=[], help="agent specs to time instead of the levels")
    parser.add_argument("games", nargs="*", default=list(BUILTIN_GAMES))
    args = parser.parse_args()
    print("| game | level | agent | mean s/move | max s/move | mean depth | positions/s |")
    print("|---|---|---|---:|---:|---:|---:|")
    for game_id in args.games:
        positions = sample_positions(game_id, args.positions, seed=11, settings=args.settings)
        for level in args.agents or LEVELS:
            make_agent(level, seed=0, game=game_id).select_move(positions[0])  # warm
            seconds: list[float] = []
            depths: list[int] = []
            nodes = 0
            for index, state in enumerate(positions):
                agent = make_agent(level, seed=index, game=game_id)
                started = time.perf_counter()
                agent.select_move(state)
                seconds.append(time.perf_counter() - started)
                result = getattr(agent, "last_result", None)
                if result is not None:
                    depths.append(result.depth)
                    nodes += result.nodes
            spec = level_spec(level, game_id) if level in LEVELS else level
            rollouts = parse_agent_spec(spec)[0] == "kernel-rollout"  # no depth; its "nodes" are playouts
            depth = f"{statistics.mean(depths):.1f}" if depths and not rollouts else "–"
            rate = f"{nodes / sum(seconds):,.0f}" if nodes else "–"
            if rollouts and nodes:
                rate += " playouts/s"
            print(
                f"| {game_id} | {level} | `{spec}` "
                f"| {statistics.mean(seconds):.3f} "
                f"| {max(seconds):.3f} | {depth} | {rate} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
