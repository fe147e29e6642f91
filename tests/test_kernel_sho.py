"""The Sho kernel against the pure-Python reference: differential checks, perft, playouts, searches.

The first test to run compiles the kernel (or loads it from numba's on-disk cache), so it takes longer.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import shogames
from shogames.core.kernel import kernels_enabled, require_kernel, unavailable_reason
from shogames.core.perft import perft
from shogames.kernels.conformance import check_kernel, check_kernel_playouts

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

# --- Differential checks over presets and settings -----------------------------------------------

SHO_SETTINGS: list[dict[str, object]] = [
    {"preset": "classic"},
    {"preset": "lhasa", "shells": 24},
    {"players": 2, "shells": 20, "para_subsets": "single_or_total"},
    {"players": 4, "shells": 16, "coins": 4},
    {"players": 4, "four_player_mode": "free_for_all", "shells": 16, "coins": 3, "first_player": "random"},
    {"shells": 16, "coins": 4, "exact_bear_off": "on", "allow_pass": "on", "last_kill_ends_turn": "on"},
    {"shells": 18, "no_niner": "on", "reopen_when": "board_empty", "opening_kill": "plain"},
    {"shells": 18, "opening_size": 3, "opening_12_bonus": "off", "opening_para_size": 2, "max_turns": 30},
    {"first_player": "previous_winner", "previous_winner": 2, "goal": "shells+1", "shells": 14, "coins": 5},
]


def sho_game(settings: dict[str, object]) -> shogames.Game[Any]:
    given = dict(settings)
    preset = given.pop("preset", None)
    return shogames.make("sho", preset if isinstance(preset, str) else None, **given)


@pytest.mark.parametrize("settings", SHO_SETTINGS, ids=lambda s: " ".join(f"{k}={v}" for k, v in s.items()))
def test_sho_kernel_agrees_with_the_reference(settings: dict[str, object]) -> None:
    game = sho_game(settings)
    assert game.kernel is not None
    positions = check_kernel(game, games=1, seed=sum(map(ord, str(settings))), perft_depth=3, perft_every=150)
    assert positions >= 20
    check_kernel_playouts(game, games=2, seed=5)


def test_a_broken_sho_kernel_rule_is_caught() -> None:
    from shogames.kernels import _sho_jit
    from shogames.kernels.sho import ShoKernel

    game = shogames.make("sho")
    broken = ShoKernel(game)
    broken.cfg[_sho_jit.C_ANY_SUBSET] = 0  # a move may spend one value or all, no other combination
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=3, seed=1, kernel=broken, perft_depth=0)


def test_sho_kernel_perft_and_playouts() -> None:
    game = shogames.make("sho")
    kernel = require_kernel(game)
    start = game.new_initial_state()
    for depth in range(1, 5):
        assert kernel.perft(start, depth) == kernel.perft(start, depth, bulk=False) == perft(start, depth)
    batch = kernel.random_playouts(100, seed=7)
    assert batch.returns.shape == (100, 3)
    # Every game is won by one player: +1 for the winner, -1/2 for the others.
    assert np.all(np.sort(batch.returns, axis=1) == [-0.5, -0.5, 1.0])
    assert kernel.alphabeta() is None


def sho_midgame(seed: int, plies: int) -> shogames.State[Any]:
    import random

    from shogames.core.chance import sample_chance

    rng = random.Random(seed)
    state: shogames.State[Any] = shogames.make("sho").new_initial_state()
    while state.ply < plies or state.to_move is None or state.to_move < 0:
        if state.to_move == shogames.CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
        else:
            state = state.play_unchecked(rng.choice(state.legal_moves()))
        assert not state.is_terminal()
    return state


def test_sho_mcts_searches_with_chance_and_three_players() -> None:
    state = sho_midgame(3, plies=120)
    kernel = require_kernel(state.game)
    searcher = kernel.mcts(seed=1)
    assert searcher is not None
    result = searcher.search(state, work=1500)
    assert result.nodes == 1500 and sum(result.visits.values()) == 1500
    assert result.move in state.legal_moves() and -1.0 <= result.value <= 1.0
    again = kernel.mcts(seed=1)
    assert again is not None and again.search(state, work=1500).visits == result.visits
    with pytest.raises(ValueError, match="throw the dice first"):
        searcher.search(state.game.new_initial_state(), work=10)  # a throw is to move there


def test_kernel_mcts_agents_play_sho() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("sho", players=3, shells=16, coins=3)
    agents = [make_agent("kernel-mcts:iterations=200", seed=seat) for seat in range(3)]
    final, _ = play_game(game, agents, seed=4)
    assert final.is_terminal() and sorted(final.returns()) == [-0.5, -0.5, 1.0]


def test_sho_mcts_plays_a_winning_move_at_once() -> None:
    game = shogames.make("sho", players=2, shells=13, coins=1)
    kernel = require_kernel(game)
    # Player 1's only coin stands on 12 with 5 to spend: bearing it off wins.
    state = game.state_from_text("12a1 0/1 0/0 1 move 5 0 2-3 3 9 entered=ab")
    searcher = kernel.mcts(seed=0)
    assert searcher is not None
    found = searcher.search(state, work=100)
    assert found.nodes == 0 and kernel.play(state, found.move).returns()[0] == 1.0


@pytest.mark.parametrize(
    "settings",
    [
        {"para_mode": "ios"},
        {"para_mode": "pool"},
        {"flexible_para": "on"},
        {"finishing_overflow": "on"},
        {"play_to_placings": "on"},
        {"opening_kill": "topup3_on_shomo"},
        {"players": 4, "team_coins": "separate"},
    ],
)
def test_sho_settings_the_kernel_does_not_cover(settings: dict[str, object]) -> None:
    game = sho_game(settings)
    assert game.kernel is None
    assert "does not cover" in unavailable_reason(game)


def test_sho_random_game_records_only_the_game_asked_for() -> None:
    # A row holds a whole game's plies (max_game_length): with a high turn cap it is hundreds of
    # megabytes, so recording every game before the one asked for would need terabytes.
    game = shogames.make("sho", players=2, shells=13, coins=1, max_turns=1_000_000)
    kernel = require_kernel(game)
    index = 2000
    batch = kernel.random_playouts(index + 1, seed=3)
    moves = kernel.random_game(seed=3, index=index)
    assert len(moves) == int(batch.plies[index])
    state = game.new_initial_state()
    for move in moves:
        state = state.play(move)
    assert state.is_terminal() and state.returns() == tuple(batch.returns[index])
    with pytest.raises(ValueError, match="index of 0 or more"):
        kernel.random_game(seed=3, index=-1)
