"""Game analysis: for each move of a record, a strong search's value and preferred move, mistakes flagged.

The move played and the best move are compared on the same scale: the mover's expected return, from -1
(lost) to +1 (won), each searched to the same depth. The *loss* of a move is the best move's value minus
the played move's; a loss of at least ``mistake`` is a mistake, of at least ``blunder`` a blunder.

Where the game has a compiled kernel with an alpha-beta searcher (:attr:`Game.kernel
<shogames.core.protocol.Game.kernel>`), the analysis searches with it: at each position it deepens within
the budget to find the best move, then values the best move and the move played alone at the root to the
depth that search completed (:meth:`Searcher.value_of <shogames.core.kernel.Searcher.value_of>`), so both
values are exact at one depth. Elsewhere (with ``kernel=False``, or at a position whose counts are too large
for the kernel's integers) the analysing agent is the reference
:class:`~shogames.agents.AlphaBetaAgent`, which values every legal move exactly (``exact_root``). Nothing
here names a game.

A *review* (:func:`review_moves`, the web app's game review) analyses the same way and adds, for each
move, the depth reached and a value to draw (:attr:`ReviewedMove.value`): the played move's value at the
deepest completed depth averaged with its value one decision shallower, so that the graph of a game does
not jump up and down with whose move the search's horizon falls after (the odd-even effect of a
depth-limited search); a forced result (a value beyond :data:`FORCED`) is drawn as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from shogames.agents.alphabeta import AlphaBetaAgent
from shogames.core.kernel import Searcher
from shogames.core.protocol import CHANCE, Game, State
from shogames.records import Record, replay

MISTAKE: float = 0.1
"""The default loss of value that flags a move as a mistake."""
BLUNDER: float = 0.3
"""The default loss of value that flags a move as a blunder."""
FORCED: float = 0.99
"""A value beyond this (either way) is a forced result, which a deeper search does not change (the
alpha-beta agent's own rule)."""


@dataclass
class MoveAnalysis:
    """One analysed move: who played it, its value, and the best move with its value (mover's view)."""

    ply: int
    mover: str
    played: str
    played_value: float
    best: str
    best_value: float

    @property
    def loss(self) -> float:
        """How much value the move played gave away against the best move (0 when it is the best)."""
        return max(0.0, self.best_value - self.played_value)

    def verdict(self, mistake: float = MISTAKE, blunder: float = BLUNDER) -> str:
        """``"blunder"``, ``"mistake"``, or ``""``."""
        if self.loss >= blunder:
            return "blunder"
        if self.loss >= mistake:
            return "mistake"
        return ""


@dataclass
class ReviewedMove(MoveAnalysis):
    """One reviewed move: a :class:`MoveAnalysis` with the seat, the depth reached and the value to draw.

    ``played_value``, ``best_value`` and ``value`` are the mover's (from -1, lost, to +1, won).
    """

    seat: int
    """The seat that played it."""
    depth: int
    """The depth (in decisions) at which the played and best moves were both valued."""
    value: float
    """The played move's value to draw: at :attr:`depth` averaged with one decision shallower, or as it is
    where it is a forced result or the depth is 1 (see the module's docstring)."""
    best_move: Any
    """The best move itself (``best`` is its text)."""
    kernel: bool
    """Whether the game's compiled kernel searched it (else the reference agent did)."""


def analyse_state(agent: AlphaBetaAgent, state: State[Any], played: Any) -> tuple[float, Any, float]:
    """Search ``state``: the played move's value, the best move and its value, for the mover."""
    best = agent.search(state)
    scores = agent.last_scores
    return scores[played], best, scores[best]


def kernel_analyser(game: Game[Any], depth: int) -> Searcher[Any] | None:
    """The game kernel's alpha-beta searcher to ``depth`` if it values a root move alone; else ``None``."""
    kernel = game.kernel
    searcher = kernel.alphabeta(seed=None, depth=depth) if kernel is not None else None
    if searcher is None or type(searcher).value_of is Searcher.value_of:
        return None
    return searcher


def analyse_with_kernel(
    searcher: Searcher[Any], state: State[Any], played: Any, *, nodes: int, seconds: float
) -> tuple[float, Any, float, int]:
    """Search ``state`` with a kernel searcher: the played move's value, the best move, its value, the depth.

    The best move comes from a search within the budget; both values from searching each move alone at
    the root to the depth that search completed (at least 1), so the two are exact at the same depth.
    Where the move played values higher at that depth (the search's last, unfinished iteration may have
    preferred another), the move played is the best.
    """
    result = searcher.search(state, work=nodes, seconds=seconds)
    depth = max(result.depth, 1)
    best_value = searcher.value_of(state, result.move, depth=depth)
    played_value = best_value if played == result.move else searcher.value_of(state, played, depth=depth)
    if best_value is None or played_value is None:  # value_of was checked before: it values moves
        raise AssertionError("the kernel searcher stopped valuing single moves")
    if played_value > best_value:
        return played_value, played, played_value, depth
    return played_value, result.move, best_value, depth


def analyse_record(
    record: Record,
    *,
    depth: int = 3,
    nodes: int = 200_000,
    seconds: float = 0.0,
    progress: Callable[[int, int], None] | None = None,
    kernel: bool = True,
) -> list[MoveAnalysis]:
    """Analyse every move a seat made in ``record`` (chance outcomes are skipped).

    Args:
        record: a game record; it is replayed and checked first.
        depth: the analysing search's depth in decisions (the deepest, with a kernel).
        nodes: its node budget per position (0: none).
        seconds: its time budget per position (0: none).
        progress: called with (moves done, moves in all) after each move.
        kernel: search with the game's compiled kernel where it has an alpha-beta searcher (see above);
            ``False`` always uses the reference agent.

    Raises:
        NotationError: the record does not replay.
    """
    game_replay = replay(record)
    pairs = list(zip(game_replay.states, game_replay.moves, strict=False))
    return analyse_moves(pairs, depth=depth, nodes=nodes, seconds=seconds, progress=progress, kernel=kernel)


def analyse_moves(
    pairs: Sequence[tuple[State[Any], Any]],
    *,
    depth: int = 3,
    nodes: int = 200_000,
    seconds: float = 0.0,
    progress: Callable[[int, int], None] | None = None,
    kernel: bool = True,
) -> list[MoveAnalysis]:
    """Analyse each move a seat played in ``pairs`` (a position and the move played there, all of one game).

    :func:`analyse_record` analyses a whole record this way; a server analyses a long record in pieces
    of it. The arguments are :func:`analyse_record`'s.
    """
    if not pairs:
        return []
    game = pairs[0][0].game
    searcher = kernel_analyser(game, depth) if kernel else None
    compiled = game.kernel
    agent = AlphaBetaAgent(seed=0, depth=depth, nodes=nodes, seconds=seconds)
    agent.exact_root = True
    names = game.player_names
    results = []
    for done, (state, move) in enumerate(pairs, start=1):
        mover = state.to_move
        if mover is not None and mover != CHANCE:
            if searcher is not None and compiled is not None and compiled.holds(state):
                played_value, best, best_value, _ = analyse_with_kernel(
                    searcher, state, move, nodes=nodes, seconds=seconds
                )
            else:
                played_value, best, best_value = analyse_state(agent, state, move)
            results.append(
                MoveAnalysis(
                    state.ply + 1,
                    names[mover],
                    state.move_to_text(move),
                    played_value,
                    state.move_to_text(best),
                    best_value,
                )
            )
        if progress is not None:
            progress(done, len(pairs))
    return results


def review_moves(
    pairs: Sequence[tuple[State[Any], Any]],
    *,
    depth: int = 64,
    nodes: int = 0,
    seconds: float = 0.0,
    kernel: bool = True,
    plies: Sequence[int] | None = None,
) -> list[ReviewedMove]:
    """Review each move a seat played in ``pairs`` (a position and the move played there, of one game).

    The analysis of :func:`analyse_moves` (the kernel's searcher where the game has one and holds the
    position, else the reference agent valuing every root move) with what a review draws: the seat, the
    depth reached and the value to draw (:class:`ReviewedMove`).

    Args:
        pairs: positions with the move played there, all of one game; chance outcomes are skipped.
        depth: the deepest iteration, in decisions.
        nodes: the most positions searched per position (0: no limit).
        seconds: the most seconds a position's search may take (0: no limit); valuing the best move and
            the move played to the depth reached comes on top (a small part of it).
        kernel: search with the game's compiled kernel where it has an alpha-beta searcher.
        plies: the number of each pair's move in its record (a record that starts from a Position counts
            from 1 there); by default the state's ply + 1.
    """
    if plies is not None and len(plies) != len(pairs):
        raise ValueError(f"{len(plies)} ply numbers for {len(pairs)} positions")
    if not pairs:
        return []
    game = pairs[0][0].game
    searcher = kernel_analyser(game, depth) if kernel else None
    compiled = game.kernel
    agent = AlphaBetaAgent(seed=0, depth=depth, nodes=nodes, seconds=seconds)
    agent.exact_root = True
    names = game.player_names
    results: list[ReviewedMove] = []
    for index, (state, move) in enumerate(pairs):
        mover = state.to_move
        if mover is None or mover == CHANCE:
            continue
        compiled_here = searcher is not None and compiled is not None and compiled.holds(state)
        if searcher is not None and compiled_here:
            played_value, best, best_value, reached = analyse_with_kernel(
                searcher, state, move, nodes=nodes, seconds=seconds
            )
            value = played_value
            if reached > 1 and abs(played_value) <= FORCED:
                shallower = searcher.value_of(state, move, depth=reached - 1)
                if shallower is not None and abs(shallower) <= FORCED:
                    value = (played_value + shallower) / 2
        else:
            played_value, best, best_value = analyse_state(agent, state, move)
            reached = max(agent.last_depth, 1)
            value = played_value
        results.append(
            ReviewedMove(
                ply=state.ply + 1 if plies is None else plies[index],
                mover=names[mover],
                played=state.move_to_text(move),
                played_value=played_value,
                best=state.move_to_text(best),
                best_value=best_value,
                seat=mover,
                depth=reached,
                value=value,
                best_move=best,
                kernel=compiled_here,
            )
        )
    return results


def value_move(state: State[Any], move: Any, *, depth: int, kernel: bool = True) -> float:
    """``move``'s value at ``state`` for its mover, searched ``depth`` decisions with it alone at the root.

    Exact at that depth, so it compares with a :class:`ReviewedMove`'s values at its
    :attr:`~ReviewedMove.depth` (the review's *learn from your mistakes* values a learner's move so).

    The kernel's searcher where :func:`review_moves` would use it (``kernel``, a game with an alpha-beta
    kernel that holds the position), else the reference agent.

    Raises:
        ValueError: ``depth`` < 1, the game is over, chance is to move, or ``move`` is not legal there.
    """
    if depth < 1:
        raise ValueError(f"depth must be at least 1, got {depth}")
    if state.to_move is None or state.to_move == CHANCE:
        raise ValueError("only a seat's move at a position where it is to move has a value")
    if move not in state.legal_moves():
        raise ValueError(f"{state.move_to_text(move)} is not a legal move here")
    game = state.game
    searcher = kernel_analyser(game, depth) if kernel else None
    compiled = game.kernel
    if searcher is not None and compiled is not None and compiled.holds(state):
        value = searcher.value_of(state, move, depth=depth)
        if value is not None:
            return value
    agent = AlphaBetaAgent(seed=0, depth=depth)
    agent.exact_root = True
    agent.search(state, [move])
    return agent.last_scores[move]
