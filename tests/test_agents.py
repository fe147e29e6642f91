"""Agents: the registry, the random agent's determinism and legality, and exact chance sampling."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction

import pytest

from shogames.agents import Agent, RandomAgent, agent_names, make_agent, register_agent, sample_chance
from shogames.agents import base as agents_base
from shogames.core.errors import SettingsError
from shogames.core.protocol import CHANCE, MoveT, State
from shogames.core.registry import make
from toy_games import DIE, DiceRaceGame


def _random_game_moves(seed: int, plies: int = 40) -> list[str]:
    """Play ``plies`` moves of Shobu with one seeded random agent for both seats."""
    agent = RandomAgent(seed=seed)
    state = make("shobu").new_initial_state()
    texts = []
    for _ in range(plies):
        if state.is_terminal():
            break
        move = agent.select_move(state)
        texts.append(state.move_to_text(move))
        state = state.play(move)
    return texts


def test_registry_has_random_agent() -> None:
    assert "random" in agent_names()
    agent = make_agent("random", seed=1)
    assert isinstance(agent, RandomAgent)
    assert agent.name == "random"
    assert agent.seed == 1


def test_unknown_agent_lists_the_names() -> None:
    with pytest.raises(
        SettingsError,
        match=r"unknown agent 'nobody'; levels: beginner, easy, medium, hard, expert, master; "
        r"agents: .*random",
    ):
        make_agent("nobody")


def test_register_agent(monkeypatch: pytest.MonkeyPatch) -> None:
    class FirstMoveAgent(Agent):
        name = "first"

        def select_move(self, state: State[MoveT]) -> MoveT:
            return state.legal_moves()[0]

    monkeypatch.setattr(agents_base, "_AGENTS", dict(agents_base._AGENTS))
    register_agent("first", FirstMoveAgent)
    assert "first" in agent_names()
    state = make("shobu").new_initial_state()
    assert make_agent("first").select_move(state) == state.legal_moves()[0]


def test_random_agent_is_deterministic_for_a_seed() -> None:
    assert _random_game_moves(5) == _random_game_moves(5)
    assert _random_game_moves(5) != _random_game_moves(6)


def test_fixed_seed_gives_fixed_move() -> None:
    state = make("shobu").new_initial_state()
    moves = {RandomAgent(seed=42).select_move(state) for _ in range(5)}
    assert len(moves) == 1


def test_random_agent_plays_only_legal_moves_and_spreads_its_choices() -> None:
    agent = RandomAgent(seed=0)
    state = make("shobu").new_initial_state()
    legal = set(state.legal_moves())
    chosen = Counter(agent.select_move(state) for _ in range(2000))
    assert set(chosen) <= legal
    assert len(chosen) > len(legal) // 2  # uniform over 232 moves: most appear in 2000 draws
    for seed in range(3):
        agent = RandomAgent(seed=seed)
        state = make("shobu", max_turns=30).new_initial_state()
        while not state.is_terminal():
            move = agent.select_move(state)
            assert move in state.legal_moves()
            state = state.play(move)


def test_random_agent_refuses_a_finished_game() -> None:
    state = DiceRaceGame(target=2).state_from_text("2,0 1 - 3")
    assert state.is_terminal()
    with pytest.raises(ValueError, match="no legal moves"):
        RandomAgent(seed=0).select_move(state)


def test_sample_chance_support_is_exact() -> None:
    state = DiceRaceGame().new_initial_state()
    assert state.to_move == CHANCE
    rng = random.Random(0)
    outcomes = {sample_chance(state, rng) for _ in range(500)}
    assert outcomes == {face for face, _ in DIE}


def test_sample_chance_frequencies_match_the_probabilities() -> None:
    state = DiceRaceGame().new_initial_state()
    rng = random.Random(2024)
    draws = 60_000
    counts = Counter(sample_chance(state, rng) for _ in range(draws))
    for face, probability in state.chance_outcomes():
        # the standard deviation of each frequency is below 0.0021; allow about five of them
        assert abs(counts[face] / draws - float(probability)) < 0.01


def test_sample_chance_is_deterministic_for_a_seed() -> None:
    state = DiceRaceGame().new_initial_state()
    first = [sample_chance(state, random.Random(9)) for _ in range(3)]
    rng_a, rng_b = random.Random(7), random.Random(7)
    assert [sample_chance(state, rng_a) for _ in range(50)] == [
        sample_chance(state, rng_b) for _ in range(50)
    ]
    assert len(set(first)) == 1


def test_sample_chance_never_picks_an_impossible_outcome(monkeypatch: pytest.MonkeyPatch) -> None:
    state = DiceRaceGame().new_initial_state()
    skewed = [(1, Fraction(0)), (2, Fraction(1, 1)), (3, Fraction(0))]
    monkeypatch.setattr(type(state), "chance_outcomes", lambda self: skewed)
    rng = random.Random(1)
    assert {sample_chance(state, rng) for _ in range(200)} == {2}


def test_sample_chance_needs_a_chance_node() -> None:
    with pytest.raises(ValueError, match="chance node"):
        sample_chance(make("shobu").new_initial_state(), random.Random(0))


def test_a_kernel_without_alpha_beta_plays_and_describes_the_reference_levels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The toy tic-tac-toe has a kernel of playouts only: its levels are the reference agents, said so."""
    from shogames.agents.levels import has_kernel_levels, level_line
    from shogames.core import registry
    from shogames.core.kernel import kernels_enabled
    from toy_games.tictactoe import TicTacToeGame

    if not kernels_enabled():
        pytest.skip("kernels are off here")
    monkeypatch.setitem(registry._GAMES, TicTacToeGame.id, TicTacToeGame)
    assert not has_kernel_levels(TicTacToeGame.id)
    assert "pure-Python" in level_line("hard", TicTacToeGame.id)
    assert "its compiled kernel has no alpha-beta" in level_line("hard", TicTacToeGame.id)
    assert has_kernel_levels("shobu")
    agent = make_agent("hard", game=TicTacToeGame.id, seed=1)
    assert agent.name.startswith("hard (reference: ")
