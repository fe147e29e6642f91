"""The batched environment (:mod:`shogames.envs`) over every registered game.

Every game with a kernel has a compiled batch (:meth:`Kernel.batch`), and it plays the reference's rules:
after every step of random legal actions, each row's state is one the reference reaches from the row's
previous state by the same action and some chance outcomes, and the row's observation, mask and seat to move
are the reference's for that state. Every game, with a kernel or without, steps in :class:`BatchEnv`.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from game_cases import preset_cases
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import available_games, make
from shogames.envs import BatchEnv, ReferenceBatch

ROWS = 6
STEPS = 80


def _with_kernel() -> list[Any]:
    return [case for case in preset_cases() if make(case.values[0], case.values[1]).kernel is not None]


def reachable(start: State[Any], target: State[Any], depth: int = 6) -> bool:
    """Whether ``target`` is ``start`` or follows it by chance outcomes alone (at most ``depth``).

    The positions are searched a level of outcomes at a time: the target is nearly always one outcome
    away, and searched depth first the outcomes before it would each be followed six levels down wherever
    they pass the turn to another throw.
    """
    level = [start]
    for _ in range(depth):
        if target in level:
            return True
        level = [
            state.play_unchecked(move)
            for state in level
            if state.to_move == CHANCE
            for move in state.legal_moves()
        ]
    return target in level


def check_row(env: BatchEnv, row: int, observations: Any, mask: Any, to_move: Any) -> None:
    """The row's arrays are the reference's for the row's state."""
    state = env.state(row)
    seat = state.to_move
    assert to_move[row] == (-1 if seat is None else seat)
    assert mask[row].tolist() == state.legal_action_mask(), f"mask differs at {state.to_text()!r}"
    expected = np.array(state.observation_tensor(seat or 0), dtype=np.float32)
    observed = observations[row].reshape(-1)
    assert np.array_equal(observed, expected), f"observations differ at {state.to_text()!r}"


@pytest.mark.parametrize(("game_id", "preset"), _with_kernel())
def test_the_compiled_batch_plays_the_reference_rules(game_id: str, preset: str | None) -> None:
    env = BatchEnv(game_id, ROWS, seed=3, preset=preset, compiled=True)
    assert env.compiled
    rng = random.Random(game_id)
    observations, mask, to_move = env.reset()
    initial = env.game.new_initial_state()
    for row in range(ROWS):
        assert reachable(initial, env.state(row))
        check_row(env, row, observations, mask, to_move)
    ended_games = 0
    for _ in range(STEPS):
        before = [env.state(row) for row in range(ROWS)]
        actions = np.array([rng.choice(np.flatnonzero(mask[row]).tolist()) for row in range(ROWS)])
        result = env.step(actions)
        for row in range(ROWS):
            after_action = before[row].play_action(int(actions[row]))
            if result.terminated[row] or result.truncated[row]:
                ended_games += 1
                final = _settle_to_end(after_action, env, row, result)
                assert final, f"row {row} ended but the reference's game goes on after {after_action!r}"
                assert reachable(initial, env.state(row))
            else:
                assert reachable(after_action, env.state(row)), (
                    f"row {row}: {env.state(row)!r} does not follow {before[row]!r} by action {actions[row]}"
                )
                assert not result.rewards[row].any()
            check_row(env, row, result.observations, result.legal_mask, result.to_move)
        mask = result.legal_mask


def _settle_to_end(after_action: State[Any], env: BatchEnv, row: int, result: Any) -> bool:
    """Whether some chance outcomes end the game after the action with the returns the step gave."""

    def ends(state: State[Any], depth: int) -> bool:
        if state.is_terminal():
            return bool(
                np.allclose(state.returns(), result.rewards[row])
                and bool(result.truncated[row]) == state.is_truncated()
            )
        if depth == 0 or state.to_move != CHANCE:
            return False
        return any(ends(state.play_unchecked(move), depth - 1) for move in state.legal_moves())

    return ends(after_action, 6)


@pytest.mark.parametrize(("game_id", "preset"), preset_cases())
def test_every_game_steps_in_the_batched_environment(game_id: str, preset: str | None) -> None:
    env = BatchEnv(game_id, 3, seed=1, preset=preset, compiled=False)
    assert isinstance(env.games, ReferenceBatch)
    observations, mask, _ = env.reset()
    assert observations.shape == (3, *env.observation_shape) and observations.dtype == np.float32
    assert mask.shape == (3, env.num_actions) and mask.any(axis=1).all()
    rng = random.Random(0)
    for _ in range(30):
        actions = np.array([rng.choice(np.flatnonzero(row).tolist()) for row in mask])
        result = env.step(actions)
        for row in range(3):
            check_row(env, row, result.observations, result.legal_mask, result.to_move)
        mask = result.legal_mask


@pytest.mark.parametrize(("game_id", "preset"), preset_cases()[:1] + _with_kernel()[:1])
def test_an_illegal_action_loses_and_the_game_starts_again(game_id: str, preset: str | None) -> None:
    for compiled in {False, make(game_id, preset).kernel is not None}:
        env = BatchEnv(game_id, 2, seed=5, preset=preset, compiled=compiled)
        _, mask, to_move = env.reset()
        illegal = int(np.flatnonzero(~mask[0])[0]) if not mask[0].all() else -1
        legal = int(np.flatnonzero(mask[1])[0])
        seat = int(to_move[0])
        result = env.step(np.array([illegal, legal]))
        assert result.terminated[0] and not result.truncated[0]
        expected = env.game.new_initial_state()
        assert result.rewards[0].tolist() == list(_forfeit(expected, seat))
        assert reachable(env.game.new_initial_state(), env.state(0))


def _forfeit(state: State[Any], seat: int) -> tuple[float, ...]:
    return state.forfeit_returns(seat)


def test_step_refuses_actions_of_the_wrong_shape() -> None:
    env = BatchEnv(sorted(cls.id for cls in available_games())[0], 2, compiled=False)
    env.reset()
    with pytest.raises(ValueError, match="one integer action per game"):
        env.step(np.array([0, 1, 2]))
    with pytest.raises(ValueError, match="one integer action per game"):
        env.step(np.array([0.5, 1.0]))


@pytest.mark.parametrize(("game_id", "preset"), _with_kernel()[:2])
def test_a_row_plays_the_same_game_in_any_batch_size(game_id: str, preset: str | None) -> None:
    small, large = (BatchEnv(game_id, size, seed=9, preset=preset, compiled=True) for size in (2, 5))
    small_mask, large_mask = small.reset()[1], large.reset()[1]
    for _ in range(40):
        choice = [int(np.flatnonzero(small_mask[row])[-1]) for row in range(2)]
        small_mask = small.step(np.array(choice)).legal_mask
        large_mask = large.step(
            np.array(choice + [int(np.flatnonzero(large_mask[row])[0]) for row in range(2, 5)])
        ).legal_mask
        assert [small.state(row) for row in range(2)] == [large.state(row) for row in range(2)]
