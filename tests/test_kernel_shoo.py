"""The Shoo kernel against the pure-Python reference: differential checks, perft, playouts.

The first test to run compiles the kernel (or loads it from numba's on-disk cache), so it takes longer.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import shogames
from kernel_helpers import check_random_game, game_from_row
from shogames.core.errors import IllegalMoveError, NotationError
from shogames.core.kernel import kernels_enabled, require_kernel
from shogames.core.perft import perft
from shogames.core.settings import parse_settings_text
from shogames.games.shoo import EVALUATION_WEIGHTS, ShooGame, ShooMoveKind, ShooState
from shogames.games.shoo import kernel as layout
from shogames.games.shoo.kernel import ShooKernel
from shogames.kernels.conformance import check_kernel, check_kernel_playouts, check_position
from test_perft import PerftEntry, load_entries

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

PERFT_FILE = Path(__file__).parent / "data" / "perft" / "shoo.perft"

# Positions random play seldom reaches: what a HUSH needs (rulings T10), a hush with a hold to put back,
# a crowd of travellers (shoos, hushes, captures), a win one step away, a lone horse (repetition), a
# side with nothing to move after a pass (two passes), riders in and near the home areas, and a boxed-in
# traveller under a standing shoo (towers drops it on the first ring around its start area, or on the
# second when its own travellers fill the first).
RARE = {
    "hush": "9/9/9/4n1s2/9/3s1s3/9/9/9 n 0/0 0/0 0/0 0",
    "hush-held": "9/9/9/9/2h1n4/3s1s3/9/9/9 s 0/0 0/0 0/0 2 hush=e6-e5 held-before=c5",
    "barred": "9/9/9/6s2/5n3/3s1s3/9/9/9 s 0/0 0/0 0/0 1 hush=e6-f5 barred=e6-e5 ply=5",
    "crowd": "9/9/2n1n1n2/1s1s1s1s1/2n1n1n2/1s1s1h1s1/2n1n1n2/9/9 s 1/1 1/0 0/0 10",
    "win": "sss6/sss6/ss7/2s6/9/9/6n2/6nnn/6nnn s 0/0 0/0 0/0 10",
    "repeat": "s8/9/9/9/4h4/9/9/9/8n s 0/0 0/0 0/0 0",
    "pass": "9/9/9/9/9/9/9/9/6nnn s 0/0 0/0 0/0 10 passes=1",
    "riders": "nnN6/nnn6/n1n2S3/3h5/3Nh4/2S6/6s1s/6sSs/6ss1 s 1/1 0/0 0/0 30",
    "boxed": "9/9/9/3nnn3/3nsn3/3nnn3/9/6sss/6sss s 0/0 0/0 0/0 10",
    "boxed-far": "9/9/9/nn7/sn7/nn3ssss/5s3/5s3/5ss2 s 0/0 0/0 0/0 10",
}

SETTINGS: list[dict[str, object]] = [
    {"preset": "designers"},
    {"preset": "towers"},
    {"preset": "seven-horses"},
    {"preset": "hush-lose-move"},
    {"preset": "hush-shoo-off"},
    {"preset": "leave-home"},
    {"hush": "automatic", "stable_drop": "anywhere"},
    {"hush": "off", "capture_in_home": "immune", "first_player": "white"},
    {"capture_in_home": "anywhere", "mount_escape": "off", "first_player": "blue"},
    {"preset": "towers", "mount_escape": "off", "horses": 7},
]


def game_of(settings: dict[str, object]) -> ShooGame:
    game = game_from_row("shoo", settings)
    assert isinstance(game, ShooGame)
    return game


def rare_starts(game: ShooGame, names: tuple[str, ...] = tuple(RARE)) -> list[ShooState]:
    """The rare positions that are positions of ``game`` (towers has no hush, no stabled travellers...)."""
    starts = []
    for name in names:
        try:
            starts.append(game.state_from_text(RARE[name]))
        except NotationError:
            continue
    return starts


def label(settings: dict[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in settings.items())


@pytest.mark.parametrize("settings", SETTINGS, ids=label)
def test_shoo_kernel_agrees_with_the_reference(settings: dict[str, object]) -> None:
    game = game_of({**settings, "max_turns": 40})
    assert game.kernel is not None
    starts = rare_starts(game)
    positions = check_kernel(
        game, games=1, seed=sum(map(ord, str(settings))), starts=starts, perft_depth=2, perft_every=30
    )
    assert positions >= 25 * (1 + len(starts))


@pytest.mark.slow
@pytest.mark.parametrize("settings", SETTINGS, ids=label)
def test_shoo_kernel_agrees_over_long_games(settings: dict[str, object]) -> None:
    game = game_of({**settings, "max_turns": 200})
    starts = rare_starts(game)
    positions = check_kernel(game, games=1, seed=7, starts=starts, perft_depth=2, perft_every=60)
    assert positions >= 600
    check_kernel_playouts(game, games=3, seed=3)


@pytest.mark.parametrize("settings", [{}, {"preset": "towers"}, {"preset": "hush-shoo-off"}], ids=label)
def test_shoo_compiled_playouts_replay_in_the_reference(settings: dict[str, object]) -> None:
    check_kernel_playouts(game_of(settings), games=2, seed=5)


def test_shoo_repetition_and_a_hush_come_from_the_kernel() -> None:
    game = game_of({})
    kernel = require_kernel(game)
    # A lone horse slid back and forth: the third occurrence of a position draws, judged by the kernel
    # from the history rows of the array (the counters are not part of a position).
    first = game.state_from_text(RARE["repeat"])
    first = first.play(first.parse_move("He5-h5"))
    cycle = ["i1-h1", "Hh5-h4", "h1-i1", "Hh4-h5"] * 2
    state = first
    for move in cycle:
        assert not state.is_terminal()
        check_position(kernel, state)
        state = kernel.play(state, state.parse_move(move))
    assert state.termination() == "repetition" and kernel.outcome(state) == (0.0, 0.0)
    # The history travels in the array: a decoded position repeats like the original.
    almost = first
    for move in cycle[:-1]:
        almost = almost.play(almost.parse_move(move))
    copy = kernel.decode(kernel.encode(almost))
    assert copy.play(copy.parse_move(cycle[-1])).termination() == "repetition"
    # A HUSH takes the hushed move back (its row leaves the history) and bars it for the turn.
    hush = game.state_from_text(RARE["hush"])
    step = hush.parse_move("e6-e5")
    after = kernel.play(hush, step)
    assert after.hushable_move == step and kernel.legal_moves(after)[0] == after.legal_moves()[0]
    back = kernel.play(after, after.legal_moves()[0])
    assert back.to_text() == hush.play(step).play(after.legal_moves()[0]).to_text()
    assert step not in kernel.legal_moves(back)


@pytest.mark.parametrize("entry", load_entries(PERFT_FILE), ids=lambda e: e.name)
def test_shoo_kernel_perft_matches_the_data_file(entry: PerftEntry) -> None:
    settings = parse_settings_text(ShooGame.setting_specs, entry.settings)
    game = shogames.make("shoo", None, **settings)
    kernel = require_kernel(game)
    state = game.state_from_text(entry.position)
    for depth, count in entry.counts:
        assert kernel.perft(state, depth) == count
        if depth <= 2 or (depth == 3 and count < 400_000):
            assert kernel.perft(state, depth, bulk=False) == count


def test_shoo_kernel_perft_from_the_toss() -> None:
    game = shogames.make("shoo")
    kernel = require_kernel(game)
    initial = game.new_initial_state()
    for depth in range(5):
        expected = perft(initial, depth)
        assert kernel.perft(initial, depth) == kernel.perft(initial, depth, bulk=False) == expected
    with pytest.raises(ValueError, match="0 or more"):
        kernel.perft(initial, -1)


def test_every_shoo_setting_value_has_a_kernel() -> None:
    for spec in ShooGame.setting_specs:
        for value in spec.choices or (spec.default,):
            given: dict[str, object] = {spec.name: value}
            assert shogames.make("shoo", None, **given).kernel is not None, (spec.name, value)
    for preset in ShooGame.presets:
        assert shogames.make("shoo", preset).kernel is not None
    assert shogames.make("shoo", horses=7).kernel is not None


def test_shoo_arrays_and_move_codes_round_trip() -> None:
    game = game_of({})
    kernel = require_kernel(game)
    for state in rare_starts(game):
        copy = kernel.decode(kernel.encode(state))
        assert copy.key() == state.key() and copy.to_text() == state.to_text()
        for move in state.legal_moves():
            assert kernel.decode_move(kernel.encode_move(move)) == move
    array = kernel.encode(game.new_initial_state())
    assert array.dtype == np.int64 and array.shape == (layout.STATE_SIZE + layout.KEY_WORDS,)
    with pytest.raises(TypeError, match="Shoo states"):
        kernel.encode(shogames.make("shobu").new_initial_state())


def test_shoo_playouts_are_seeded_per_game() -> None:
    game = shogames.make("shoo", max_turns=50)
    kernel = require_kernel(game)
    batch = kernel.random_playouts(40, seed=2)
    assert batch.returns.shape == (40, 2) and batch.games == 40
    assert set(map(tuple, batch.returns.tolist())) <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert np.all(batch.plies >= 52)  # the toss, the choice and 50 turns at least (hushes add plies)
    assert kernel.random_playouts(5, seed=2).plies.tolist() == batch.plies[:5].tolist()
    with pytest.raises(ValueError, match="1 game or more"):
        kernel.random_playouts(0)


def test_shoo_random_game_records_only_the_game_asked_for() -> None:
    game = shogames.make("shoo", max_turns=80)
    kernel = require_kernel(game)
    batch = kernel.random_playouts(6, seed=9)
    for index in (0, 5):
        check_random_game(kernel, batch, 9, index, game.new_initial_state())
    # From a given start (a hush open), the same.
    start = game.state_from_text(RARE["hush-held"])
    check_random_game(kernel, kernel.random_playouts(3, seed=1, start=start), 1, 2, start)


def test_shoo_evaluation_matches_the_reference() -> None:
    game = game_of({})
    kernel = require_kernel(game)
    for state in [*rare_starts(game), game.new_initial_state(), game.start_position()]:
        assert kernel.evaluate(state) == pytest.approx(state.evaluate(), abs=1e-12)


def test_shoo_kernel_takes_its_evaluation_weights_from_the_reference() -> None:
    game = game_of({})
    kernel = ShooKernel(game)
    assert kernel.weights.tolist() == list(EVALUATION_WEIGHTS)
    state = game.state_from_text(RARE["riders"])
    assert kernel.evaluate(state) == pytest.approx(state.evaluate(), abs=1e-12)
    kernel.weights[:] = list(EVALUATION_WEIGHTS._replace(scale=6.0))  # the compiled code reads them
    assert kernel.evaluate(state) != pytest.approx(state.evaluate(), abs=1e-6)


def test_a_broken_shoo_kernel_rule_is_caught() -> None:
    game = game_of({})
    # A kernel whose settings say hush=automatic while the game says optional: the legal moves differ.
    automatic = ShooKernel(game)
    automatic.cfg[layout.C_HUSH] = layout.HUSH_AUTOMATIC
    mid = game.state_from_text(RARE["riders"])
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=1, seed=1, kernel=automatic, starts=[mid], perft_depth=0)
    # One whose travellers may leave their home area: South's travellers at home step out, and perft
    # differs from the reference's.
    leaving = ShooKernel(game)
    leaving.cfg[layout.C_SAFETY] = 0
    win = game.state_from_text(RARE["win"])
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_position(leaving, win)
    assert leaving.perft(win, 2) != perft(win, 2)


def test_shoo_moves_are_counted_and_drawn_as_listed() -> None:
    # Perft's last level counts the moves without writing them, and a random playout writes only the
    # unit (one traveller's steps, one horse's slides ...) of the move it draws: both agree with the list.
    for settings in SETTINGS:
        game = game_of({**settings, "max_turns": 30})
        kernel = ShooKernel(game)
        rng = random.Random(label(settings))
        states: list[ShooState] = rare_starts(game)
        state = game.new_initial_state()
        while not state.is_terminal():
            states.append(state)
            moves = state.legal_moves()
            state = state.play_unchecked(moves[rng.randrange(len(moves))])
        for state in states:
            expected = list(state.legal_moves())
            assert kernel.count_legal_moves(state) == len(expected), state.to_text()
            drawn = [kernel.legal_move_at(state, index) for index in range(len(expected))]
            assert drawn == expected, state.to_text()
        with pytest.raises(IndexError):
            kernel.legal_move_at(states[0], len(states[0].legal_moves()))


def meaningful(array: np.ndarray[Any, Any]) -> list[int]:
    """A state array's entries that hold something: the barred moves' room past their count left out."""
    used = layout.BARRED + int(array[layout.NBARRED])
    return [*array[:used].tolist(), *array[layout.STATE_SIZE :].tolist()]


def test_shoo_hash_follows_the_moves() -> None:
    # The Zobrist hash play keeps up to date equals the one computed afresh from the position.
    cases: list[dict[str, object]] = [{}, {"preset": "towers"}, {"preset": "hush-shoo-off"}]
    for settings in cases:
        game = game_of(settings)
        kernel = ShooKernel(game)
        for state in [*rare_starts(game), game.new_initial_state(), game.start_position()]:
            array = kernel.encode(state)
            for move in state.legal_moves():
                after = kernel.play_array(array, move)
                fresh = kernel.encode(kernel.play(state, move))
                assert after[layout.HASH] == fresh[layout.HASH], state.move_to_text(move)
                assert meaningful(after) == meaningful(fresh), state.move_to_text(move)


def test_shoo_repetition_is_judged_on_whole_keys() -> None:
    # Two earlier positions with the same hash as the new one but another key (a hash collision) do
    # not make a third repetition; the same key twice does.
    game = game_of({})
    kernel = ShooKernel(game)
    state = game.state_from_text(RARE["repeat"])
    st = kernel.encode(state)[: layout.STATE_SIZE].copy()
    own = layout.history_column(st)
    other = own.copy()
    other[layout.HORSES] ^= 1 << 3  # another position, given the same hash
    for earlier, repeated in ((other, False), (own, True)):
        hist = np.zeros((layout.HIST_WORDS, 4), dtype=np.int64)
        hist[:, 0] = hist[:, 1] = earlier
        array = st.copy()
        array[layout.NHIST] = 2
        layout.push_history(array, hist, True)
        assert (array[layout.END] == layout.END_REPETITION) == repeated
        assert array[layout.NHIST] == 3 and hist[:, 2].tolist() == own.tolist()


RIDERS_PERFT_3 = 8_615_033
"""The reference's perft 3 from ``RARE["riders"]``: 8.6 million leaves, some 20 s of pure Python. The suite
compares the kernel's counts with it; ``--run-slow`` counts them again with the reference."""


def test_shoo_batches_do_not_depend_on_threads() -> None:
    game = game_of({"max_turns": 60})
    kernel = ShooKernel(game)
    one = kernel.random_playouts(12, seed=4, threads=1)
    two = kernel.random_playouts(12, seed=4, threads=2)
    assert one.plies.tolist() == two.plies.tolist() and one.returns.tolist() == two.returns.tolist()
    assert kernel.random_playouts(5, seed=4).plies.tolist() == one.plies[:5].tolist()
    check_random_game(kernel, two, 4, 11, game.new_initial_state())
    start = game.state_from_text(RARE["riders"])
    counts = {kernel.perft(start, 3, threads=threads) for threads in (1, 2)}
    assert counts == {RIDERS_PERFT_3}


@pytest.mark.slow
def test_the_references_perft_3_from_the_riders_is_the_count_the_threads_are_checked_against() -> None:
    start = game_of({"max_turns": 60}).state_from_text(RARE["riders"])
    assert perft(start, 3) == RIDERS_PERFT_3


# --- Alpha-beta ------------------------------------------------------------------------------------------


def shoo_kernel(game: shogames.Game[Any]) -> ShooKernel:
    kernel = game.kernel
    assert isinstance(kernel, ShooKernel)
    return kernel


def shoo_midgame(seed: int, plies: int = 60) -> ShooState:
    import random

    rng = random.Random(seed)
    state = game_of({}).new_initial_state()
    while state.ply < plies or state.to_move is None or state.to_move < 0:
        moves = state.legal_moves()
        state = state.play_unchecked(moves[rng.randrange(len(moves))])
        assert not state.is_terminal()
    return state


def minimax(state: ShooState, depth: int, seat: int, root_ply: int) -> float:
    """Plain minimax for ``seat`` with the agents' values (evaluation, discounted wins)."""
    if state.is_terminal():
        winner = state.winner
        if winner is None:
            return 0.0
        value = 1.0 - 1e-4 * (state.ply - root_ply)
        return value if winner == seat else -value
    if depth == 0:
        return state.evaluate()[seat]
    values = [minimax(state.play_unchecked(move), depth - 1, seat, root_ply) for move in state.legal_moves()]
    return max(values) if state.to_move == seat else min(values)


def test_shoo_alphabeta_value_is_the_minimax_value() -> None:
    # North to move; South may HUSH North's step (the seat to move stays or changes with the rule).
    cases: list[dict[str, object]] = [{}, {"preset": "hush-lose-move"}]
    for settings in cases:
        state = game_of(settings).state_from_text(RARE["hush"])
        kernel = shoo_kernel(state.game)
        result = kernel.alphabeta(seed=3, depth=3).search(state)
        assert result.depth == 3 and result.move in state.legal_moves()
        seat = state.to_move
        assert seat is not None
        assert result.value == pytest.approx(minimax(state, 3, seat, state.ply), abs=1e-12)
        assert max(result.scores.values()) == result.value == result.scores[result.move]
    # The toss winner's choice: the first move keeps the move with the chooser or hands it over.
    game = game_of({})
    choice = game.new_initial_state().play_unchecked(game.new_initial_state().legal_moves()[1])
    result = shoo_kernel(game).alphabeta(seed=0, depth=2).search(choice)
    assert result.value == pytest.approx(minimax(choice, 2, 1, choice.ply), abs=1e-12)


def test_shoo_alphabeta_value_is_the_reference_agents() -> None:
    from shogames.agents import AlphaBetaAgent

    state = shoo_midgame(2)
    kernel = shoo_kernel(state.game)
    agent = AlphaBetaAgent(seed=1, depth=2)
    agent.search(state)
    result = kernel.alphabeta(seed=1, depth=2).search(state)
    assert (result.depth, agent.last_depth) == (2, 2)
    assert result.value == pytest.approx(agent.last_value, abs=1e-12)


def test_shoo_alphabeta_keeps_its_budget_and_finds_a_win() -> None:
    state = shoo_midgame(3)
    kernel = shoo_kernel(state.game)
    searcher = kernel.alphabeta(seed=0)
    result = searcher.search(state, work=20_000)
    assert result.nodes <= 20_000 and result.depth >= 2 and result.move in state.legal_moves()
    timed = searcher.search(state, seconds=0.2)
    assert timed.seconds < 2.0 and timed.depth >= 1
    again = kernel.alphabeta(seed=0).search(state, work=20_000)
    assert (again.move, again.value) == (result.move, result.value)  # a work budget is deterministic
    # South's last traveller steps home (c6-c7): the search must take the win.
    win = state.game.state_from_text(RARE["win"])
    found = kernel.alphabeta(seed=0, depth=3).search(win)
    assert kernel.play(win, found.move).winner == win.to_move and found.value > 0.99
    with pytest.raises(ValueError, match="play the toss first"):
        searcher.search(state.game.new_initial_state())
    with pytest.raises(ValueError, match="game is over"):
        searcher.search(kernel.play(win, found.move))


def test_kernel_alphabeta_plays_shoo_through_the_protocol() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("shoo", max_turns=8)
    agents = [make_agent("kernel-alphabeta:nodes=3000", seed=1), make_agent("random", seed=2)]
    final, record = play_game(game, agents, seed=3)
    assert final.is_terminal() and len(record.moves) == final.ply


# --- MCTS ------------------------------------------------------------------------------------------------


def test_shoo_mcts_keeps_its_budget_and_seed() -> None:
    state = shoo_midgame(3)
    kernel = shoo_kernel(state.game)
    found, again = (kernel.mcts(seed=1).search(state, work=1500) for _ in range(2))
    assert (found.move, found.value, found.nodes, found.scores, found.visits) == (
        again.move, again.value, again.nodes, again.scores, again.visits,
    )  # fmt: skip
    assert found.move in state.legal_moves() and -1.0 <= found.value <= 1.0
    assert found.nodes == 1500 and sum(found.visits.values()) == 1500
    assert found.visits[found.move] == max(found.visits.values())
    timed = kernel.mcts(seed=1).search(state, seconds=0.1)
    assert timed.seconds < 2.0 and timed.nodes > 0
    # The toss winner's choice is searched like any decision.
    game = game_of({})
    choice = game.new_initial_state().play_unchecked(game.new_initial_state().legal_moves()[0])
    chosen = kernel.mcts(seed=2).search(choice, work=300)
    assert chosen.move in choice.legal_moves() and chosen.nodes == 300
    with pytest.raises(ValueError, match="play the toss first"):
        kernel.mcts().search(game.new_initial_state())


def test_shoo_mcts_plays_a_win_at_once() -> None:
    win = game_of({}).state_from_text(RARE["win"])
    kernel = shoo_kernel(win.game)
    found = kernel.mcts(seed=0).search(win, work=1000)
    assert kernel.play(win, found.move).winner == win.to_move and found.nodes == 0
    with pytest.raises(ValueError, match="game is over"):
        kernel.mcts().search(kernel.play(win, found.move))


@pytest.mark.parametrize(
    ("name", "preset"),
    [
        ("repeat", None),
        ("hush", None),
        ("hush-held", None),
        ("hush", "hush-lose-move"),
        ("hush", "hush-shoo-off"),
    ],
)
def test_shoo_mcts_tree_positions_are_the_references(name: str, preset: str | None) -> None:
    # One history table serves the whole tree: each node's line is put back before a move is played
    # there, so every node (its repetition draw included) is the reference's position after its line.
    from shogames.kernels.search import _TREES

    start = game_of({"preset": preset} if preset else {}).state_from_text(RARE[name])
    if name == "repeat":  # each side steps out and back, then out again: one move more repeats thrice
        out = next(m for m in start.legal_moves() if m.kind == ShooMoveKind.STEP)
        start = start.play(out)
        away = next(m for m in start.legal_moves() if m.kind == ShooMoveKind.STEP)
        for move in (away, *(m._replace(origin=m.to, to=m.origin) for m in (out, away)), out, away):
            start = start.play(move)
        start = start.play(out._replace(origin=out.to, to=out.origin))
    kernel = ShooKernel(start.game)
    kernel.mcts(seed=5).search(start, work=3000)
    links, _, pool, positions = _TREES[kernel]
    states: dict[int, ShooState] = {0: start}
    fields = [f for f in range(layout.BARRED) if f not in (layout.NHIST, layout.HBASE)]  # the history aside
    repetitions = 0
    node = 0
    while node in states:  # the nodes made, in order (a parent comes before its children)
        state = states[node]
        expected = kernel.encode(state)[: layout.STATE_SIZE]
        assert positions[node, fields].tolist() == expected[fields].tolist()
        barred = positions[node, layout.BARRED : layout.BARRED + positions[node, layout.NBARRED]]
        barred_expected = expected[layout.BARRED : layout.BARRED + expected[layout.NBARRED]]
        assert sorted(barred.tolist()) == barred_expected.tolist()
        repetitions += int(positions[node, layout.END] == layout.END_REPETITION)
        first = int(links[node, 0])
        for slot in range(first, first + int(links[node, 2])):
            states[int(pool[1, slot])] = state.play_unchecked(kernel.decode_move(int(pool[0, slot])))
        node += 1
    assert node > 1000
    if name == "repeat":  # North stepping back repeats the position a third time
        assert repetitions > 0


def test_shoo_mcts_puts_each_lines_history_back() -> None:
    # One history table serves the whole tree: before playing on from a node, the MCTS writes back the
    # columns of its line, root first (each node keeps the history column it ends with).
    positions = np.zeros((5, layout.STATE_SIZE + layout.HIST_WORDS), dtype=np.int64)
    # The root has 3 columns (its own last: 10); node 1 pushes 11; node 2 hushes it (back to the root's
    # column); node 3 pushes 13 there; node 4 hushes the root's own move and pushes 14 in its column.
    positions[:, layout.NHIST] = (3, 4, 3, 4, 3)
    positions[:, layout.STATE_SIZE] = (10, 11, 10, 13, 14)
    hist = np.full((layout.HIST_WORDS, 6), -5, dtype=np.int64)
    layout.restore_history(positions, np.array([0, 1, 2, 3]), 3, hist)
    assert hist[0].tolist() == [-5, -5, 10, 13, -5, -5]
    layout.restore_history(positions, np.array([0, 4]), 1, hist)
    assert hist[0].tolist() == [-5, -5, 14, 13, -5, -5]
    layout.restore_history(positions, np.array([0, 1]), 1, hist)  # the root's column is put back too
    assert hist[0].tolist() == [-5, -5, 10, 11, -5, -5]


def test_kernel_mcts_plays_shoo_through_the_protocol() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("shoo", max_turns=8)
    agents = [
        make_agent("kernel-mcts:iterations=200", seed=1),
        make_agent("kernel-alphabeta:nodes=2000", seed=2),
    ]
    final, record = play_game(game, agents, seed=3)
    assert final.is_terminal() and len(record.moves) == final.ply


# --- The compiled batch (issue 24) -----------------------------------------------------------------------


def _check_row(batch: Any, row: int, reference: ShooState, mask: Any, observation: Any, seats: Any) -> None:
    """The batch's row equals the reference state, its mask, observation and seat to move."""
    state = batch.state(row)
    assert state == reference and state.to_text() == reference.to_text()
    assert state.history == reference.history
    over = reference.is_terminal()
    expected_mask = np.zeros(reference.game.num_distinct_actions, dtype=np.bool_)
    if not over:
        expected_mask[reference.legal_actions()] = True
    assert (mask[row] == expected_mask).all(), reference.to_text()
    seat = -1 if reference.to_move is None else reference.to_move
    assert seats[row] == seat
    expected = np.array(reference.observation_tensor(max(seat, 0)), dtype=np.float32)
    assert (observation[row].reshape(-1) == expected).all(), reference.to_text()


@pytest.mark.parametrize(
    "settings",
    [
        {"max_turns": 40},
        {"preset": "towers", "max_turns": 60},
        {"hush": "lose-move", "leave_home": "yes", "max_turns": 60},
        {"hush": "shoo-off", "first_player": "white", "horses": 7, "max_turns": 60},
    ],
    ids=lambda s: ",".join(f"{k}={v}" for k, v in s.items()),
)
def test_the_batch_steps_as_the_reference_plays(settings: dict[str, Any]) -> None:
    """16 rows of random legal actions, each row checked against the reference after every step."""
    game = shogames.make("shoo", **settings)
    kernel = require_kernel(game)
    assert isinstance(kernel, ShooKernel)
    rows = 16
    batch = kernel.batch(rows, seed=7)
    references = [batch.state(row) for row in range(rows)]
    for reference in references:  # the toss is played: each row waits for its toss winner's choice
        assert reference.phase == ("choice" if game.has_chance else "play")
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(200):
        mask, observation, seats = batch.legal_mask(), batch.observe(), batch.to_move()
        assert observation.shape == (rows, *game.observation_shape)
        for row in range(rows):
            _check_row(batch, row, references[row], mask, observation, seats)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask], dtype=np.int64)
        returns, terminated, truncated = batch.step(actions)
        for row in range(rows):
            before = references[row]
            references[row] = before.play_action(int(actions[row]))
            after = references[row]
            assert bool(terminated[row]) == (after.is_terminal() and not after.is_truncated())
            assert bool(truncated[row]) == after.is_truncated()
            assert tuple(returns[row]) == (after.returns() if after.is_terminal() else (0.0, 0.0))
        over = np.array([reference.is_terminal() for reference in references])
        if over.any():
            ended += int(over.sum())
            batch.reset(over)
            for restarted in np.flatnonzero(over).tolist():
                references[restarted] = batch.state(restarted)
                assert references[restarted].ply == (1 if game.has_chance else 0)
    assert ended > 0


def test_the_batch_refuses_an_illegal_action_and_plays_no_row() -> None:
    kernel = require_kernel(shogames.make("shoo", first_player="blue"))
    assert isinstance(kernel, ShooKernel)
    batch = kernel.batch(3, seed=1)
    before = batch.states.copy()
    legal = np.flatnonzero(batch.legal_mask()[0])
    with pytest.raises(IllegalMoveError, match="row 1"):
        batch.step(np.array([legal[0], 0, legal[0]], dtype=np.int64))
    assert (batch.states == before).all()
    with pytest.raises(ValueError, match="one entry per row"):
        batch.step(np.zeros(2, dtype=np.int64))
    with pytest.raises(IndexError):
        batch.state(3)


def test_the_batch_tosses_from_each_rows_own_stream() -> None:
    kernel = require_kernel(shogames.make("shoo"))
    assert isinstance(kernel, ShooKernel)
    small, large = kernel.batch(4, seed=5), kernel.batch(64, seed=5)
    choosers = [large.state(row).to_move for row in range(64)]
    assert [small.state(row).to_move for row in range(4)] == choosers[:4]
    assert set(choosers) == {0, 1}
