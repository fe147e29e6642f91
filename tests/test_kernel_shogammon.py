"""The Shogammon kernel against the pure-Python reference: differential checks, perft, playouts.

The first test to run compiles the kernel (or loads it from numba's on-disk cache), so it takes longer.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, cast

import numpy as np
import pytest

import shogames
from kernel_helpers import check_random_game, game_from_row
from shogames.core.chance import sample_chance
from shogames.core.kernel import SearchOptions, kernels_enabled, require_kernel
from shogames.core.perft import perft
from shogames.core.protocol import CHANCE
from shogames.core.settings import parse_settings_text
from shogames.games.shogammon import OPEN, ROLL, ShogammonGame, ShogammonMove
from shogames.games.shogammon.kernel import (
    C_DROP_STACK,
    FILTER_SCALE,
    SERIAL_ROWS,
    STEPS,
    ShogammonAlphaBeta,
    ShogammonBatch,
    ShogammonKernel,
    build_geometry,
)
from shogames.kernels.common import game_stream
from shogames.kernels.conformance import check_kernel, check_kernel_playouts
from test_perft import PerftEntry, load_entries

pytestmark = pytest.mark.skipif(not kernels_enabled(), reason="kernels turned off (SHOGAMES_KERNELS=0)")

PERFT_FILE = Path(__file__).parent / "data" / "perft" / "shogammon.perft"

SETTINGS: list[dict[str, object]] = [
    {},
    {"preset": "generals"},
    {"preset": "minors-split"},
    {"preset": "strict"},
    {"preset": "backgammon"},
    {"point_capture": "simultaneous"},
    {"drop_stack": "on"},
    {"die_map": "custom", "custom_map": "1:PK,2:LN,3:S,4:G,5:B,6:R"},
    {"strict_dice": "on", "point_capture": "simultaneous", "drop_stack": "on", "max_turns": 60},
    {"max_turns": 24},
    {"repetition": "fourfold"},
]


def game_of(settings: dict[str, object]) -> ShogammonGame:
    """The game of a row of :data:`SETTINGS` (``preset`` names the preset, the rest are settings)."""
    return cast(ShogammonGame, game_from_row("shogammon", settings))


def entry_game(entry: PerftEntry) -> ShogammonGame:
    settings = parse_settings_text(ShogammonGame.setting_specs, entry.settings)
    game = shogames.make("shogammon", None, **settings)
    assert isinstance(game, ShogammonGame)
    return game


def points_start(game: shogames.Game[Any]) -> Any:
    # A middle game with points on both sides and pieces in hand: point captures and drops come up.
    return game.state_from_text(
        "2s[gk]4l/5g1b1/[pl]pppppsp[pn]/6p2/3n5/[PL]4r3/2[PN]PP1PP1/1[BS]3S1RL/3GGK1N1 b 3p 21 - 60"
    )


SUITE_PLIES = 150
"""The plies of each random game that the suite compares; ``--run-slow`` compares the whole games, some of
which run to 700 plies. Many of the games end within the first 150 (a king taken, the length cap)."""


def settings_id(settings: dict[str, object]) -> str:
    return " ".join(f"{k}={v}" for k, v in settings.items()) or "default"


def check_against_the_reference(settings: dict[str, object], max_plies: int | None) -> None:
    """A random game from the start and one from :func:`points_start`, compared position by position (up to
    ``max_plies`` plies of each), and the kernel's own playouts replayed by the reference."""
    game = game_of(settings)
    assert game.kernel is not None
    positions = check_kernel(
        game,
        games=1,
        seed=sum(map(ord, str(settings))),
        starts=[points_start(game)],
        perft_depth=2,
        perft_every=120,
        max_plies=max_plies,
    )
    assert positions >= 20
    check_kernel_playouts(game, games=2, seed=5)


@pytest.mark.filterwarnings("ignore::shogames.games.shogammon.DieMapWarning")
@pytest.mark.parametrize("settings", SETTINGS, ids=settings_id)
def test_shogammon_kernel_agrees_with_the_reference(settings: dict[str, object]) -> None:
    check_against_the_reference(settings, SUITE_PLIES)


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::shogames.games.shogammon.DieMapWarning")
@pytest.mark.parametrize("settings", SETTINGS, ids=settings_id)
def test_shogammon_kernel_agrees_with_the_reference_in_whole_games(settings: dict[str, object]) -> None:
    check_against_the_reference(settings, None)


@pytest.mark.parametrize("entry", load_entries(PERFT_FILE), ids=lambda e: e.name)
def test_shogammon_kernel_perft_matches_the_data_file(entry: PerftEntry) -> None:
    game = entry_game(entry)
    kernel = game.kernel
    assert kernel is not None  # every setting is covered, repetition=fourfold included
    state = game.state_from_text(entry.position)
    for depth, count in entry.counts:
        assert kernel.perft(state, depth) == count
        if depth <= 3:
            assert kernel.perft(state, depth, bulk=False) == count


def test_shogammon_kernel_perft_from_the_start_counts_the_rolls() -> None:
    game = shogames.make("shogammon")
    kernel = require_kernel(game)
    start = game.new_initial_state()
    for depth in range(4):
        assert kernel.perft(start, depth) == kernel.perft(start, depth, bulk=False) == perft(start, depth)
    with pytest.raises(ValueError, match="0 or more"):
        kernel.perft(start, -1)


def test_shogammon_arrays_and_move_codes_round_trip() -> None:
    game = shogames.make("shogammon")
    kernel = require_kernel(game)
    state = points_start(game).play_unchecked(points_start(game).legal_moves()[20])
    assert kernel.decode(kernel.encode(state)).to_text() == state.to_text()
    for move in state.legal_moves():
        assert kernel.decode_move(kernel.encode_move(move)) == move


def test_shogammon_playouts_end_with_a_king_taken_or_the_cap() -> None:
    game = shogames.make("shogammon", max_turns=40)
    kernel = require_kernel(game)
    batch = kernel.random_playouts(50, seed=2)
    assert batch.returns.shape == (50, 2) and batch.games == 50
    assert set(map(tuple, batch.returns.tolist())) <= {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}
    assert np.all(batch.plies > 0)
    # Game i depends only on the seed and i: a smaller batch is the start of a larger one.
    assert kernel.random_playouts(5, seed=2).plies.tolist() == batch.plies[:5].tolist()


KINGS_ONLY = "8k/9/9/9/9/9/9/9/K8 b - 1 - 0"
SHUFFLE = ("6-6", "6:9i9h", "6:9h9i", "6-6", "6:1a1b", "6:1b1a")  # both kings step off and back


def test_shogammon_kernel_judges_a_fourfold_repetition() -> None:
    # Ruling 27 with repetition=fourfold: the fourth time a position stands at the start of a turn, the
    # game is drawn. The kings step off and back three times; the kernel plays every move of the way.
    game = shogames.make("shogammon", repetition="fourfold")
    kernel = require_kernel(game)
    state = game.state_from_text(KINGS_ONLY)
    for _ in range(3):
        for text in SHUFFLE:
            reference = state.play_text(text)
            played = kernel.play(state, state.parse_move(text))
            assert played.key() == reference.key() and played.to_text() == reference.to_text()
            assert played.is_terminal() == reference.is_terminal()
            assert kernel.outcome(state) is None and kernel.legal_moves(state) == list(state.legal_moves())
            state = reference
    assert state.termination() == "repetition" and kernel.outcome(state) == (0.0, 0.0)
    assert kernel.legal_moves(state) == [] and kernel.evaluate(state) == (0.0, 0.0)
    assert kernel.decode(kernel.encode(state)).to_text() == state.to_text()
    # Without the rule the same line goes on.
    plain = shogames.make("shogammon")
    assert (
        require_kernel(plain).outcome(plain.state_from_text(state.to_text().replace(" end=repetition", "")))
        is None
    )
    # Read from text, a position ended by a repetition stays ended.
    again = game.state_from_text(state.to_text())
    assert kernel.outcome(again) == (0.0, 0.0) and kernel.decode(kernel.encode(again)).is_terminal()


def test_shogammon_kernel_repetitions_in_random_play_perft_and_search() -> None:
    game = shogames.make("shogammon", repetition="fourfold", max_turns=120)
    kernel = require_kernel(game)
    start = game.state_from_text(KINGS_ONLY)
    two = start
    for _ in range(2):
        for text in SHUFFLE:
            two = two.play_text(text)
    # Kings alone repeat positions often: every move, position and result checked, perft through them.
    check_kernel(game, games=3, seed=11, starts=[start, two], perft_depth=3, perft_every=7)
    batch = kernel.random_playouts(6, seed=2, start=two)
    endings = set()
    for index in range(6):
        state = two
        for move in kernel.random_game(seed=2, start=two, index=index):
            state = state.play(move)
        assert state.is_terminal() and state.returns() == tuple(batch.returns[index])
        assert state.ply - two.ply == batch.plies[index]
        endings.add(state.termination())
    assert "repetition" in endings
    # On the way to the fourth repetition: perft counts the lines that end there (and checks the rest).
    state = two
    for text in SHUFFLE:
        for depth in range(1, 5):
            assert kernel.perft(state, depth) == kernel.perft(state, depth, bulk=False) == perft(state, depth)
        state = state.play_text(text)
    assert state.termination() == "repetition" and kernel.perft(state, 1) == 0
    # The MCTS carries the history of each line it searches: every search's move is legal, whole games end.
    rolled = two.play_text("6-6")
    result = kernel.mcts(seed=3).search(rolled, work=3000)  # type: ignore[union-attr]
    assert result.nodes == 3000 and result.move in rolled.legal_moves()


def test_a_broken_shogammon_kernel_rule_is_caught() -> None:
    game = shogames.make("shogammon")
    # The silver loses its step straight ahead: legal moves and perft both differ from the reference.
    steps = dict(STEPS)
    steps[4] = tuple(step for step in STEPS[4] if step != (-1, 0))
    broken = ShogammonKernel(game, geometry=build_geometry(steps=steps))
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=2, seed=1, kernel=broken, perft_depth=0)
    start = game.state_from_text("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 3-4 1")
    assert broken.perft(start, 2) != perft(start, 2)
    # A kernel whose settings say drop_stack=on while the game says off is caught the same way.
    stacking = ShogammonKernel(game)
    stacking.cfg[C_DROP_STACK] = 1
    with pytest.raises(AssertionError, match="kernel and reference differ"):
        check_kernel(game, games=1, seed=3, kernel=stacking, starts=[points_start(game)], perft_depth=0)


def shogammon_midgame(seed: int, plies: int) -> Any:
    """A side to move ``plies`` or more plies into a game of the kernel's random playouts."""
    game = shogames.make("shogammon")
    state = game.new_initial_state()
    moves = iter(require_kernel(game).random_game(seed=seed))
    while state.ply < plies or state.to_move == shogames.CHANCE:
        state = state.play(next(moves))
    assert not state.is_terminal()
    return state


@pytest.mark.parametrize("kind", ["mcts", "alphabeta"])
def test_shogammon_searches_keep_their_budget_and_seed(kind: str) -> None:
    state = shogammon_midgame(3, plies=60)
    kernel = require_kernel(state.game)
    make = kernel.mcts if kind == "mcts" else kernel.alphabeta
    searchers = [make(seed=1), make(seed=1)]
    found, again = (searcher.search(state, work=1500) for searcher in searchers if searcher is not None)
    assert (found.move, found.value, found.nodes, found.scores, found.visits) == (
        again.move, again.value, again.nodes, again.scores, again.visits,
    )  # fmt: skip
    assert found.move in state.legal_moves() and -1.0 <= found.value <= 1.0
    if kind == "mcts":  # simulations exactly; alpha-beta stops within its iteration's node check
        assert found.nodes == 1500 and sum(found.visits.values()) == 1500
    else:
        assert 1500 <= found.nodes < 3000 and found.depth >= 1 and found.scores[found.move] == found.value
    with pytest.raises(ValueError, match="roll the dice first"):
        searchers[0].search(state.game.new_initial_state(), work=10)  # type: ignore[union-attr]


@pytest.mark.parametrize("kind", ["mcts", "alphabeta"])
def test_shogammon_searches_take_the_king_at_once(kind: str) -> None:
    kernel = require_kernel(shogames.make("shogammon"))
    # Black's rook on 5c sees White's king on 5a, and a 5 (the rook's face) is among the dice.
    won = kernel.game.state_from_text("4k4/9/4R4/9/9/9/9/9/4K4 b - 1 5-6 1")
    searcher = kernel.mcts(seed=0) if kind == "mcts" else kernel.alphabeta(seed=0)
    found = searcher.search(won, work=1000) if searcher is not None else None
    assert found is not None and kernel.play(won, found.move).returns()[0] == 1.0
    assert found.nodes == 0 if kind == "mcts" else found.value > 0.99  # MCTS plays a win unsearched


def test_kernel_mcts_agents_play_shogammon() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("shogammon", max_turns=30)
    agents = [make_agent("kernel-mcts:iterations=200", seed=seat) for seat in range(2)]
    final, _ = play_game(game, agents, seed=4)
    assert final.is_terminal()


def test_shogammon_random_game_is_the_batch_game_without_a_turn_cap() -> None:
    game = shogames.make("shogammon", max_turns=0)
    kernel = require_kernel(game)
    batch = kernel.random_playouts(4, seed=9)
    for index in (0, 3):
        check_random_game(kernel, batch, 9, index, game.new_initial_state())


def plain_expectiminimax(
    state: Any, depth: int, seat: int, root_ply: int, *, turns: bool = False, keep: int = 0
) -> float:
    """The alphabeta agent's values without pruning: ``state``'s value for its mover (``seat`` at a roll).

    With ``turns``, depth counts turns: a move after which its mover is still to move takes none. With
    ``keep``, a decision at least two deep searches only its ``keep`` moves whose positions the
    evaluation values best for its mover, and those valued as the last of them (the move filter).
    """

    def sign(node: Any) -> int:
        mover = node.to_move
        return -1 if mover is not None and mover >= 0 and mover != seat else 1

    def value_as(side: int, child: Any, below: int) -> float:
        value = plain_expectiminimax(child, below, seat, root_ply, turns=turns, keep=keep)
        return value if sign(child) == side else -value

    def after_move(child: Any) -> int:
        return depth if turns and child.to_move == state.to_move else depth - 1

    if state.is_terminal():
        return float(state.returns()[seat] * (1.0 - 1e-4 * (state.ply - root_ply)))
    if depth <= 0:
        return float(sign(state) * state.evaluate()[seat])
    if state.to_move == shogames.CHANCE:
        total = 0.0
        for roll, probability in state.chance_outcomes():
            child = state.play_unchecked(roll)
            total += float(probability) * value_as(
                1, child, depth - 1 if child.to_move == shogames.CHANCE else depth
            )
        return total
    children = [state.play_unchecked(move) for move in state.legal_moves()]
    if keep and depth >= 2 and len(children) > keep:
        mover = state.to_move
        valued = [
            int((child.returns() if child.is_terminal() else child.evaluate())[mover] * FILTER_SCALE)
            for child in children
        ]
        last = sorted(valued, reverse=True)[keep - 1]
        children = [child for child, value in zip(children, valued, strict=True) if value >= last]
    return max(value_as(sign(state), child, after_move(child)) for child in children)


def searched_value(state: Any, depth: int, settings: dict[str, object], *, turns: bool) -> float:
    """The compiled expectiminimax's value of ``state`` at ``depth``, checked against the one above.

    The search with Star1's windows at the rolls (``star``) and the one with a transposition table
    (``table_mb``) must find the same value.
    """
    kernel = require_kernel(game_of(settings))
    seat = state.to_move
    assert seat is not None
    expected = max(
        plain_expectiminimax(
            child, depth if turns and child.to_move == seat else depth - 1, seat, state.ply, turns=turns
        )
        * (1 if child.to_move in (None, shogames.CHANCE, seat) else -1)
        for child in (state.play_unchecked(move) for move in state.legal_moves())
    )
    for star, table_mb in ((False, 0), (True, 0), (False, 1), (True, 1)):
        options = SearchOptions(turns=turns, star=star, table_mb=table_mb)
        searcher = kernel.alphabeta(seed=1, depth=depth, options=options)
        assert searcher is not None
        result = searcher.search(state, work=50_000_000)
        assert result.depth == depth and result.move in state.legal_moves()
        assert result.value == pytest.approx(expected, abs=1e-12), options
        assert result.scores[result.move] == result.value
    return result.value


def test_star1_finds_the_plain_values_in_fewer_positions() -> None:
    # From a game of two medium players, three moves deep (two dice, a roll, the reply's first die), and
    # two turns deep: the rolls' windows cut off where the mean can no longer beat the best move so far.
    state = game_of({}).state_from_text(
        "ln2[gk]g1[nr]l/1s5[bs]1/pppp1pppp/4p4/1P7/[PL]8/2PPPPPP[PN]/1B7/1[NR][SG]K2[SG]1L w - 10 6-6 28"
    )
    kernel = require_kernel(game_of({}))
    for depth, turns in ((3, False), (2, True)):
        results = []
        for star in (False, True):
            searcher = kernel.alphabeta(seed=1, depth=depth, options=SearchOptions(turns=turns, star=star))
            assert searcher is not None
            results.append(searcher.search(state, work=50_000_000))
        plain, star1 = results
        assert star1.depth == plain.depth == depth
        assert star1.value == pytest.approx(plain.value, abs=1e-12) and star1.move == plain.move
        assert star1.nodes < plain.nodes, (depth, turns, star1.nodes, plain.nodes)


@pytest.mark.parametrize("settings", [{}, {"repetition": "fourfold"}], ids=["plain", "fourfold"])
def test_the_transposition_table_finds_the_plain_values_in_fewer_positions(
    settings: dict[str, object],
) -> None:
    # Positions of a random game searched three moves deep (a turn's two moves, played in either order,
    # meet before the next roll), one searcher keeping its table from one position to the next as the
    # agent does: every value and move is the plain search's, in fewer positions.
    game = game_of(settings)
    kernel = require_kernel(game)
    plain = kernel.alphabeta(seed=1, depth=3)
    tabled = kernel.alphabeta(seed=1, depth=3, options=SearchOptions(table_mb=1))
    assert plain is not None
    assert isinstance(tabled, ShogammonAlphaBeta) and tabled.table_entries == 1 << 15
    rng = random.Random(3)
    state = game.new_initial_state()
    searched = [0, 0]
    decisions = 0
    while not state.is_terminal() and decisions < 60:
        if state.to_move == shogames.CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
            continue
        decisions += 1
        if decisions % 5 == 0:
            expected = plain.search(state, work=50_000_000)
            result = tabled.search(state, work=50_000_000)
            assert result.depth == expected.depth == 3
            assert result.value == pytest.approx(expected.value, abs=1e-12) and result.move == expected.move
            searched[0] += expected.nodes
            searched[1] += result.nodes
        state = state.play_unchecked(rng.choice(state.legal_moves()))
    assert searched[0] > 0 and searched[1] < 0.9 * searched[0], searched


def table_and_plain_values(
    game: ShogammonGame, *searches: tuple[Any, int, str | None]
) -> list[tuple[float, float]]:
    """Each state's move (its first where ``None``) valued at its depth by one searcher with a table, one
    state after the other (its table kept, as between the searches of a game or of an analysis), and by
    the plain search."""
    kernel = require_kernel(game)
    tabled = kernel.alphabeta(seed=1, options=SearchOptions(table_mb=1))
    assert tabled is not None
    values = []
    for state, depth, text in searches:
        move = state.legal_moves()[0] if text is None else state.parse_move(text)
        plain = kernel.alphabeta(seed=1)
        assert plain is not None
        with_table = tabled.value_of(state, move, depth=depth)
        without = plain.value_of(state, move, depth=depth)
        assert with_table is not None and without is not None
        values.append((with_table, without))
    return values


def test_the_transposition_tables_key_holds_the_roots_ply() -> None:
    # White's gold takes Black's king on any roll with a 4 (11 of 36) once Black's turn ends: a win worth
    # a little less the more plies it lies from the root. Searched from Black's first move and then from
    # its second, the positions before White's roll are the same at the same depth, their values not.
    game = game_of({})
    first = game.state_from_text("4k4/9/9/9/9/9/8P/4g4/L3K4 b - 1 1-2 1")
    second = first.play_unchecked(first.legal_moves()[0])
    for tabled, plain in table_and_plain_values(game, (first, 3, None), (second, 2, None)):
        assert tabled == pytest.approx(plain, abs=1e-12)


def test_the_transposition_tables_key_holds_the_turns_played() -> None:
    # The same position at the same ply, three turns from the cap of 10 turns and far from it: within the
    # search's reach the game is cut and drawn in the first, not in the second (Black a gold up).
    game = game_of({"max_turns": 10})
    near, far = (game.state_from_text(f"8k/9/9/9/9/9/9/9/K8 b G {n} 4-6 25") for n in (8, 3))
    values = table_and_plain_values(game, (near, 4, None), (far, 4, None))
    for tabled, plain in values:
        assert tabled == pytest.approx(plain, abs=1e-12)
    assert values[0][1] != pytest.approx(values[1][1], abs=1e-6)


def test_the_transposition_tables_key_holds_the_history() -> None:
    # repetition=fourfold: Black's king steps back to where it stood, and any roll without a 6 (White's
    # king has no play) then stands the start a fourth time, a draw; not so for the same position and ply
    # with no history. (Two moves deep: the last iteration's entries are the ones the next search meets.)
    game = game_of({"repetition": "fourfold"})
    state = game.state_from_text("8k/9/9/9/9/9/9/9/K8 b G 1 - 0")
    for text in SHUFFLE * 2 + SHUFFLE[:2]:
        state = state.play_text(text)
    forgetting = game.state_from_position(state.position)
    values = table_and_plain_values(game, (state, 2, "6:9h9i"), (forgetting, 2, "6:9h9i"))
    for tabled, plain in values:
        assert tabled == pytest.approx(plain, abs=1e-12)
    assert values[0][1] != pytest.approx(values[1][1], abs=1e-6)


def test_the_transposition_table_is_a_search_option_of_its_size() -> None:
    kernel = require_kernel(game_of({}))
    sizes = []
    for table_mb in (0, 1, 3):
        searcher = kernel.alphabeta(options=SearchOptions(table_mb=table_mb))
        assert isinstance(searcher, ShogammonAlphaBeta)
        sizes.append(searcher.table_entries)
    assert sizes == [0, 1 << 15, 1 << 17]  # 24 bytes an entry, a power of two entries: 43,690 fit in 1 MiB


@pytest.mark.parametrize("turns", [False, True], ids=["moves", "turns"])
@pytest.mark.parametrize(
    ("position", "depth", "settings"),
    [
        ("4k4/9/4R4/9/9/9/9/9/4K4 b - 1 2-3 1", 3, {}),  # two moves, a roll, White's first move
        ("3gk4/4p4/9/9/2B6/9/9/4P4/4K4 w P 4 6 8", 3, {}),  # one die left: a move, a roll, two moves
        ("8k/9/9/9/9/9/9/9/K8 b - 1 - 0", 4, {"opening_roll": "backgammon"}),  # the 30 opening rolls
        (points_start(shogames.make("shogammon")).to_text(), 2, {}),
    ],
)
def test_shogammon_alphabeta_value_is_expectiminimax(
    position: str, depth: int, settings: dict[str, object], turns: bool
) -> None:
    if turns and depth > 2:
        depth = 2  # two turns deep is already thousands of times the moves' tree here
    state = game_of(settings).state_from_text(position)
    while state.to_move == shogames.CHANCE:
        state = state.play_unchecked(state.legal_moves()[4])
    searched_value(state, depth, settings, turns=turns)


@pytest.mark.parametrize("settings", [{}, {"repetition": "fourfold"}], ids=["plain", "fourfold"])
def test_the_move_filter_searches_the_best_valued_moves_and_their_ties(settings: dict[str, object]) -> None:
    # Black, one die left (a 6), three moves deep: the king's move, a roll, White's two moves, of which
    # the first (two deep) is filtered. The search's value, with Star1 and with a table too, is the
    # reference expectiminimax's over the moves the filter keeps, and keeping one or two moves changes it.
    state = game_of(settings).state_from_text("3gk4/4p4/9/9/2B6/9/9/4P4/4K4 w P 4 6 8")
    seat = state.to_move
    assert seat is not None
    kernel = require_kernel(game_of(settings))
    values = {}
    for keep in (0, 1, 2):
        expected = max(
            plain_expectiminimax(child, 2, seat, state.ply, keep=keep)
            * (1 if child.to_move in (None, shogames.CHANCE, seat) else -1)
            for child in (state.play_unchecked(move) for move in state.legal_moves())
        )
        for star, table_mb in ((False, 0), (True, 0), (False, 1)):
            options = SearchOptions(star=star, table_mb=table_mb, move_filter=keep)
            searcher = kernel.alphabeta(seed=1, depth=3, options=options)
            assert searcher is not None
            result = searcher.search(state, work=50_000_000)
            assert result.depth == 3 and result.value == pytest.approx(expected, abs=1e-12), options
        values[keep] = expected
    assert len({round(value, 9) for value in values.values()}) == 3, values


def test_the_move_filter_is_a_search_option_of_shogammon() -> None:
    from shogames.agents import make_agent
    from shogames.agents.kernel_search import KernelAlphaBetaAgent
    from shogames.core.kernel import KernelUnavailableError

    state = game_of({}).state_from_text("3gk4/4p4/9/9/2B6/9/9/4P4/4K4 w P 4 6 8")
    agent = make_agent("kernel-alphabeta:filter=1,depth=3", seed=1)
    assert isinstance(agent, KernelAlphaBetaAgent) and agent.options.move_filter == 1
    kernel = require_kernel(game_of({}))
    searcher = kernel.alphabeta(seed=1, depth=3, options=SearchOptions(move_filter=1))
    assert searcher is not None
    agent.select_move(state)
    assert agent.last_result is not None
    assert agent.last_result.value == pytest.approx(searcher.search(state).value, abs=1e-12)
    for bad in ("-1", "5000"):
        with pytest.raises(ValueError, match="filter is a number of moves"):
            make_agent(f"kernel-alphabeta:filter={bad}")
    shobu = shogames.make("shobu")
    if shobu.kernel is not None:
        with pytest.raises(KernelUnavailableError, match="has no move_filter"):
            make_agent("kernel-alphabeta:filter=4").check_game(shobu)


def test_counting_turns_puts_the_horizon_after_the_turn() -> None:
    # White has 6-6 to play: one move deep, the plain search values the position after one die, the
    # search that counts turns after both, as one-turn greedy does. They differ here: every second 6
    # leaves White worse off than the first 6 alone looks (from a game of two medium players).
    state = game_of({}).state_from_text(
        "ln2[gk]g1[nr]l/1s5[bs]1/pppp1pppp/4p4/1P7/[PL]8/2PPPPPP[PN]/1B7/1[NR][SG]K2[SG]1L w - 10 6-6 28"
    )
    seat = state.to_move
    assert seat is not None
    by_turns = searched_value(state, 1, {}, turns=True)
    by_moves = searched_value(state, 1, {}, turns=False)
    best_turn_end = max(end.evaluate()[seat] for end in turn_ends(state) if not end.is_terminal())
    assert by_turns == pytest.approx(best_turn_end, abs=1e-12)
    assert by_moves != pytest.approx(by_turns, abs=1e-6)


def turn_ends(state: Any) -> list[Any]:
    """Every position at which the turn of ``state``'s mover ends, over all its ways to play it."""
    mover = state.to_move
    ends = []
    for move in state.legal_moves():
        child = state.play_unchecked(move)
        ends.extend(turn_ends(child) if child.to_move == mover else [child])
    return ends


def test_kernel_alphabeta_plays_shogammon_through_the_protocol() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    # kernel-alphabeta plays whole games through the protocol, repetition=fourfold included.
    for game in (
        shogames.make("shogammon", max_turns=20),
        shogames.make("shogammon", max_turns=20, repetition="fourfold"),
    ):
        agents = [
            make_agent("kernel-alphabeta:nodes=3000", seed=0),
            make_agent("kernel-mcts:iterations=200", seed=1),
        ]
        final, _ = play_game(game, agents, seed=6)
        assert final.is_terminal()


@pytest.mark.parametrize("plies", [2, 5])
def test_shogammon_alphabeta_sees_a_fourfold_repetition(plies: int) -> None:
    # Black, a gold up, steps its king off and back for the third time. After 2 plies of it Black chooses
    # (a repetition is 3 plies and a 6-6 roll away); after 5 White does, and stepping back draws at once
    # (0 instead of Black's advantage). The value must be the reference's, repetitions included.
    game = shogames.make("shogammon", repetition="fourfold")
    state = game.state_from_text("8k/9/9/9/9/9/9/9/K8 b G 1 - 0")
    for text in SHUFFLE * 2 + SHUFFLE[:plies]:
        state = state.play_text(text)
    seat = state.to_move
    assert seat is not None
    values = []
    for rules in (game, shogames.make("shogammon")):
        position = rules.state_from_text(state.to_text()) if rules is not game else state
        searcher = require_kernel(rules).alphabeta(seed=0, depth=3)
        assert searcher is not None
        result = searcher.search(position, work=50_000_000)
        expected = max(
            plain_expectiminimax(child, 2, seat, position.ply)
            * (1 if child.to_move in (None, seat, shogames.CHANCE) else -1)
            for child in map(position.play_unchecked, position.legal_moves())
        )
        assert result.depth == 3 and result.value == pytest.approx(expected, abs=1e-12)
        values.append(result.value)
    if plies == 5:  # White draws by the repetition; without the rule it stays a gold down
        assert values[0] == 0.0 and values[1] < -0.3


def test_shogammon_mcts_puts_each_lines_history_back() -> None:
    # One history stack serves the whole tree: before playing on from a node, the MCTS writes back the
    # hashes its line added after the root (each node keeps its history's length and last hash).
    from shogames.games.shogammon.kernel import (
        HISTORY,
        LAST_HASH,
        SIZE,
        W_HISTORY,
        WORK_SIZE,
        restore_history,
    )

    states = np.zeros((4, SIZE), dtype=np.int64)
    states[:, HISTORY] = (2, 2, 3, 4)  # the root's history holds 2; a turn starts at nodes 2 and 3
    states[:, LAST_HASH] = (7, 7, 111, 222)
    work = np.full(WORK_SIZE + 8, -5, dtype=np.int64)
    restore_history(states, np.array([0, 1, 2, 3]), 3, 2, work)
    assert work[W_HISTORY : W_HISTORY + 5].tolist() == [-5, -5, 111, 222, -5]


@pytest.mark.parametrize(
    "settings", [{}, {"repetition": "fourfold"}, {"preset": "backgammon", "max_turns": 60}], ids=str
)
def test_shogammon_batches_are_the_same_on_any_number_of_threads(settings: dict[str, object]) -> None:
    # Each thread's games start from a copy of the start's history (repetition=fourfold): after the kings'
    # shuffle twice Black's position has stood three times, so the games that repeat it end early, on
    # every number of threads alike.
    game = game_of(settings)
    kernel = ShogammonKernel(game)
    start = game.new_initial_state()
    if not game.backgammon_opening:
        start = game.state_from_text(KINGS_ONLY)
        for text in SHUFFLE * 2:
            start = start.play_text(text)
    batches = [kernel.random_playouts(33, seed=4, start=start, threads=threads) for threads in (1, 2, None)]
    for batch in batches[1:]:
        assert np.array_equal(batch.plies, batches[0].plies)
        assert np.array_equal(batch.returns, batches[0].returns)
    for index in (0, 32):
        check_random_game(kernel, batches[1], 4, index, start)
    if game.fourfold:  # the start's history shortens the games: without it they are longer
        forgetting = game.state_from_position(start.position)
        assert sum(batches[0].plies) < sum(kernel.random_playouts(33, seed=4, start=forgetting).plies)
    rolled = start.play(start.legal_moves()[-1])
    counts = {kernel.perft(rolled, 3, bulk=bulk, threads=t) for bulk in (True, False) for t in (1, 2)}
    assert counts == {perft(rolled, 3)}


# --- The compiled batch (the batched environment) ---------------------------------------------------------


MASK64 = (1 << 64) - 1


def _die(stream: int) -> tuple[int, int]:
    """SplitMix64's next state and a die from it (Lemire's multiply-shift), in plain Python."""
    stream = (stream + 0x9E3779B97F4A7C15) & MASK64
    z = stream
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    bits = z ^ (z >> 31)
    return stream, ((bits >> 32) * 6 >> 32) + 1


def _rolled(state: Any, stream: int) -> tuple[Any, int]:
    """The reference state after the dice a batch row's stream throws, up to a decision (as the batch)."""
    while state.to_move == CHANCE:
        stream, a = _die(stream)
        stream, b = _die(stream)
        if state.is_opening_roll:
            while a == b:
                stream, b = _die(stream)
            state = state.play(ShogammonMove(OPEN, die=a, die2=b))
        else:
            state = state.play(ShogammonMove(ROLL, die=min(a, b), die2=max(a, b)))
    return state, stream


def _check_rows(batch: Any, states: list[Any]) -> None:
    """Every row of the batch is its reference state, with the reference's observation, mask and mover."""
    observations, masks, movers = batch.observe(), batch.legal_mask(), batch.to_move()
    for row, state in enumerate(states):
        assert batch.state(row).to_text() == state.to_text()
        seat = state.to_move
        assert movers[row] == (-1 if seat is None else seat)
        assert np.flatnonzero(masks[row]).tolist() == state.legal_actions(), state.to_text()
        expected = np.array(state.observation_tensor(seat or 0), dtype=np.float32)
        assert np.array_equal(observations[row].reshape(-1), expected), state.to_text()


@pytest.mark.parametrize(
    ("settings", "rows", "steps"),
    [
        ({}, 16, 200),
        ({"preset": "backgammon", "max_turns": 40}, 12, 160),
        (
            {
                "point_capture": "simultaneous",
                "drop_stack": "on",
                "die_map": "custom",
                "custom_map": "1:GR,2:LN,3:S,4:P,5:B,6:K",
                "max_turns": 25,
            },
            12,
            160,
        ),
    ],
)
def test_the_batch_steps_as_the_reference(settings: dict[str, Any], rows: int, steps: int) -> None:
    named = dict(settings)
    game = shogames.make("shogammon", named.pop("preset", None), **named)
    batch = require_kernel(game).batch(rows, seed=11)
    assert isinstance(batch, ShogammonBatch)
    initial = game.new_initial_state()
    streams = [int(stream) for stream in batch.streams]
    rng = random.Random(str(settings))
    states = []
    for row in range(rows):
        state, streams[row] = _rolled(initial, int(common_stream(11, row)))
        states.append(state)
    _check_rows(batch, states)
    ended_games = 0
    for _ in range(steps):
        actions = [rng.choice(state.legal_actions()) if not state.is_terminal() else 0 for state in states]
        returns, terminated, truncated = batch.step(np.array(actions))
        for row, state in enumerate(states):
            if state.is_terminal():
                continue
            states[row], streams[row] = _rolled(state.play_action(actions[row]), streams[row])
            after = states[row]
            assert terminated[row] == (after.is_terminal() and not after.is_truncated())
            assert truncated[row] == after.is_truncated()
            assert returns[row].tolist() == (list(after.returns()) if after.is_terminal() else [0.0, 0.0])
        assert [int(stream) for stream in batch.streams] == streams
        _check_rows(batch, states)
        over = np.array([state.is_terminal() for state in states])
        if over.any():
            ended_games += int(over.sum())
            batch.reset(over)
            for row in map(int, np.flatnonzero(over)):
                states[row], streams[row] = _rolled(initial, streams[row])
            _check_rows(batch, states)
    assert ended_games > 0 or "max_turns" not in settings


def common_stream(seed: int, row: int) -> int:
    """Row ``row``'s stream at the start (``kernels.common.game_stream``)."""
    return int(game_stream(np.uint64(seed), row))


def test_the_batch_refuses_illegal_actions_and_offers_none_under_fourfold() -> None:
    kernel = require_kernel(ShogammonGame())
    batch = kernel.batch(3, seed=2)
    assert batch is not None
    before = [batch.state(row) for row in range(3)]
    legal = [int(np.flatnonzero(batch.legal_mask()[row])[0]) for row in range(3)]
    with pytest.raises(ValueError, match=r"rows \[1\]"):
        batch.step(np.array([legal[0], 34_592 if legal[1] != 34_592 else 0, legal[2]]))
    assert batch.state(1) == before[1] and batch.state(0) != before[0]
    with pytest.raises(ValueError, match="one action id per game"):
        batch.step(np.array([0, 1]))
    assert require_kernel(ShogammonGame(None, repetition="fourfold")).batch(2) is None
    assert kernel.batch(1, seed=2) is not None


def test_a_batch_row_plays_the_same_game_on_one_thread_or_several() -> None:
    kernel = require_kernel(ShogammonGame())
    small, large = kernel.batch(4, seed=6), kernel.batch(SERIAL_ROWS + 4, seed=6)
    assert small is not None and large is not None
    for _ in range(30):
        choice = [int(np.flatnonzero(mask)[-1]) for mask in large.legal_mask()]
        small.step(np.array(choice[:4]))
        ended = large.step(np.array(choice))
        large.reset(ended[1] | ended[2])
        small_over = small.to_move() < 0
        small.reset(small_over)
        assert [small.state(row) for row in range(4)] == [large.state(row) for row in range(4)]


def test_the_turns_option_reaches_the_search_and_is_refused_elsewhere() -> None:
    from shogames.agents import make_agent
    from shogames.agents.kernel_search import KernelAlphaBetaAgent
    from shogames.core.kernel import KernelUnavailableError

    agent = make_agent("kernel-alphabeta:turns=1,depth=1", seed=1)
    assert isinstance(agent, KernelAlphaBetaAgent)
    state = game_of({}).state_from_text(
        "ln2[gk]g1[nr]l/1s5[bs]1/pppp1pppp/4p4/1P7/[PL]8/2PPPPPP[PN]/1B7/1[NR][SG]K2[SG]1L w - 10 6-6 28"
    )
    agent.select_move(state)
    assert agent.last_result is not None
    assert agent.last_result.value == pytest.approx(searched_value(state, 1, {}, turns=True), abs=1e-12)
    with pytest.raises(ValueError, match="turns is 1"):
        make_agent("kernel-alphabeta:turns=2")
    with pytest.raises(ValueError, match="star is 1"):
        make_agent("kernel-alphabeta:star=2")
    shobu = shogames.make("shobu")
    if shobu.kernel is not None:
        with pytest.raises(KernelUnavailableError, match="has no turns"):
            make_agent("kernel-alphabeta:turns=1").check_game(shobu)
        with pytest.raises(KernelUnavailableError, match="has no material_scale"):
            make_agent("kernel-alphabeta:scale=60").check_game(shobu)


def test_a_material_scale_values_every_position_as_the_evaluation_at_that_scale(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The search's worths times 15 / 60 value every horizon as the reference evaluation does with its
    # MATERIAL_SCALE at 60: the expectiminimax value two moves deep (a move, a roll, the reply's first
    # die) is the reference's at that scale, and differs from the one at the evaluation's own scale.
    import shogames.games.shogammon as rules_module
    from shogames.agents import make_agent
    from shogames.agents.kernel_search import KernelAlphaBetaAgent

    state = game_of({}).state_from_text(
        "ln2[gk]g1[nr]l/1s5[bs]1/pppp1pppp/4p4/1P7/[PL]8/2PPPPPP[PN]/1B7/1[NR][SG]K2[SG]1L w - 10 6-6 28"
    )
    kernel = require_kernel(game_of({}))
    own = searched_value(state, 2, {}, turns=False)
    own_scale = SearchOptions(material_scale=rules_module.MATERIAL_SCALE)
    same = kernel.alphabeta(seed=1, depth=2, options=own_scale)
    assert same is not None and same.search(state, work=50_000_000).value == pytest.approx(own, abs=1e-12)
    scaled = kernel.alphabeta(seed=1, depth=2, options=SearchOptions(material_scale=60.0))
    assert scaled is not None
    value = scaled.search(state, work=50_000_000).value
    monkeypatch.setattr(rules_module, "MATERIAL_SCALE", 60.0)
    seat = state.to_move
    assert seat is not None
    expected = max(
        plain_expectiminimax(child, 1, seat, state.ply, turns=False)
        * (1 if child.to_move in (None, shogames.CHANCE, seat) else -1)
        for child in (state.play_unchecked(move) for move in state.legal_moves())
    )
    assert value == pytest.approx(expected, abs=1e-12)
    assert abs(value - own) > 1e-3
    agent = make_agent("kernel-alphabeta:scale=60,depth=2", seed=1)
    assert isinstance(agent, KernelAlphaBetaAgent)
    agent.select_move(state)
    assert agent.last_result is not None and agent.last_result.value == pytest.approx(expected, abs=1e-12)
    for bad in ("0.5", "-3", "20000"):
        with pytest.raises(ValueError, match="scale is a material scale"):
            make_agent(f"kernel-alphabeta:scale={bad}")
