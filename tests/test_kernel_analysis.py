"""The analysis searches with a game's kernel where it has an alpha-beta searcher (issue 14, item 3).

``Searcher.value_of`` values one root move alone to a depth; the analysis compares the best move and the
move played by it, so both values are exact at one depth. Checked against the reference agent's exact
root values, through the CLI and through the server's analysis.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import shogames
from cli_runner import run_cli
from shogames.agents import AlphaBetaAgent, make_agent
from shogames.analysis import analyse_record, kernel_analyser
from shogames.core.kernel import KERNELS_ENV
from shogames.core.protocol import CHANCE, Game, State
from shogames.games import BUILTIN_GAMES
from shogames.match import play_game
from shogames.records import write_record

pytestmark = pytest.mark.skipif(shogames.make("shobu").kernel is None, reason="numba is not installed")


def midgame_positions(game: Game[Any], count: int, seed: int) -> list[State[Any]]:
    """Positions 6-30 random plies into seeded games, with a seat to move."""
    rng = random.Random(seed)
    positions: list[State[Any]] = []
    while len(positions) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(6, 30)):
            if state.is_terminal():
                break
            state = state.play(rng.choice(state.legal_moves()))
        while state.to_move == CHANCE:
            state = state.play(rng.choice(state.legal_moves()))
        if not state.is_terminal():
            positions.append(state)
    return positions


@pytest.mark.parametrize("depth", [1, 2])
@pytest.mark.parametrize(
    "game",
    [
        shogames.make("shobu"),
        shogames.make("sho", players=3),
        shogames.make("shogammon"),
        shogames.make("shoo"),
    ],
    ids=lambda g: g.id,
)
def test_value_of_is_the_reference_exact_root_value(game: Game[Any], depth: int) -> None:
    searcher = kernel_analyser(game, depth)
    assert searcher is not None
    for state in midgame_positions(game, 4, seed=depth):
        agent = AlphaBetaAgent(seed=0, depth=depth, nodes=0)
        agent.exact_root = True
        agent.search(state)
        moves = state.legal_moves()
        for move in random.Random(7).sample(moves, min(6, len(moves))):
            value = searcher.value_of(state, move, depth=depth)
            assert value == pytest.approx(agent.last_scores[move], abs=1e-9)


def test_value_of_refuses_an_illegal_move_or_depth() -> None:
    searcher = kernel_analyser(shogames.make("shobu"), 2)
    assert searcher is not None
    start = shogames.make("shobu").new_initial_state()
    later = start.play(start.legal_moves()[0])
    foreign = next(move for move in later.legal_moves() if move not in start.legal_moves())
    with pytest.raises(ValueError, match="not a legal move"):
        searcher.value_of(start, foreign, depth=2)
    with pytest.raises(ValueError, match="depth"):
        searcher.value_of(start, start.legal_moves()[0], depth=0)


def test_kernel_and_reference_analyses_agree() -> None:
    game = shogames.make("shobu")
    _, record = play_game(game, [make_agent("random", 1), make_agent("greedy", 2)], seed=0)
    reference = analyse_record(record, depth=2, nodes=0, kernel=False)
    compiled = analyse_record(record, depth=2, nodes=0, kernel=True)
    assert len(compiled) == len(reference) == len(record.moves)
    for ours, theirs in zip(compiled, reference, strict=True):
        assert ours.played_value == pytest.approx(theirs.played_value, abs=1e-9)
        assert ours.best_value == pytest.approx(theirs.best_value, abs=1e-9)
        assert ours.verdict() == theirs.verdict()


def test_no_kernel_searcher_means_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    for game_id in BUILTIN_GAMES:  # every shipped kernel's alpha-beta values a root move alone
        assert kernel_analyser(shogames.make(game_id), 2) is not None, game_id
    for cls in shogames.available_games():
        if cls.kernel_module is None:
            assert kernel_analyser(cls(), 2) is None, cls.id
    monkeypatch.setenv(KERNELS_ENV, "0")  # turned off: no game has one, so the analysis is the reference's
    for cls in shogames.available_games():
        assert kernel_analyser(cls(), 2) is None, cls.id


def test_cli_analyse_names_its_engine(tmp_path: Path) -> None:
    # A short whole game, greedy against random and won in 11 plies: each ply is analysed by the kernel and by
    # the pure-Python reference, which takes about half a second a ply in the opening (a random game against
    # random runs to 176 plies).
    game = shogames.make("shobu")
    _, record = play_game(game, [make_agent("greedy", 5), make_agent("random", 6)], seed=3)
    assert len(record.moves) == 11 and record.result == "1-0"
    path = tmp_path / "game.sgr"
    path.write_text(write_record(record))
    compiled = run_cli(["analyse", str(path), "--depth", "2"])
    assert compiled.exit_code == 0, compiled.output
    assert "(kernel alpha-beta, depth 2" in compiled.output
    reference = run_cli(["analyse", str(path), "--depth", "2", "--reference"])
    assert reference.exit_code == 0, reference.output
    assert "(reference alpha-beta, depth 2" in reference.output

    def values(output: str) -> list[tuple[str, ...]]:  # ply, mover, played, its value, the best's value
        rows = [line.split() for line in output.splitlines()[2:] if line[:5].strip().isdigit()]
        return [(*row[:4], row[-1]) for row in rows]

    assert values(compiled.output) == values(reference.output)  # the best move may differ among equals
    assert len(values(compiled.output)) == len(record.moves)


def test_numbers_too_large_for_the_kernel_go_to_the_reference() -> None:
    """Found by the server fuzz test: a 121-digit max_turns made the analysis overflow the kernel (a 500)."""
    from shogames.core.kernel import fast_perft, unavailable_reason
    from shogames.records import start_position_text, start_record

    huge = shogames.make("shobu", max_turns=31 * 10**119)
    assert huge.kernel is None and "max_turns" in unavailable_reason(huge)
    made = start_record(huge, ["a", "b"])
    state = huge.new_initial_state()
    for move in state.legal_moves()[:1]:
        made.add_move(state.move_to_text(move))
    assert len(analyse_record(made, depth=1, nodes=0)) == 1
    # A position text may hold a 29-digit ply: the reference reads it, the kernel's int64 cannot.
    sho = shogames.make("sho")
    far = sho.state_from_text("- 9/9/9 0/0/0 1 throw - 0 - 0 " + str(10**29))
    assert sho.kernel is not None and not sho.kernel.holds(far)
    assert sho.kernel.holds(sho.new_initial_state())
    assert fast_perft(far, 1) == 21
    start = start_record(sho, ["a", "b", "c"], position=start_position_text(far))
    after, decisions, rng = far, 0, random.Random(2)
    while decisions < 2 and not after.is_terminal():  # random: the first outcome may repeat forever
        decisions += after.to_move != CHANCE
        move = rng.choice(after.legal_moves())
        start.add_move(after.move_to_text(move))
        after = after.play(move)
    assert decisions >= 1
    assert len(analyse_record(start, depth=1, nodes=0)) == decisions


def test_a_move_played_that_values_higher_is_the_best() -> None:
    """The search's unfinished last iteration may prefer a move that values lower at the depth completed."""
    from shogames.analysis import analyse_with_kernel
    from shogames.core.kernel import Searcher, SearchResult

    state = shogames.make("shobu").new_initial_state()
    preferred, played = state.legal_moves()[:2]
    values = {preferred: 0.25, played: 0.5}

    class Scripted(Searcher[Any]):
        def search(self, state: State[Any], *, work: int = 0, seconds: float = 0.0) -> SearchResult[Any]:
            return SearchResult(move=preferred, value=0.75, nodes=1, seconds=0.0, depth=3)

        def value_of(self, state: State[Any], move: Any, *, depth: int) -> float:
            assert depth == 3
            return values[move]

    assert analyse_with_kernel(Scripted(), state, played, nodes=0, seconds=0.0) == (0.5, played, 0.5, 3)
    assert analyse_with_kernel(Scripted(), state, preferred, nodes=0, seconds=0.0) == (
        0.25,
        preferred,
        0.25,
        3,
    )
    values[played] = 0.125
    assert analyse_with_kernel(Scripted(), state, played, nodes=0, seconds=0.0) == (0.125, preferred, 0.25, 3)
