"""The agent interface, chance sampling, and the registry of agents by name.

An :class:`Agent` picks moves for whichever seat is to move; it never sees :data:`~shogames.core.CHANCE`
nodes, which the caller resolves with :func:`shogames.core.sample_chance`. Agents depend on
:mod:`shogames.core` only, so one agent plays every game.

Agents are made by name with :func:`make_agent`; modules add theirs with :func:`register_agent`.

>>> agent = make_agent("random", seed=7)
>>> agent.name
'random'
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable

from shogames.core.errors import SettingsError
from shogames.core.protocol import MoveT, State

AgentFactory = Callable[[int | None], "Agent"]
"""Makes an agent from a seed (``None`` for an unseeded one)."""

_AGENTS: dict[str, AgentFactory] = {}


class Agent(ABC):
    """A player that chooses moves, with its own seeded random number generator.

    Subclasses set :attr:`name` and implement :meth:`select_move`; agents that keep something between
    moves of one game (a search tree, a clock) clear it in :meth:`reset`.

    Args:
        seed: the seed of :attr:`rng`; the same seed gives the same choices from the same positions.
    """

    name: str = "agent"
    """The agent's registry name, also written as its player name in records; an instance may set its
    own (``"alphabeta-3"``) to tell levels apart."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @abstractmethod
    def select_move(self, state: State[MoveT]) -> MoveT:
        """Choose a legal move for the seat to move in ``state``.

        Args:
            state: a position that is not terminal and whose mover is a seat, never ``CHANCE``.

        Returns:
            One of ``state.legal_moves()``.
        """

    def reset(self) -> None:  # noqa: B027 -- an optional hook, empty unless an agent keeps state
        """Forget what was kept from the previous game before a new one starts.

        The random number generator is not reseeded, so a series of games played by one agent
        differs from game to game yet is reproducible as a whole.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make an agent available to :func:`make_agent` under ``name``.

    Args:
        name: the name typed on the command line (``--vs NAME``); re-registering a name replaces it.
        factory: called with a seed (or ``None``) to build the agent, typically the agent class.
    """
    _AGENTS[name] = factory


def make_agent(name: str, seed: int | None = None) -> Agent:
    """Build the agent registered under ``name``.

    Args:
        name: a name from :func:`agent_names`.
        seed: the agent's seed; ``None`` for an unseeded agent.

    Raises:
        SettingsError: no agent has that name; the message lists the names there are.
    """
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise SettingsError(f"unknown agent {name!r}; agents: {', '.join(agent_names())}") from None
    return factory(seed)


def agent_names() -> list[str]:
    """List the names of every registered agent, sorted."""
    return sorted(_AGENTS)
