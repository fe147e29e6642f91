"""The learned evaluations: the network's gradients and files, TD(lambda) training, checkpoints and resuming,
``shogames train``, and ``greedy:value=learned`` (``docs/training.md``)."""

from __future__ import annotations

import io
import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest

import shogames
from cli_runner import run_cli
from gradient_check import assert_gradients_match
from shogames.agents.base import build_agent
from shogames.core.registry import make
from shogames.games import BUILTIN_GAMES
from shogames.learning.network import PARAMETERS, ValueNet, WeightsError
from shogames.learning.shipped import has_shipped_value, shipped_value
from shogames.learning.td import Training, TrainingOptions
from shogames.match import play_game


def small_net(prior: bool) -> ValueNet:
    net = ValueNet.new(7, 5, prior=prior, seed=3)
    rng = np.random.default_rng(4)
    for name in PARAMETERS:  # move every array away from its start, so no gradient is zero by symmetry
        net.arrays[name] = net.arrays[name] + rng.normal(0, 0.3, net.arrays[name].shape).astype(np.float32)
    return net


@pytest.mark.parametrize("prior", [False, True])
def test_gradients_match_finite_differences(prior: bool) -> None:
    net = small_net(prior)
    rng = np.random.default_rng(5)
    x = rng.normal(size=(6, 7)).astype(np.float32)
    p = rng.uniform(-0.9, 0.9, 6).astype(np.float32) if prior else np.zeros(6, np.float32)
    targets = rng.uniform(-1, 1, 6).astype(np.float32)
    trainable = PARAMETERS if prior else ("w1", "b1", "w2", "b2")
    assert_gradients_match(net, lambda: net.gradients(x, p, targets), trainable)


def test_fitting_a_fixed_batch_lowers_the_loss() -> None:
    game = make("shobu")
    training = Training.start(game, TrainingOptions(games=1, hidden=16, seed=2, learning_rate=3e-3))
    examples = training.self_play(0)
    examples.targets[:] = np.linspace(-0.8, 0.8, len(examples.targets), dtype=np.float32)
    first = training.network.gradients(examples.x, examples.p, examples.targets)[0]
    for index in range(200):
        training.learn(examples, index)
    last = training.network.gradients(examples.x, examples.p, examples.targets)[0]
    assert last < first / 5


def test_a_network_with_a_prior_starts_as_the_hand_written_evaluation() -> None:
    game = make("shobu")
    net = ValueNet.new(math.prod(game.observation_shape), 8, prior=True, seed=0)
    state = game.new_initial_state()
    children = [state.play(move) for move in state.legal_moves()[:40]]
    learned = net.value_of(children, 0)
    written = [child.evaluate()[0] for child in children]
    order_learned = sorted(range(len(children)), key=lambda i: (learned[i], i))
    order_written = sorted(range(len(children)), key=lambda i: (written[i], i))
    assert order_learned == order_written


def test_linear_values_are_the_values_before_the_output_tanh() -> None:
    """``linear_values`` is ``h @ w2 + b2 + c p``: the values' tanh undone, and with an untrained prior
    network (``w2`` = 0, ``c`` = 1) exactly the hand-written evaluation."""
    game = make("shobu")
    net = ValueNet.new(math.prod(game.observation_shape), 8, prior=True, seed=0)
    state = game.new_initial_state()
    children = [state.play(move) for move in state.legal_moves()[:40]]
    x, p = net.encode(children, 0)
    assert np.allclose(net.linear_values(x, p), p)
    net.arrays["w2"] = np.linspace(-0.5, 0.5, 8, dtype=np.float32)
    net.arrays["b2"] = np.array([0.1], dtype=np.float32)
    linear = net.linear_values(x, p)
    assert not np.allclose(linear, p)
    assert np.allclose(np.tanh(linear), net.values(x, p), atol=1e-6)


def test_weights_files_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    net = small_net(True)
    net.info = {"game": "shobu", "games": 12}
    buffer = io.BytesIO()
    net.save(buffer)
    again, extra = ValueNet.load(buffer.getvalue())
    assert extra == {}
    assert again.prior and again.info == {"game": "shobu", "games": 12}
    for name in PARAMETERS:
        assert np.array_equal(again.arrays[name], net.arrays[name])
    with pytest.raises(WeightsError, match="not a weights file"):
        ValueNet.load(b"not a zip at all")
    odd = io.BytesIO()
    np.savez(odd, w1=np.zeros((2, 2)))
    with pytest.raises(WeightsError, match="no header"):
        ValueNet.load(odd.getvalue())
    with pytest.raises(WeightsError, match="value shobu positions, not sho"):
        again.check_game(make("sho"))
    trained = Training.start(make("sho", players=2), TrainingOptions(games=1, hidden=2)).network
    trained.check_game(make("sho", players=2))
    with pytest.raises(WeightsError, match="games of 2 players, and this game has 3"):
        trained.check_game(make("sho", players=3))
    with pytest.raises(WeightsError, match="observations of 7 numbers"):
        ValueNet(again.arrays, True, {}).check_game(make("shobu"))


def test_lambda_returns_end_at_the_result() -> None:
    """The last afterstate before the end is taught (1 - lambda) of the result plus lambda of the result."""
    game = make("shobu")
    training = Training.start(game, TrainingOptions(games=1, hidden=4, seed=0, trace=0.0))
    examples = training.self_play(0)
    going = len(examples.targets) // 2
    # With lambda = 0 each target is the next afterstate's value; the last is the game's result.
    assert abs(float(examples.targets[going - 1])) == pytest.approx(1.0)
    assert abs(float(examples.targets[-1])) == pytest.approx(1.0)
    assert float(examples.targets[going - 1]) == -float(examples.targets[-1])


def test_a_resumed_run_gives_the_same_weights(tmp_path: Path) -> None:
    game = make("shobu")
    options = TrainingOptions(games=6, hidden=8, seed=9, eval_every=0)
    straight = Training.start(game, options)
    straight.run()
    first = Training.start(game, options)
    first.options = TrainingOptions(games=3, hidden=8, seed=9, eval_every=0)
    first.run(checkpoint=tmp_path / "checkpoint.npz")
    resumed = Training.resume(game, tmp_path / "checkpoint.npz", games=6)
    assert resumed.games_done == 3
    resumed.run()
    for name in PARAMETERS:
        assert np.array_equal(resumed.network.arrays[name], straight.network.arrays[name]), name


def test_the_header_keeps_each_code_that_trained_the_weights(tmp_path: Path) -> None:
    training = Training.start(make("shobu"), TrainingOptions(games=2, hidden=4, seed=1, eval_every=0))
    first = {"version": "1", "commit": "a" * 40, "clean": True}
    training.note_code(first)
    training.run()
    training.note_code(dict(first))
    training.save(tmp_path / "checkpoint.npz")
    resumed = Training.resume(make("shobu"), tmp_path / "checkpoint.npz", games=4)
    resumed.note_code({**first, "clean": False})
    resumed.run()
    resumed.save_weights(tmp_path / "value.npz")
    net, _ = ValueNet.load(tmp_path / "value.npz")
    assert net.info["made_by"] == [
        {**first, "from_game": 0},
        {**first, "clean": False, "from_game": 2},
    ]


def test_train_command_writes_weights_a_curve_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = ["train", "shobu", "--games", "4", "--hidden", "8", "--eval-every", "2", "--eval-games", "2"]
    result = run_cli([*args, "--out", str(out), "--seed", "3"])
    assert result.exit_code == 0, result.output
    assert "after 0 games" in result.stdout and "after 4 games" in result.stdout
    assert "Wrote" in result.stdout
    svg = ET.fromstring((out / "curve.svg").read_text())
    assert svg.tag.endswith("svg") and len(svg.findall("{http://www.w3.org/2000/svg}circle")) == 3
    lines = [json.loads(line) for line in (out / "curve.jsonl").read_text().splitlines()]
    assert [line["games"] for line in lines] == [0, 2, 4]
    net, _ = ValueNet.load(out / "value.npz")
    assert net.info["games"] == 4 and net.info["command"].startswith(
        "shogames train shobu --games 4 --seed 3"
    )
    again = run_cli([*args, "--out", str(out)])
    assert again.exit_code == 2 and "--resume" in again.stderr
    more = run_cli(
        [
            "train",
            "shobu",
            "--games",
            "6",
            "--eval-every",
            "2",
            "--eval-games",
            "2",
            "--out",
            str(out),
            "--resume",
        ]
    )
    assert more.exit_code == 0, more.output
    assert "Resuming Shobu at game 4 of 6" in more.stdout
    # Options given to a resume that differ from the checkpoint's are named, not silently dropped.
    assert "not used: --seed 0 (the checkpoint's: 3), --hidden 64 (the checkpoint's: 8)" in more.stdout
    net, _ = ValueNet.load(out / "value.npz")
    assert net.info["games"] == 6 and "--games 6" in net.info["command"]
    # The header names the code that trained the weights; a resume on the same code adds no entry.
    (made,) = net.info["made_by"]
    assert made["version"] == shogames.__version__ and made["from_game"] == 0
    assert made["commit"] is None or re.fullmatch("[0-9a-f]{40}", made["commit"])
    assert made["clean"] in (None, True, False)
    missing = run_cli(["train", "shobu", "--out", str(tmp_path / "none"), "--resume"])
    assert missing.exit_code == 2 and "no checkpoint" in missing.stderr
    odd = run_cli(["train", "shobu", "--eval-games", "3", "--out", str(tmp_path / "odd")])
    assert odd.exit_code == 2 and "odd" in odd.stderr


def test_learned_greedy_needs_weights_for_the_settings() -> None:
    agent = build_agent("greedy:value=learned", seed=0)
    for game_id in BUILTIN_GAMES:
        game = make(game_id)
        if has_shipped_value(game):
            continue
        with pytest.raises(WeightsError, match=game.name):
            agent.check_game(game)
    with pytest.raises(ValueError, match="value is one of rules, learned"):
        build_agent("greedy:value=deep", seed=0)


@pytest.mark.parametrize("game_id", sorted(BUILTIN_GAMES))
def test_shipped_weights_play_and_say_how_they_were_made(game_id: str) -> None:
    game = make(game_id, players=2) if game_id == "sho" else make(game_id)
    if not has_shipped_value(game):
        pytest.skip(f"{game_id} ships no learned evaluation yet")
    net = shipped_value(game)
    assert net.info["command"].startswith(f"shogames train {game_id}")
    if net.info["options"].get("teacher"):  # labelled by search: the budget is in positions
        assert net.info["positions"] >= 10_000
    else:
        assert net.info["games"] >= 100
    agents = [build_agent("greedy:value=learned", seed=1), build_agent("greedy", seed=2)]
    final, record = play_game(game, agents, seed=5)
    assert final.is_terminal() and record.moves


@pytest.mark.parametrize("prior", [False, True])
def test_shobu_kernel_search_values_the_horizon_as_the_network_does(prior: bool) -> None:
    """At depth 1 each root move's value is minus the network's value of the position after it for the
    opponent (to move there), to the search's resolution of 0.001."""
    from shogames.core.kernel import KernelUnavailableError, require_kernel

    game = make("shobu")
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    net = ValueNet.new(math.prod(game.observation_shape), 12, prior=prior, seed=7)
    rng = np.random.default_rng(8)
    for name in PARAMETERS:
        if prior or name not in ("u1", "c"):
            net.arrays[name] = net.arrays[name] + rng.normal(0, 0.2, net.arrays[name].shape).astype(
                np.float32
            )
    net.info = {"game": "shobu", "players": 2}
    searcher = kernel.learned_alphabeta(net, seed=None, depth=1)
    assert searcher is not None
    state = game.new_initial_state()
    checked = 0
    for ply in range(30):
        if state.is_terminal():
            break
        seat = state.to_move
        result = searcher.search(state, work=10**9)
        for move, score in result.scores.items():
            after = state.play(move)
            if after.is_terminal():
                continue
            expected = -net.value_of([after], 1 - seat)[0]
            assert score == pytest.approx(expected, abs=1.5e-3), state.move_to_text(move)
            checked += 1
        moves = state.legal_moves()
        state = state.play(moves[(ply * 7919) % len(moves)])
    assert checked > 1000


def test_shobu_kernel_updates_the_network_move_by_move_at_depth_two() -> None:
    """At depth 2 the horizon's values come from the parent's sums of stones updated by the move (the
    incremental path); a move's exact value there is the least of the network's values after each reply."""
    from shogames.core.kernel import KernelUnavailableError, require_kernel

    game = make("shobu")
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    net = ValueNet.new(math.prod(game.observation_shape), 8, prior=True, seed=11)
    rng = np.random.default_rng(12)
    for name in PARAMETERS:
        net.arrays[name] = net.arrays[name] + rng.normal(0, 0.3, net.arrays[name].shape).astype(np.float32)
    net.info = {"game": "shobu", "players": 2}
    searcher = kernel.learned_alphabeta(net, seed=None, depth=2)
    assert searcher is not None
    state = game.new_initial_state()
    checked = 0
    for ply in range(12):
        seat = state.to_move
        assert seat is not None and seat >= 0
        moves = state.legal_moves()
        for move in moves[:: max(1, len(moves) // 3)]:
            after = state.play(move)
            replies = [after.play(reply) for reply in after.legal_moves()]
            if after.is_terminal() or not replies or any(r.is_terminal() for r in replies):
                continue
            expected = min(net.value_of(replies, seat))
            assert searcher.value_of(state, move, depth=2) == pytest.approx(expected, abs=1.5e-3)
            checked += 1
        state = state.play(moves[(ply * 7919) % len(moves)])
    assert checked >= 20


def _shoo_network(prior: bool, seed: int) -> ValueNet:
    """A Shoo network with every weight moved at random, so that each input counts."""
    game = make("shoo")
    net = ValueNet.new(math.prod(game.observation_shape), 6, prior=prior, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for name in PARAMETERS:
        if prior or name not in ("u1", "c"):
            net.arrays[name] = net.arrays[name] + rng.normal(0, 0.3, net.arrays[name].shape).astype(
                np.float32
            )
    net.info = {"game": "shoo", "players": 2}
    return net


@pytest.mark.parametrize("preset", ["designers", "towers", "hush-lose-move", "hush-shoo-off"])
def test_shoo_kernel_values_a_position_as_the_network_does(preset: str) -> None:
    """The compiled learned evaluation (built from the state's words, not from an observation) is the
    network's value of the reference's observation, scaled by the search's cap, for either seat, in
    every position of random games: the opening's choice, hushes open and moves barred included."""
    import random

    from shogames.core.kernel import KernelUnavailableError, require_kernel
    from shogames.games.shoo import HUSH_MOVE
    from shogames.games.shoo.kernel import LEARNED_CAP, ShooKernel

    game = make("shoo", preset=preset)
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    assert isinstance(kernel, ShooKernel)
    nets = [_shoo_network(prior=True, seed=3), _shoo_network(prior=False, seed=5)]
    rng = random.Random(preset)
    checked = hushes = barred = 0
    for _ in range(3):
        state = game.new_initial_state()
        for _ in range(250):
            if state.is_terminal():
                break
            if state.to_move is not None and state.to_move >= 0:
                position = state.position
                hushes += position.hush is not None
                barred += bool(state.barred_moves)
                for net in nets:
                    for seat in (0, 1):
                        expected = LEARNED_CAP * net.value_of([state], seat)[0]
                        # (the hidden layer's tanh is interpolated in a table, to within 2e-6)
                        assert kernel.learned_value(net, state, seat) == pytest.approx(expected, abs=1e-4)
                        checked += 1
            moves = state.legal_moves()
            hush = HUSH_MOVE in moves and rng.random() < 0.7  # hushes, so that moves are barred
            state = state.play(HUSH_MOVE if hush else moves[rng.randrange(len(moves))])
    assert checked > 1000
    if preset != "towers":  # (towers has no hush; under the penalties a hushed move is never barred)
        assert hushes
    if preset == "designers":
        assert barred
    with pytest.raises(ValueError, match="seat is 0 or 1"):
        kernel.learned_value(nets[0], game.new_initial_state(), 2)


def test_shoo_kernel_search_values_the_horizon_as_the_network_does() -> None:
    """At depth 1 each root move's value is the network's value of the position after it for the side
    to move there, from the searcher's side; so the search plays as greedy with the network does."""
    from shogames.core.kernel import KernelUnavailableError, require_kernel
    from shogames.games.shoo.kernel import LEARNED_CAP

    game = make("shoo")
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    net = _shoo_network(prior=True, seed=9)
    searcher = kernel.learned_alphabeta(net, seed=None, depth=1)
    assert searcher is not None
    state = game.new_initial_state()
    checked = 0
    for ply in range(40):
        if state.is_terminal():
            break
        seat = state.to_move
        if seat is None or seat < 0:
            state = state.play(state.legal_moves()[0])
            continue
        result = searcher.search(state, work=10**9)
        for move, score in result.scores.items():
            after = state.play(move)
            if after.is_terminal():
                continue
            mover = after.to_move
            assert mover is not None and mover >= 0
            value = LEARNED_CAP * net.value_of([after], mover)[0]
            assert score == pytest.approx(value if mover == seat else -value, abs=1e-4)
            checked += 1
        moves = state.legal_moves()
        state = state.play(moves[(ply * 7919) % len(moves)])
    assert checked > 300


def _shogammon_network(prior: bool, seed: int) -> ValueNet:
    """A Shogammon network with every weight moved at random, so that each input counts."""
    game = make("shogammon")
    net = ValueNet.new(math.prod(game.observation_shape), 6, prior=prior, seed=seed)
    rng = np.random.default_rng(seed + 1)
    for name in PARAMETERS:
        if prior or name not in ("u1", "c"):
            net.arrays[name] = net.arrays[name] + rng.normal(0, 0.3, net.arrays[name].shape).astype(
                np.float32
            )
    net.info = {"game": "shogammon", "players": 2}
    return net


@pytest.mark.parametrize("settings", [{}, {"repetition": "fourfold", "max_turns": 300, "drop_stack": "on"}])
def test_shogammon_kernel_values_a_position_as_the_network_does(settings: dict[str, object]) -> None:
    """The compiled learned evaluation (built from the state's words, not from an observation) is the
    network's output before its tanh for the reference's observation, for either seat, in every
    position of random games: rolls, one die left, hands, and the repetition and turn-cap planes."""
    import random

    from shogames.core.kernel import KernelUnavailableError, require_kernel
    from shogames.games.shogammon.kernel import ShogammonKernel

    game = make("shogammon", None, **settings)
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    assert isinstance(kernel, ShogammonKernel)
    nets = [_shogammon_network(prior=True, seed=3), _shogammon_network(prior=False, seed=5)]
    rng = random.Random(7)
    checked = in_hand = one_die = 0
    for _ in range(3):
        state = game.new_initial_state()
        for _ in range(300):
            if state.is_terminal():
                break
            position = state.position
            in_hand += any(position.hands)
            one_die += len(position.dice) == 1
            for net in nets:
                for seat in (0, 1):
                    x, p = net.encode([state], seat)
                    expected = float(net.linear_values(x, p)[0])
                    assert kernel.learned_score(net, state, seat) == pytest.approx(expected, abs=1e-4)
                    checked += 1
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
    assert checked > 1000 and in_hand and one_die
    with pytest.raises(ValueError, match="seat is 0 or 1"):
        kernel.learned_score(nets[0], game.new_initial_state(), 2)


def test_shogammon_kernel_search_values_the_horizon_as_the_network_does() -> None:
    """At depth 1 each root move's value is the network's output before its tanh for the searching side
    after it, clipped to the search's cap: the hand-written search's scale, with the network's
    correction."""
    import random

    from shogames.core.kernel import KernelUnavailableError, require_kernel
    from shogames.core.protocol import CHANCE
    from shogames.games.shogammon.kernel import LEARNED_CAP, ShogammonAlphaBeta, compiled_network

    game = make("shogammon")
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    net = _shogammon_network(prior=True, seed=9)
    searcher = kernel.learned_alphabeta(net, seed=None, depth=1)
    assert isinstance(searcher, ShogammonAlphaBeta)
    # The whole network at every horizon: the lazy one gives a move cut off at the root only a bound.
    searcher.net = compiled_network(net, lazy=False)
    state = game.new_initial_state()
    rng = random.Random(4)
    checked = 0
    while not state.is_terminal() and checked < 300:
        moves = state.legal_moves()
        if state.to_move != CHANCE:
            seat = state.to_move
            assert seat is not None and seat >= 0
            result = searcher.search(state, work=10**9)
            for move, score in result.scores.items():
                after = state.play(move)
                if after.is_terminal():
                    continue
                x, p = net.encode([after], seat)
                expected = min(max(float(net.linear_values(x, p)[0]), -LEARNED_CAP), LEARNED_CAP)
                assert score == pytest.approx(expected, abs=1e-4)
                checked += 1
        state = state.play(moves[rng.randrange(len(moves))])
    assert checked >= 100


@pytest.mark.parametrize("star", [False, True], ids=["plain", "star1"])
def test_shogammon_lazy_learned_horizon_searches_as_the_whole_network(star: bool) -> None:
    """The search values the horizon with the hand-written evaluation alone where the network's bounded
    correction cannot bring it into the window; it finds the moves and values of the search that runs the
    whole network at every horizon, in the same positions (with Star1, the same moves and values)."""
    import random

    from shogames.core.kernel import KernelUnavailableError, SearchOptions, require_kernel
    from shogames.core.protocol import CHANCE
    from shogames.games.shogammon.kernel import ShogammonAlphaBeta, compiled_network

    game = make("shogammon")
    try:
        kernel = require_kernel(game)
    except KernelUnavailableError as error:
        pytest.skip(str(error))
    net = shipped_value(game)
    options = SearchOptions(star=star)
    lazy = kernel.learned_alphabeta(net, seed=1, depth=3, options=options)
    whole = kernel.learned_alphabeta(net, seed=1, depth=3, options=options)
    assert isinstance(lazy, ShogammonAlphaBeta) and isinstance(whole, ShogammonAlphaBeta)
    whole.net = compiled_network(net, lazy=False)
    rng = random.Random(11)
    state = game.new_initial_state()
    compared = 0
    while not state.is_terminal() and compared < 12:
        moves = state.legal_moves()
        if state.to_move != CHANCE and len(moves) > 1 and rng.random() < 0.2:
            expected = whole.search(state, work=10**9)
            result = lazy.search(state, work=10**9)
            assert result.depth == expected.depth == 3
            assert (result.move, result.value) == (expected.move, expected.value)
            if not star:
                assert result.nodes == expected.nodes
            compared += 1
        state = state.play(moves[rng.randrange(len(moves))])
    assert compared == 12


def test_kernel_alphabeta_plays_with_the_shipped_learned_evaluation() -> None:
    from shogames.core.kernel import KernelUnavailableError

    game = make("shobu")
    if game.kernel is None:
        pytest.skip("no Shobu kernel here")
    for played in (game, make("shoo"), make("shogammon")):
        agent = build_agent("kernel-alphabeta:nodes=2000,value=learned", seed=1)
        agent.check_game(played)
        state = played.new_initial_state()
        while state.to_move is not None and state.to_move < 0:  # Shoo's toss, Shogammon's roll
            state = state.play(state.legal_moves()[0])
        assert agent.select_move(state) in state.legal_moves()
    sho = make("sho")
    with pytest.raises((WeightsError, KernelUnavailableError), match="Sho"):
        build_agent("kernel-alphabeta:value=learned", seed=1).check_game(sho)
    with pytest.raises(ValueError, match="value is one of rules, learned"):
        build_agent("kernel-alphabeta:value=best", seed=1)


def test_rounds_played_in_processes_give_the_same_weights_as_in_one() -> None:
    game = make("shobu")
    options = TrainingOptions(games=6, hidden=8, seed=4, eval_every=0, round=3)
    alone = Training.start(game, options)
    alone.run()
    spread = Training.start(game, options)
    spread.run(jobs=2)
    assert spread.games_done == 6
    for name in PARAMETERS:
        assert np.array_equal(spread.network.arrays[name], alone.network.arrays[name]), name
    one_by_one = Training.start(game, TrainingOptions(games=6, hidden=8, seed=4, eval_every=0))
    one_by_one.run()
    assert not np.array_equal(one_by_one.network.arrays["w1"], alone.network.arrays["w1"])


def test_train_command_jobs_need_rounds(tmp_path: Path) -> None:
    result = run_cli(["train", "shobu", "--jobs", "2", "--out", str(tmp_path / "run")])
    assert result.exit_code == 2 and "--round 2 or more" in result.stderr
