"""Every registered game as a PettingZoo AEC environment (extra ``pettingzoo``).

::

    from shogames.adapters.pettingzoo import env

    game = env("sho", players=4, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, info = game.last()
        if terminated or truncated:
            action = None
        else:
            action = game.action_space(agent).sample(observation["action_mask"])
        game.step(action)

The agents are ``player_0 .. player_<n-1>``, one per seat in the game's seat order (in teams, each
seat is an agent of its own). Each observation is a dict: ``"observation"``, the
seat's :meth:`~shogames.core.protocol.State.observation_tensor` in the game's shape (float32), and
``"action_mask"``, an int8 vector of :attr:`~shogames.core.protocol.Game.num_distinct_actions` with ones
at the legal actions of the agent to move (zeros for every other agent and once the game is over).

Chance (dice, tosses) never reaches the agents: after every move the environment draws the chance
outcomes itself, with their exact probabilities, from a generator seeded by ``reset(seed=...)``; a reset
without a seed goes on with the same generator, so a series of games is reproducible from its first seed.

Rewards come at the end: each agent gets its seat's return (:meth:`State.returns`; partners in a team get
the team's result each). A game won or drawn by the rules ends with ``terminations`` all true; a game cut
by its length cap (``State.is_truncated``) ends with ``truncations`` all true instead. As PettingZoo asks,
each agent is then stepped once more with ``None`` and leaves. An action that is not legal for the agent
to move is refused with :class:`~shogames.core.errors.IllegalMoveError`; mask your policy.

``render_mode="ansi"`` makes :meth:`ShogamesAECEnv.render` return the game's diagram of the position;
``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from shogames.core.chance import sample_chance
from shogames.core.errors import IllegalMoveError
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import make

Observation = dict[str, npt.NDArray[Any]]
"""What an agent observes: ``{"observation": float32 tensor, "action_mask": int8 vector}``."""

RENDER_MODES: Final = ("ansi", "human")
"""The render modes: the diagram as a string, or printed."""


def agent_name(seat: int) -> str:
    """The PettingZoo name of a seat's agent.

    >>> agent_name(2)
    'player_2'
    """
    return f"player_{seat}"


def observation_space(game: Game[Any]) -> spaces.Dict:
    """The space of a seat's observation of ``game``: the tensor and the action mask.

    The tensor's values are bounded by nothing the protocol promises, so its box is unbounded.
    """
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=game.observation_shape, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(game.num_distinct_actions,), dtype=np.int8),
        }
    )


class ShogamesAECEnv(AECEnv[str, Observation, int]):  # type: ignore[misc]  # pettingzoo's AECEnv is untyped
    """A game of the registry as a PettingZoo AEC environment; :func:`env` makes it wrapped as usual.

    Args:
        game_id: the game's id in the registry.
        preset: one of the game's presets, or ``None`` for the defaults.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        **settings: the game's settings (``max_turns=100``), which replace the preset's.

    Raises:
        SettingsError: an unknown game, preset or setting, or a value the game refuses.
        ValueError: an unknown render mode.
        NotImplementedError: the game does not number its moves or has no observation tensor.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self, game_id: str, preset: str | None = None, render_mode: str | None = None, **settings: object
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        self.game = make(game_id, preset, **settings)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "name": f"shogames_{game_id}_v0"}
        self.possible_agents = [agent_name(seat) for seat in range(self.game.num_players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {agent: observation_space(self.game) for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.game.num_distinct_actions) for agent in self.possible_agents
        }
        self._rng = random.Random()
        self._state: State[Any] = self.game.new_initial_state()

    @property
    def game_state(self) -> State[Any]:
        """The shogames state of the game in play (never a chance node while an agent is to move)."""
        return self._state

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s observations (the same object at every call)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The space of ``agent``'s actions, ``Discrete(num_distinct_actions)``; the same object each call."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game; ``seed`` reseeds the generator of chance outcomes."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        self._state = self._past_chance(self.game.new_initial_state())
        self.agent_selection = self.possible_agents[0]
        self._after_move(self.possible_agents[0])

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now: its observation tensor and its action mask."""
        seat = self._seats[agent]
        state = self._state
        tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32).reshape(
            self.game.observation_shape
        )
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if state.to_move == seat:
            mask[state.legal_actions()] = 1
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the agent to move, then any chance outcomes; ``None`` for an agent done.

        Raises:
            IllegalMoveError: the action is not legal for the agent to move.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to move and must play an action, got None")
        played = self._state.play_action(int(action))  # refuses an illegal action, changing nothing
        self._cumulative_rewards[agent] = 0.0
        self._state = self._past_chance(played)
        self._after_move(agent)

    def _past_chance(self, state: State[Any]) -> State[Any]:
        """``state`` with every chance outcome that comes next drawn from the seeded generator."""
        while state.to_move == CHANCE:
            state = state.play_unchecked(sample_chance(state, self._rng))
        return state

    def _after_move(self, mover: str) -> None:
        """Hand the turn to the seat to move, or end the game for every agent with its return."""
        state = self._state
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.is_terminal():
            returns = state.returns()
            truncated = state.is_truncated()
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seats[agent]])
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
            following = (self._seats[mover] + 1) % len(self.possible_agents)
            self.agent_selection = self.possible_agents[following]
        else:
            assert state.to_move is not None
            self.agent_selection = self.possible_agents[state.to_move]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The diagram of the position (``"ansi"``), printed (``"human"``); nothing without a render mode."""
        if self.render_mode is None:
            return None
        diagram = self._state.diagram()
        if self.render_mode == "human":
            print(diagram)
            return None
        return diagram

    def close(self) -> None:
        """Nothing to release: the environment holds no window or process."""


def env(game_id: str, preset: str | None = None, render_mode: str | None = None, **settings: object) -> Any:
    """The AEC environment of ``game_id``, wrapped in PettingZoo's order-enforcing wrapper.

    Args:
        game_id: the game's id in the registry (``"sho"``).
        preset: one of the game's presets, or ``None`` for the defaults.
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        **settings: the game's settings (``players=4``), which replace the preset's.
    """
    return wrappers.OrderEnforcingWrapper(ShogamesAECEnv(game_id, preset, render_mode, **settings))


def raw_env(
    game_id: str, preset: str | None = None, render_mode: str | None = None, **settings: object
) -> ShogamesAECEnv:
    """The AEC environment of ``game_id`` without PettingZoo's wrapper (see :func:`env`)."""
    return ShogamesAECEnv(game_id, preset, render_mode, **settings)


__all__ = ["RENDER_MODES", "ShogamesAECEnv", "agent_name", "env", "observation_space", "raw_env"]
