"""How a game offers its kernel, every kernel against its reference, and kernels through the protocol.

The differential check (:mod:`shogames.kernels.conformance`) runs here for every registered game that has
a kernel, under its defaults and each preset, with a small budget; each game's own kernel test runs it
deeper. The first test of a kernel compiles it (or loads it from numba's on-disk cache), so it takes longer.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import shogames
from shogames.core.kernel import (
    KernelUnavailableError,
    compiled_threads,
    fast_perft,
    kernels_enabled,
    require_kernel,
    unavailable_reason,
)
from shogames.games.shobu.kernel import ShobuKernel
from shogames.kernels.conformance import check_kernel, check_kernel_playouts
from toy_games import DiceRaceGame, register_toy_games

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


# --- How a game offers its kernel ----------------------------------------------------------------------


def test_every_game_reports_its_kernel_or_why_not() -> None:
    for cls in shogames.available_games():
        game = cls()
        if cls.kernel_module is None:
            assert game.kernel is None
            assert "has no compiled kernel" in unavailable_reason(game)
            with pytest.raises(KernelUnavailableError, match="no compiled kernel"):
                require_kernel(game)
        else:
            assert game.kernel is not None and game.kernel.game is game
            assert unavailable_reason(game) == ""


def test_kernels_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOGAMES_KERNELS", "0")
    game = shogames.make("shobu")
    assert game.kernel is None
    assert "SHOGAMES_KERNELS=0" in unavailable_reason(game)
    # Without a kernel, fast_perft is the reference's perft.
    assert fast_perft(game.new_initial_state(), 2) == 50508


def test_import_does_not_load_numba() -> None:
    code = "import sys, shogames; shogames.make('shobu'); print('numba' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert output.stdout.strip() == "False"


def test_compiled_code_loads_back_from_the_cache() -> None:
    # The suite has compiled (or loaded) everything by now; a new process must load it back and run it.
    code = (
        "import shogames; k = shogames.make('shobu').kernel; k.warm_up(); "
        "s = k.game.new_initial_state(); print(k.perft(s, 3), k.alphabeta(seed=0).search(s, work=2000).depth)"
    )
    shobu_kernel().warm_up()
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert output.returncode == 0, output.stderr
    assert output.stdout.split()[0] == "8675832"


# --- Every kernel against its reference ----------------------------------------------------------------

KERNEL_BUDGET: dict[str, tuple[int, int]] = {"shoo": (40, 1), "shogammon": (60, 1)}
"""(the plies compared in each random game, the kernel playouts replayed) where a game's random games are
long or slow to replay; a game not named here gets :data:`DEFAULT_KERNEL_BUDGET`."""
DEFAULT_KERNEL_BUDGET = (120, 3)
RANDOM_GAMES = 2
"""Random games compared move for move per case with ``--run-slow``; the suite compares the first of them
(the same seed), as each game's own kernel test compares more."""


def _kernel_cases() -> list[object]:
    """One case per registered game with a kernel and setting bundle: the defaults, then each preset."""
    return [
        pytest.param(cls.id, preset, id=f"{cls.id}-{preset or 'default'}")
        for cls in shogames.available_games()
        if cls.kernel_module is not None
        for preset in [None, *cls.presets]
    ]


def check_kernel_against_reference(game_id: str, preset: str | None, games: int) -> None:
    """Move for move in ``games`` random games (legal moves in order, results, evaluation, perft 2), and
    the kernel's own random playouts replayed by the reference."""
    game = shogames.make(game_id, preset)
    if game.kernel is None:
        pytest.skip(unavailable_reason(game))
    plies, playouts = KERNEL_BUDGET.get(game_id, DEFAULT_KERNEL_BUDGET)
    positions = check_kernel(game, games=games, seed=7, perft_depth=2, perft_every=plies, max_plies=plies)
    assert positions >= 2
    check_kernel_playouts(game, games=playouts, seed=7)


@pytest.mark.parametrize(("game_id", "preset"), _kernel_cases())
def test_every_kernel_agrees_with_its_reference(game_id: str, preset: str | None) -> None:
    check_kernel_against_reference(game_id, preset, games=1)


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "preset"), _kernel_cases())
def test_every_kernel_agrees_with_its_reference_in_more_random_games(
    game_id: str, preset: str | None
) -> None:
    check_kernel_against_reference(game_id, preset, games=RANDOM_GAMES)


def test_every_game_with_a_kernel_module_has_a_kernel_here() -> None:
    """A kernel that cannot be built (numba missing aside) is a failure, not a skipped differential check."""
    for cls in shogames.available_games():
        if cls.kernel_module is not None:
            game = cls()
            assert game.kernel is not None, unavailable_reason(game)


# --- Threads of the compiled batch loops ---------------------------------------------------------------


def test_compiled_threads_sets_and_restores_numbas_thread_count() -> None:
    import numba

    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    before = numba.get_num_threads()
    with compiled_threads(1) as used:
        assert used == 1 and numba.get_num_threads() == 1
    assert numba.get_num_threads() == before
    with compiled_threads(None) as used:
        assert used == most and numba.get_num_threads() == most
    with compiled_threads(most + 5) as used:  # more than numba may use: capped
        assert used == most and numba.get_num_threads() == most
    with pytest.raises(RuntimeError, match="inside"), compiled_threads(1):
        raise RuntimeError("inside")
    assert numba.get_num_threads() == before  # restored when the block raises too


@pytest.mark.parametrize("threads", [0, -1])
def test_compiled_threads_refuses_fewer_than_one(threads: int) -> None:
    import numba

    before = numba.get_num_threads()
    with pytest.raises(ValueError, match="threads must be 1 or more"), compiled_threads(threads):
        pass
    assert numba.get_num_threads() == before


# --- Through the protocol: CLI, bench, agents, arena ---------------------------------------------------


def test_cli_perft_uses_the_kernel_and_can_count_every_leaf() -> None:
    from cli_runner import run_cli

    for extra in ([], ["--no-bulk"], ["--reference"]):
        result = run_cli(["perft", "shobu", "--depth", "2", *extra])
        assert result.exit_code == 0, result.output
        assert result.stdout == "50508\n"
    split = run_cli(["perft", "shobu", "--depth", "2", "--divide", "--no-bulk"])
    assert split.stdout.splitlines()[-1] == "50508" and split.stdout.count(":") == 232
    register_toy_games()  # a game with no kernel
    refused = run_cli(["perft", DiceRaceGame.id, "--depth", "1", "--no-bulk"])
    assert refused.exit_code == 2 and "needs a compiled kernel" in refused.stderr


def test_bench_reports_reference_and_kernel_side_by_side() -> None:
    from shogames.bench import run_bench

    report = run_bench(shogames.make("shobu"), depth=2, games=20, seed=1)
    assert report.kernel is not None
    assert report.kernel.perft.nodes == report.kernel.perft_every_leaf.nodes == report.perft.nodes == 50508
    assert report.kernel.playouts.games == 20
    lines = report.lines()
    assert any(line.startswith("kernel / reference (same run)") for line in lines)
    register_toy_games()
    assert run_bench(shogames.make(DiceRaceGame.id), depth=1, games=1).kernel is None


def test_kernel_agents_play_through_the_protocol() -> None:
    from shogames.agents import make_agent
    from shogames.match import play_game

    game = shogames.make("shobu", max_turns=6)
    agents = [
        make_agent("kernel-alphabeta:nodes=3000", seed=1),
        make_agent("kernel-mcts:iterations=300", seed=2),
    ]
    final, record = play_game(game, agents)
    assert final.is_terminal() and len(record.moves) == final.ply
    searched = agents[0].last_result  # type: ignore[attr-defined]
    assert searched is not None and searched.nodes <= 3000
    # Deterministic with a work budget and a seed.
    state = game.new_initial_state()
    first = make_agent("kernel-alphabeta:nodes=5000", seed=4).select_move(state)
    assert make_agent("kernel-alphabeta:nodes=5000", seed=4).select_move(state) == first


def test_kernel_agents_refuse_a_game_without_a_kernel_or_searcher(monkeypatch: pytest.MonkeyPatch) -> None:
    from shogames.agents import make_agent
    from shogames.arena import run_arena
    from shogames.games.sho.kernel import ShoKernel

    register_toy_games()  # a game with no kernel
    # Every kernel has both searchers now: take Sho's alpha-beta away to show the refusal.
    monkeypatch.setattr(ShoKernel, "alphabeta", lambda self, **options: None)
    agent = make_agent("kernel-mcts", seed=0)
    with pytest.raises(KernelUnavailableError, match=r"Dice race \(test game\) has no compiled kernel"):
        agent.check_game(shogames.make(DiceRaceGame.id))
    with pytest.raises(KernelUnavailableError, match="Sho kernel has no kernel-alphabeta searcher"):
        make_agent("kernel-alphabeta", seed=0).check_game(shogames.make("sho"))
    with pytest.raises(KernelUnavailableError, match="no compiled kernel"):
        run_arena(DiceRaceGame.id, ["random", "kernel-alphabeta"], 1)
    from shogames.match import play_game

    with pytest.raises(KernelUnavailableError, match="no kernel-alphabeta searcher"):
        play_game(shogames.make("sho", players=2), [make_agent("random"), make_agent("kernel-alphabeta")])
