"""The Sho kernel's Monte Carlo rollouts: the playouts are the reference's greedy play, move for move, and
the search's means, counts and budget are what its documentation says."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import shogames
from shogames.core.kernel import KernelUnavailableError, kernels_enabled, require_kernel
from shogames.games.sho.kernel import MAX_MOVES, ShoKernel, compiled_rollouts, greedy_playout, new_work
from shogames.kernels.common import game_stream
from test_kernel_sho import sho_midgame

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")


def sho_kernel(game: shogames.Game[Any]) -> ShoKernel:
    kernel = require_kernel(game)
    assert isinstance(kernel, ShoKernel)
    return kernel


def kernel_playout(
    kernel: ShoKernel, state: shogames.State[Any], seed: int, index: int = 0
) -> tuple[list[int], list[float]]:
    """One compiled greedy playout from ``state`` with the dice of ``game_stream(seed, index)``."""
    st = kernel.encode(state)
    record = np.zeros(20_000, dtype=np.int64)
    out = np.zeros(4)
    plies = greedy_playout(
        st, np.uint64(game_stream(np.uint64(seed), index)), kernel.cfg, kernel.reach, new_work(),
        np.empty(MAX_MOVES, dtype=np.int64), np.empty_like(st), out, record,
    )  # fmt: skip
    assert plies < record.shape[0]
    return [int(code) for code in record[:plies]], [float(v) for v in out[: state.game.num_players]]


PLAYOUT_GAMES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 3, "shells": 24},
    {"players": 4, "shells": 20, "coins": 4},
    {"players": 2, "shells": 20, "para_mode": "pool", "allow_pass": "on"},
]


@pytest.mark.parametrize("settings", PLAYOUT_GAMES, ids=lambda s: " ".join(f"{k}={v}" for k, v in s.items()))
def test_a_playout_is_the_reference_greedy_game(settings: dict[str, Any]) -> None:
    """Replayed in the reference, each decision of a playout is the first legal move (in the kernel's
    order) whose position the reference's evaluation values best for the mover, and the game ends with
    the playout's returns."""
    game = shogames.make("sho", **settings)
    kernel = sho_kernel(game)
    for seed in range(3):
        state = sho_midgame(seed, plies=6 + 6 * seed, game=game)
        codes, returns = kernel_playout(kernel, state, seed)
        decisions = 0
        for code in codes:
            move = kernel.decode_move(code)
            if state.to_move == shogames.CHANCE:
                assert move in [outcome for outcome, _ in state.chance_outcomes()]
            else:
                seat = state.to_move
                assert seat is not None
                values = [(state.play(m).evaluate()[seat], m) for m in kernel.legal_moves(state)]
                best = max(value for value, _ in values)
                assert move == next(m for value, m in values if value == best), state.to_text()
                decisions += 1
            state = state.play(move)
        assert state.is_terminal() and list(state.returns()) == returns
        assert decisions > 0


def two_player_position() -> shogames.State[Any]:
    game = shogames.make("sho", players=2)
    state = sho_midgame(3, plies=12, game=game)
    while len(state.legal_moves()) < 3:
        state = sho_midgame(state.ply + 1, plies=state.ply + 2, game=game)
    return state


def test_the_means_are_of_common_playouts_shared_by_halving() -> None:
    """Every move's mean is that of its playouts, playout k throwing the same dice after each move; after
    the first round only the better half of the moves gets more."""
    state = two_player_position()
    kernel = sho_kernel(state.game)
    moves = kernel.legal_moves(state)
    codes = np.array([kernel.encode_move(m) for m in moves], dtype=np.int64)
    n = len(moves)
    means, counts, stats = np.zeros(n), np.zeros(n, dtype=np.int64), np.zeros(2, dtype=np.int64)
    budget = 40 * n
    index = compiled_rollouts(
        kernel.encode(state), codes, budget, 0.0, np.uint64(9), kernel.cfg, kernel.reach, new_work(),
        means, counts, stats,
    )  # fmt: skip
    rounds = max(1, (n - 1).bit_length())
    assert stats[0] == counts.sum() <= budget
    assert counts.min() == budget // (n * rounds)  # the first round's share, every move
    assert counts[index] == counts.max()  # the move chosen went through every round
    assert (counts > counts.min()).sum() == ((n + 1) // 2 if rounds > 1 else 0)
    seat = state.to_move
    assert seat is not None
    for i, move in enumerate(moves):
        after = kernel.play(state, move)
        results = [kernel_playout(kernel, after, 9, k)[1][seat] for k in range(int(counts[i]))]
        assert means[i] == pytest.approx(sum(results) / len(results), abs=1e-12)


def test_rollouts_are_deterministic_and_keep_their_budget() -> None:
    state = two_player_position()
    kernel = require_kernel(state.game)
    searcher = kernel.rollouts(seed=5)
    assert searcher is not None
    result = searcher.search(state, work=300)
    assert 0 < result.nodes == sum(result.visits.values()) <= 300
    assert result.move in state.legal_moves() and -1.0 <= result.value <= 1.0
    assert result.value == result.scores[result.move]
    again = kernel.rollouts(seed=5)
    assert again is not None
    repeated = again.search(state, work=300)
    assert (repeated.move, repeated.visits, repeated.scores) == (result.move, result.visits, result.scores)
    timed = searcher.search(state, seconds=0.05)
    assert timed.nodes > 0 and len(set(timed.visits.values())) == 1  # whole playouts of every move


def test_rollouts_win_at_once_and_do_not_search_a_forced_move() -> None:
    game = shogames.make("sho", players=2, shells=13, coins=1)
    kernel = require_kernel(game)
    # Player 1's only coin stands on 12 with 5 to spend: bearing it off wins.
    state = game.state_from_text("12a1 0/1 0/0 1 move 5 0 2-3 3 9 entered=ab")
    searcher = kernel.rollouts(seed=0)
    assert searcher is not None
    found = searcher.search(state, work=100)
    assert kernel.play(state, found.move).returns()[0] == 1.0 and found.nodes == 0
    with pytest.raises(ValueError, match="throw the dice first"):
        searcher.search(game.new_initial_state(), work=10)


def test_kernel_rollout_agents_play_sho_and_refuse_a_kernel_without_rollouts() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("sho", players=3, shells=16, coins=3)
    agents = [make_agent("kernel-rollout:playouts=60", seed=seat) for seat in range(3)]
    final, _ = play_game(game, agents, seed=4)
    assert final.is_terminal() and sorted(final.returns()) == [-0.5, -0.5, 1.0]
    with pytest.raises(KernelUnavailableError, match="no kernel-rollout searcher"):
        make_agent("kernel-rollout", seed=1).check_game(shogames.make("shobu"))
    with pytest.raises(ValueError, match="playouts is a number"):
        make_agent("kernel-rollout:playouts=-1", seed=1)
