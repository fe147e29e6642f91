"""Difficulty levels: named agents, tuned per game, from random to the strongest.

A level is an agent spec (:func:`~shogames.agents.make_agent`) chosen per game, because the best searcher and
budget differ: alpha-beta rules the games without dice, and the dice games have their own budgets.
Budgets count work (nodes or iterations), not seconds, so a level plays the same moves on any machine;
``docs/strength.md`` gives each level's strength and its time per move on our machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from shogames.agents.base import Agent, build_agent, register_level

LEVELS: Final[Mapping[str, Mapping[str, str]]] = {
    "random": {"*": "random"},
    "easy": {"*": "greedy:noise=0.5"},
    "medium": {"*": "greedy", "shogammon": "greedy:noise=0.2", "sho": "greedy:noise=0.25"},
    "hard": {
        "*": "alphabeta:depth=3,nodes=10000",
        "shobu": "alphabeta:depth=3,nodes=10000",
        "shoo": "alphabeta:depth=2",
        "sho": "alphabeta:depth=2",
        "shogammon": "greedy",
    },
}
"""Per level, the agent spec for each game id, with ``*`` for any other game; weakest level first."""


def level_spec(level: str, game: str | None) -> str:
    """The agent spec that plays ``level`` in the game ``game`` (``*``'s when the game has none)."""
    specs = LEVELS[level]
    return specs.get(game or "*", specs["*"])


def _level_factory(level: str) -> object:
    def make(game: str | None, seed: int | None) -> Agent:
        spec = level_spec(level, game)
        agent = build_agent(spec, seed)
        agent.name = level
        agent.spec = spec  # type: ignore[attr-defined]
        return agent

    make.__doc__ = f"Make the agent of level {level!r} for a game."
    return make


for _level in LEVELS:
    register_level(_level, _level_factory(_level))  # type: ignore[arg-type]
