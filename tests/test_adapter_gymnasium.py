"""Every registered game, under every preset and seat count, passes Gymnasium's ``check_env``.

Through :mod:`shogames.adapters.gymnasium` (extra ``gymnasium``): ``check_env`` with the agent in the first
and in the last seat, the registration as ``shogames/<Name>-v0``, and what the adapter promises besides:
an illegal action loses, a game ends with the seat's return, truncation exactly when the length cap cuts
the game, and the seed decides chance and the opponents. The games are capped at a few turns where they
have the cap. Without Gymnasium every test here skips and says how to install it.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from adapter_cases import case_settings, game_cases, game_ids, install_hint
from shogames.adapters import camel_name
from shogames.core.registry import game_class
from shogames.core.settings import SettingValue

TURNS = 20
"""The length cap, in turns, of the games played here."""
OPPONENTS = ("random", "easy")
"""The opponent levels the whole games here are played against."""


@pytest.fixture(scope="module")
def gym_adapter() -> ModuleType:
    """The adapter module (which registers the environments), or a skip saying how to install Gymnasium."""
    pytest.importorskip("gymnasium", reason=f"Gymnasium is not installed: {install_hint('gymnasium')}")
    return importlib.import_module("shogames.adapters.gymnasium")


def _environment(
    gym_adapter: ModuleType,
    game_id: str,
    preset: str | None,
    settings: dict[str, SettingValue],
    **options: Any,
) -> Any:
    return gym_adapter.ShogamesEnv(game_id, preset, **options, **case_settings(game_id, settings, TURNS))


# The observation box is unbounded: the protocol promises no range of values (docs/research.md).
@pytest.mark.filterwarnings("ignore:.*A Box observation space (minimum|maximum) value is")
# The render modes are text; frames per second mean nothing to them.
@pytest.mark.filterwarnings("ignore:.*No render fps was declared")
@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_gymnasium_check_env_passes(
    gym_adapter: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    import gymnasium
    from gymnasium.utils.env_checker import check_env

    name = gym_adapter.environment_id(game_id)
    seats = _environment(gym_adapter, game_id, preset, settings).game.num_players
    for seat in sorted({0, seats - 1}):
        options: dict[str, Any] = {"preset": preset, "seat": seat, **case_settings(game_id, settings, TURNS)}
        environment = gymnasium.make(name, render_mode="ansi", disable_env_checker=True, **options)
        check_env(environment.unwrapped)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_is_registered_under_its_name(gym_adapter: ModuleType, game_id: str) -> None:
    import gymnasium

    name = f"shogames/{camel_name(game_id)}-v0"
    assert gym_adapter.environment_id(game_id) == name
    settings: dict[str, Any] = case_settings(game_id, {}, TURNS)
    environment: Any = gymnasium.make(name, **settings)
    assert environment.unwrapped.game == game_class(game_id)(None, **settings)
    observation, info = environment.reset(seed=1)
    assert environment.observation_space.contains(observation)
    assert info["action_mask"].shape == (environment.action_space.n,)


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_an_illegal_action_loses_the_game(
    gym_adapter: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    environment = _environment(gym_adapter, game_id, preset, settings)
    _, info = environment.reset(seed=2)
    state = environment.game_state
    seat = environment.seat
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0]) if not info["action_mask"].all() else -1
    _, reward, terminated, truncated, info = environment.step(illegal)
    assert (terminated, truncated, info.get("illegal_action")) == (True, False, True)
    assert reward == state.forfeit_returns(seat)[seat] == environment.game.min_utility
    assert not info["action_mask"].any()
    with pytest.raises(RuntimeError, match="reset"):
        environment.step(0)


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_whole_games_end_with_the_seats_return(
    gym_adapter: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    rng = np.random.default_rng(24)
    seats = _environment(gym_adapter, game_id, preset, settings).game.num_players
    for game, opponent in enumerate(OPPONENTS):
        seat = game % seats
        environment = _environment(gym_adapter, game_id, preset, settings, seat=seat, opponent=opponent)
        observation, info = environment.reset(seed=game)
        while True:
            state = environment.game_state
            assert state.to_move == seat
            assert np.array_equal(observation.ravel(), np.float32(state.observation_tensor(seat)))
            assert list(np.flatnonzero(info["action_mask"])) == state.legal_actions()
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            observation, reward, terminated, truncated, info = environment.step(action)
            final = environment.game_state
            if terminated or truncated:
                break
            assert reward == 0.0
        assert final.is_terminal()
        assert (terminated, truncated) == (not final.is_truncated(), final.is_truncated())
        assert reward == final.returns()[seat]


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_the_seed_decides_chance_and_the_opponents(
    gym_adapter: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    first = _environment(gym_adapter, game_id, preset, settings, opponent="easy")
    second = _environment(gym_adapter, game_id, preset, settings, opponent="easy")
    observations = [first.reset(seed=9)[0], second.reset(seed=9)[0]]
    for _ in range(6):
        assert np.array_equal(*observations) and first.game_state == second.game_state
        legal = first.game_state.legal_actions()
        action = legal[len(legal) // 2]
        outcomes = [first.step(action), second.step(action)]
        observations = [outcome[0] for outcome in outcomes]
        if outcomes[0][2] or outcomes[0][3]:
            break
    assert first.game_state == second.game_state


def test_a_seat_outside_the_game_and_unknown_render_modes_are_refused(gym_adapter: ModuleType) -> None:
    game_id = game_ids()[0].values[0]
    seats = game_class(game_id)().num_players
    with pytest.raises(ValueError, match="seat"):
        gym_adapter.ShogamesEnv(game_id, seat=seats)
    with pytest.raises(ValueError, match="render_mode"):
        gym_adapter.ShogamesEnv(game_id, render_mode="rgb_array")


def test_import_shogames_imports_no_research_library() -> None:
    """Without the extras the package works: importing it (and the adapters' package) imports none of them."""
    import subprocess
    import sys

    code = (
        "import sys, shogames, shogames.adapters, shogames.agents, shogames.envs\n"
        "loaded = sorted({'pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium'} & set(sys.modules))\n"
        "assert not loaded, loaded\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
