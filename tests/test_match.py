"""play_game: agents play to the end and leave a record that replays to the same position."""

from __future__ import annotations

from typing import Any

import pytest

from shogames.agents import Agent, RandomAgent
from shogames.bench import bench_perft, bench_playouts, run_bench
from shogames.core.errors import IllegalMoveError
from shogames.core.protocol import State
from shogames.core.registry import make
from shogames.match import play_game
from shogames.records import parse_record, replay, write_record
from toy_games import DiceRaceGame, register_toy_games


def _agents(seed: int, count: int = 2) -> list[Agent]:
    return [RandomAgent(seed=seed + seat) for seat in range(count)]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_play_game_reaches_the_end_and_replays(seed: int) -> None:
    game = make("shobu")
    final, record = play_game(game, _agents(seed), seed=seed)
    assert final.is_terminal()
    assert record.game_id == "shobu"
    assert record.seed == seed
    assert record.result != "*"
    assert record.termination == final.termination()
    assert record.headers["Black"] == record.headers["White"] == "random"
    assert len(record.moves) == final.ply
    played = replay(parse_record(write_record(record)))
    assert played.final_state.key() == final.key()


def test_play_game_is_reproducible() -> None:
    game = make("shobu")
    first = play_game(game, _agents(3), seed=3)[1]
    again = play_game(game, _agents(3), seed=3)[1]
    assert first.moves == again.moves
    assert first.result == again.result


def test_play_game_length_cap() -> None:
    game = make("shobu", max_turns=6)
    final, record = play_game(game, _agents(4), players=["alice", "bob"])
    assert final.is_terminal()
    assert len(record.moves) <= game.max_game_length
    assert (record.headers["Black"], record.headers["White"]) == ("alice", "bob")
    assert "Seed" not in record.headers
    assert replay(record).final_state.key() == final.key()


def test_play_game_from_a_position() -> None:
    game = make("shobu")
    start = game.new_initial_state()
    for _ in range(4):
        start = start.play(start.legal_moves()[0])
    final, record = play_game(game, _agents(5), seed=5, start=start)
    assert record.headers["Position"] == start.to_text()
    assert final.ply == start.ply + len(record.moves)
    assert replay(record).final_state.key() == final.key()


def test_play_game_from_the_initial_state_writes_no_position() -> None:
    game = make("shobu", max_turns=3)
    _, record = play_game(game, _agents(0), start=game.new_initial_state())
    assert "Position" not in record.headers


def test_play_game_samples_chance() -> None:
    register_toy_games()
    game = DiceRaceGame()
    final, record = play_game(game, _agents(8), seed=8)
    assert final.is_terminal()
    throws = [text for text in record.moves if text.startswith("d")]
    assert throws and len(throws) >= len(record.moves) // 2
    assert replay(record).final_state.key() == final.key()
    assert play_game(game, _agents(8), seed=8)[1].moves == record.moves


def test_play_game_checks_the_number_of_agents() -> None:
    with pytest.raises(ValueError, match="needs 2 agents"):
        play_game(make("shobu"), _agents(0, count=1))
    with pytest.raises(ValueError, match="player names"):
        play_game(make("shobu"), _agents(0), players=["solo"])


def test_play_game_rejects_an_illegal_move() -> None:
    class CheatingAgent(Agent):
        name = "cheat"

        def select_move(self, state: State[Any]) -> Any:
            return "not a move"

    with pytest.raises(IllegalMoveError):
        play_game(make("shobu"), [CheatingAgent(), RandomAgent(seed=0)])


def test_play_game_resets_agents() -> None:
    class CountingAgent(RandomAgent):
        resets = 0

        def reset(self) -> None:
            type(self).resets += 1

    play_game(make("shobu", max_turns=2), [CountingAgent(seed=1), CountingAgent(seed=2)])
    assert CountingAgent.resets == 2


def test_bench_measures_perft_and_playouts() -> None:
    game = make("shobu", max_turns=20)
    timed = bench_perft(game.new_initial_state(), 2)
    assert (timed.nodes, timed.depth, timed.game_id) == (50508, 2, "shobu")
    assert timed.nodes_per_second > 0
    playouts = bench_playouts(game, games=3, seed=1)
    assert playouts.games == 3
    assert 3 <= playouts.plies <= 3 * game.max_game_length
    assert playouts.plies_per_second > playouts.games_per_second > 0
    assert bench_playouts(game, games=3, seed=1).plies == playouts.plies
    assert bench_playouts(game, seconds=0.01).games >= 1
    register_toy_games()
    assert bench_playouts(DiceRaceGame(), games=5).games == 5
    with pytest.raises(ValueError, match="needs a number of games"):
        bench_playouts(game)
    report = run_bench(game, depth=1, games=1, kernel=False)
    assert report.machine.python.startswith(("CPython", "PyPy"))
    assert report.machine.cpu
    assert len(report.lines()) == 4 and report.kernel is None
