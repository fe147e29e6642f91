"""Every registered game, under every preset and seat count, passes OpenSpiel's own tests.

Through :mod:`shogames.adapters.openspiel` (extra ``openspiel``): ``pyspiel.random_sim_test`` with
serialization off and on, the replay of the playthrough files in ``tests/data/openspiel/`` (OpenSpiel's
``generate_playthrough.replay``), and a whole game played by OpenSpiel's Python ``MCTSBot`` in every seat.
The games are capped at a few turns where they have the cap (``adapter_cases.make_case``). Without
OpenSpiel installed every test here skips and says how to install it.
"""

from __future__ import annotations

import importlib
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

from adapter_cases import case_settings, game_cases, game_ids, install_hint, make_case
from shogames.core.chance import sample_outcome
from shogames.core.protocol import CHANCE
from shogames.core.registry import game_class
from shogames.core.settings import SettingValue

DATA = Path(__file__).parent / "data" / "openspiel"
PLAYTHROUGH_COMMAND = "python -m shogames.adapters.openspiel playthroughs tests/data/openspiel"
"""The command that writes the playthrough files (``--register module:Class`` for another package's game)."""

SIM_TURNS = 20
"""The length cap, in turns, of the games ``random_sim_test`` plays."""
SIMULATIONS = 2
"""Random games per ``random_sim_test`` call."""
MCTS_TURNS = 6
"""The length cap, in turns, of the game the MCTS bots play."""
MCTS_SIMULATIONS = 4
"""The MCTS bots' simulations per move."""
CHECKED_PLIES = 60
"""Plies of a random game whose states are compared with the shogames states they wrap."""


@pytest.fixture(scope="module")
def spiel() -> ModuleType:
    """The adapter module (which registers the games), or a skip saying how to install OpenSpiel."""
    pytest.importorskip("pyspiel", reason=f"OpenSpiel is not installed: {install_hint('openspiel')}")
    return importlib.import_module("shogames.adapters.openspiel")


def _load(spiel: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]) -> Any:
    return spiel.load(game_id, preset, **case_settings(game_id, settings, SIM_TURNS))


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_random_sim_test_passes_with_and_without_serialization(
    spiel: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    game = _load(spiel, game_id, preset, settings)
    for serialize in (False, True):
        spiel.pyspiel.random_sim_test(game, num_sims=SIMULATIONS, serialize=serialize, verbose=False)


@pytest.mark.parametrize(("game_id", "preset", "settings"), game_cases())
def test_the_openspiel_game_is_the_shogames_game(
    spiel: ModuleType, game_id: str, preset: str | None, settings: dict[str, SettingValue]
) -> None:
    """Game info from the protocol, the preset and settings as given, and every state as the game's own."""
    game = _load(spiel, game_id, preset, settings)
    expected = make_case(game_id, preset, settings, SIM_TURNS)
    assert game.shogames_game == expected
    assert game.num_distinct_actions() == expected.num_distinct_actions
    assert game.max_chance_outcomes() == expected.max_chance_outcomes
    assert game.num_players() == expected.num_players
    assert (game.min_utility(), game.max_utility()) == (expected.min_utility, expected.max_utility)
    assert game.max_game_length() == expected.max_game_length
    assert game.observation_tensor_shape() == list(expected.observation_shape)
    reloaded = spiel.pyspiel.load_game(str(game))
    assert reloaded.shogames_game == expected, f"{game} does not load back as the same game"

    rng = random.Random(f"{game_id}-{preset}-{settings}")
    state = game.new_initial_state()
    for _ in range(CHECKED_PLIES):
        own = state.shogames_state
        terminal = int(spiel.pyspiel.PlayerId.TERMINAL)
        assert state.current_player() == (terminal if own.to_move is None else own.to_move)
        if state.is_terminal():
            assert state.returns() == list(own.returns())
            break
        assert state.legal_actions() == own.legal_actions()
        assert state.legal_actions_mask() == [int(legal) for legal in own.legal_action_mask()]
        for seat in range(expected.num_players):
            if own.to_move not in (seat, CHANCE):  # OpenSpiel answers a chance node's outcomes to any seat
                assert state.legal_actions(seat) == []
            assert np.array_equal(state.observation_tensor(seat), np.float32(own.observation_tensor(seat)))
            assert state.observation_string(seat) == own.observation_string(seat)
        names = [state.action_to_string(state.current_player(), action) for action in state.legal_actions()]
        assert len(set(names)) == len(names)
        if own.to_move == CHANCE:
            outcomes = own.chance_outcomes()
            assert sorted(state.chance_outcomes()) == sorted(
                (own.move_to_action(move), float(chance)) for move, chance in outcomes
            )
            move = sample_outcome(outcomes, rng)
        else:
            move = rng.choice(list(own.legal_moves()))
        state.apply_action(own.move_to_action(move))
        assert state.shogames_state == own.play(move)


@pytest.mark.parametrize("game_id", game_ids())
def test_every_game_is_registered_with_its_settings_as_parameters(spiel: ModuleType, game_id: str) -> None:
    cls = game_class(game_id)
    name = spiel.short_name(game_id)
    assert name == f"shogames_{game_id}"
    assert name in spiel.pyspiel.registered_names()
    game_type = spiel.pyspiel.load_game(name).get_type()
    expected = {spec.name: spiel.parameter_value(spec.default) for spec in cls.setting_specs}
    expected["preset"] = ""
    assert game_type.parameter_specification == expected
    assert game_type.min_num_players <= cls().num_players <= game_type.max_num_players


@pytest.mark.parametrize("game_id", game_ids())
def test_playthroughs_replay_as_recorded(spiel: ModuleType, game_id: str) -> None:
    flags = importlib.import_module("absl.flags")
    generate_playthrough = importlib.import_module("open_spiel.python.algorithms.generate_playthrough")
    if not flags.FLAGS.is_parsed():  # OpenSpiel's replay reads one of its absl flags
        flags.FLAGS.mark_as_parsed()
    for file_name, spiel_string in spiel.playthrough_cases(game_class(game_id)).items():
        path = DATA / file_name
        assert path.is_file(), f"no playthrough {path}: write it with {PLAYTHROUGH_COMMAND}"
        assert path.read_text(encoding="utf-8").startswith(f"game: {spiel_string}\n")
        original, replayed = generate_playthrough.replay(str(path))
        assert replayed == original, f"{file_name} no longer replays as recorded: {PLAYTHROUGH_COMMAND}"


@pytest.mark.parametrize("game_id", game_ids())
def test_openspiel_python_mcts_bot_plays_a_whole_game(spiel: ModuleType, game_id: str) -> None:
    mcts = importlib.import_module("open_spiel.python.algorithms.mcts")

    game = spiel.load(game_id, **case_settings(game_id, {}, MCTS_TURNS))
    rng = np.random.RandomState(24)
    bots = [
        mcts.MCTSBot(
            game,
            uct_c=2.0,
            max_simulations=MCTS_SIMULATIONS,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
            random_state=rng,
        )
        for _ in range(game.num_players())
    ]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=chances)))
        else:
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
    assert state.shogames_state.is_terminal()
    assert len(state.returns()) == game.num_players()


def test_a_setting_at_its_default_keeps_the_presets_value(spiel: ModuleType) -> None:
    """OpenSpiel hands over every parameter: only values other than the default replace a preset's."""
    for cls in sorted(spiel.available_games(), key=lambda cls: cls.id):
        for preset, values in cls.presets.items():
            defaults = {spec.name: spiel.parameter_value(spec.default) for spec in cls.setting_specs}
            assert spiel.game_from_parameters(cls, {**defaults, "preset": preset}) == cls(preset)
            written = {name: spiel.parameter_value(value) for name, value in values.items()}
            assert spiel.game_from_parameters(cls, {**defaults, **written, "preset": ""}) == cls(preset)


def test_unknown_parameters_and_presets_are_refused(spiel: ModuleType) -> None:
    from shogames.core.errors import SettingsError

    cls = game_class(game_ids()[0].values[0])
    with pytest.raises(SettingsError, match="no setting"):
        spiel.game_from_parameters(cls, {"no_such_setting": 1})
    with pytest.raises(SettingsError, match="unknown preset"):
        spiel.game_from_parameters(cls, {"preset": "no-such-preset"})
