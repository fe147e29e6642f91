"""Warming the kernels: ``shogames warm``, the server's warm-up before it says where it runs."""

from __future__ import annotations

import re

import pytest

import shogames
from cli_runner import run_cli
from shogames.core.kernel import compiled_so_far, kernels_enabled
from shogames.kernels.warm import WarmUp, warm_kernels
from shogames.server.serving import warm_kernels_in_a_child

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

READY = re.compile(r"^(?P<game>.+): (loaded from the cache in [\d.]+ s|compiled in [\d.]+ s \(\d+ functions)")


def kernel_game_names() -> list[str]:
    return [cls().name for cls in shogames.available_games() if cls.kernel_module]


def test_warm_command_readies_every_kernel_of_the_registry() -> None:
    result = run_cli(["warm"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    matches = [READY.match(line) for line in lines]
    assert all(matches), lines
    assert sorted(m.group("game") for m in matches if m) == sorted(kernel_game_names())


def test_a_warm_kernel_loads_without_compiling() -> None:
    warm_kernels()  # compiled (first run) or loaded
    before = compiled_so_far()
    again = warm_kernels()
    assert compiled_so_far() == before
    assert all(result.compiled == 0 and not result.missing for result in again)
    assert all("loaded from the cache" in result.line() for result in again)


def test_a_second_process_loads_every_kernel_from_the_cache() -> None:
    """What one process compiled, the next loads: nothing a kernel calls (the clock of its time budget
    included) is of a kind numba cannot cache, so a server's workers do not each compile again."""
    import subprocess
    import sys

    def warm_in_a_new_process() -> list[str]:
        command = [sys.executable, "-m", "shogames.kernels.warm"]
        done = subprocess.run(command, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout.splitlines()

    warm_in_a_new_process()  # compiles only where the cache is cold
    lines = warm_in_a_new_process()
    assert lines and all("loaded from the cache" in line for line in lines), lines


def test_a_game_without_a_kernel_says_why() -> None:
    line = WarmUp("Dice race", 0.0, 0, "Dice race has no compiled kernel").line()
    assert line == "Dice race: no compiled kernel (Dice race has no compiled kernel)"


def test_the_server_warms_the_kernels_in_a_child_and_says_so(
    capsys: pytest.CaptureFixture[str], toy_games_path: str
) -> None:
    warm_kernels_in_a_child()  # the child finds the installed toy games too, and warms their kernels
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("shogames: preparing the games' compiled kernels")
    games = [READY.match(line.strip()) for line in lines[1:]]
    assert all(games), lines
    assert sorted(m.group("game") for m in games if m) == sorted(kernel_game_names())


EXERCISE = """
import random, sys
import shogames
from shogames.agents import make_agent
from shogames.analysis import analyse_moves
from shogames.core.kernel import compiled_so_far
from shogames.core.protocol import CHANCE
from shogames.kernels.warm import warm_kernels

warm_kernels()  # what `shogames serve` does first (compiles only on a cold cache)
before = compiled_so_far()
for cls in shogames.available_games():
    if not cls.kernel_module:
        continue
    game = cls()
    kernel = game.kernel
    state = game.new_initial_state()
    rng = random.Random(1)
    while state.to_move == CHANCE:
        state = state.play(rng.choice(state.legal_moves()))
    move = state.legal_moves()[0]
    kernel.perft(state, 2, bulk=False, threads=1)
    kernel.perft(state, 2)
    kernel.random_playouts(4, threads=1)
    kernel.random_playouts(4, seed=3, start=state)
    kernel.random_game(seed=2, index=1)
    kernel.decode(kernel.encode(kernel.play(state, move)))
    kernel.outcome(state), kernel.evaluate(state), kernel.legal_moves(state)
    searcher = kernel.alphabeta(seed=0)
    if searcher is not None:  # (a kernel may have no searcher of a kind: the toy tic-tac-toe)
        searcher.search(state, work=300)
        searcher.search(state, seconds=0.05)
        searcher.value_of(state, move, depth=1)
        make_agent("kernel-alphabeta:nodes=300", seed=1).select_move(state)
        analyse_moves([(state, move)], depth=2, nodes=300, seconds=0.0)
        for options in kernel.switched_search_options():  # each on/off search option, on
            kernel.alphabeta(seed=0, options=options).search(state, work=300)
    if kernel.mcts(seed=0) is not None:
        kernel.mcts(seed=0).search(state, work=50)
        make_agent("kernel-mcts:iterations=30", seed=1).select_move(state)
    if kernel.rollouts(seed=0) is not None:
        kernel.rollouts(seed=0).search(state, work=20)
        kernel.rollouts(seed=0).search(state, seconds=0.01)
        make_agent("kernel-rollout:playouts=20", seed=1).select_move(state)
print(compiled_so_far() - before)
"""


def test_after_warming_nothing_a_kernel_is_used_for_compiles(toy_games_path: str) -> None:
    """After the warm-up that `serve` runs, the searches, agents, analysis, perft and playouts used later
    compile nothing more: each compiled function was warmed with the argument types it is used with."""
    import subprocess
    import sys

    output = subprocess.run([sys.executable, "-c", EXERCISE], capture_output=True, text=True, timeout=900)
    assert output.returncode == 0, output.stderr[-3000:]
    assert output.stdout.split()[-1] == "0", output.stdout[-2000:]
