"""Agents: players that choose moves for any game through the core protocol.

Importing this package registers the built-in agents (``random``, ``greedy``, ``alphabeta``, ``mcts``,
and ``kernel-alphabeta``, ``kernel-mcts`` and ``kernel-rollout``, which search with a game's compiled
kernel) and the levels (``beginner``, ``easy``, ``medium``, ``hard``, ``expert``, ``master``:
:mod:`shogames.agents.levels`); :func:`make_agent` builds either from a spec. ``greedy:value=learned``
plays with a game's learned evaluation (:mod:`shogames.learning`) instead of its hand-written one.
"""

from shogames.agents.alphabeta import AlphaBetaAgent
from shogames.agents.base import (
    Agent,
    AgentFactory,
    agent_names,
    level_names,
    make_agent,
    parse_agent_spec,
    register_agent,
    register_level,
)
from shogames.agents.budget import Budget
from shogames.agents.greedy import GreedyAgent
from shogames.agents.kernel_search import KernelAlphaBetaAgent, KernelMCTSAgent, KernelRolloutAgent
from shogames.agents.levels import LEVELS, level_spec
from shogames.agents.mcts import MCTSAgent
from shogames.agents.random_agent import RandomAgent
from shogames.core.chance import sample_chance

__all__ = [
    "LEVELS",
    "Agent",
    "AgentFactory",
    "AlphaBetaAgent",
    "Budget",
    "GreedyAgent",
    "KernelAlphaBetaAgent",
    "KernelMCTSAgent",
    "KernelRolloutAgent",
    "MCTSAgent",
    "RandomAgent",
    "agent_names",
    "level_names",
    "level_spec",
    "make_agent",
    "parse_agent_spec",
    "register_agent",
    "register_level",
    "sample_chance",
]
