"""Play many seeded random games of one game and report how they ended and how long they lasted.

Each game ``i`` uses ``random.Random(seed + i)``: uniformly random legal moves for every seat and exact
chance outcomes. Every game is checked on the way: each move is played with the checked ``play`` and its
text must read back to the same move, and the final position's text must read back to an equal state. Any
exception is counted as an error, with the seed that reproduces it. Games run in parallel processes.

Usage:
    python benchmarks/random_games.py GAME [--preset P] [--settings 'a=b ...'] [--games N] [--seed S]
        [--jobs J] [--tally TEXT ...]

``--tally`` counts the moves whose text contains TEXT (for Shoo: ``shoo``, ``HUSH``, ``T*``).
"""

from __future__ import annotations

import argparse
import collections
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import shogames
from shogames.bench import machine_info
from shogames.core.chance import sample_outcome
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.settings import parse_settings_text


@dataclass
class GameSummary:
    """How one random game went."""

    seed: int
    ending: str
    plies: int
    tallies: dict[str, int] = field(default_factory=dict)
    error: str | None = None


def _make(game_id: str, preset: str | None, settings_text: str) -> Game[Any]:
    cls = shogames.game_class(game_id)
    return cls(preset, **parse_settings_text(cls.setting_specs, settings_text))


def _ending(game: Game[Any], state: State[Any]) -> str:
    returns = state.returns()
    best = max(returns)
    if state.is_truncated():
        return "length cap"
    winners = [game.player_names[seat] for seat, value in enumerate(returns) if value == best]
    if len(winners) == len(returns):
        return f"draw ({state.termination()})"
    return f"won by {'+'.join(winners)} ({state.termination()})"


def play_one(
    game_id: str, preset: str | None, settings_text: str, seed: int, tally: list[str]
) -> GameSummary:
    """Play one random game from the initial state, checking moves and the final position text."""
    import random

    game = _make(game_id, preset, settings_text)
    rng = random.Random(seed)
    state: State[Any] = game.new_initial_state()
    tallies = dict.fromkeys(tally, 0)
    try:
        while not state.is_terminal():
            if state.to_move == CHANCE:
                move = sample_outcome(state.chance_outcomes(), rng)
            else:
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
            text = state.move_to_text(move)
            if state.parse_move(text) != move:
                raise AssertionError(f"move text {text!r} reads back to another move")
            for word in tally:
                tallies[word] += word in text
            state = state.play(move)
        copy = game.state_from_text(state.to_text())
        if copy.key() != state.key() or copy.returns() != state.returns():
            raise AssertionError(f"final position text {state.to_text()!r} reads back differently")
    except Exception as error:  # a benchmark reports every failure instead of stopping at the first
        return GameSummary(seed, "error", state.ply, tallies, f"{type(error).__name__}: {error}")
    return GameSummary(seed, _ending(game, state), state.ply, tallies)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--preset", default=None)
    parser.add_argument("--settings", default="")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--tally", nargs="*", default=[])
    args = parser.parse_args()

    game = _make(args.game, args.preset, args.settings)
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        summaries = list(
            pool.map(
                play_one,
                [args.game] * args.games,
                [args.preset] * args.games,
                [args.settings] * args.games,
                range(args.seed, args.seed + args.games),
                [args.tally] * args.games,
                chunksize=10,
            )
        )
    elapsed = time.perf_counter() - started
    endings = collections.Counter(summary.ending for summary in summaries)
    errors = [summary for summary in summaries if summary.error is not None]
    plies = [summary.plies for summary in summaries]
    print(f"machine: {machine_info().summary()}")
    print(f"game: {game.id} (preset {args.preset or 'none'}; {game.settings_text()})")
    print(
        f"{args.games} random games, seeds {args.seed}..{args.seed + args.games - 1}, {args.jobs} processes, "
    )
    print(f"{elapsed:.1f} s wall\n")
    print("| ending | games | share |")
    print("|---|---:|---:|")
    for ending, count in sorted(endings.items(), key=lambda item: -item[1]):
        print(f"| {ending} | {count} | {count / args.games:.1%} |")
    print(f"\nerrors: {len(errors)}")
    for summary in errors[:10]:
        print(f"  seed {summary.seed}, ply {summary.plies}: {summary.error}")
    print(
        f"plies per game: mean {statistics.mean(plies):.1f}, median {statistics.median(plies):.0f}, "
        f"min {min(plies)}, max {max(plies)}"
    )
    for word in args.tally:
        total = sum(summary.tallies.get(word, 0) for summary in summaries)
        print(f"moves containing {word!r}: {total} ({total / args.games:.1f} per game)")


if __name__ == "__main__":
    main()
