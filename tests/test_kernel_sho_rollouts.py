"""The Sho kernel's Monte Carlo rollouts: the playouts are the reference's greedy play, move for move, and
the search's means, counts and budget are what its documentation says."""

from __future__ import annotations

from typing import Any

import pytest

import shogames
from shogames.core.kernel import KernelUnavailableError, kernels_enabled, require_kernel
from shogames.games.sho.kernel import ShoKernel
from test_kernel_sho import sho_midgame

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")


def sho_kernel(game: shogames.Game[Any]) -> ShoKernel:
    kernel = require_kernel(game)
    assert isinstance(kernel, ShoKernel)
    return kernel


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
        moves, returns = kernel.greedy_game(state, seed=seed)
        decisions = 0
        for move in moves:
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
    n = len(moves)
    budget = 40 * n
    searcher = kernel.rollouts(seed=9)
    result = searcher.search(state, work=budget)
    assert searcher.last_seed is not None
    counts = [result.visits[move] for move in moves]
    rounds = max(1, (n - 1).bit_length())
    assert result.nodes == sum(counts) <= budget
    assert min(counts) == budget // (n * rounds)  # the first round's share, every move
    assert result.visits[result.move] == max(counts)  # the move chosen went through every round
    assert sum(count > min(counts) for count in counts) == ((n + 1) // 2 if rounds > 1 else 0)
    seat = state.to_move
    assert seat is not None
    for move, count in zip(moves, counts, strict=True):
        after = kernel.play(state, move)
        results = [kernel.greedy_game(after, seed=searcher.last_seed, index=k)[1][seat] for k in range(count)]
        assert result.scores[move] == pytest.approx(sum(results) / len(results), abs=1e-12)


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


def test_greedy_games_are_replays_only_where_the_kernel_has_rollouts() -> None:
    kernel = sho_kernel(shogames.make("sho", players=2))
    state = two_player_position()
    assert kernel.greedy_game(state, seed=3, index=1) == kernel.greedy_game(state, seed=3, index=1)
    with pytest.raises(ValueError, match="playout index of 0 or more"):
        kernel.greedy_game(state, seed=3, index=-1)
    shobu = shogames.make("shobu")
    assert require_kernel(shobu).greedy_game(shobu.new_initial_state(), seed=3) is None
