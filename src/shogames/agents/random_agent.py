"""The uniform random agent: the baseline every other agent must beat."""

from __future__ import annotations

from shogames.agents.base import Agent, register_agent
from shogames.core.protocol import MoveT, State


class RandomAgent(Agent):
    """Plays a legal move chosen uniformly at random with its seeded generator.

    >>> RandomAgent(seed=3).name
    'random'
    """

    name = "random"

    def select_move(self, state: State[MoveT]) -> MoveT:
        """Choose one of ``state.legal_moves()`` uniformly at random.

        Raises:
            ValueError: the state has no legal moves (it is terminal).
        """
        moves = state.legal_moves()
        if not moves:
            raise ValueError("no legal moves: the game is over")
        return moves[self.rng.randrange(len(moves))]


register_agent(RandomAgent.name, RandomAgent)
