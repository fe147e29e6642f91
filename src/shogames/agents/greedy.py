"""The greedy agent: one turn of lookahead with the game's evaluation, hand-written or learned."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from shogames.agents.base import Agent, register_agent
from shogames.core.protocol import Game, MoveT, State

if TYPE_CHECKING:
    from shogames.learning.network import ValueNet

TIE = 1e-9
"""Values of two turns that differ by no more than this are a tie, broken by the seeded generator."""

VALUES = ("rules", "learned")
"""What ``greedy:value=`` may name: the game's hand-written evaluation, or its shipped learned one."""


def turn_ends(state: State[Any], seat: int, plies: int) -> list[State[Any]]:
    """The positions at the end of ``seat``'s turn from ``state``, following at most ``plies`` moves.

    While ``seat`` is still to move (a game whose turn takes several moves, such as Shogammon's one move
    per die), each of its next moves is followed; the greedy agent values the turn by the best of them.
    """
    if plies > 0 and state.to_move == seat:
        return [
            end
            for move in state.legal_moves()
            for end in turn_ends(state.play_unchecked(move), seat, plies - 1)
        ]
    return [state]


class GreedyAgent(Agent):
    """Plays the move whose position, at the end of its own turn, the game's evaluation likes best.

    A move that wins at once is always played first.

    The turn is followed for as long as the same seat moves again, up to ``plies`` moves (Shogammon's
    second die); chance and the opponents' replies are not looked at. Ties are broken by the seeded
    generator. With ``noise`` above 0, that share of moves is played at random instead (a weaker
    level), except that a move winning at once is always played.

    With ``value=learned`` the positions are judged by the game's shipped learned evaluation
    (:mod:`shogames.learning`, a network trained by self-play over the seat's observation) instead of
    the hand-written :meth:`State.evaluate <shogames.core.protocol.State.evaluate>`; a game without one
    is refused before the first move.

    Args:
        seed: the seed of the tie-breaks and the noise.
        noise: the probability of playing a uniformly random move instead (0 to 1).
        plies: how many moves of one turn to look through.
        value: ``rules`` (the hand-written evaluation) or ``learned``.
        network: a learned evaluation to use instead of the shipped one (training measures its
            networks this way); implies ``value=learned``.
    """

    name = "greedy"
    parameters: ClassVar[Mapping[str, type]] = {"noise": float, "plies": int, "value": str}

    def __init__(
        self,
        seed: int | None = None,
        *,
        noise: float = 0.0,
        plies: int = 3,
        value: str = "rules",
        network: ValueNet | None = None,
    ) -> None:
        super().__init__(seed)
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability from 0 to 1, got {noise}")
        if value not in VALUES:
            raise ValueError(f"value is one of {', '.join(VALUES)}, got {value!r}")
        self.noise = noise
        self.plies = plies
        self.network = network
        self.learned = value == "learned" or network is not None

    def _network(self, game: Game[Any]) -> ValueNet:
        if self.network is not None:
            self.network.check_game(game)
            return self.network
        from shogames.learning.shipped import shipped_value

        return shipped_value(game)

    def check_game(self, game: Game[Any]) -> None:
        """Refuse a game without a learned evaluation for these settings when ``value=learned``.

        Raises:
            SettingsError: no shipped weights for the game, or weights for other settings.
        """
        if self.learned:
            self._network(game)

    def _values(self, ends: list[State[Any]], seat: int) -> list[float]:
        if self.learned:
            return self._network(ends[0].game).value_of(ends, seat)
        return [end.evaluate()[seat] for end in ends]

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
        ends = [turn_ends(after, seat, self.plies - 1) for after in children]
        flat = [end for group in ends for end in group]
        values = iter(self._values(flat, seat))
        for move, group in zip(moves, ends, strict=True):
            value = max(next(values) for _ in group)
            if value > best_value + TIE:
                best_value, best = value, [move]
            elif value >= best_value - TIE:
                best.append(move)
        return best[self.rng.randrange(len(best))]


register_agent(GreedyAgent.name, GreedyAgent)
