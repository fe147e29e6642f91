"""Alpha-beta search: negamax with iterative deepening, a transposition table and move ordering.

Made for two-player games without chance (Shobu, Shoo), it plays every game of the protocol:

- **More than two players** (Sho with three): the *paranoid* reduction (Sturtevant & Korf, "On pruning
  techniques for multi-player games", AAAI 2000): the searching seat against a coalition of all the others,
  which is a two-player zero-sum game for the searching seat's return.
- **Chance** (Sho, Shogammon): a chance node's value is the probability-weighted mean of its outcomes'
  values, as in expectiminimax (Michie 1966; Ballard, "The *-minimax search procedure for trees containing
  chance nodes", Artificial Intelligence 21, 1983); cut-offs happen at the decision nodes below it.
- **Several moves in a row by one seat** (Shogammon's two dice, Shoo's answer to a hush): negamax flips
  the sign only where the side changes.

Depth counts decisions: a chance node does not use it up, unless it follows another chance node (a throw
that ends a turn at once, in Sho). Values are the searching seat's return, from the
game's evaluation (:meth:`~shogames.core.State.evaluate`) at the horizon and the real returns at the end;
a won game is worth a little less for each ply it takes, so the search wins quickly and loses slowly.

Move ordering: the transposition table's best move first, then the history heuristic (Schaeffer, "The
history heuristic and alpha-beta search enhancements in practice", IEEE PAMI 11, 1989); at the root, the
previous iteration's values. The table (Greenblatt et al. 1967) keeps values with their depth and bound
type, and its best move. Iterative deepening (Slate & Atkin, Chess 4.5, 1977) returns the best move of the
deepest completed iteration when the budget runs out.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

from shogames.agents.base import Agent, register_agent
from shogames.agents.budget import Budget
from shogames.core.protocol import CHANCE, MoveT, State

_INFINITY = float("inf")
_EXACT, _LOWER, _UPPER = 0, 1, 2
_PLY_DISCOUNT = 1e-4  # a win one ply later is worth this much less
_TABLE_LIMIT = 400_000  # entries kept before the table is cleared
_CHECK_EVERY = 256  # nodes between two budget checks


class _OutOfBudgetError(Exception):
    """Raised inside the search when the budget is spent, to unwind to the root."""


class _Entry(NamedTuple):
    depth: int
    value: float
    bound: int
    move: Hashable


class AlphaBetaAgent(Agent):
    """Negamax alpha-beta with iterative deepening, a transposition table and move ordering.

    Args:
        seed: orders the root moves before the first iteration, which breaks ties between equal moves.
        depth: the deepest iteration, in decisions (chance does not count).
        nodes: the most positions searched per move (0: no limit); the deterministic budget.
        seconds: the most seconds per move (0: no limit).
    """

    name = "alphabeta"
    parameters: ClassVar[Mapping[str, type]] = {"depth": int, "nodes": int, "seconds": float}

    def __init__(
        self, seed: int | None = None, *, depth: int = 4, nodes: int = 0, seconds: float = 0.0
    ) -> None:
        super().__init__(seed)
        if depth < 1:
            raise ValueError(f"depth must be at least 1, got {depth}")
        self.depth = depth
        self.budget = Budget(nodes or None, seconds or None)
        self._table: dict[Hashable, _Entry] = {}
        self._history: dict[Hashable, int] = {}
        self._root_seat = -1
        self._root_ply = 0
        self._may_stop = False
        self.exact_root = False
        """When true, every root move gets its exact value (for analysis), not just the best one."""
        self.last_value = 0.0
        """The searching seat's value of the position after the last move chosen."""
        self.last_depth = 0
        """The deepest iteration the last search completed."""
        self.last_scores: dict[Any, float] = {}
        """Each root move's value for the searching seat in the deepest completed iteration of the last
        search. Without :attr:`exact_root`, a move cut off by alpha-beta has only a bound, at most the best
        move's value."""

    def reset(self) -> None:
        """Clear the transposition table and the history before a new game."""
        self._table.clear()
        self._history.clear()

    # --- The root ------------------------------------------------------------------------------------

    def select_move(self, state: State[MoveT]) -> MoveT:
        """Search deeper and deeper from ``state`` within the budget and return the best move found."""
        moves = list(state.legal_moves())
        if not moves:
            raise ValueError("no legal moves: the game is over")
        seat = state.to_move
        assert seat is not None and seat >= 0, "agents are asked only where a seat is to move"
        if len(moves) == 1:
            self.last_scores = {moves[0]: self.last_value}
            return moves[0]
        return self.search(state, moves)

    def search(self, state: State[MoveT], moves: Sequence[MoveT] | None = None) -> MoveT:
        """Run the iterative deepening search from ``state`` and return the best move.

        Afterwards :attr:`last_value`, :attr:`last_depth` and :attr:`last_scores` describe the search.
        """
        seat = state.to_move
        assert seat is not None and seat >= 0
        ordered = list(state.legal_moves() if moves is None else moves)
        if seat != self._root_seat or len(self._table) > _TABLE_LIMIT:
            self._table.clear()  # values are stored for one searching seat
            self._root_seat = seat
        self._root_ply = state.ply
        self.rng.shuffle(ordered)
        self.budget.start()
        scores: dict[Any, float] = {}
        best, best_value = ordered[0], -_INFINITY
        self.last_depth = 0
        for depth in range(1, self.depth + 1):
            self._may_stop = depth > 1  # the first iteration always completes
            iteration: dict[Any, float] = {}
            try:
                value, move = self._root(state, ordered, depth, iteration)
            except _OutOfBudgetError:
                # The previous best move is searched first, so a move that beat it is better still.
                first = ordered[0]
                if first in iteration:
                    move = max(iteration, key=lambda m: iteration[m])
                    if iteration[move] > iteration[first]:
                        best, best_value = move, iteration[move]
                break
            best, best_value, self.last_depth, scores = move, value, depth, iteration
            ordered.sort(key=lambda m: -scores[m])
            if abs(value) > 0.99:  # a forced result: deeper search cannot change it
                break
        self.last_value = best_value
        self.last_scores = scores
        return best

    def _root(
        self, state: State[MoveT], moves: list[MoveT], depth: int, scores: dict[Any, float]
    ) -> tuple[float, MoveT]:
        alpha, best_move = -_INFINITY, moves[0]
        for move in moves:
            floor = -_INFINITY if self.exact_root else alpha
            value = self._value_as(1, state.play_unchecked(move), depth - 1, floor, _INFINITY)
            scores[move] = value
            if value > alpha:
                alpha, best_move = value, move
        return alpha, best_move

    # --- The search ----------------------------------------------------------------------------------

    def _sign(self, state: State[Any]) -> int:
        """+1 where the searching seat moves (and at chance and terminal nodes), -1 where an opponent does."""
        mover = state.to_move
        return -1 if mover is not None and mover >= 0 and mover != self._root_seat else 1

    def _value_as(self, sign: int, child: State[Any], depth: int, alpha: float, beta: float) -> float:
        """``child``'s value for the side ``sign`` (+1 the searching seat, -1 the others)."""
        if self._sign(child) == sign:
            return self._negamax(child, depth, alpha, beta)
        return -self._negamax(child, depth, -beta, -alpha)

    def _negamax(self, state: State[Any], depth: int, alpha: float, beta: float) -> float:
        """The value of ``state`` for the side to move there (the searching seat at chance nodes)."""
        budget = self.budget
        budget.used += 1
        if self._may_stop and budget.used % _CHECK_EVERY == 0 and budget.spent():
            raise _OutOfBudgetError
        mover = state.to_move
        if mover is None:
            value = state.returns()[self._root_seat]
            return value * (1.0 - _PLY_DISCOUNT * (state.ply - self._root_ply))
        if depth <= 0:
            return self._sign(state) * state.evaluate()[self._root_seat]
        if mover == CHANCE:
            total = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.play_unchecked(outcome)
                below = depth - 1 if child.to_move == CHANCE else depth  # chance after chance counts
                total += float(probability) * self._value_as(1, child, below, -_INFINITY, _INFINITY)
            return total

        key = state.key()
        entry = self._table.get(key)
        first: Hashable = None
        if entry is not None:
            if entry.depth >= depth:
                if entry.bound == _EXACT:
                    return entry.value
                if entry.bound == _LOWER:
                    alpha = max(alpha, entry.value)
                else:
                    beta = min(beta, entry.value)
                if alpha >= beta:
                    return entry.value
            first = entry.move
        moves = self._ordered(state.legal_moves(), first)
        sign = 1 if mover == self._root_seat else -1
        original_alpha = alpha
        best_value, best_move = -_INFINITY, moves[0]
        for move in moves:
            value = self._value_as(sign, state.play_unchecked(move), depth - 1, alpha, beta)
            if value > best_value:
                best_value, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._history[move] = self._history.get(move, 0) + depth * depth
                        break
        if best_value <= original_alpha:
            bound = _UPPER
        elif best_value >= beta:
            bound = _LOWER
        else:
            bound = _EXACT
        self._table[key] = _Entry(depth, best_value, bound, best_move)
        return best_value

    def _ordered(self, moves: Sequence[Any], first: Hashable) -> list[Any]:
        history = self._history
        ordered = sorted(moves, key=lambda move: -history.get(move, 0)) if history else list(moves)
        if first is not None and first in moves:
            ordered.remove(first)
            ordered.insert(0, first)
        return ordered


register_agent(AlphaBetaAgent.name, AlphaBetaAgent)
