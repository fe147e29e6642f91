"""Steps per second of the batched environment, beside single environments and OpenSpiel's C++ games.

For each of our games (default settings) and each batch size (``--sizes``, 1, 64 and 4,096 by default) this
times :class:`shogames.envs.BatchEnv` on the kernel's compiled batch (every core), stepping every game with
a uniformly random legal action chosen in numpy from the mask. A *step* is one game's step: a batch of 64
stepped once is 64 steps. Only the ``step`` calls are timed (the choice of actions is not); each step gives
the new observations, masks, seats to move, rewards and end flags, with auto-reset.

Beside it, in the same run:

* **single environments**: as many reference games stepped one after another in Python
  (:class:`shogames.envs.ReferenceBatch`: the same rules, observations and masks, game by game), the way
  a researcher steps a list of single environments;
* **OpenSpiel's C++ games** (when ``open_spiel`` is installed): as many ``pyspiel`` states of the paired game
  stepped one after another from Python, each step a random legal action, the chance outcomes sampled, the
  observation tensor read, and a new game started when one ends (OpenSpiel has no batched stepping of its
  own games).

Each figure is the median of ``--repeats`` runs of at least ``--seconds`` each (wall clock, steps/s).

Usage: python benchmarks/batch_env.py [--seconds 2] [--repeats 3] [--sizes 1 64 4096] [--games shobu ...]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import statistics
import time
from typing import Any

import numpy as np

from shogames.bench import machine_info
from shogames.envs import BatchEnv

PAIRINGS: dict[str, tuple[str, dict[str, int]]] = {
    "shobu": ("chess", {}),
    "shoo": ("chinese_checkers", {}),
    "sho": ("maedn", {"players": 3}),
    "shogammon": ("shogi", {}),
}
"""Each of our games' OpenSpiel pairing, as in ``benchmarks/openspiel_playouts.py``."""


def random_actions(mask: np.ndarray[Any, Any], generator: np.random.Generator) -> np.ndarray[Any, Any]:
    """One uniformly random legal action per row of ``mask`` (in chunks of rows, to bound the memory)."""
    chosen = np.empty(mask.shape[0], dtype=np.int64)
    for first in range(0, mask.shape[0], 256):
        rows = mask[first : first + 256]
        picks = (generator.random(rows.shape[0]) * rows.sum(axis=1)).astype(np.int32)
        order = np.cumsum(rows, axis=1, dtype=np.int32) - 1
        chosen[first : first + 256] = ((order == picks[:, None]) & rows).argmax(axis=1)
    return chosen


def time_env(env: BatchEnv, seconds: float, seed: int) -> float:
    """Steps per second of ``env`` over at least ``seconds`` of ``step`` calls."""
    generator = np.random.default_rng(seed)
    mask = env.reset()[1]
    env.step(random_actions(mask, generator))  # the first step may compile
    mask = env.games.legal_mask()
    spent = 0.0
    steps = 0
    while spent < seconds:
        actions = random_actions(mask, generator)
        started = time.perf_counter()
        result = env.step(actions)
        spent += time.perf_counter() - started
        steps += env.size
        mask = result.legal_mask
    return steps / spent


def time_openspiel(name: str, params: dict[str, int], size: int, seconds: float, seed: int) -> float:
    """Steps per second of ``size`` pyspiel states stepped one after another from Python."""
    import pyspiel

    game = pyspiel.load_game(name, params)
    rng = random.Random(seed)

    def fresh() -> Any:
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        return state

    states = [fresh() for _ in range(size)]
    steps = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        for index, state in enumerate(states):
            state.apply_action(rng.choice(state.legal_actions()))
            while state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            if state.is_terminal():
                state = states[index] = fresh()
            state.observation_tensor(state.current_player())
            steps += 1
    return steps / (time.perf_counter() - started)


def main() -> None:
    """Print one table row per game and batch size."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 64, 4096])
    parser.add_argument("--games", nargs="+", default=list(PAIRINGS))
    parser.add_argument("--no-single", action="store_true", help="skip the single environments in Python")
    args = parser.parse_args()
    has_openspiel = importlib.util.find_spec("pyspiel") is not None
    print(machine_info())
    print(
        "| game | games in the batch | BatchEnv, compiled (steps/s) | single environments in Python (steps/s)"
        " | ratio | OpenSpiel C++ game from Python (steps/s) |"
    )
    print("|---|---|---|---|---|---|")
    for game_id in args.games:
        for size in args.sizes:
            compiled = BatchEnv(game_id, size, seed=0, compiled=True)
            batch = statistics.median(time_env(compiled, args.seconds, r) for r in range(args.repeats))
            single = ratio = "-"
            if not args.no_single:
                reference = BatchEnv(game_id, size, seed=0, compiled=False)
                rate = statistics.median(time_env(reference, args.seconds, r) for r in range(args.repeats))
                single, ratio = f"{rate:,.0f}", f"{batch / rate:.1f}x"
            openspiel = "-"
            if has_openspiel:
                name, params = PAIRINGS[game_id]
                rate = statistics.median(
                    time_openspiel(name, params, size, args.seconds, r) for r in range(args.repeats)
                )
                openspiel = f"{rate:,.0f} ({name})"
            print(f"| {game_id} | {size:,} | {batch:,.0f} | {single} | {ratio} | {openspiel} |", flush=True)


if __name__ == "__main__":
    main()
