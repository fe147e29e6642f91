"""Differential checks: a game's kernel against its pure-Python reference, position by position.

:func:`check_kernel` plays seeded random games with the reference engine and, at every position, asks
the kernel the same questions: the legal moves (same moves, same order), whether the game is over and
with which returns, the evaluation, the position after the move played, and the array round trip. Every
few positions it also compares perft counts (the kernel's with and without bulk counting against the
reference's). :func:`check_kernel_playouts` replays games of the kernel's own compiled random-playout
loop in the reference and compares how they ended. Both raise :class:`AssertionError` with the position
and what differed. ``tests/test_kernels.py`` runs both for every registered game that has a kernel, under
its defaults and each preset, with a small budget; each game's own kernel test
(``tests/test_kernel_<id>.py``) runs them deeper, over a sweep of its settings, and shows that a
deliberately broken kernel rule is caught.

Like :mod:`shogames.conformance`, this module is game-neutral: it works through the protocol and
:class:`~shogames.core.kernel.Kernel` only, so a fifth game's kernel is checked by the same code.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from typing import Any

from shogames.core.chance import sample_outcome
from shogames.core.kernel import Kernel
from shogames.core.perft import perft
from shogames.core.protocol import CHANCE, Game, State

__all__ = ["check_kernel", "check_kernel_playouts"]


def _where(game: Game[Any], state: State[Any], problem: str) -> str:
    return (
        f"{game.id} ({game.settings_text()}), ply {state.ply}: kernel and reference differ: {problem}\n"
        f"  position: {state.to_text()!r}"
    )


def _close(a: Iterable[float], b: Iterable[float]) -> bool:
    pairs = list(zip(a, b, strict=True))
    return all(math.isclose(x, y, rel_tol=1e-12, abs_tol=1e-12) for x, y in pairs)


def check_position(kernel: Kernel[Any, Any], state: State[Any], *, perft_depth: int = 0) -> None:
    """Compare the kernel with the reference at one position (and below it to ``perft_depth``).

    Raises:
        AssertionError: they differ; the message gives the position and the difference.
    """
    game = kernel.game

    def require(condition: bool, problem: str) -> None:
        if not condition:
            raise AssertionError(_where(game, state, problem))

    copy = kernel.decode(kernel.encode(state))
    require(
        copy.key() == state.key() and copy.to_text() == state.to_text(),
        f"decode(encode(state)) gives {copy.to_text()!r}",
    )
    outcome = kernel.outcome(state)
    if state.is_terminal():
        require(outcome is not None, "the reference says the game is over; the kernel does not")
        require(_close(outcome or (), state.returns()), f"returns {outcome} != reference {state.returns()}")
    else:
        require(outcome is None, f"the kernel says the game is over with returns {outcome}")
    expected = list(state.legal_moves())
    moves = kernel.legal_moves(state)
    if moves != expected:
        missing = [state.move_to_text(m) for m in expected if m not in moves][:5]
        extra = [repr(m) for m in moves if m not in expected][:5]
        if not missing and not extra and len(moves) == len(expected):
            require(False, "the same legal moves in another order")
        require(
            False,
            f"{len(moves)} legal moves, reference {len(expected)}; kernel lacks {missing}, has extra {extra}",
        )
    require(
        _close(kernel.evaluate(state), state.evaluate()),
        f"evaluation {kernel.evaluate(state)} != reference {state.evaluate()}",
    )
    for move in expected:
        after = kernel.play(state, move)
        reference = state.play_unchecked(move)
        require(
            after.key() == reference.key()
            and after.to_text() == reference.to_text()
            and after.is_terminal() == reference.is_terminal()
            and after.returns() == reference.returns(),
            f"after {state.move_to_text(move)} the kernel gives {after.to_text()!r} "
            f"(terminal {after.is_terminal()}), reference {reference.to_text()!r} "
            f"(terminal {reference.is_terminal()})",
        )
    for depth in range(1, perft_depth + 1):
        count = perft(state, depth)
        for bulk in (True, False):
            got = kernel.perft(state, depth, bulk=bulk)
            require(got == count, f"perft {depth} (bulk={bulk}) = {got}, reference {count}")


def check_kernel(
    game: Game[Any],
    *,
    games: int = 4,
    seed: int = 0,
    starts: Iterable[State[Any]] = (),
    kernel: Kernel[Any, Any] | None = None,
    perft_depth: int = 2,
    perft_every: int = 40,
    max_plies: int | None = None,
) -> int:
    """Play random games with the reference and compare the kernel at every position.

    Args:
        game: the game and settings; its kernel is checked unless ``kernel`` is given.
        games: random games from the initial state, and as many from each of ``starts``.
        seed: the seed of the random games.
        starts: more positions to play random games from (positions random play seldom reaches).
        kernel: the kernel to check (a deliberately broken one, in the tests).
        perft_depth: the perft depth compared at the first position of each game and every
            ``perft_every`` plies after it.
        perft_every: how many plies apart the perft comparisons are.
        max_plies: the most plies of each game compared (a quick check of long games); ``None`` plays
            every game to its end.

    Returns:
        How many positions were compared.

    Raises:
        AssertionError: the kernel and the reference differ; the message says where and how.
        ValueError: the game has no kernel and none is given.
    """
    checked = kernel if kernel is not None else game.kernel
    if checked is None:
        raise ValueError(f"{game.name} has no kernel to check")
    rng = random.Random(seed)
    firsts = [game.new_initial_state()] * games
    for start in starts:
        firsts.extend([start] * games)
    positions = 0
    for first in firsts:
        state = first
        plies = 0
        while True:
            check_position(checked, state, perft_depth=perft_depth if plies % perft_every == 0 else 0)
            positions += 1
            if state.is_terminal() or (max_plies is not None and plies >= max_plies):
                break
            if state.to_move == CHANCE:
                move = sample_outcome(state.chance_outcomes(), rng)
            else:
                moves = state.legal_moves()
                move = moves[rng.randrange(len(moves))]
            state = state.play_unchecked(move)
            plies += 1
    return positions


def check_kernel_playouts(
    game: Game[Any], *, games: int = 5, seed: int = 0, kernel: Kernel[Any, Any] | None = None
) -> None:
    """Replay games of the kernel's compiled random playouts in the reference and compare their ends.

    Each of the first ``games`` games of ``random_playouts(games, seed=seed)`` is fetched move by move
    with :meth:`~shogames.core.kernel.Kernel.random_game` and played with the reference's checked
    :meth:`~shogames.core.protocol.State.play` (an illegal move raises); its length and returns must be
    the batch's.

    Raises:
        AssertionError: a replay ends otherwise than the kernel's game.
        IllegalMoveError: the kernel's loop played an illegal move.
    """
    checked = kernel if kernel is not None else game.kernel
    if checked is None:
        raise ValueError(f"{game.name} has no kernel to check")
    batch = checked.random_playouts(games, seed=seed)
    for index in range(games):
        moves = checked.random_game(seed=seed, index=index)
        state = game.new_initial_state()
        for move in moves:
            state = state.play(move)
        returns = tuple(float(value) for value in batch.returns[index])
        if not (state.is_terminal() and len(moves) == int(batch.plies[index]) and state.returns() == returns):
            raise AssertionError(
                f"{game.id} ({game.settings_text()}): kernel playout {index} (seed {seed}) took "
                f"{int(batch.plies[index])} plies to returns {returns}; replayed by the reference it "
                f"takes {len(moves)} plies to {state.to_text()!r} (terminal {state.is_terminal()}, "
                f"returns {state.returns()})"
            )
