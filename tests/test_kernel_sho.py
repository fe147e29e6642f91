"""The Sho kernel against the pure-Python reference: differential checks, perft, playouts, searches.

The first test to run compiles the kernel (or loads it from numba's on-disk cache), so it takes longer.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

import shogames
from kernel_helpers import check_random_game, game_from_row
from shogames.core.kernel import (
    KernelUnavailableError,
    SearchOptions,
    kernels_enabled,
    require_kernel,
    unavailable_reason,
)
from shogames.core.perft import perft
from shogames.games.sho.kernel import ShoBatch
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
    {"para_mode": "ios", "shells": 20},
    {
        "para_mode": "ios",
        "players": 2,
        "shells": 16,
        "coins": 4,
        "allow_pass": "on",
        "finishing_overflow": "on",
    },
    {"para_mode": "pool", "shells": 20},
    {"para_mode": "pool", "players": 2, "shells": 16, "coins": 4, "last_kill_ends_turn": "on"},
    {"flexible_para": "on", "shells": 20},
    {"flexible_para": "on", "flexible_bonus": "second_only", "shells": 16, "coins": 4, "allow_pass": "on"},
    {"finishing_overflow": "on", "shells": 16, "coins": 4},
    {"finishing_overflow": "on", "flexible_para": "on", "players": 2, "shells": 14, "coins": 3},
    {"play_to_placings": "on", "shells": 16, "coins": 3},
    {"play_to_placings": "on", "players": 4, "four_player_mode": "free_for_all", "shells": 14, "coins": 2},
    {"opening_kill": "topup3_on_shomo", "shells": 20},
    {"opening_kill": "topup3_on_shomo", "reopen_when": "board_empty", "no_niner": "on", "shells": 18},
    {"players": 4, "team_coins": "separate", "shells": 16, "coins": 3},
    {"players": 4, "team_coins": "separate", "team_win": "first", "shells": 16, "coins": 3},
]

# Positions that random games from the start seldom reach, each with the settings whose rule it shows:
# a third pa ra (triple_para_win), a finishing overflow, a flexible pa ra to split, a pool with a banked
# throw, an entry that kills a Sho-mo, a placed player, a partner's stack in the way, an iOS rethrow.
SHO_POSITIONS: list[tuple[dict[str, object], str]] = [
    ({"preset": "lhasa", "shells": 24}, "5a2,9b1 7/8/9 0/0/0 1 throw 2,2 2 1-1 4 20 entered=ab"),
    (
        {"players": 2, "shells": 16, "coins": 4, "finishing_overflow": "on"},
        "14a2,10a1,3b2 1/2 0/0 1 move 9 0 4-5 5 20 entered=ab",
    ),
    (
        {"players": 2, "shells": 20, "coins": 4, "flexible_para": "on"},
        "5a1,9a2,7b1 1/3 0/0 1 move 11 1 1-1 5 20 entered=ab",
    ),
    (
        {"players": 2, "shells": 20, "coins": 4, "para_mode": "pool"},
        "5a1,9a2,7b1 1/3 0/0 1 move 2,7 1 1-1 5 20 entered=ab banked=1",
    ),
    (
        {"shells": 20, "opening_kill": "topup3_on_shomo"},
        "4a2,6b2 7/7/9 0/0/0 3 throw - 0 - 6 20 entered=ab shomo=4,6",
    ),
    (
        {"shells": 16, "coins": 2, "play_to_placings": "on"},
        "14b1 0/1/2 2/0/0 2 throw - 0 - 9 30 entered=abc placed=a",
    ),
    (
        {"players": 4, "team_coins": "separate", "shells": 16, "coins": 2},
        "5a1,7c1,9b1 1/1/1/2 0/0/0/0 1 throw - 0 - 4 20 entered=abc",
    ),
    (
        {"players": 2, "shells": 16, "coins": 4, "para_mode": "ios"},
        "5a1 3/4 0/0 1 throw 2 1 1-1 2 10 entered=a",
    ),
]


def sho_game(settings: dict[str, object]) -> shogames.Game[Any]:
    return game_from_row("sho", settings)


def settings_id(settings: dict[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in settings.items())


@pytest.mark.parametrize("settings", SHO_SETTINGS, ids=settings_id)
def test_sho_kernel_agrees_with_the_reference(settings: dict[str, object]) -> None:
    game = sho_game(settings)
    assert game.kernel is not None
    positions = check_kernel(game, games=2, seed=sum(map(ord, str(settings))), perft_depth=3, perft_every=150)
    assert positions >= 20
    check_kernel_playouts(game, games=2, seed=5)


@pytest.mark.parametrize(("settings", "text"), SHO_POSITIONS, ids=[settings_id(s) for s, _ in SHO_POSITIONS])
def test_sho_kernel_agrees_from_positions_of_each_rule(settings: dict[str, object], text: str) -> None:
    game = sho_game(settings)
    start = game.state_from_text(text)
    kernel = require_kernel(game)
    assert kernel.decode(kernel.encode(start)).to_text() == start.to_text()
    check_kernel(game, games=2, seed=len(text), starts=[start], perft_depth=3, perft_every=30)


def test_every_sho_setting_has_the_kernel() -> None:
    from shogames.games.sho import ShoGame

    for spec in ShoGame.setting_specs:
        for value in spec.choices or ():
            settings: dict[str, object] = {spec.name: value}
            if spec.name in ("team_coins", "team_win", "four_player_mode"):
                settings["players"] = 4
            game = shogames.make("sho", None, **settings)
            assert game.kernel is not None, settings
            assert unavailable_reason(game) == ""


@pytest.mark.parametrize(
    ("seed", "first", "last"),
    [
        (0, 0, 25),
        pytest.param(0, 25, 50, marks=pytest.mark.slow),
        *(pytest.param(seed, 0, 50, marks=pytest.mark.slow) for seed in range(1, 8)),
    ],
)
def test_sho_kernel_agrees_over_random_combinations_of_settings(seed: int, first: int, last: int) -> None:
    # 50 random combinations of every setting per seed, small tracks and few coins so that the rare rules
    # (follow-ups, banked throws, placings, Sho-mo) come up. The suite checks the first 25 of seed 0; the
    # rest of seed 0 and the seeds past it are the long sweep (--run-slow).
    import random

    from shogames.core.errors import SettingsError
    from shogames.games.sho import ShoGame

    rng = random.Random(seed)
    checked = 0
    while checked < last:
        settings: dict[str, object] = {
            spec.name: rng.choice(spec.choices)
            for spec in ShoGame.setting_specs
            if spec.choices and rng.random() < 0.5
        }
        settings.update(
            players=rng.choice([2, 3, 4]), shells=rng.choice([13, 16, 20]), coins=rng.randint(1, 5)
        )
        try:
            game = shogames.make("sho", None, **settings)
        except SettingsError:
            continue
        checked += 1
        if checked > first:
            check_kernel(game, games=3, seed=checked, perft_depth=3, perft_every=40)
            check_kernel_playouts(game, games=5, seed=checked)


def test_a_broken_sho_kernel_rule_is_caught() -> None:
    from shogames.games.sho.kernel import C_ANY_SUBSET, ShoKernel

    game = shogames.make("sho")
    broken = ShoKernel(game)
    broken.cfg[C_ANY_SUBSET] = 0  # a move may spend one value or all, no other combination
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=3, seed=1, kernel=broken, perft_depth=0)


def test_a_broken_partner_rule_is_caught() -> None:
    from shogames.games.sho.kernel import C_PARTNERS, ShoKernel

    settings, text = SHO_POSITIONS[6]
    game = sho_game(settings)
    broken = ShoKernel(game)
    broken.cfg[C_PARTNERS] = 0  # a partner's stack no longer blocks: it may be killed
    start = game.state_from_text(text)
    check_kernel(game, games=2, seed=1, starts=[start], perft_depth=0)  # the right kernel agrees
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=2, seed=1, starts=[start], kernel=broken, perft_depth=0)


def test_a_sho_game_without_a_kernel_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every Sho setting has the kernel now; a kernel module that declines a game is still reported.
    import shogames.games.sho.kernel as sho_kernel

    monkeypatch.setattr(sho_kernel, "make_kernel", lambda game: None)
    game = shogames.make("sho", para_mode="pool")
    assert game.kernel is None
    assert "does not cover the settings" in unavailable_reason(
        game
    ) and "para_mode=pool" in unavailable_reason(game)
    with pytest.raises(KernelUnavailableError, match="does not cover"):
        require_kernel(game)


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


def sho_midgame(seed: int, plies: int, game: shogames.Game[Any] | None = None) -> shogames.State[Any]:
    import random

    from shogames.core.chance import sample_chance

    rng = random.Random(seed)
    state: shogames.State[Any] = (game or shogames.make("sho")).new_initial_state()
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


@pytest.mark.parametrize("kind", ["mcts", "alphabeta"])
def test_sho_searches_bear_off_to_win(kind: str) -> None:
    game = shogames.make("sho", players=2, shells=13, coins=1)
    kernel = require_kernel(game)
    # Player 1's only coin stands on 12 with 5 to spend: bearing it off wins.
    state = game.state_from_text("12a1 0/1 0/0 1 move 5 0 2-3 3 9 entered=ab")
    searcher = kernel.mcts(seed=0) if kind == "mcts" else kernel.alphabeta(seed=0)
    assert searcher is not None
    found = searcher.search(state, work=100 if kind == "mcts" else 1000)
    assert kernel.play(state, found.move).returns()[0] == 1.0
    if kind == "mcts":  # played at once, unsearched
        assert found.nodes == 0
    else:  # a forced result ends the deepening
        assert found.value == pytest.approx(1.0 - 1e-4) and found.depth == 1


def test_sho_random_game_records_only_the_game_asked_for() -> None:
    # A row holds a whole game's plies (max_game_length): with a high turn cap it is hundreds of
    # megabytes, so recording every game before the one asked for would need terabytes.
    game = shogames.make("sho", players=2, shells=13, coins=1, max_turns=1_000_000)
    kernel = require_kernel(game)
    index = 2000
    check_random_game(kernel, kernel.random_playouts(index + 1, seed=3), 3, index, game.new_initial_state())
    with pytest.raises(ValueError, match="index of 0 or more"):
        kernel.random_game(seed=3, index=-1)


# --- Alpha-beta ----------------------------------------------------------------------------------------


def exact_value(state: shogames.State[Any], depth: int, seat: int, root_ply: int) -> float:
    """The depth-limited expectimax value for ``seat``, every other seat against it (paranoid), in Python."""
    if state.is_terminal():
        return state.returns()[seat] * (1.0 - 1e-4 * (state.ply - root_ply))
    if depth <= 0:
        return state.evaluate()[seat]
    if state.to_move == shogames.CHANCE:
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.play_unchecked(outcome)
            below = depth - 1 if child.to_move == shogames.CHANCE else depth
            total += float(probability) * exact_value(child, below, seat, root_ply)
        return total
    values = [
        exact_value(state.play_unchecked(move), depth - 1, seat, root_ply) for move in state.legal_moves()
    ]
    return max(values) if state.to_move == seat else min(values)


@pytest.mark.parametrize(
    ("settings", "seed", "plies", "depth"),
    [
        ({}, 0, 120, 2),
        ({}, 2, 60, 2),
        ({"players": 2, "shells": 24, "coins": 4}, 1, 12, 3),
        ({"para_mode": "pool", "shells": 20, "coins": 4}, 1, 30, 2),
        ({"players": 4, "shells": 20, "coins": 4}, 1, 12, 2),
        ({"players": 4, "team_coins": "separate", "shells": 20, "coins": 3}, 0, 12, 2),
    ],
)
def test_sho_alphabeta_value_is_the_exact_expectimax_value(
    settings: dict[str, object], seed: int, plies: int, depth: int
) -> None:
    from shogames.agents import AlphaBetaAgent

    state = sho_midgame(seed, plies, sho_game(settings))
    seat = state.to_move
    assert seat is not None and seat >= 0
    exact = {
        move: exact_value(state.play_unchecked(move), depth - 1, seat, state.ply)
        for move in state.legal_moves()
    }
    for star in (False, True):  # Star1's windows at the throws find the same values
        searcher = require_kernel(state.game).alphabeta(
            seed=seed, depth=depth, options=SearchOptions(star=star)
        )
        assert searcher is not None
        result = searcher.search(state)
        assert result.depth == depth and math.isclose(result.value, max(exact.values()), abs_tol=1e-12)
        assert math.isclose(exact[result.move], result.value, abs_tol=1e-12)
        # Every root move's score is its value or, cut off, an upper bound of it.
        assert all(
            result.scores[move] >= value - 1e-12 or result.scores[move] <= result.value
            for move, value in exact.items()
        )
    agent = AlphaBetaAgent(seed=1, depth=depth)
    agent.search(state)
    assert math.isclose(agent.last_value, result.value, abs_tol=1e-12)


def maxn_values(state: shogames.State[Any], depth: int, root_ply: int) -> tuple[float, ...]:
    """The depth-limited max-n values of every seat, expectation at the throws, in Python.

    The seat to move takes the first child best for itself, in the legal order.
    """
    players = state.game.num_players
    if state.is_terminal():
        return tuple(value * (1.0 - 1e-4 * (state.ply - root_ply)) for value in state.returns())
    if depth <= 0:
        return state.evaluate()
    if state.to_move == shogames.CHANCE:
        totals = [0.0] * players
        for outcome, probability in state.chance_outcomes():
            child = state.play_unchecked(outcome)
            below = depth - 1 if child.to_move == shogames.CHANCE else depth
            for seat, value in enumerate(maxn_values(child, below, root_ply)):
                totals[seat] += float(probability) * value
        return tuple(totals)
    mover = state.to_move
    assert mover is not None
    best: tuple[float, ...] | None = None
    for move in state.legal_moves():
        values = maxn_values(state.play_unchecked(move), depth - 1, root_ply)
        if best is None or values[mover] > best[mover]:
            best = values
    assert best is not None
    return best


@pytest.mark.parametrize(
    ("settings", "seed", "plies", "depth"),
    [
        ({}, 0, 120, 2),
        ({}, 2, 60, 3),
        ({"players": 4, "shells": 20, "coins": 4}, 1, 12, 2),
        ({"players": 4, "team_coins": "separate", "shells": 20, "coins": 3}, 0, 12, 2),
        ({"players": 2, "shells": 24, "coins": 4}, 1, 12, 3),
    ],
)
def test_sho_maxn_value_is_the_exact_maxn_value(
    settings: dict[str, object], seed: int, plies: int, depth: int
) -> None:
    state = sho_midgame(seed, plies, sho_game(settings))
    seat = state.to_move
    assert seat is not None and seat >= 0
    kernel = require_kernel(state.game)
    searcher = kernel.alphabeta(seed=seed, depth=depth, options=SearchOptions(maxn=True))
    assert searcher is not None
    result = searcher.search(state)
    exact = {
        move: maxn_values(state.play_unchecked(move), depth - 1, state.ply)[seat]
        for move in state.legal_moves()
    }
    assert result.depth == depth and math.isclose(result.value, max(exact.values()), abs_tol=1e-12)
    assert all(math.isclose(result.scores[move], value, abs_tol=1e-12) for move, value in exact.items())
    paranoid_searcher = kernel.alphabeta(seed=seed, depth=depth)
    assert paranoid_searcher is not None
    paranoid = paranoid_searcher.search(state)
    if state.game.num_players == 2:  # two players: max-n is the paranoid (zero-sum) search
        assert math.isclose(paranoid.value, result.value, abs_tol=1e-12)
    else:  # an opponent who plays for itself leaves the searcher at least what the coalition would
        assert paranoid.value <= result.value + 1e-12


@pytest.mark.parametrize("depth", [3, pytest.param(4, marks=pytest.mark.slow)])  # depth 4: 28 s in all
@pytest.mark.parametrize("players", [2, 3])
def test_star1_finds_the_paranoid_values_in_fewer_positions(players: int, depth: int) -> None:
    game = sho_game({"players": players})
    kernel = require_kernel(game)
    plain_nodes = star_nodes = 0
    for seed in range(3):
        state = sho_midgame(seed, 60, game)
        results = []
        for star in (False, True):
            searcher = kernel.alphabeta(seed=1, depth=depth, options=SearchOptions(star=star))
            assert searcher is not None
            results.append(searcher.search(state, work=10**9))
        plain, star1 = results
        assert star1.depth == plain.depth == depth
        assert math.isclose(star1.value, plain.value, abs_tol=1e-12) and star1.move == plain.move
        plain_nodes += plain.nodes
        star_nodes += star1.nodes
    assert star_nodes < plain_nodes


def test_star1_and_maxn_do_not_go_together() -> None:
    from shogames.agents import make_agent

    with pytest.raises(ValueError, match="not both"):
        make_agent("kernel-alphabeta:star=1,maxn=1")
    with pytest.raises(ValueError, match="star is 1"):
        make_agent("kernel-alphabeta:star=2")


def test_maxn_is_refused_where_the_kernel_lacks_it() -> None:
    from shogames.agents import make_agent
    from shogames.agents.kernel_search import KernelAlphaBetaAgent

    with pytest.raises(ValueError, match="maxn is 1"):
        make_agent("kernel-alphabeta:maxn=3")
    shogammon = shogames.make("shogammon")
    if shogammon.kernel is not None:
        with pytest.raises(KernelUnavailableError, match="has no maxn"):
            make_agent("kernel-alphabeta:maxn=1").check_game(shogammon)
    agent = make_agent("kernel-alphabeta:maxn=1,nodes=2000", seed=1)
    assert isinstance(agent, KernelAlphaBetaAgent)
    state = sho_midgame(3, plies=120)
    assert agent.select_move(state) in state.legal_moves()
    assert agent.last_result is not None and agent.last_result.nodes <= 2000


def test_sho_alphabeta_keeps_its_budget_and_is_deterministic() -> None:
    state = sho_midgame(3, plies=120)
    kernel = require_kernel(state.game)
    searcher = kernel.alphabeta(seed=1)
    assert searcher is not None
    result = searcher.search(state, work=20_000)
    assert result.depth >= 1 and result.nodes <= 20_000 and result.move in state.legal_moves()
    again = kernel.alphabeta(seed=1)
    repeated = again.search(state, work=20_000) if again is not None else None
    assert repeated is not None and (repeated.move, repeated.value, repeated.nodes, repeated.scores) == (
        result.move,
        result.value,
        result.nodes,
        result.scores,
    )
    timed = searcher.search(state, seconds=0.2)
    assert timed.depth >= 1 and timed.seconds < 5
    with pytest.raises(ValueError, match="throw the dice first"):
        searcher.search(state.game.new_initial_state(), work=10)


def test_kernel_alphabeta_agents_play_sho() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("sho", players=3, shells=16, coins=3, flexible_para="on", finishing_overflow="on")
    agents = [make_agent("kernel-alphabeta:nodes=2000", seed=seat) for seat in range(3)]
    final, _ = play_game(game, agents, seed=4)
    assert final.is_terminal() and sorted(final.returns()) == [-0.5, -0.5, 1.0]
    searched = agents[0].last_result  # type: ignore[attr-defined]
    assert searched is not None and 0 < searched.nodes <= 2000


# --- Parallel batches ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings", [{"players": 2, "shells": 20, "coins": 4}, {"para_mode": "pool", "shells": 16, "coins": 3}]
)
def test_sho_batches_are_the_same_on_any_number_of_threads(settings: dict[str, object]) -> None:
    from shogames.games.sho.kernel import ShoKernel

    game = sho_game(settings)
    kernel = ShoKernel(game)
    start = sho_midgame(2, 20, game)
    batches = [kernel.random_playouts(41, seed=6, start=start, threads=threads) for threads in (1, 2, None)]
    for batch in batches[1:]:
        assert np.array_equal(batch.plies, batches[0].plies)
        assert np.array_equal(batch.returns, batches[0].returns)
    for index in (0, 40):
        check_random_game(kernel, batches[1], 6, index, start)
    counts = {kernel.perft(start, 4, bulk=bulk, threads=t) for bulk in (True, False) for t in (1, 2)}
    assert counts == {perft(start, 4)}
    with pytest.raises(ValueError, match="threads must be 1 or more"):
        kernel.random_playouts(2, threads=0)


# --- The batch of games (ShoBatch) ---------------------------------------------------------------------


def throw_as_the_batch(state: shogames.State[Any], stream: Any) -> tuple[shogames.State[Any], Any]:
    """Play the throws (and the first seat's draw) a batch row draws from ``stream``, on the reference."""
    from shogames.games.sho import FIRST, THROW, ShoMove
    from shogames.kernels.common import below, splitmix

    while not state.is_terminal() and state.to_move == shogames.CHANCE:
        if state.to_text().split()[4] == "draw":
            stream, bits = splitmix(np.uint64(stream))
            state = state.play(ShoMove(FIRST, coins=int(below(np.uint64(bits), state.game.num_players))))
        else:
            stream, bits = splitmix(np.uint64(stream))
            a = int(below(np.uint64(bits), 6)) + 1
            stream, bits = splitmix(np.uint64(stream))
            b = int(below(np.uint64(bits), 6)) + 1
            state = state.play(ShoMove(THROW, low=min(a, b), high=max(a, b)))
    return state, stream


def sho_batch(game: shogames.Game[Any], size: int, seed: int) -> ShoBatch:
    batch = require_kernel(game).batch(size, seed=seed)
    assert isinstance(batch, ShoBatch)
    return batch


def check_batch_rows(batch: Any, references: list[shogames.State[Any]]) -> None:
    """Each row's state, seat to move, mask and observation equal the reference's."""
    masks, observations, to_move = batch.legal_mask(), batch.observe(), batch.to_move()
    for row, reference in enumerate(references):
        assert batch.state(row).to_text() == reference.to_text()
        seat = reference.to_move
        assert to_move[row] == (-1 if seat is None else seat)
        assert np.flatnonzero(masks[row]).tolist() == reference.legal_actions()
        expected = reference.observation_tensor(0 if seat is None else seat)
        assert observations[row].ravel().tolist() == np.array(expected, dtype=np.float32).tolist()


@pytest.mark.parametrize("settings", SHO_SETTINGS, ids=settings_id)
def test_batch_steps_each_row_as_the_reference(settings: dict[str, object]) -> None:
    from shogames.kernels.common import game_stream

    game = sho_game(settings)
    rows, seed = 16, 7
    batch = sho_batch(game, rows, seed)
    streams = [game_stream(np.uint64(seed), row) for row in range(rows)]
    references = []
    for row in range(rows):
        reference, streams[row] = throw_as_the_batch(game.new_initial_state(), streams[row])
        references.append(reference)
    rng = np.random.default_rng(3)
    finished = 0
    for _ in range(STEPS_CHECKED):
        check_batch_rows(batch, references)
        actions = np.array([rng.choice(r.legal_actions()) if not r.is_terminal() else 0 for r in references])
        returns, terminated, truncated = batch.step(actions)
        for row, reference in enumerate(references):
            if reference.is_terminal():
                assert not terminated[row] and not truncated[row] and not returns[row].any()
                continue
            reference, streams[row] = throw_as_the_batch(
                reference.play_action(int(actions[row])), streams[row]
            )
            references[row] = reference
            assert terminated[row] == (reference.is_terminal() and not reference.is_truncated())
            assert truncated[row] == reference.is_truncated()
            expected = reference.returns() if reference.is_terminal() else (0.0,) * game.num_players
            assert returns[row].tolist() == np.array(expected, dtype=np.float32).tolist()
        over = np.array([reference.is_terminal() for reference in references])
        if over.any():
            check_batch_rows(batch, references)
            finished += int(over.sum())
            batch.reset(over)
            for again in np.flatnonzero(over).tolist():
                references[again], streams[again] = throw_as_the_batch(
                    game.new_initial_state(), streams[again]
                )
    check_batch_rows(batch, references)
    assert finished or game.max_game_length > 200  # the small games end and start again within the test


STEPS_CHECKED = 200
"""Steps of each batch test, every row checked against the reference after each."""


def test_batch_refuses_an_illegal_action_and_plays_no_row() -> None:
    game = shogames.make("sho")
    batch = sho_batch(game, 3, 1)
    before = batch.states.copy()
    legal = [int(np.flatnonzero(row)[0]) for row in batch.legal_mask()]
    with pytest.raises(shogames.IllegalMoveError, match="row 1: action 16322 is not legal"):
        batch.step(np.array([legal[0], 16_322, legal[2]]))
    assert np.array_equal(batch.states, before)
    with pytest.raises(ValueError, match="one entry per row"):
        batch.step(np.array(legal[:2]))


def test_batch_rows_do_not_depend_on_the_batch_size_or_threads() -> None:
    from shogames.core.kernel import compiled_threads
    from shogames.games.sho.kernel import ROWS_PER_THREAD

    game = shogames.make("sho", players=2, shells=20, coins=4)
    small, large = sho_batch(game, 3, 9), sho_batch(game, 2 * ROWS_PER_THREAD, 9)
    rng = np.random.default_rng(0)
    for _ in range(60):
        with compiled_threads(2):
            mask = large.legal_mask()
        assert np.array_equal(mask[:3], small.legal_mask())
        actions = (rng.random(mask.shape) * mask).argmax(axis=1)
        ended = large.to_move() < 0
        with compiled_threads(2):
            large.step(actions)
        small.step(actions[:3])
        assert np.array_equal(large.states[:3], small.states)
        assert np.array_equal(large.observe()[:3], small.observe())
        if ended.any():
            large.reset(ended)
            small.reset(ended[:3])
    assert (large.to_move() >= -1).all()


def test_a_deep_search_stops_before_more_values_than_the_kernel_enumerates() -> None:
    """A position with one legal move lets the iterative deepening reach chains of a dozen throws (pa ra
    after pa ra); the search takes such a chance node as its horizon instead of raising (found by the
    ladder's arena: ``kernel-alphabeta:nodes=30000`` raised here)."""
    from shogames.agents import make_agent

    game = shogames.make("sho")
    state = game.state_from_text("39b8,61a5,62c8 0/0/0 4/1/1 2 move 4 0 1-3 61 180 entered=abc")
    agent = make_agent("kernel-alphabeta:nodes=30000", seed=1, game="sho")
    assert agent.select_move(state) in state.legal_moves()
