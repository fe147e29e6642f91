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
