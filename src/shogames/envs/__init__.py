"""The batched environment: many games of one game stepped together as numpy arrays, for training loops.

:class:`BatchEnv` holds ``size`` games of one game and settings and steps them all at once, as pgx's
``vmap``-ed ``step`` and OpenSpiel's vectorised environments do. Each step takes one action id per game (the
protocol's ids, :meth:`shogames.core.protocol.State.move_to_action`) for the seat to move there, and gives
back arrays: the observations from each game's seat to move, the legal-action masks, the seats to move,
every seat's reward, and whether each game ended by the rules (``terminated``) or by the length cap
(``truncated``). Chance (dice, tosses) is sampled inside from a stream per game that depends only on the
seed and the game's index, so the games are repeatable whatever the batch's size and the threads.

A game that ends is started again in the same step (auto-reset, as pgx and Stable-Baselines do): the step
returns the final rewards and the end flags of the game that ended, with the observation, mask and seat of the
new game. An action that is not legal in its game loses that game for the seat that chose it (pgx's rule):
its rewards are :meth:`~shogames.core.protocol.State.forfeit_returns` of that seat.

Where the game's kernel offers a compiled batch (:meth:`shogames.core.kernel.Kernel.batch`), the games live in
the kernel's arrays and compiled code steps them on every core. Otherwise :class:`ReferenceBatch` steps the
reference states one after another in Python, with the same interface and results of the same kind (the same
rules, not the same random draws): slow, but every game has one.

Examples:
    >>> from shogames.envs import BatchEnv
    >>> env = BatchEnv("shobu", 4, seed=1)
    >>> observations, masks, to_move = env.reset()
    >>> observations.shape[0], masks.shape == (4, env.num_actions)
    (4, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from shogames.core.chance import sample_outcome
from shogames.core.kernel import BatchGames
from shogames.core.protocol import CHANCE, Game, State
from shogames.core.registry import make

__all__ = ["BatchEnv", "ReferenceBatch", "StepResult"]


@dataclass(frozen=True, slots=True)
class StepResult:
    """What :meth:`BatchEnv.step` gives back, one row per game.

    The environment checks the next step's actions against ``legal_mask`` as handed out: read it, copy it
    to keep it, but do not write to it.

    Attributes:
        observations: each game's observation from its seat to move, ``(size, *observation_shape)`` float32
            (after an auto-reset, the new game's).
        legal_mask: each game's legal actions, ``(size, num_actions)`` bool.
        to_move: each game's seat to move, ``(size,)`` int64.
        rewards: every seat's reward in this step, ``(size, num_players)`` float32: the returns of a game that
            ended in this step, zeros otherwise.
        terminated: ``(size,)`` bool, whether the game ended by the rules in this step (an illegal action
            included).
        truncated: ``(size,)`` bool, whether the length cap cut the game in this step.
    """

    observations: NDArray[np.float32]
    legal_mask: NDArray[np.bool_]
    to_move: NDArray[np.int64]
    rewards: NDArray[np.float32]
    terminated: NDArray[np.bool_]
    truncated: NDArray[np.bool_]


class ReferenceBatch(BatchGames[State[Any]]):
    """Many games of the reference rules stepped one after another in Python: every game has one.

    Chance is drawn from a :class:`random.Random` per game seeded by the seed and the game's index.

    Args:
        game: the game and settings.
        size: how many games.
        seed: the seed of every game's chance.
    """

    def __init__(self, game: Game[Any], size: int, seed: int) -> None:
        if size < 1:
            raise ValueError(f"a batch holds 1 or more games, got {size}")
        self.game = game
        self.size = size
        self.seed = seed
        self._rngs = [random.Random(f"{seed}-{row}") for row in range(size)]
        self._states: list[State[Any]] = [self._settle(game.new_initial_state(), row) for row in range(size)]

    def _settle(self, state: State[Any], row: int) -> State[Any]:
        """Play chance outcomes from the row's stream until a seat must decide or the game is over."""
        while state.to_move == CHANCE:
            state = state.play_unchecked(sample_outcome(state.chance_outcomes(), self._rngs[row]))
        return state

    def reset(self, rows: NDArray[np.bool_]) -> None:
        """Start a new game in every row where ``rows`` is true."""
        for row in np.flatnonzero(rows):
            self._states[row] = self._settle(self.game.new_initial_state(), int(row))

    def step(
        self, actions: NDArray[np.int64]
    ) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.bool_]]:
        """Play each going row's legal action id, then chance up to the next decision."""
        returns = np.zeros((self.size, self.game.num_players), dtype=np.float32)
        terminated = np.zeros(self.size, dtype=np.bool_)
        truncated = np.zeros(self.size, dtype=np.bool_)
        for row, state in enumerate(self._states):
            if state.is_terminal():
                continue
            state = self._settle(state.play_action(int(actions[row])), row)
            self._states[row] = state
            if state.is_terminal():
                returns[row] = state.returns()
                truncated[row] = state.is_truncated()
                terminated[row] = not truncated[row]
        return returns, terminated, truncated

    def observe(self) -> NDArray[np.float32]:
        """Each row's observation from its seat to move (seat 0 once over)."""
        shape = self.game.observation_shape
        return np.array(
            [state.observation_tensor(state.to_move or 0) for state in self._states], dtype=np.float32
        ).reshape((self.size, *shape))

    def legal_mask(self) -> NDArray[np.bool_]:
        """Each row's legal actions."""
        mask = np.zeros((self.size, self.game.num_distinct_actions), dtype=np.bool_)
        for row, state in enumerate(self._states):
            mask[row, state.legal_actions()] = True
        return mask

    def to_move(self) -> NDArray[np.int64]:
        """Each row's seat to move, -1 once over."""
        return np.array(
            [-1 if state.to_move is None else state.to_move for state in self._states], dtype=np.int64
        )

    def state(self, row: int) -> State[Any]:
        """The reference state of one row."""
        return self._states[row]


class BatchEnv:
    """``size`` games of one game and settings, stepped together, with auto-reset (see the module docs).

    Args:
        game: a game, or a registered game's id.
        size: how many games, 1 or more.
        seed: the seed of every game's chance.
        compiled: use the kernel's compiled batch (``None``: where there is one; ``True``: it must be there;
            ``False``: the reference's :class:`ReferenceBatch`).
        preset: the game's preset, when ``game`` is an id.
        **settings: the game's settings, when ``game`` is an id.

    Raises:
        ValueError: ``size`` is below 1, or ``compiled=True`` and the game has no compiled batch.
    """

    def __init__(
        self,
        game: Game[Any] | str,
        size: int,
        *,
        seed: int = 0,
        compiled: bool | None = None,
        preset: str | None = None,
        **settings: object,
    ) -> None:
        self.game: Game[Any] = make(game, preset, **settings) if isinstance(game, str) else game
        if size < 1:
            raise ValueError(f"a batched environment holds 1 or more games, got {size}")
        self.size = size
        self.seed = seed
        batch: BatchGames[Any] | None = None
        if compiled is not False:
            kernel = self.game.kernel
            batch = kernel.batch(size, seed=seed) if kernel is not None else None
            if batch is None and compiled:
                raise ValueError(f"{self.game.name} has no compiled batch here (its kernel offers none)")
        self.games: BatchGames[Any] = batch if batch is not None else ReferenceBatch(self.game, size, seed)
        self.compiled = batch is not None
        """Whether compiled code steps the games."""
        self._mask: NDArray[np.bool_] | None = None  # the masks last handed out, for the next step's check
        self.num_players = self.game.num_players
        self.num_actions = self.game.num_distinct_actions
        self.observation_shape = self.game.observation_shape

    def reset(self) -> tuple[NDArray[np.float32], NDArray[np.bool_], NDArray[np.int64]]:
        """Start every game anew: ``(observations, legal_mask, to_move)``."""
        self.games.reset(np.ones(self.size, dtype=np.bool_))
        self._mask = self.games.legal_mask()
        return self.games.observe(), self._mask, self.games.to_move()

    def step(self, actions: NDArray[np.integer[Any]] | list[int]) -> StepResult:
        """Play one action id per game for its seat to move, then auto-reset the games that ended.

        Raises:
            ValueError: ``actions`` is not one integer per game.
        """
        chosen = np.asarray(actions)
        if chosen.shape != (self.size,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(
                f"step takes one integer action per game, shape ({self.size},); got {chosen.shape}"
            )
        chosen = chosen.astype(np.int64)
        mask = self._mask if self._mask is not None else self.games.legal_mask()
        in_range = (chosen >= 0) & (chosen < self.num_actions)
        legal = in_range & mask[np.arange(self.size), np.clip(chosen, 0, self.num_actions - 1)]
        illegal = np.flatnonzero(~legal)
        forfeits: dict[int, tuple[float, ...]] = {}
        if illegal.size:
            # A row that chose an illegal action loses its game: its returns are the forfeit of its seat to
            # move; it is stepped with a legal action (or none, if over) and then started again below.
            movers = self.games.to_move()
            for row in map(int, illegal):
                if movers[row] >= 0:
                    forfeits[row] = self.games.state(row).forfeit_returns(int(movers[row]))
            chosen = chosen.copy()
            chosen[illegal] = mask[illegal].argmax(axis=1)
        rewards, terminated, truncated = self.games.step(chosen)
        for row, returns in forfeits.items():
            rewards[row] = returns
            terminated[row], truncated[row] = True, False
        ended = terminated | truncated
        if ended.any():
            self.games.reset(ended)
        self._mask = self.games.legal_mask()
        return StepResult(
            self.games.observe(),
            self._mask,
            self.games.to_move(),
            rewards,
            terminated,
            truncated,
        )

    def state(self, index: int) -> State[Any]:
        """The reference state of game ``index``, for records and pictures."""
        state: State[Any] = self.games.state(index)
        return state
