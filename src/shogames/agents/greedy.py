"""The greedy agent: one turn of lookahead with the game's evaluation."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from shogames.agents.base import Agent, register_agent
from shogames.core.protocol import MoveT, State

_TIE = 1e-9


def turn_value(state: State[Any], seat: int, plies: int) -> float:
    """``seat``'s best evaluation at the end of its turn from ``state``.

    While ``seat`` is still to move (a game whose turn takes several moves, such as Shogammon's one move
    per die), the best of its next moves is taken, at most ``plies`` deep; then the state is evaluated.
    """
    if plies > 0 and state.to_move == seat:
        return max(turn_value(state.play_unchecked(move), seat, plies - 1) for move in state.legal_moves())
    return state.evaluate()[seat]


class GreedyAgent(Agent):
    """Plays the move whose position, at the end of its own turn, the game's evaluation likes best.

    A move that wins at once is always played first.

    The turn is followed for as long as the same seat moves again, up to ``plies`` moves (Shogammon's
    second die); chance and the opponents' replies are not looked at. Ties are broken by the seeded
    generator. With ``noise`` above 0, that share of moves is played at random instead (a weaker
    level), except that a move winning at once is always played.

    Args:
        seed: the seed of the tie-breaks and the noise.
        noise: the probability of playing a uniformly random move instead (0 to 1).
        plies: how many moves of one turn to look through.
    """

    name = "greedy"
    parameters: ClassVar[Mapping[str, type]] = {"noise": float, "plies": int}

    def __init__(self, seed: int | None = None, *, noise: float = 0.0, plies: int = 3) -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability from 0 to 1, got {noise}")
        self.noise = noise
        self.plies = plies

    def select_move(self, state: State[MoveT]) -> MoveT:
        """The move with the best evaluation after the mover's turn (or a random one, with ``noise``)."""
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal moves: the game is over")
        if len(moves) == 1:
            return moves[0]
        seat = state.to_move
        assert seat is not None and seat >= 0, "agents are asked only where a seat is to move"
        top = state.game.max_utility
        children = [state.play_unchecked(move) for move in moves]
        for move, after in zip(moves, children, strict=True):  # even a careless player takes a win in one
            if after.is_terminal() and after.returns()[seat] >= top:
                return move
        if self.noise and self.rng.random() < self.noise:
            return moves[self.rng.randrange(len(moves))]
        best_value = float("-inf")
        best: list[MoveT] = []
        for move, after in zip(moves, children, strict=True):
            value = turn_value(after, seat, self.plies - 1)
            if value > best_value + _TIE:
                best_value, best = value, [move]
            elif value >= best_value - _TIE:
                best.append(move)
        return best[self.rng.randrange(len(best))]


register_agent(GreedyAgent.name, GreedyAgent)
