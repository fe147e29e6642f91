"""The searching agents and the levels: alpha-beta against plain minimax, wins in one, seeds, MCTS, levels."""

from __future__ import annotations

import random
from typing import Any

import pytest

from shogames.agents import (
    AlphaBetaAgent,
    GreedyAgent,
    MCTSAgent,
    level_names,
    make_agent,
    sample_chance,
)
from shogames.core.errors import SettingsError
from shogames.core.protocol import CHANCE, State
from shogames.core.registry import make
from shogames.games import BUILTIN_GAMES
from toy_games import DiceRaceGame

GAMES = tuple(sorted(BUILTIN_GAMES))
_DISCOUNT = 1e-4


def _random_state(game_id: str, seed: int, plies: int, **settings: Any) -> Any:
    """A position reached by ``plies`` seeded random moves (stopping before the end)."""
    rng = random.Random(seed)
    state = make(game_id, **settings).start_position()
    for _ in range(plies):
        if state.is_terminal():
            break
        moves = state.legal_moves()
        after = state.play_unchecked(
            sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(moves)
        )
        if after.is_terminal():
            break
        state = after
    while state.to_move == CHANCE:
        state = state.play_unchecked(sample_chance(state, rng))
    return state


def _minimax(state: State[Any], depth: int, root: int, root_ply: int) -> float:
    """Plain expectiminimax for the root seat, with no pruning: the reference for alpha-beta."""
    mover = state.to_move
    if mover is None:
        return state.returns()[root] * (1.0 - _DISCOUNT * (state.ply - root_ply))
    if depth <= 0:
        return state.evaluate()[root]
    if mover == CHANCE:
        total = 0.0
        for outcome, probability in state.chance_outcomes():
            child = state.play_unchecked(outcome)
            below = depth - 1 if child.to_move == CHANCE else depth
            total += float(probability) * _minimax(child, below, root, root_ply)
        return total
    values = [_minimax(state.play_unchecked(move), depth - 1, root, root_ply) for move in state.legal_moves()]
    return max(values) if mover == root else min(values)


@pytest.mark.parametrize(
    ("game_id", "settings", "depth", "seed", "plies"),
    [
        ("shobu", {}, 2, 1, 30),
        ("shobu", {}, 2, 2, 60),
        ("shobu", {}, 3, 3, 90),
        ("shoo", {}, 2, 4, 40),
        ("sho", {"players": 2}, 2, 5, 40),
        ("sho", {"players": 3}, 2, 6, 60),
        ("shogammon", {}, 2, 7, 40),
        ("shogammon", {}, 3, 8, 81),
        ("dice_race", {}, 4, 9, 3),
    ],
)
def test_alphabeta_equals_minimax(
    game_id: str, settings: dict[str, Any], depth: int, seed: int, plies: int
) -> None:
    if game_id == "dice_race":
        state: State[Any] = DiceRaceGame(target=6).new_initial_state()
        rng = random.Random(seed)
        while state.to_move == CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
    else:
        state = _random_state(game_id, seed, plies, **settings)
    root = state.to_move
    assert root is not None and root >= 0
    agent = AlphaBetaAgent(seed=0, depth=depth)
    agent.exact_root = True
    agent.search(state)
    assert agent.last_depth == depth
    for move in state.legal_moves():
        expected = _minimax(state.play_unchecked(move), depth - 1, root, state.ply)
        assert agent.last_scores[move] == pytest.approx(expected, abs=1e-9), state.move_to_text(move)
    plain = AlphaBetaAgent(seed=0, depth=depth)  # with cut-offs at the root, the best value still agrees
    plain.search(state)
    assert plain.last_value == pytest.approx(max(agent.last_scores.values()), abs=1e-9)


def _win_in_one(game_id: str, settings: dict[str, Any]) -> tuple[State[Any], set[Any]]:
    """A position (from seeded random games) where the mover has a move that wins at once."""
    game = make(game_id, **settings)
    for seed in range(500):
        rng = random.Random(seed)
        state = game.start_position()
        while not state.is_terminal():
            mover = state.to_move
            if mover is not None and mover >= 0:
                wins = {
                    move
                    for move in state.legal_moves()
                    if (after := state.play_unchecked(move)).is_terminal()
                    and after.returns()[mover] >= game.max_utility
                }
                if wins and len(wins) < len(state.legal_moves()):
                    return state, wins
                move = rng.choice(state.legal_moves())
            else:
                move = sample_chance(state, rng)
            state = state.play_unchecked(move)
    raise AssertionError(f"no win in one found in {game_id}")


_WIN_SETTINGS: dict[str, dict[str, Any]] = {"shoo": {"max_turns": 3000}, "sho": {"players": 2}}
_FINDERS = (
    "greedy",
    "greedy:noise=1",
    "alphabeta:depth=1",
    "alphabeta:depth=3",
    "mcts:iterations=50",
    "easy",
    "medium",
    "hard",
)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_agent_finds_a_win_in_one(game_id: str) -> None:
    state, wins = _win_in_one(game_id, _WIN_SETTINGS.get(game_id, {}))
    for spec in _FINDERS:
        for seed in range(3):
            move = make_agent(spec, seed, game=game_id).select_move(state)
            assert move in wins, f"{spec} (seed {seed}) missed the win in {state.to_text()}"


@pytest.mark.parametrize("game_id", GAMES)
@pytest.mark.parametrize(
    "spec", ["random", "greedy:noise=0.5", "alphabeta:depth=2", "mcts:iterations=60,rollout=5"]
)
def test_a_fixed_seed_gives_a_fixed_move(game_id: str, spec: str) -> None:
    settings = {"players": 3} if game_id == "sho" else {}
    for seed in range(3):
        state = _random_state(game_id, 20 + seed, 25, **settings)
        first = [make_agent(spec, 42 + k, game=game_id).select_move(state) for k in range(4)]
        again = [make_agent(spec, 42 + k, game=game_id).select_move(state) for k in range(4)]
        assert first == again
        assert all(move in state.legal_moves() for move in first)


def test_mcts_reuses_its_tree_and_backs_up_every_seat() -> None:
    game = make("sho", players=3)
    rng = random.Random(3)
    agent = MCTSAgent(seed=1, iterations=300)
    state = game.new_initial_state()
    reused = []
    while not state.is_terminal() and state.ply < 60:
        if state.to_move == CHANCE:
            state = state.play(sample_chance(state, rng))
        elif state.to_move == 0:
            move = agent.select_move(state)
            if len(state.legal_moves()) > 1:
                reused.append(agent.reused)
                assert sum(agent.last_visits.values()) >= 300
            state = state.play(move)
        else:
            state = state.play(rng.choice(state.legal_moves()))
    assert any(count > 0 for count in reused[1:]), "the subtree of the position reached is kept"


def test_mcts_random_rollouts_to_the_end_play_a_game() -> None:
    game = make("shobu")
    agent = MCTSAgent(seed=2, iterations=40, rollout=-1)
    state = game.new_initial_state()
    move = agent.select_move(state)
    assert move in state.legal_moves()
    assert sum(agent.last_visits.values()) == 40


def test_search_budgets_in_time_and_nodes() -> None:
    state = _random_state("shobu", 4, 20)
    agent = AlphaBetaAgent(seed=0, depth=30, nodes=3000)
    agent.select_move(state)
    assert 1 <= agent.last_depth < 30
    timed = AlphaBetaAgent(seed=0, depth=30, seconds=0.05)
    assert timed.select_move(state) in state.legal_moves()
    assert MCTSAgent(seed=0, seconds=0.05).select_move(state) in state.legal_moves()


def test_greedy_follows_its_own_turn() -> None:
    """In Shogammon a turn is one move per die: greedy values the position after both."""
    state = _random_state("shogammon", 11, 30)
    assert len(state.dice) == 2
    agent = GreedyAgent(seed=0)
    move = agent.select_move(state)
    assert move in state.legal_moves()


def test_levels_exist_for_every_game_and_reject_parameters() -> None:
    assert level_names() == ["beginner", "easy", "medium", "hard", "expert", "master"]
    for game_id in GAMES:
        for level in level_names():
            agent = make_agent(level, 1, game=game_id)
            assert agent.name == level  # on the kernel: a reference agent would say so in its name
    with pytest.raises(SettingsError, match="takes no parameters"):
        make_agent("hard:depth=3", 1, game="shobu")


def test_agent_specs_are_checked() -> None:
    assert make_agent("alphabeta:depth=3,nodes=500", 1).name == "alphabeta:depth=3,nodes=500"
    with pytest.raises(SettingsError, match="no parameter 'deep'"):
        make_agent("alphabeta:deep=3")
    with pytest.raises(SettingsError, match="must be an integer"):
        make_agent("mcts:iterations=many")
    with pytest.raises(SettingsError, match="key=value"):
        make_agent("mcts:iterations")
    budgeted = make_agent("hard", 1, game="shobu", budget={"seconds": "0.5"})
    assert (budgeted.name, budgeted.budget) == ("hard", {"seconds": "0.5"})  # type: ignore[attr-defined]
    assert make_agent("random", 1, budget={"seconds": "1"}).name == "random"
