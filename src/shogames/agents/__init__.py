"""Agents: players that choose moves for any game through the core protocol.

Importing this package registers the built-in agents; :func:`make_agent` builds one by name.
"""

from shogames.agents.base import Agent, AgentFactory, agent_names, make_agent, register_agent
from shogames.agents.random_agent import RandomAgent
from shogames.core.chance import sample_chance

__all__ = [
    "Agent",
    "AgentFactory",
    "RandomAgent",
    "agent_names",
    "make_agent",
    "register_agent",
    "sample_chance",
]
