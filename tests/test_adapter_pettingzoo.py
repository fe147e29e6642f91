"""Every registered game, under every preset and seat count, passes PettingZoo's own tests.

Through :mod:`shogames.adapters.pettingzoo` (extra ``pettingzoo``): ``api_test``, ``seed_test`` and
``render_test`` of ``pettingzoo.test``, then what the adapter promises besides: chance drawn inside, the
returns as rewards, truncation exactly when the length cap cuts the game, and illegal actions refused. The
games are capped at a few turns where they have the cap. Without PettingZoo every test here skips and says
how to install it.
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from adapter_cases import case_settings, game_cases, install_hint
from shogames.core.errors import IllegalMoveError
from shogames.core.settings import SettingValue

TURNS = 20
"""The length cap, in turns, of the games played here."""
CYCLES = 100
"""The cycles (a step of every agent) PettingZoo's tests run at most."""


@pytest.fixture(scope="module")
def zoo() -> ModuleType:
    """The adapter module, or a skip saying how to install PettingZoo."""
    pytest.importorskip("pettingzoo", reason=f"PettingZoo is not installed: {install_hint('pettingzoo')}")
    return importlib.import_module("shogames.adapters.pettingzoo")


def _maker(zoo: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]) -> Any:
    return functools.partial(zoo.env, game_id, preset, **case_settings(game_id, settings, TURNS))


# The observation is a dict of the tensor and the action mask, as in PettingZoo's own classic games; its
# api_test warns about that shape for every environment that is not in its own list of names.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_pettingzoo_api_test_passes(
    zoo: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    from pettingzoo.test import api_test  # type: ignore[import-untyped]

    api_test(_maker(zoo, game_id, preset, settings)(), num_cycles=CYCLES)


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_pettingzoo_seed_test_passes(
    zoo: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    from pettingzoo.test import seed_test

    seed_test(_maker(zoo, game_id, preset, settings), num_cycles=CYCLES)


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_pettingzoo_render_test_passes(
    zoo: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    from pettingzoo.test import render_test

    render_test(_maker(zoo, game_id, preset, settings))


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_games_end_with_the_returns_and_truncate_at_the_cap(
    zoo: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    environment = _maker(zoo, game_id, preset, settings)()
    rng = np.random.default_rng(24)
    for game in range(3):
        environment.reset(seed=game)
        inner = environment.unwrapped
        ended: dict[str, tuple[bool, bool]] = {}
        totals: dict[str, float] = dict.fromkeys(inner.possible_agents, 0.0)
        final = None
        for agent in environment.agent_iter():
            observation, reward, terminated, truncated, _ = environment.last()
            totals[agent] += reward
            seat = int(agent.removeprefix("player_"))
            state = inner.game_state
            if terminated or truncated:
                final = state
                ended[agent] = (terminated, truncated)
                environment.step(None)
                continue
            assert state.to_move == seat, "an agent other than the seat to move was asked to act"
            assert np.array_equal(
                observation["observation"].ravel(), np.float32(state.observation_tensor(seat))
            )
            environment.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        assert final is not None and final.is_terminal()
        assert set(ended) == set(inner.possible_agents)
        cut = final.is_truncated()
        assert all(flags == (not cut, cut) for flags in ended.values())
        assert [totals[agent] for agent in inner.possible_agents] == list(final.returns())
    assert environment.unwrapped.game_state.ply > 0


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_the_seed_decides_chance_and_illegal_actions_are_refused(
    zoo: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    make = _maker(zoo, game_id, preset, settings)
    first, second = make(), make()
    rng = np.random.default_rng(3)
    first.reset(seed=11)
    second.reset(seed=11)
    assert first.unwrapped.game_state == second.unwrapped.game_state
    for _ in range(8):
        state = first.unwrapped.game_state
        if state.is_terminal():
            break
        assert state.to_move is not None and state.to_move >= 0, "a chance node reached an agent"
        action = int(rng.choice(state.legal_actions()))
        first.step(action)
        second.step(action)
        assert first.unwrapped.game_state == second.unwrapped.game_state
    environment = make()
    environment.reset(seed=5)
    state = environment.unwrapped.game_state
    illegal = sorted(set(range(state.game.num_distinct_actions)) - set(state.legal_actions()))
    for action in [*illegal[:1], -1, state.game.num_distinct_actions]:
        with pytest.raises(IllegalMoveError):
            environment.step(action)
    assert environment.unwrapped.game_state == state
    assert environment.agent_selection == f"player_{state.to_move}"
    assert not any(environment.terminations.values())


def test_unknown_render_modes_are_refused(zoo: ModuleType) -> None:
    case = game_cases()[0].values
    with pytest.raises(ValueError, match="render_mode"):
        zoo.env(case[0], render_mode="rgb_array")
