"""Every registered game as a single-agent Gymnasium environment (extra ``gymnasium``).

Importing this module registers one environment per game of the registry as ``shogames/<Name>-v0``, the
name being the game id in CamelCase (``shogames/Shobu-v0``, ``shogames/Shogammon-v0``)::

    import gymnasium
    import shogames.adapters.gymnasium

    env = gymnasium.make("shogames/Shobu-v0", opponent="easy", seat=1, max_turns=100)
    observation, info = env.reset(seed=7)
    action = env.action_space.sample(info["action_mask"])
    observation, reward, terminated, truncated, info = env.step(action)

The agent plays one seat (``seat``, 0 by default); every other seat is played by an opponent made from an
agent spec of :mod:`shogames.agents` (``opponent``: a level such as ``"random"``, ``"easy"`` or ``"hard"``, or
an agent with parameters such as ``"mcts:iterations=200"``), one opponent per other seat, seeded from the
reset's seed. Chance (dice, tosses) is drawn inside with its exact probabilities from the same seed, so
the agent only ever sees its own turns.

The action space is ``Discrete(num_distinct_actions)`` and the observation space a float32 box of the
game's :attr:`~shogames.core.protocol.Game.observation_shape`, the agent's seat's view; ``info
["action_mask"]`` (int8) marks the legal actions. **An illegal action loses** (pgx's rule): the game ends
at once, terminated, with the reward the game gives a seat that gives up
(:meth:`~shogames.core.protocol.State.forfeit_returns`, the lowest return). Otherwise the reward is 0
until the end and then the agent's seat's return (partners in a team share the team's result). A
game won or drawn by the rules is ``terminated``; one cut by its length cap (``State.is_truncated``) is
``truncated``. In the rare game that ends before the agent's first move (a toy race won on the first
throw), :meth:`ShogamesEnv.reset` starts another with the generator where it is.

``render_mode="ansi"`` makes ``render()`` return the game's diagram; ``"human"`` prints it.
"""

from __future__ import annotations

import random
from typing import Any, Final, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from shogames.adapters import camel_name
from shogames.agents import Agent, make_agent
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import available_games, make

NAMESPACE: Final = "shogames"
"""The namespace of the environments' ids."""

RENDER_MODES: Final = ("ansi", "human")
"""The render modes: the diagram as a string, or printed."""

DEFAULT_OPPONENT: Final = "random"
"""The opponent when none is chosen: the ``random`` level."""

MAX_RESTARTS: Final = 1000
"""How many games :meth:`ShogamesEnv.reset` starts, at most, to find one in which the agent moves."""

Observation = npt.NDArray[np.float32]
"""The agent's observation tensor."""


def environment_id(game_id: str) -> str:
    """The Gymnasium id of a game's environment.

    >>> environment_id("shogammon")
    'shogames/Shogammon-v0'
    """
    return f"{NAMESPACE}/{camel_name(game_id)}-v0"


class ShogamesEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game of the registry against opponents, as a Gymnasium environment.

    Args:
        game_id: the game's id in the registry.
        preset: one of the game's presets, or ``None`` for the defaults.
        seat: the seat the agent plays.
        opponent: the agent spec of every other seat: a level or an agent (``make_agent``'s specs).
        render_mode: ``"ansi"``, ``"human"`` or ``None``.
        **settings: the game's settings (``max_turns=100``), which replace the preset's.

    Raises:
        SettingsError: an unknown game, preset, setting or opponent, or a value the game refuses.
        ValueError: the seat is not a seat of the game, or an unknown render mode.
        NotImplementedError: the game does not number its moves or has no observation tensor.
    """

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES)}  # noqa: RUF012 -- Gymnasium's own form

    def __init__(
        self,
        game_id: str,
        preset: str | None = None,
        seat: int = 0,
        opponent: str = DEFAULT_OPPONENT,
        render_mode: str | None = None,
        **settings: object,
    ) -> None:
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode is one of {', '.join(RENDER_MODES)} or None, got {render_mode!r}")
        self.game = make(game_id, preset, **settings)
        if not (isinstance(seat, int) and 0 <= seat < self.game.num_players):
            raise ValueError(
                f"seat is a seat of {game_id}, from 0 to {self.game.num_players - 1}, got {seat!r}"
            )
        self.seat = seat
        self.opponent = opponent
        self.render_mode = render_mode
        self._opponents: dict[int, Agent] = self._make_opponents(None)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.observation_space = spaces.Box(
            -np.inf, np.inf, shape=self.game.observation_shape, dtype=np.float32
        )
        self._rng = random.Random()
        self._state: State[Any] = self.game.new_initial_state()
        self._forfeited = False

    @property
    def game_state(self) -> State[Any]:
        """The shogames state of the game in play."""
        return self._state

    def _make_opponents(self, seed: int | None) -> dict[int, Agent]:
        """One opponent per other seat, each with its own seed drawn from ``seed``."""
        seeds = random.Random(seed)
        return {
            other: make_agent(
                self.opponent, seeds.getrandbits(63) if seed is not None else None, game=self.game.id
            )
            for other in range(self.game.num_players)
            if other != self.seat
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game and play the opponents and chance up to the agent's first move.

        ``seed`` reseeds the chance outcomes and the opponents; without it they go on from where they are.
        """
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
            self._opponents = self._make_opponents(self._rng.getrandbits(63))
        for agent in self._opponents.values():
            agent.reset()
        self._forfeited = False
        for _ in range(MAX_RESTARTS):
            self._state = self._to_agents_turn(self.game.new_initial_state())
            if not self._state.is_terminal():
                return self._observation(), self._info()
        raise RuntimeError(
            f"{MAX_RESTARTS} games of {self.game!r} in a row ended before seat {self.seat} moved"
        )

    def step(self, action: Any) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the opponents and chance up to its next move or the end.

        An action that is not legal here ends the game, lost by the agent (see the module's docs).
        """
        state = self._state
        if state.is_terminal() or self._forfeited:
            raise RuntimeError("the game is over: call reset() before step()")
        chosen = int(action)
        if chosen not in state.legal_actions():
            self._forfeited = True
            reward = float(state.forfeit_returns(self.seat)[self.seat])
            return self._observation(), reward, True, False, self._info(illegal_action=True)
        self._state = self._to_agents_turn(state.play_action(chosen))
        state = self._state
        if not state.is_terminal():
            return self._observation(), 0.0, False, False, self._info()
        reward = float(state.returns()[self.seat])
        truncated = state.is_truncated()
        return self._observation(), reward, not truncated, truncated, self._info()

    def _to_agents_turn(self, state: State[Any]) -> State[Any]:
        """``state`` after chance and the opponents have moved, up to the agent's turn or the end."""
        while not state.is_terminal() and state.to_move != self.seat:
            if state.to_move == CHANCE:
                move = sample_chance(state, self._rng)
            else:
                assert state.to_move is not None
                move = self._opponents[state.to_move].select_move(state)
            state = state.play(move)
        return state

    def _observation(self) -> Observation:
        """The agent's seat's observation tensor, in the game's shape."""
        tensor = np.asarray(self._state.observation_tensor(self.seat), dtype=np.float32)
        return tensor.reshape(self.game.observation_shape)

    def _info(self, illegal_action: bool = False) -> dict[str, Any]:
        """The action mask of the agent's legal actions (zeros once the game is over), and what ended it."""
        state = self._state
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if not illegal_action and state.to_move == self.seat:
            mask[state.legal_actions()] = 1
        info: dict[str, Any] = {"action_mask": mask}
        if illegal_action:
            info["illegal_action"] = True
        return info

    def render(self) -> str | None:
        """The diagram of the position (``"ansi"``), printed (``"human"``); nothing without a render mode."""
        if self.render_mode is None:
            return None
        diagram = self._state.diagram()
        if self.render_mode == "human":
            print(diagram)
            return None
        return diagram


def register_environments() -> list[str]:
    """Register ``shogames/<Name>-v0`` for every game of the registry not registered yet; the ids added.

    Importing this module calls it; call it again after registering a game with shogames.
    """
    added = []
    for game_class in available_games():
        name = environment_id(game_class.id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name, entry_point=f"{__name__}:ShogamesEnv", kwargs={"game_id": game_class.id}
            )
            added.append(name)
    return added


register_environments()
