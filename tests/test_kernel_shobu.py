"""The Shobu kernel against the pure-Python reference: conversions, perft, differential checks, searches.

The first test to run compiles the kernel (or loads it from numba's on-disk cache), so it takes longer.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

import shogames
from kernel_helpers import game_from_row
from shogames.core.errors import IllegalMoveError
from shogames.core.kernel import (
    KernelUnavailableError,
    SearchOptions,
    kernels_enabled,
    require_kernel,
)
from shogames.core.perft import perft
from shogames.games.shobu import (
    PASS_ACTION,
    START_POSITION,
    TURN_ACTIONS,
    ShobuMove,
    ShobuState,
)
from shogames.games.shobu.kernel import (
    PARALLEL_ROWS,
    ShobuBatch,
    ShobuKernel,
    build_action_tables,
    build_rules,
)
from shogames.kernels.conformance import check_kernel, check_kernel_playouts, check_position
from test_perft import PerftEntry, load_entries

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

PERFT_DATA = Path(__file__).parent / "data" / "perft"


def shobu_kernel(**settings: object) -> ShobuKernel:
    kernel = shogames.make("shobu", None, **settings).kernel
    assert isinstance(kernel, ShobuKernel)
    return kernel


def no_turn_text() -> str:
    # tests/test_shobu.py's position: Black's a1 stones on BD and BL are boxed in; Black has no turn.
    boxed = "4/4/ww2/bw2"
    return f"w3/4/4/b3 w3/4/4/b3 {boxed} {boxed} b"


def sparse_text() -> str:
    # Few stones, near the edges: pushes off the board, blocked moves and no-turn positions come up.
    return "w3/4/4/3b 3w/4/4/b3 1w2/4/1b2/4 4/2w1/4/b2b w"


# --- Conversions -------------------------------------------------------------------------------------


def test_arrays_and_move_codes_round_trip() -> None:
    kernel = shobu_kernel()
    state = kernel.game.new_initial_state()
    array = kernel.encode(state)
    assert array.dtype == np.uint64 and array.tolist() == [state.black, state.white, 0, 0, 0]
    assert kernel.decode(array).to_text() == state.to_text()
    for move in state.legal_moves():
        assert kernel.decode_move(kernel.encode_move(move)) == move


# --- Perft -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", load_entries(PERFT_DATA / "shobu.perft"), ids=lambda e: e.name)
def test_kernel_perft_matches_the_data_file(entry: PerftEntry) -> None:
    game = shogames.make("shobu")
    state = game.state_from_text(entry.position)
    kernel = require_kernel(game)
    for depth, count in entry.counts:
        assert kernel.perft(state, depth) == count
        if depth <= 2 or entry.name == "start":
            assert kernel.perft(state, depth, bulk=False) == count


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_perft_without_bulk_builds_the_reference_leaves(seed: int) -> None:
    # The last level without bulk counting builds each leaf in a fused loop and folds it into a
    # checksum; the checksum of the reference's positions after every legal turn must be the same.
    state = midgame(seed, plies=40)
    count, leaf_checksum = shobu_kernel().leaf_checksum(state)
    checksum = 0
    for move in state.legal_moves():
        after = state.play_unchecked(move)
        new_own, new_opp = (after.black, after.white) if state.side == 0 else (after.white, after.black)
        cleared = int(after.winner == state.side)
        checksum ^= ((new_own * 0x9E3779B97F4A7C15) & (2**64 - 1)) ^ new_opp ^ cleared
    assert count == len(state.legal_moves())
    assert leaf_checksum == checksum >> 1


@pytest.mark.parametrize("no_turn", ["lose", "pass"])
def test_perft_counts_the_no_turn_rule_below_the_root(no_turn: str) -> None:
    # White to move with Black boxed in: after most of White's turns Black has none, so the fused
    # interior levels (which count a child's turns in place) must apply the no_turn setting there.
    game = shogames.make("shobu", None, no_turn=no_turn)
    state = game.state_from_text(no_turn_text().replace(" b", " w"))
    kernel = require_kernel(game)
    for depth in (1, 2, 3):
        expected = perft(state, depth)
        assert kernel.perft(state, depth) == expected
        assert kernel.perft(state, depth, bulk=False) == expected
    assert perft(state, 2) == {"lose": 36, "pass": 48}[no_turn]


def test_kernel_perft_rejects_a_negative_depth() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        shobu_kernel().perft(shogames.make("shobu").new_initial_state(), -1)


# --- Differential checks over presets and settings ---------------------------------------------------

SETTINGS = [
    {"preset": "standard"},
    {},
    {"no_turn": "pass"},
    {"max_turns": 1},
    {"max_turns": 7, "no_turn": "pass"},
    {"max_turns": 60},
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: " ".join(f"{k}={v}" for k, v in s.items()))
def test_kernel_agrees_with_the_reference_in_random_games(settings: dict[str, object]) -> None:
    game = game_from_row("shobu", settings)
    starts = [game.state_from_text(no_turn_text()), game.state_from_text(sparse_text())]
    positions = check_kernel(game, games=2, seed=len(str(settings)), starts=starts, perft_every=60)
    assert positions >= 6  # at least the first position of each of the 2 x 3 games


def test_no_turn_rules_in_the_kernel() -> None:
    lose = shobu_kernel()
    state = lose.game.state_from_text(no_turn_text())
    assert lose.outcome(state) == (-1.0, 1.0) and lose.legal_moves(state) == []
    passing = shobu_kernel(no_turn="pass")
    state = passing.game.state_from_text(no_turn_text())
    assert passing.outcome(state) is None and [m.is_pass for m in passing.legal_moves(state)] == [True]
    check_position(passing, state, perft_depth=3)


@pytest.mark.parametrize("settings", [{}, {"no_turn": "pass", "max_turns": 40}])
def test_compiled_playouts_replay_in_the_reference(settings: dict[str, object]) -> None:
    game = shogames.make("shobu", None, **settings)
    check_kernel_playouts(game, games=4, seed=11)
    batch = require_kernel(game).random_playouts(200, seed=3)
    assert batch.games == 200 and batch.plies.max() <= game.max_game_length
    assert set(np.unique(batch.returns[:, 0])) <= {-1.0, 0.0, 1.0}
    assert np.all(batch.returns.sum(axis=1) == 0)
    # Game i depends on the seed and i only.
    again = require_kernel(game).random_playouts(5, seed=3)
    assert np.array_equal(again.plies, batch.plies[:5])


def test_batches_do_not_depend_on_the_number_of_threads() -> None:
    kernel = shobu_kernel(no_turn="pass", max_turns=120)
    one = kernel.random_playouts(300, seed=9, threads=1)
    for threads in (2, None):
        many = kernel.random_playouts(300, seed=9, threads=threads)
        assert np.array_equal(many.plies, one.plies) and np.array_equal(many.returns, one.returns)
    state = kernel.game.state_from_text(midgame(5, plies=20).to_text())
    for bulk in (True, False):
        counts = {kernel.perft(state, 3, bulk=bulk, threads=threads) for threads in (1, 2, None)}
        assert counts == {perft(state, 3)}


# --- A broken kernel is caught -----------------------------------------------------------------------


def broken_kernel(rule: str) -> ShobuKernel:
    shifts, masks, plans = build_rules()
    if rule == "aggressive board colour":
        plans[:, :, 1] = np.uint64(0xFFFFFFFFFFFFFFFF)  # the aggressive move may be on any board
    elif rule == "push needs room":
        masks[:, 2] = np.uint64(0)  # a pushed stone never looks for room beyond: pushes into stones
    else:
        raise ValueError(rule)
    return ShobuKernel(shogames.make("shobu"), rules=(shifts, masks, plans))


@pytest.mark.parametrize("rule", ["aggressive board colour", "push needs room"])
def test_a_broken_kernel_rule_is_caught(rule: str) -> None:
    kernel = broken_kernel(rule)
    game = kernel.game
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=3, seed=1, kernel=kernel, perft_depth=0)
    # Perft from the start catches it as well, by depth 3 at the latest.
    start = game.new_initial_state()
    assert any(kernel.perft(start, depth) != perft(start, depth) for depth in (1, 2, 3))


# --- Searches ----------------------------------------------------------------------------------------


# White's last stone on WL stands on b4, in front of Black's b3: b3 north one square pushes it off.
WIN_IN_ONE = "w3/4/4/bbbb 1w2/1b2/4/bbb1 wwww/4/4/bbbb wwww/4/4/bbbb b"


def midgame(seed: int, plies: int = 30) -> ShobuState:
    import random

    rng = random.Random(seed)
    state = shogames.make("shobu").new_initial_state()
    for _ in range(plies):
        moves = state.legal_moves()
        state = state.play_unchecked(moves[rng.randrange(len(moves))])
    assert isinstance(state, ShobuState) and not state.is_terminal()
    return state


def minimax(state: ShobuState, depth: int, root_turns: int) -> float:
    """Plain minimax for the side to move, with the agents' values (evaluation, discounted wins)."""
    if state.is_terminal():
        winner = state.winner
        if winner is None:
            return 0.0
        value = 1.0 - 1e-4 * (state.ply - root_turns)
        return value if winner == state.side else -value
    if depth == 0:
        value = state.evaluate()[0]
        return value if state.side == 0 else -value
    return max(-minimax(state.play_unchecked(m), depth - 1, root_turns) for m in state.legal_moves())


def alphabeta_value(state: ShobuState, depth: int, alpha: float, beta: float, root_turns: int) -> float:
    """:func:`minimax`'s value, with plain alpha-beta pruning (legal order, no table): quicker, same value."""
    if state.is_terminal() or depth == 0:
        return minimax(state, 0, root_turns)
    best = -math.inf
    for move in state.legal_moves():
        after = state.play_unchecked(move)
        assert isinstance(after, ShobuState)
        value = -alphabeta_value(after, depth - 1, -beta, -alpha, root_turns)
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


@pytest.mark.parametrize("settings", [{}, {"no_turn": "pass"}, {"max_turns": 70}])
def test_alphabeta_values_in_endgames_are_the_minimax_values(settings: dict[str, object]) -> None:
    # Late positions, where wins, losses for want of a turn and the length cap are within the search:
    # the compiled search's scores (material, discounted results) must come back as the same values.
    kernel = shobu_kernel(**settings)
    game = kernel.game
    rng = np.random.default_rng(7)
    checked = 0
    while checked < 8:
        state = game.state_from_text(sparse_text() if checked == 0 else START_POSITION)
        for _ in range(int(rng.integers(40, 90)) if checked else 0):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play_unchecked(moves[int(rng.integers(len(moves)))])
        if state.is_terminal():
            continue
        assert isinstance(state, ShobuState)
        expected = alphabeta_value(state, 3, -math.inf, math.inf, state.ply)
        result = kernel.alphabeta(seed=checked, depth=3).search(state, work=10**9)
        assert result.depth == 3 or abs(result.value) > 0.99
        assert math.isclose(result.value, expected, abs_tol=1e-12), (state.to_text(), settings)
        checked += 1


def endgame_states(kernel: ShobuKernel, count: int, seed: int) -> list[ShobuState]:
    """``count`` late positions not over (the first a sparse one): wins, no-turn losses and caps are near."""
    rng = np.random.default_rng(seed)
    states: list[ShobuState] = []
    while len(states) < count:
        state = kernel.game.state_from_text(sparse_text() if not states else START_POSITION)
        for _ in range(int(rng.integers(40, 90)) if states else 0):
            if state.is_terminal():
                break
            moves = state.legal_moves()
            state = state.play_unchecked(moves[int(rng.integers(len(moves)))])
        if not state.is_terminal():
            assert isinstance(state, ShobuState)
            states.append(state)
    return states


_ENDGAME_VALUES: dict[str, list[tuple[ShobuState, float]]] = {}
"""The endgames of :func:`endgames_with_minimax_values`, by the settings text of their game."""


def endgames_with_minimax_values(kernel: ShobuKernel) -> list[tuple[ShobuState, float]]:
    """Six late positions of ``kernel``'s game (:func:`endgame_states`), each with the reference's depth-3
    value; worked out once per game, as the search options cases under the same settings share them."""
    key = kernel.game.settings_text()
    if key not in _ENDGAME_VALUES:
        _ENDGAME_VALUES[key] = [
            (state, alphabeta_value(state, 3, -math.inf, math.inf, state.ply))
            for state in endgame_states(kernel, 6, 11)
        ]
    return _ENDGAME_VALUES[key]


@pytest.mark.parametrize(
    ("options", "settings"),
    [
        (SearchOptions(pvs=True), {}),
        (SearchOptions(pvs=True, killers=True, table_mb=1), {}),
        (SearchOptions(pvs=True, killers=True, table_mb=1), {"no_turn": "pass"}),
        (SearchOptions(pvs=True, aspiration=True), {}),
    ],
    ids=["pvs", "pvs-killers-table", "pvs-killers-table-pass", "pvs-aspiration"],
)
def test_search_options_keep_the_minimax_value(options: SearchOptions, settings: dict[str, object]) -> None:
    # Null windows, killer moves and a table of another size change the order and the cuts, never the value.
    kernel = shobu_kernel(**settings)
    for index, (state, expected) in enumerate(endgames_with_minimax_values(kernel)):
        result = kernel.alphabeta(seed=index, depth=3, options=options).search(state, work=10**9)
        assert math.isclose(result.value, expected, abs_tol=1e-12), (state.to_text(), options)


def test_aspiration_windows_keep_the_learned_value() -> None:
    # The learned evaluation's scores are a thousand a unit of value, so its window is its own.
    from shogames.learning.shipped import shipped_value

    kernel = shobu_kernel()
    network = shipped_value(kernel.game)
    for seed in (3, 4):
        state = midgame(seed, plies=12)
        values = [
            kernel.learned_alphabeta(network, seed=1, depth=4, options=SearchOptions(pvs=True, aspiration=on))
            .search(state, work=10**12)
            .value
            for on in (False, True)
        ]
        assert math.isclose(values[0], values[1], abs_tol=1e-12), state.to_text()


def test_an_extended_budget_goes_on_only_while_the_best_move_changes() -> None:
    # extend=K lets a search spend up to K times its nodes, finishing iterations while the best move
    # changes: over a few positions some stop at the budget and some go past it, none past K times.
    kernel = shobu_kernel()
    budget = 20_000
    used = []
    for seed in range(8):
        state = midgame(seed, plies=8 + 2 * seed)
        plain = kernel.alphabeta(seed=1, options=SearchOptions(pvs=True)).search(state, work=budget)
        options = SearchOptions(pvs=True, extend=3)
        extended = kernel.alphabeta(seed=1, options=options).search(state, work=budget)
        assert plain.nodes <= budget and extended.nodes <= 3 * budget
        assert extended.depth >= plain.depth and extended.move in state.legal_moves()
        used.append(extended.nodes)
    assert any(budget < nodes < 3 * budget for nodes in used), used
    assert any(nodes > budget for nodes in used), used


def stones_of(state: ShobuState, seat: int) -> int:
    return (state.black if seat == 0 else state.white).bit_count()


def quiescence_value(
    state: ShobuState,
    depth: int,
    left: int,
    alpha: float,
    beta: float,
    root: int,
    evaluate: Callable[[ShobuState], float] | None = None,
) -> float:
    """:func:`alphabeta_value` to ``depth``, then ``left`` plies of captures (either side may stand pat).

    ``evaluate`` values a position past the horizon for the side to move (by default the reference's
    evaluation); a finished game is worth its discounted result.
    """
    if state.is_terminal():
        return minimax(state, 0, root)
    if depth == 0:
        best = minimax(state, 0, root) if evaluate is None else evaluate(state)
        if left == 0 or best >= beta:
            return best
        alpha = max(alpha, best)
    else:
        best = -math.inf
    opponent = 1 - state.side
    for move in state.legal_moves():
        after = state.play_unchecked(move)
        assert isinstance(after, ShobuState)
        if depth == 0 and stones_of(after, opponent) == stones_of(state, opponent):
            continue  # past the horizon, only captures
        value = -quiescence_value(
            after, max(depth - 1, 0), left - (depth == 0), -beta, -alpha, root, evaluate
        )
        if value > best:
            best = value
            alpha = max(alpha, value)
            if alpha >= beta:
                break
    return best


@pytest.mark.parametrize(("depth", "left"), [(1, 1), (1, 2), (2, 1)])
def test_quiescence_searches_the_captures_past_the_horizon(depth: int, left: int) -> None:
    kernel = shobu_kernel()
    states = [*endgame_states(kernel, 4, 3), midgame(5, plies=24), midgame(8, plies=40)]
    differs = 0
    for index, state in enumerate(states):
        expected = quiescence_value(state, depth, left, -math.inf, math.inf, state.ply)
        options = SearchOptions(quiescence=left)
        result = kernel.alphabeta(seed=index, depth=depth, options=options).search(state, work=10**9)
        assert math.isclose(result.value, expected, abs_tol=1e-12), state.to_text()
        fewer = quiescence_value(state, depth, left - 1, -math.inf, math.inf, state.ply)
        differs += not math.isclose(expected, fewer)
    assert differs, "no position where the last ply of captures changes the value: the test shows nothing"


@pytest.mark.parametrize(("depth", "left"), [(1, 2), (2, 1)])
def test_learned_quiescence_updates_the_network_capture_by_capture(depth: int, left: int) -> None:
    # Past the horizon each capture's child takes its parent's sums of stones in its own view and changes
    # only the stones the capture moved (a node sums the other view when it has captures to search): the
    # search's value is the reference's, with the network's values of the reference's observations, to
    # the kernel's rounding of learned values (1e-3).
    from shogames.learning.network import PARAMETERS, ValueNet

    kernel = shobu_kernel()
    game = kernel.game
    net = ValueNet.new(math.prod(game.observation_shape), 8, prior=True, seed=21)
    rng = np.random.default_rng(22)
    for name in PARAMETERS:
        net.arrays[name] = net.arrays[name] + rng.normal(0, 0.3, net.arrays[name].shape).astype(np.float32)
    net.info = {"game": "shobu", "players": 2}
    states = [*endgame_states(kernel, 3, 5), midgame(9, plies=24)] if depth == 2 else [
        midgame(seed, plies=plies) for seed, plies in ((5, 24), (8, 40), (11, 30), (12, 36))
    ]  # fmt: skip
    differs = 0

    def network_value(state: ShobuState) -> float:
        return float(net.value_of([state], state.side)[0])

    for state in states:
        expected = quiescence_value(state, depth, left, -math.inf, math.inf, state.ply, network_value)
        searcher = kernel.learned_alphabeta(net, seed=1, depth=depth, options=SearchOptions(quiescence=left))
        assert searcher is not None
        result = searcher.search(state, work=10**9)
        assert result.value == pytest.approx(expected, abs=1.5e-3), state.to_text()
        fewer = quiescence_value(state, depth, 0, -math.inf, math.inf, state.ply, network_value)
        differs += abs(expected - fewer) > 2e-3
    assert differs, "no position where the captures change the value: the test shows nothing"


def test_late_move_reductions_finish_a_depth_sooner_and_still_take_a_win() -> None:
    # Reductions change the value (late quiet turns are searched shallower), so they are checked by what
    # they are for: fewer positions to the same depth, on every one of a few positions, and no win missed.
    kernel = shobu_kernel()
    for seed in (6, 7, 8):
        state = midgame(seed, plies=10)
        full = kernel.alphabeta(seed=1, depth=5, options=SearchOptions(pvs=True)).search(state, work=10**12)
        options = SearchOptions(pvs=True, reductions=True)
        reduced = kernel.alphabeta(seed=1, depth=5, options=options).search(state, work=10**12)
        assert reduced.depth == full.depth == 5 and reduced.nodes < full.nodes
        assert reduced.move in state.legal_moves()
    win = kernel.game.state_from_text(WIN_IN_ONE)
    found = kernel.alphabeta(seed=0, depth=4, options=SearchOptions(reductions=True)).search(win)
    assert kernel.play(win, found.move).winner == 0 and found.value > 0.99


def test_null_moves_finish_a_depth_sooner_and_still_take_a_win() -> None:
    # Null move pruning changes the value (a pass stands in for the search of every turn), so it is
    # checked by what it is for: fewer positions to the same depth, a legal move, and no win missed.
    kernel = shobu_kernel()
    plain_nodes = pruned_nodes = 0
    for seed in (6, 7, 8):
        state = midgame(seed, plies=10)
        full = kernel.alphabeta(seed=1, depth=5, options=SearchOptions(pvs=True)).search(state, work=10**12)
        options = SearchOptions(pvs=True, null_move=2)
        pruned = kernel.alphabeta(seed=1, depth=5, options=options).search(state, work=10**12)
        assert pruned.depth == full.depth == 5 and pruned.move in state.legal_moves()
        plain_nodes += full.nodes
        pruned_nodes += pruned.nodes
    assert pruned_nodes < plain_nodes / 2, (pruned_nodes, plain_nodes)
    win = kernel.game.state_from_text(WIN_IN_ONE)
    for null_move in (1, 2, 3):
        options = SearchOptions(pvs=True, quiescence=2, null_move=null_move)
        found = kernel.alphabeta(seed=0, depth=4, options=options).search(win)
        assert kernel.play(win, found.move).winner == 0 and found.value > 0.99


def test_null_moves_leave_the_plain_search_alone_without_null_windows() -> None:
    # The null move prunes only nodes searched with a null window: without principal variation search
    # (and so without those windows) the search is the plain one, position for position; the agent
    # refuses the option alone, and a reduction out of range.
    from shogames.agents import make_agent
    from shogames.agents.kernel_search import KernelAlphaBetaAgent

    kernel = shobu_kernel()
    for seed in (2, 3):
        state = midgame(seed, plies=12)
        plain = kernel.alphabeta(seed=1, depth=4).search(state, work=10**12)
        options = SearchOptions(null_move=2)
        alone = kernel.alphabeta(seed=1, depth=4, options=options).search(state, work=10**12)
        assert (alone.move, alone.value, alone.nodes) == (plain.move, plain.value, plain.nodes)
    with pytest.raises(ValueError, match="pvs=1 as well"):
        make_agent("kernel-alphabeta:nullmove=2")
    with pytest.raises(ValueError, match="nullmove is a reduction"):
        make_agent("kernel-alphabeta:pvs=1,nullmove=9")
    agent = make_agent("kernel-alphabeta:pvs=1,nullmove=2")
    assert isinstance(agent, KernelAlphaBetaAgent)
    assert agent.options == SearchOptions(pvs=True, null_move=2)


def test_search_options_a_kernel_lacks_are_refused() -> None:
    from shogames.agents import make_agent

    sho = shogames.make("sho", None, players=2)
    if sho.kernel is None:
        pytest.skip("Sho has no kernel here")
    with pytest.raises(KernelUnavailableError, match="has no pvs"):
        sho.kernel.alphabeta(options=SearchOptions(pvs=True))
    agent = make_agent("kernel-alphabeta:pvs=1,quiescence=1")
    with pytest.raises(KernelUnavailableError, match="has no pvs, quiescence"):
        agent.check_game(sho)
    with pytest.raises(ValueError, match="pvs is 1"):
        make_agent("kernel-alphabeta:pvs=2")
    with pytest.raises(ValueError, match="extend is a multiple"):
        make_agent("kernel-alphabeta:extend=0")
    with pytest.raises(KernelUnavailableError, match="has no extend"):
        sho.kernel.alphabeta(options=SearchOptions(extend=2))
    agent = make_agent("kernel-alphabeta:pvs=1,killers=1,quiescence=1,table=4,nodes=5000")
    state = midgame(6)
    assert agent.select_move(state) in state.legal_moves()


@pytest.mark.parametrize("seed", [1, 2])
def test_alphabeta_value_is_the_minimax_value(seed: int) -> None:
    state = midgame(seed)
    result = shobu_kernel().alphabeta(seed=seed, depth=2).search(state)
    assert result.depth == 2
    assert math.isclose(result.value, minimax(state, 2, state.ply), abs_tol=1e-12)
    assert result.move in state.legal_moves()
    assert math.isclose(result.scores[result.move], result.value, abs_tol=1e-12)
    assert max(result.scores.values()) == result.value


def test_alphabeta_value_is_the_reference_agents_at_depth_3() -> None:
    from shogames.agents import AlphaBetaAgent

    state = midgame(11, plies=35)
    agent = AlphaBetaAgent(seed=1, depth=3)
    agent.search(state)
    result = shobu_kernel().alphabeta(seed=1, depth=3).search(state)
    assert (result.depth, agent.last_depth) == (3, 3)
    assert math.isclose(result.value, agent.last_value, abs_tol=1e-12)


def test_alphabeta_keeps_its_budget_and_finds_a_win() -> None:
    kernel = shobu_kernel()
    state = midgame(3, plies=60)
    searcher = kernel.alphabeta(seed=0)
    result = searcher.search(state, work=20_000)
    assert result.nodes <= 20_000 and result.depth >= 2 and result.move in state.legal_moves()
    timed = searcher.search(state, seconds=0.2)
    assert timed.seconds < 2.0 and timed.depth >= 1
    # A board down to its last stone, which Black can push off: the search must take it.
    win = kernel.game.state_from_text(WIN_IN_ONE)
    found = kernel.alphabeta(seed=0, depth=3).search(win)
    assert kernel.play(win, found.move).winner == 0 and found.value > 0.99


def test_mcts_counts_its_simulations_and_plays_a_decisive_move() -> None:
    kernel = shobu_kernel()
    state = midgame(4)
    result = kernel.mcts(seed=1).search(state, work=3000)
    assert result.nodes == 3000 and sum(result.visits.values()) == 3000
    assert result.move == max(result.visits, key=lambda m: (result.visits[m], result.scores[m]))
    assert -1.0 <= result.value <= 1.0 and result.move in state.legal_moves()
    win = kernel.game.state_from_text(WIN_IN_ONE)
    decisive = kernel.mcts(seed=1).search(win, work=100)
    assert kernel.play(win, decisive.move).winner == 0 and decisive.nodes == 0


def test_searches_refuse_a_finished_game() -> None:
    kernel = shobu_kernel()
    over = kernel.game.state_from_text(no_turn_text())
    for searcher in (kernel.alphabeta(), kernel.mcts()):
        with pytest.raises(ValueError, match="game is over"):
            searcher.search(over, work=10)


# --- The batch ---------------------------------------------------------------------------------------


def check_batch(batch: ShobuBatch, states: list[ShobuState]) -> None:
    """Every row of the batch is the reference state: position, seat to move, observation and mask."""
    to_move = batch.to_move()
    observations = batch.observe()
    masks = batch.legal_mask()
    game = states[0].game
    assert observations.shape == (len(states), *game.observation_shape) and observations.dtype == np.float32
    assert masks.shape == (len(states), game.num_distinct_actions) and masks.dtype == np.bool_
    for row, state in enumerate(states):
        assert batch.state(row).position == state.position, f"row {row}"
        seat = state.to_move
        assert to_move[row] == (-1 if seat is None else seat)
        expected = np.array(state.observation_tensor(0 if seat is None else seat), dtype=np.float32)
        assert np.array_equal(observations[row].ravel(), expected), f"row {row}'s observation"
        assert np.array_equal(masks[row], np.array(state.legal_action_mask())), f"row {row}'s mask"


@pytest.mark.parametrize(
    ("settings", "parallel_from"),
    [
        ({}, 1),
        ({}, PARALLEL_ROWS),
        ({"max_turns": 25}, PARALLEL_ROWS),
        ({"no_turn": "pass", "max_turns": 60}, 1),
    ],
    ids=["default-threads", "default", "cap", "pass-threads"],
)
def test_the_batch_plays_as_the_reference(settings: dict[str, object], parallel_from: int) -> None:
    kernel = shobu_kernel(**settings)
    game = kernel.game
    rows = 16
    batch = ShobuBatch(kernel, rows, 3, parallel_from=parallel_from)
    states = [game.new_initial_state() for _ in range(rows)]
    rng = random.Random(f"batch {settings}")
    ended = {"won": 0, "cut": 0}
    # A few hundred steps on one thread; fewer on threads (waking them is slow on a busy machine).
    for step in range(300 if parallel_from > rows else 120):
        check_batch(batch, states)
        actions = np.array([rng.choice(s.legal_actions()) if not s.is_terminal() else -1 for s in states])
        returns, terminated, truncated = batch.step(actions)
        for row, state in enumerate(states):
            if state.is_terminal():  # left as it was
                assert not terminated[row] and not truncated[row] and not returns[row].any()
                continue
            states[row] = after = state.play_action(int(actions[row]))
            assert terminated[row] == (after.is_terminal() and not after.is_truncated())
            assert truncated[row] == after.is_truncated()
            assert tuple(returns[row]) == after.returns()
            ended["won"] += int(terminated[row])
            ended["cut"] += int(truncated[row])
        if step % 10 == 9:  # start new games in the rows that ended
            done = np.array([state.is_terminal() for state in states])
            batch.reset(done)
            states = [
                game.new_initial_state() if over else state for state, over in zip(states, done, strict=True)
            ]
    check_batch(batch, states)
    assert ended["won"] > 0 or "max_turns" in settings or parallel_from <= rows
    assert ended["cut"] > 0 or "max_turns" not in settings


def test_the_batch_passes_loses_and_refuses_illegal_actions() -> None:
    for no_turn in ("pass", "lose"):
        kernel = shobu_kernel(no_turn=no_turn)
        batch = kernel.batch(3)
        boxed = kernel.game.state_from_text(no_turn_text())
        batch.load(1, boxed)
        states = [kernel.game.new_initial_state(), boxed, kernel.game.new_initial_state()]
        check_batch(batch, states)
        if no_turn == "lose":
            assert batch.to_move().tolist() == [0, -1, 0]
            continue
        assert np.flatnonzero(batch.legal_mask()[1]).tolist() == [PASS_ACTION]
        before = batch.rows.copy()
        for illegal in (
            [0, 0, 0],
            [0, PASS_ACTION, PASS_ACTION],
            [-1, PASS_ACTION, 0],
            [0, PASS_ACTION, 4881],
        ):
            with pytest.raises(IllegalMoveError, match="no row was played"):
                batch.step(np.array(illegal))
            assert np.array_equal(batch.rows, before)
        with pytest.raises(ValueError, match="one integer action per row"):
            batch.step(np.array([0.0, 1.0, 2.0]))
        batch.step(np.array([0, PASS_ACTION, 0]))
        states = [states[0].play_action(0), boxed.play_action(PASS_ACTION), states[2].play_action(0)]
        check_batch(batch, states)


def test_batch_tables_are_the_references_numbering() -> None:
    turn_table, square_index, offsets, sizes = build_action_tables()
    assert turn_table.shape == (TURN_ACTIONS, 4) and offsets[15] + 4 * sizes[15] ** 2 == TURN_ACTIONS
    assert ((square_index >= 0).sum(axis=1) == sizes).all() and sorted(set(sizes.tolist())) == [4, 8, 9, 12]
    black = shogames.make("shobu").state_from_text(START_POSITION)
    white = shogames.make("shobu").state_from_text(START_POSITION[:-1] + "w")
    for action in range(TURN_ACTIONS):
        passive, aggressive, direction, distance = (int(value) for value in turn_table[action])
        assert black.move_to_action(ShobuMove(passive, aggressive, direction, distance)) == action
        turned = ShobuMove(63 - passive, 63 - aggressive, (direction + 4) % 8, distance)
        assert white.move_to_action(turned) == action
