"""The tic-tac-toe test game's compiled kernel, deeper than the registry-wide check of ``test_kernels.py``.

Over every board size and line length: the differential check position by position with perft 3, the
perft data file counted by the kernel, results that do not depend on the number of threads, replays of
single games, and a deliberately broken rule caught.
"""

from __future__ import annotations

import numpy as np
import pytest

import shogames
from kernel_helpers import check_random_game
from shogames.core.kernel import kernels_enabled
from shogames.core.settings import parse_settings_text
from shogames.kernels.conformance import check_kernel, check_kernel_playouts
from test_perft import ENTRIES, PerftEntry
from toy_games.tictactoe import TicTacToeGame
from toy_games.tictactoe.kernel import TicTacToeKernel, build_lines

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

BOARDS = [(size, line) for size in (3, 4, 5) for line in range(3, size + 1)]


def kernel_of(size: int = 3, line: int = 3) -> TicTacToeKernel:
    kernel = shogames.make("toy_tictactoe", None, size=size, line=line).kernel
    assert isinstance(kernel, TicTacToeKernel)
    return kernel


@pytest.mark.parametrize(("size", "line"), BOARDS)
def test_the_kernel_agrees_with_the_reference_on_every_board(size: int, line: int) -> None:
    game = kernel_of(size, line).game
    positions = check_kernel(game, games=6, seed=size * 10 + line, perft_depth=3, perft_every=4)
    assert positions > 6 * (line * 2 - 1)  # no game ends before the first line can be made
    check_kernel_playouts(game, games=10, seed=size + line)


@pytest.mark.parametrize(
    "entry", [entry for entry in ENTRIES if entry.game_id == "toy_tictactoe"], ids=lambda entry: entry.name
)
def test_the_kernel_counts_the_perft_data(entry: PerftEntry) -> None:
    game = TicTacToeGame(None, **parse_settings_text(TicTacToeGame.setting_specs, entry.settings))
    state = game.state_from_text(entry.position)
    kernel = TicTacToeKernel(game)
    for depth, expected in entry.counts:
        assert kernel.perft(state, depth, threads=1) == kernel.perft(state, depth, bulk=False) == expected


def test_the_published_counts_of_the_3_by_3_board() -> None:
    kernel = kernel_of()
    start = kernel.game.new_initial_state()
    counts = [kernel.perft(start, depth) for depth in range(10)]
    assert counts == [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


@pytest.mark.parametrize("threads", [1, 2, None])
def test_results_do_not_depend_on_the_number_of_threads(threads: int | None) -> None:
    kernel = kernel_of(4, 3)
    one = kernel.random_playouts(64, seed=9, threads=1)
    many = kernel.random_playouts(64, seed=9, threads=threads)
    assert np.array_equal(one.plies, many.plies) and np.array_equal(one.returns, many.returns)
    start = kernel.game.new_initial_state()
    assert kernel.perft(start, 4, threads=threads) == kernel.perft(start, 4, threads=1) == 43680


def test_a_game_of_a_batch_is_the_same_in_every_batch_and_replays() -> None:
    kernel = kernel_of(5, 4)
    small, large = kernel.random_playouts(5, seed=3), kernel.random_playouts(40, seed=3)
    assert np.array_equal(small.plies, large.plies[:5]) and np.array_equal(small.returns, large.returns[:5])
    start = kernel.game.new_initial_state()
    for index in (0, 4, 39):
        check_random_game(kernel, large, 3, index, start)
    later = start.play_text("c3").play_text("a1")
    from_later = kernel.random_playouts(8, seed=1, start=later)
    for index in range(8):
        check_random_game(kernel, from_later, 1, index, later)


def test_the_array_and_move_codes_round_trip() -> None:
    kernel = kernel_of()
    won = kernel.game.state_from_text(".ox/.xo/x.. o")
    assert list(kernel.encode(won)) == [0b100_010_001, 0b010_100_000, 1, 1, 1]
    assert kernel.decode(kernel.encode(won)) == won and kernel.decode(kernel.encode(won)).winner == 0
    assert kernel.outcome(won) == (1.0, -1.0) and kernel.evaluate(won) == won.evaluate()
    assert all(kernel.decode_move(kernel.encode_move(move)) == move for move in range(9))


def test_the_kernel_builds_the_same_lines_as_the_rules_by_another_route() -> None:
    for size, line in BOARDS:
        assert sorted(build_lines(size, line).tolist()) == sorted(TicTacToeGame(size=size, line=line).lines)


def test_a_broken_kernel_rule_is_caught() -> None:
    game = TicTacToeGame()
    no_diagonals = np.array([run for run in build_lines(3, 3) if run not in (0b100_010_001, 0b001_010_100)])
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=20, seed=1, kernel=TicTacToeKernel(game, no_diagonals), perft_depth=0)
