"""Difficulty levels: named agents, tuned per game, from random to the strongest.

A level is an agent spec (:func:`~shogames.agents.make_agent`) chosen per game, because the best searcher and
budget differ: alpha-beta rules the games without dice, and the dice games have their own budgets. The
defaults are here; a game gives its own specs where they differ in
:attr:`Game.agent_levels <shogames.core.protocol.Game.agent_levels>`, so that this module names no game.
Budgets count work (nodes or iterations), not seconds, so a level plays the same moves on any machine;
``docs/strength.md`` gives each level's strength and its time per move on our machine.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from shogames.agents.base import Agent, build_agent, register_level
from shogames.core.errors import SettingsError
from shogames.core.registry import game_class

LEVELS: Final[Mapping[str, str]] = {
    "random": "random",
    "easy": "greedy:noise=0.5",
    "medium": "greedy",
    "hard": "alphabeta:depth=3,nodes=10000",
}
"""Each level's agent spec in a game that gives none of its own; weakest level first."""


def level_spec(level: str, game: str | None) -> str:
    """The agent spec that plays ``level`` in the game ``game``: the game's own, else the default.

    An unknown game id gets the default (the error about the id comes from where the game is made).
    """
    if game is not None:
        try:
            own = game_class(game).agent_levels.get(level)
        except SettingsError:
            own = None
        if own is not None:
            return own
    return LEVELS[level]


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
