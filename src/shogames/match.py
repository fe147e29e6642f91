"""Playing agents against each other: :func:`play_game` plays one game and writes its record.

The command line, the benchmarks and (later) the arena all play games through :func:`play_game`, so
every game played by agents leaves the same kind of record: the seed in its ``Seed`` header, the moves
in the game's notation, and the result.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from shogames.agents.base import Agent
from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, Game, State
from shogames.records import Record, finish_record, start_position_text, start_record

__all__ = ["play_game", "sample_chance"]


def play_game(
    game: Game[Any],
    agents: Sequence[Agent],
    *,
    seed: int | None = None,
    players: Sequence[str] | None = None,
    start: State[Any] | None = None,
) -> tuple[State[Any], Record]:
    """Play one game between agents to its end.

    Each agent is checked (:meth:`~shogames.agents.Agent.check_game`) and reset, then asked for a move
    whenever its seat is to move; chance outcomes are drawn with :func:`~shogames.agents.sample_chance`
    from ``random.Random(seed)``. Every move is played with the checked
    :meth:`~shogames.core.State.play`, so an agent that returns an illegal move raises.

    Args:
        game: the game (with its settings) to play.
        agents: one agent per seat, in seat order.
        seed: the seed of the chance outcomes, written to the record's ``Seed`` header.
        players: the players' names for the record, one per seat; the agents' names by default.
        start: the position to start from (written to the record); the initial state by default.

    Returns:
        The terminal state and the finished record of the game.

    Raises:
        ValueError: the number of agents or players is not the number of seats, or the game does not
            end within its length cap.
        IllegalMoveError: an agent chose a move that is not legal.
        SettingsError: an agent cannot play this game (a kernel agent where there is no kernel).
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.id} needs {game.num_players} agents, one per seat; got {len(agents)}")
    names = list(players) if players is not None else [agent.name for agent in agents]
    if len(names) != game.num_players:
        raise ValueError(f"{game.id} needs {game.num_players} player names; got {len(names)}")
    state = start if start is not None else game.new_initial_state()
    position = None if start is None else start_position_text(start)
    record = start_record(game, names, seed=seed, position=position)
    chance_rng = random.Random(seed)
    for agent in agents:
        agent.check_game(game)
        agent.reset()
    for _ in range(game.max_game_length + 1):
        if state.is_terminal():
            finish_record(record, state)
            return state, record
        mover = state.to_move
        if mover == CHANCE:
            move = sample_chance(state, chance_rng)
        elif mover is None:
            raise ValueError("a state that is not terminal has no mover")
        else:
            move = agents[mover].select_move(state)
        after = state.play(move)  # checked first: move_to_text is only defined for legal moves
        record.add_move(state.move_to_text(move))
        state = after
    raise ValueError(f"{game.id} did not end within its length cap of {game.max_game_length} plies")
