"""Training on the kernel search's choices (``shogames train GAME --teacher N --labels choices``)."""

from __future__ import annotations

import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_runner import run_cli
from gradient_check import assert_gradients_match
from shogames.agents.greedy import turn_ends
from shogames.core.chance import sample_chance
from shogames.core.kernel import require_kernel
from shogames.core.protocol import CHANCE
from shogames.core.registry import make
from shogames.learning.choices import TIE_BREAK, TURN_PLIES, ChoiceTraining, _decision
from shogames.learning.network import PARAMETERS, ValueNet
from shogames.learning.td import TrainingOptions, new_training
from test_learning_searched import _kernel_or_skip
from test_learning_searched import _options as searched_options


def _options(**changes: object) -> TrainingOptions:
    return searched_options(**{"labels": "choices", "children": 3, **changes})


@pytest.mark.parametrize("prior", [False, True])
def test_choice_gradients_match_finite_differences(prior: bool) -> None:
    net = ValueNet.new(7, 5, prior=prior, seed=3)
    rng = np.random.default_rng(4)
    for name in PARAMETERS:
        net.arrays[name] = net.arrays[name] + rng.normal(0, 0.3, net.arrays[name].shape).astype(np.float32)
    x = rng.normal(size=(7, 7)).astype(np.float32)
    p = rng.uniform(-0.9, 0.9, 7).astype(np.float32) if prior else np.zeros(7, np.float32)
    chosen = np.array([1, 0, 0, 1, 0, 0, 0], dtype=np.float32)  # two decisions: 3 and 4 positions
    trainable = ("w1", "u1", "b1", "w2", "c") if prior else ("w1", "b1", "w2")
    grads = assert_gradients_match(net, lambda: net.choice_gradients(x, p, chosen, 3.0), trainable)
    assert abs(float(grads["b2"][0])) < 1e-6  # a shift of every logit changes no softmax


def test_the_choice_loss_is_the_softmax_cross_entropy_of_each_decision() -> None:
    net = ValueNet.new(3, 2, prior=True, seed=1)  # w2 = 0: the logits are scale * c * p
    x = np.zeros((3, 3), np.float32)
    p = np.array([0.2, 0.5, -0.1], np.float32)
    loss, _ = net.choice_gradients(x, p, np.array([1, 0, 0], np.float32), 2.0)
    logits = 2.0 * p
    assert math.isclose(loss, -(logits[0] - math.log(sum(math.exp(z) for z in logits))), rel_tol=1e-5)
    with pytest.raises(ValueError, match="first row is chosen"):
        net.choice_gradients(x, p, np.array([0, 1, 0], np.float32), 2.0)


def test_a_decision_is_the_turn_the_search_plays_and_other_ends_of_the_turn() -> None:
    _kernel_or_skip("shogammon")
    game = make("shogammon")
    rng = random.Random(3)
    state = game.new_initial_state()
    while state.to_move == CHANCE:
        state = state.play_unchecked(sample_chance(state, rng))
    seat = state.to_move
    assert seat is not None
    searcher = require_kernel(game).alphabeta()
    assert searcher is not None
    decision = _decision(state, seat, searcher, 200, 4, random.Random(1))
    assert [target for _, target in decision] == [1.0, 0.0, 0.0, 0.0, 0.0]
    chosen = state
    replay = require_kernel(game).alphabeta()  # the search's own turn again, from a fresh searcher
    assert replay is not None
    for _ in range(TURN_PLIES):
        if chosen.is_terminal() or chosen.to_move != seat:
            break
        chosen = chosen.play_unchecked(replay.search(chosen, work=200).move)
    assert decision[0][0].key() == chosen.key()
    ends = {end.key() for end in turn_ends(state, seat, TURN_PLIES)}
    keys = [position.key() for position, _ in decision]
    assert len(set(keys)) == len(keys) and set(keys) <= ends  # distinct ends of this turn
    assert all(position.to_move != seat for position, _ in decision)  # each at the turn's end


def test_a_run_keeps_each_turns_choice_and_fits_at_each_rounds_end() -> None:
    _kernel_or_skip("shogammon")
    game = make("shogammon", max_turns=40)  # games cut short: the decisions are what this checks
    made = new_training(game, _options(games=2, teacher=40))
    assert isinstance(made, ChoiceTraining)
    training = made
    before = {name: array.copy() for name, array in training.network.arrays.items()}
    training.run()
    assert training.games_done == 2 and len(training.examples) == 2
    for examples in training.examples:
        assert len(examples.targets) and examples.targets[0] == 1.0  # each game's rows start a decision
        assert set(np.unique(examples.targets).tolist()) == {0.0, 1.0}
    assert training.decisions == sum(int(e.targets.sum()) for e in training.examples) > 10
    assert training.scale in (2.0**k for k in range(11))
    assert not np.array_equal(training.network.arrays["w2"], before["w2"])
    assert training.loss > 0.0


def test_train_command_on_the_search_choices_says_how_in_its_weights(tmp_path: Path) -> None:
    _kernel_or_skip("shobu")
    out = tmp_path / "run"
    args = ["train", "shobu", "--prior", "--hidden", "4", "--games", "2", "--round", "2", "--teacher", "50"]
    args += ["--labels", "choices", "--children", "2", "--epochs", "1"]
    args += ["--eval-every", "2", "--eval-games", "2"]
    result = run_cli([*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "labelled by searches of 50 positions (their choices)" in result.stdout
    net, _ = ValueNet.load(out / "value.npz")
    assert "--labels choices" in net.info["command"]
    assert net.info["options"]["labels"] == "choices"
    bad = run_cli(["train", "shobu", "--teacher", "50", "--labels", "moves", "--out", str(tmp_path / "bad")])
    assert bad.exit_code == 2 and "--labels" in bad.stderr
    ties = ["--teacher", "50", "--labels", "ties"]
    unbroken = run_cli(["train", "shobu", *ties, "--out", str(tmp_path / "ties")])
    assert unbroken.exit_code == 2 and "needs the prior" in unbroken.stderr


def test_a_tie_decision_holds_only_the_ends_the_evaluation_values_best() -> None:
    """With ties, a decision is the search's turn and other ends of the turn tied with it for the best
    hand-written value; where the best end is alone, there is no decision (and no search)."""
    _kernel_or_skip("shogammon")
    game = make("shogammon")
    searcher = require_kernel(game).alphabeta()
    assert searcher is not None
    rng = random.Random(11)
    state = game.new_initial_state()
    tied = alone = 0
    while not state.is_terminal() and (tied < 3 or alone < 3):
        if state.to_move == CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
            seat = state.to_move
            assert seat is not None
            ends = turn_ends(state, seat, TURN_PLIES)
            if any(end.is_terminal() for end in ends):
                break
            values = [end.evaluate()[seat] for end in ends]
            best = max(values)
            best_ends = {end.key() for end, value in zip(ends, values, strict=True) if value >= best - 1e-9}
            decision = _decision(state, seat, searcher, 200, 50, random.Random(2), ties=True)
            if len(best_ends) < 2:
                alone += 1
                assert decision == []
            elif decision:
                tied += 1
                assert [target for _, target in decision][:2] == [1.0, 0.0]
                assert {position.key() for position, _ in decision} == best_ends  # 50 children: all
            continue
        state = state.play_unchecked(rng.choice(state.legal_moves()))
    assert tied >= 3 and alone >= 3


def test_a_tie_breaking_run_scales_its_network_to_decide_only_ties() -> None:
    _kernel_or_skip("shogammon")
    game = make("shogammon", max_turns=40)
    with pytest.raises(ValueError, match="needs the prior"):
        _options(labels="ties", prior=False).check()
    training = new_training(game, _options(games=2, teacher=40, labels="ties", children=6))
    assert isinstance(training, ChoiceTraining)
    training.run()
    assert training.decisions > 3
    w2 = training.network.arrays["w2"]
    assert math.isclose(float(np.abs(w2).sum()), TIE_BREAK, rel_tol=1e-3)
    # The network ranks positions as the hand-written evaluation does wherever that one tells them
    # apart by more than twice the correction, and still tells tied positions apart.
    state = game.new_initial_state()
    rng = random.Random(4)
    positions: list[Any] = []
    while not state.is_terminal() and len(positions) < 60:
        state = state.play_unchecked(rng.choice(state.legal_moves()))
        if not state.is_terminal() and state.to_move != CHANCE:
            positions.append(state)
    network = training.network
    learned = network.value_of(positions, 0)
    written = [network.encode([position], 0)[1][0] for position in positions]
    pairs = [(a, b) for a in range(len(positions)) for b in range(a)]
    apart = [(a, b) for a, b in pairs if abs(written[a] - written[b]) > 2 * TIE_BREAK]
    assert apart and all((learned[a] > learned[b]) == (written[a] > written[b]) for a, b in apart)
    keys = [position.key() for position in positions]
    level = [(a, b) for a, b in pairs if written[a] == written[b] and keys[a] != keys[b]]
    assert any(learned[a] != learned[b] for a, b in level)
