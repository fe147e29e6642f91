"""Game analysis: for each move of a record, a strong search's value and preferred move, mistakes flagged.

The analysing agent is an :class:`~shogames.agents.AlphaBetaAgent` that values every legal move exactly
(``exact_root``), so the move played and the best move are compared on the same scale: the mover's
expected return, from -1 (lost) to +1 (won). The *loss* of a move is the best move's value minus the
played move's; a loss of at least ``mistake`` is a mistake, of at least ``blunder`` a blunder.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from shogames.agents.alphabeta import AlphaBetaAgent
from shogames.core.protocol import CHANCE, State
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


def analyse_record(
    record: Record,
    *,
    depth: int = 3,
    nodes: int = 200_000,
    seconds: float = 0.0,
    progress: Callable[[int, int], None] | None = None,
) -> list[MoveAnalysis]:
    """Analyse every move a seat made in ``record`` (chance outcomes are skipped).

    Args:
        record: a game record; it is replayed and checked first.
        depth: the analysing search's depth in decisions.
        nodes: its node budget per position (0: none).
        seconds: its time budget per position (0: none).
        progress: called with (moves done, moves in all) after each move.

    Raises:
        NotationError: the record does not replay.
    """
    game_replay = replay(record)
    agent = AlphaBetaAgent(seed=0, depth=depth, nodes=nodes, seconds=seconds)
    agent.exact_root = True
    names = game_replay.game.player_names
    pairs = list(zip(game_replay.states, game_replay.moves, strict=False))
    results = []
    for done, (state, move) in enumerate(pairs, start=1):
        mover = state.to_move
        if mover is not None and mover != CHANCE:
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
