"""The agent interface and the registry of agents by name, with parameters and levels.

An :class:`Agent` picks moves for whichever seat is to move; it never sees :data:`~shogames.core.CHANCE`
nodes, which the caller resolves with :func:`shogames.core.sample_chance`. Agents depend on
:mod:`shogames.core` only, so one agent plays every game.

Agents are made from a *spec* with :func:`make_agent`: a registered name, optionally with parameters
(``alphabeta:depth=3``, ``mcts:iterations=2000,rollout=0``), or a difficulty level (``hard``), which names a
tuned agent per game (:mod:`shogames.agents.levels`). Modules add agents with :func:`register_agent`.

>>> agent = make_agent("random", seed=7)
>>> agent.name
'random'
>>> make_agent("greedy:noise=0.5", seed=1).name
'greedy:noise=0.5'
"""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from shogames.core.errors import SettingsError
from shogames.core.protocol import Game, MoveT, State

AgentFactory = Callable[..., "Agent"]
"""Makes an agent: called with the seed (``None`` for an unseeded agent) and the spec's parameters as
keyword arguments; typically the agent class itself."""

LevelFactory = Callable[[str | None, int | None, Mapping[str, str]], "Agent"]
"""Makes a level's agent for a game id (``None`` when the game is not known), a seed and a budget (the
parameters, such as ``{"seconds": "3"}``, that its agent takes where its spec sets none)."""

_AGENTS: dict[str, AgentFactory] = {}
_LEVELS: dict[str, LevelFactory] = {}


class Agent(ABC):
    """A player that chooses moves, with its own seeded random number generator.

    Subclasses set :attr:`name` and :attr:`parameters` and implement :meth:`select_move`; agents that keep
    something between moves of one game (a search tree, a table) clear it in :meth:`reset`.

    Args:
        seed: the seed of :attr:`rng`; the same seed gives the same choices from the same positions.
    """

    name: str = "agent"
    """The agent's spec, also written as its player name in records: the registry name, then any
    parameters (``alphabeta:depth=3``), or the level's name."""

    parameters: ClassVar[Mapping[str, type]] = {}
    """The parameters a spec may give, each with its type (``int``, ``float`` or ``str``)."""

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

    def check_game(self, game: Game[Any]) -> None:  # noqa: B027 -- an optional hook; most agents play any game
        """Raise a :class:`~shogames.core.errors.SettingsError` if this agent cannot play ``game``.

        The arena calls it before the first game; agents that need something of a game (a compiled
        kernel) say so here, in words.
        """

    def reset(self) -> None:  # noqa: B027 -- an optional hook, empty unless an agent keeps state
        """Forget what was kept from the previous game before a new one starts.

        The random number generator is not reseeded, so a series of games played by one agent
        differs from game to game yet is reproducible as a whole.
        """

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, seed={self.seed!r})"


def register_agent(name: str, factory: AgentFactory) -> None:
    """Make an agent available to :func:`make_agent` under ``name``.

    Args:
        name: the name typed on the command line (``--vs NAME``); re-registering a name replaces it.
        factory: called with a seed (or ``None``) and the spec's parameters to build the agent, typically
            the agent class; its ``parameters`` attribute, if any, lists the parameters it accepts.
    """
    _AGENTS[name] = factory


def register_level(name: str, factory: LevelFactory) -> None:
    """Make a difficulty level available to :func:`make_agent` under ``name``.

    Args:
        name: the level's name (``easy``); a level may not take an agent's name.
        factory: called with the game id, a seed and a budget to build that game's agent for the level.
    """
    _LEVELS[name] = factory


def agent_names() -> list[str]:
    """List the names of every registered agent, sorted."""
    return sorted(_AGENTS)


def level_names() -> list[str]:
    """List the difficulty levels, weakest first (the order they were registered in)."""
    return list(_LEVELS)


def agent_parameters(name: str) -> Mapping[str, type]:
    """The parameters the agent registered as ``name`` takes, each with its type (none for a level).

    >>> sorted(agent_parameters("alphabeta"))
    ['depth', 'nodes', 'seconds']
    """
    return dict(getattr(_AGENTS.get(name), "parameters", {}))


def _convert(agent: str, name: str, kind: type, text: str) -> object:
    shown = text if len(text) <= 40 else text[:40] + "..."
    try:
        value = kind(text)
    except ValueError:
        raise SettingsError(
            f"agent {agent!r}: parameter {name} must be {'an integer' if kind is int else 'a number'}, "
            f"got {shown!r}"
        ) from None
    if isinstance(value, float) and not math.isfinite(value):
        raise SettingsError(f"agent {agent!r}: parameter {name} must be a finite number, got {shown!r}")
    return value


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split a spec ``name:key=value,key=value`` into the name and its parameters as text.

    Raises:
        SettingsError: a parameter is not written ``key=value``, or a key is given twice.
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, equals, value = item.partition("=")
        if not equals or not key.strip() or not value.strip():
            raise SettingsError(f"agent spec {spec!r}: write parameters as key=value, got {item!r}")
        if key.strip() in params:
            raise SettingsError(f"agent spec {spec!r}: parameter {key.strip()!r} is given twice")
        params[key.strip()] = value.strip()
    return name.strip(), params


def format_agent_spec(name: str, params: Mapping[str, object]) -> str:
    """Write a spec back as text, the inverse of :func:`parse_agent_spec`.

    >>> format_agent_spec("mcts", {"iterations": 500, "rollout": 0})
    'mcts:iterations=500,rollout=0'
    """
    if not params:
        return name
    return f"{name}:{','.join(f'{key}={value}' for key, value in params.items())}"


def make_agent(
    spec: str, seed: int | None = None, *, game: str | None = None, budget: Mapping[str, str] | None = None
) -> Agent:
    """Build an agent from a spec: a level, or a registered name with optional parameters.

    Args:
        spec: a level from :func:`level_names`, or a name from :func:`agent_names`, optionally followed by
            ``:key=value,...`` with parameters of that agent (``mcts:iterations=500``).
        seed: the agent's seed; ``None`` for an unseeded agent.
        game: the game id, which levels need to pick their agent (a level made without it gets the
            settings meant for any game).
        budget: parameters as text (``{"seconds": "1"}``) given to the agent, or to the level's agent,
            wherever it takes them and the spec does not set them; the arena's ``--budget``.

    Raises:
        SettingsError: no agent or level has that name, a parameter is unknown or not of its type; the
            message lists what there is.
    """
    name, params = parse_agent_spec(spec)
    if name in _LEVELS:
        if params:
            raise SettingsError(f"level {name!r} takes no parameters; use the agent's own name for that")
        return _LEVELS[name](game, seed, budget or {})
    return make_with_budget(spec, seed, budget or {})


def make_with_budget(spec: str, seed: int | None, budget: Mapping[str, str]) -> Agent:
    """The agent of ``spec`` (an agent, not a level) with the budget's parameters it takes and does not set.

    The budget is :func:`make_agent`'s ``budget``.
    """
    return build_agent(_with_budget(spec, budget), seed)


def _with_budget(spec: str, budget: Mapping[str, str]) -> str:
    """``spec`` with the budget's parameters that its agent takes and the spec does not already set."""
    name, params = parse_agent_spec(spec)
    allowed = getattr(_AGENTS.get(name), "parameters", {})
    extra = {key: value for key, value in budget.items() if key in allowed and key not in params}
    if not extra:
        return spec
    merged = {**params, **extra}
    return format_agent_spec(name, merged)


def build_agent(spec: str, seed: int | None = None) -> Agent:
    """Build a registered agent (not a level) from ``name`` or ``name:key=value,...``.

    Raises:
        SettingsError: no agent has that name, or a parameter is unknown or not of its type.
    """
    name, params = parse_agent_spec(spec)
    try:
        factory = _AGENTS[name]
    except KeyError:
        raise SettingsError(
            f"unknown agent {name!r}; levels: {', '.join(level_names())}; agents: {', '.join(agent_names())}"
        ) from None
    allowed: Mapping[str, type] = getattr(factory, "parameters", {})
    values: dict[str, object] = {}
    for key, text in params.items():
        if key not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            raise SettingsError(f"agent {name!r} has no parameter {key!r}; its parameters: {known}")
        values[key] = _convert(name, key, allowed[key], text)
    try:
        agent = factory(seed, **values)
    except ValueError as error:
        raise SettingsError(f"agent {spec!r}: {error}") from None
    if params:
        agent.name = format_agent_spec(name, params)
    return agent
