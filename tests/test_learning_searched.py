"""Training on positions labelled by the kernel's search (``shogames train GAME --teacher N``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_runner import run_cli
from shogames.core.chance import sample_chance
from shogames.core.kernel import KernelUnavailableError, Searcher, require_kernel
from shogames.core.protocol import CHANCE, Game
from shogames.core.registry import make
from shogames.learning.network import PARAMETERS, ValueNet
from shogames.learning.searched import SearchTraining, _first_seat_value, _labels
from shogames.learning.td import Training, TrainingOptions, new_training


def _kernel_or_skip(game_id: str, players: int | None = None) -> None:
    try:
        require_kernel(make(game_id, players=players) if players else make(game_id))
    except KernelUnavailableError as error:
        pytest.skip(str(error))


def _searcher(game: Game[Any]) -> Searcher[Any]:
    searcher = require_kernel(game).alphabeta()
    assert searcher is not None
    return searcher


def _options(**changes: object) -> TrainingOptions:
    base: dict[str, object] = {
        "games": 4,
        "round": 2,
        "hidden": 4,
        "prior": True,
        "teacher": 60,
        "children": 2,
        "epochs": 2,
        "eval_every": 0,
        "seed": 5,
    }
    base.update(changes)
    return TrainingOptions(**base)  # type: ignore[arg-type]


def test_a_position_is_labelled_with_the_search_value_for_each_seat() -> None:
    _kernel_or_skip("shobu")
    game = make("shobu")
    state = game.new_initial_state()
    state = state.play_unchecked(state.legal_moves()[3])
    labels = _labels(state, _searcher(game), 200, -1.0, 1.0)
    value = _searcher(game).search(state, work=200).value
    assert labels == [(state.to_move, value), (1 - state.to_move, -value)]
    assert value != 0.0  # a label that is always 0 would say nothing


def test_a_position_before_the_dice_is_labelled_with_its_outcomes_average() -> None:
    _kernel_or_skip("sho", players=2)
    game = make("sho", players=2)
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(30):  # into the race, past the first throws
        if state.to_move == CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
        else:
            moves = state.legal_moves()
            state = state.play_unchecked(moves[rng.randrange(len(moves))])
    while state.to_move != CHANCE:
        state = state.play_unchecked(state.legal_moves()[0])
    assert not state.is_terminal()
    labelled = _labels(state, _searcher(game), 50, -1.0, 1.0)
    searcher = _searcher(game)  # the same searches in the same order, by hand
    expected = 0.0
    for outcome, chance in state.chance_outcomes():
        after = state.play_unchecked(outcome)
        if after.is_terminal():
            expected += float(chance) * after.returns()[0]
        elif after.to_move == CHANCE:  # pa ra: throw again
            expected += float(chance) * _first_seat_value(after, searcher, 50, -1.0, 1.0, 1)
        else:
            value = searcher.search(after, work=50).value
            expected += float(chance) * (value if after.to_move == 0 else -value)
    assert [seat for seat, _ in labelled] == [0, 1]
    assert labelled[0][1] == pytest.approx(expected) and labelled[1][1] == pytest.approx(-expected)
    assert len(state.chance_outcomes()) > 1


def test_three_players_are_labelled_only_where_a_seat_is_to_move() -> None:
    _kernel_or_skip("sho", players=3)
    game = make("sho", players=3)
    state = game.new_initial_state()
    assert state.to_move == CHANCE
    assert _labels(state, _searcher(game), 50, -1.0, 1.0) == []


def test_a_run_labels_every_game_and_fits_at_each_rounds_end() -> None:
    _kernel_or_skip("shobu")
    game = make("shobu")
    made = new_training(game, _options())
    assert isinstance(made, SearchTraining)
    training = made
    before = {name: array.copy() for name, array in training.network.arrays.items()}
    training.run()
    assert training.games_done == 4 and len(training.examples) == 4
    assert training.positions == sum(len(e.targets) for e in training.examples) > 0
    assert all(len(e.targets) % 2 == 0 for e in training.examples)  # both seats of each position
    assert all(np.all(np.abs(e.targets) <= 1.0) for e in training.examples)
    assert not np.array_equal(training.network.arrays["w2"], before["w2"])
    assert training.network.info["positions"] == training.positions
    assert training.loss > 0.0


@pytest.mark.parametrize("labels", ["values", "choices"])
def test_a_resumed_or_spread_run_gives_the_same_weights(tmp_path: Path, labels: str) -> None:
    _kernel_or_skip("shobu")
    game = make("shobu")
    straight = new_training(game, _options(labels=labels))
    straight.run()
    first = new_training(game, _options(games=2, labels=labels))
    first.run(checkpoint=tmp_path / "checkpoint.npz")
    resumed = Training.resume(game, tmp_path / "checkpoint.npz", games=4)
    assert isinstance(resumed, SearchTraining) and isinstance(first, SearchTraining)
    assert type(resumed) is type(straight) and resumed.options.labels == labels
    assert resumed.games_done == 2 and resumed.positions == first.positions
    resumed.run()
    spread = new_training(game, _options(labels=labels))
    spread.run(jobs=2)
    for name in PARAMETERS:
        assert np.array_equal(resumed.network.arrays[name], straight.network.arrays[name]), name
        assert np.array_equal(spread.network.arrays[name], straight.network.arrays[name]), name


def test_train_command_with_a_teacher_writes_weights_that_say_how(tmp_path: Path) -> None:
    _kernel_or_skip("shobu")
    out = tmp_path / "run"
    args = ["train", "shobu", "--prior", "--hidden", "4", "--games", "2", "--round", "2"]
    args += ["--teacher", "50", "--children", "2", "--epochs", "1", "--eval-every", "2", "--eval-games", "2"]
    result = run_cli([*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "labelled by searches of 50 positions" in result.stdout
    assert "after 2 games" in result.stdout
    net, _ = ValueNet.load(out / "value.npz")
    assert "--teacher 50 --children 2 --epochs 1" in net.info["command"]
    assert "--lambda" not in net.info["command"]
    assert net.info["positions"] > 0 and net.info["options"]["teacher"] == 50
    bad = run_cli(["train", "shobu", "--teacher", "0", "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "--teacher" in bad.stderr


def test_train_command_with_a_teacher_needs_a_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHOGAMES_KERNELS", "0")
    result = run_cli(["train", "shobu", "--teacher", "100", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2
    assert "--teacher labels positions with the game's kernel" in result.stderr
