"""Computer players: which levels and agents a seat may use, what one move may cost, and how it is found.

Computer players think outside the event loop (in worker processes when the app gives a ``think`` that
runs them there, :mod:`shogames.server.engine`), with budgets the server bounds (:class:`ComputerLimits`).
A computer player that fails, or runs past its time, plays a random move instead, and the players are told.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from shogames.agents import make_agent
from shogames.agents.base import agent_parameters, level_names, parse_agent_spec
from shogames.agents.levels import LEVELS, play_budget
from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE, State
from shogames.server.errors import ServiceError
from shogames.server.live import PERSON, LiveGame

logger = logging.getLogger("shogames.server")


@dataclass(frozen=True)
class ComputerLimits:
    """What the server lets a computer player spend on one move, whoever asks for it.

    A seat may be played by any level, or by an agent spec whose parameters stay within these bounds.
    Every agent that takes a time budget also gets ``seconds=max_seconds`` unless its spec sets less, so
    that no computer player thinks longer than that, and a move that takes longer still (a stuck worker)
    is abandoned after ``max_seconds + grace_seconds``: the seat then plays a random move, and the players
    are told.

    Attributes:
        max_seconds: the most time one move may take.
        max_work: the largest value of each work parameter (``iterations``, ``nodes``, ``depth``, ...).
        grace_seconds: how long past ``max_seconds`` a move may run before it is abandoned.
    """

    max_seconds: float = 5.0
    max_work: dict[str, int] = field(
        default_factory=lambda: {
            "iterations": 10_000,
            "nodes": 200_000,
            "depth": 8,
            "plies": 4,
            "rollout": 200,
        }
    )
    grace_seconds: float = 10.0

    def check(self, spec: str, game_id: str) -> str:
        """Check a seat's level or agent spec against the limits; returns the spec the server will run.

        Raises:
            ServiceError: an unknown agent or level, an unknown or malformed parameter, or a value out of
                range or past these limits (400), with the bounds in the message.
        """
        try:
            make_agent(spec, seed=0, game=game_id)
            name, params = parse_agent_spec(spec)
        except (ShogamesError, ValueError) as error:
            raise ServiceError(400, str(error)) from None
        if name in level_names():
            return spec
        kinds = agent_parameters(name)
        for key, value_text in params.items():
            if kinds.get(key) not in (int, float):
                continue
            value = float(value_text)
            if key == "seconds" and not 0 < value <= self.max_seconds:
                raise ServiceError(
                    400, f"agent {name!r}: seconds must be more than 0 and at most {self.max_seconds:g} here"
                )
            bound = self.max_work.get(key)
            if bound is not None and kinds.get(key) is int and value > bound:
                raise ServiceError(400, f"agent {name!r}: {key} may be at most {bound} on this server")
        return spec

    def budget(self, spec: str | None = None) -> dict[str, str]:
        """The time budget given to every agent that takes one and whose spec sets none.

        A level (``spec`` a level's name) thinks no longer than its own cap in play
        (:func:`shogames.agents.levels.play_budget`), nor than :attr:`max_seconds`.
        """
        seconds = self.max_seconds
        if spec is not None and spec in LEVELS:
            own = play_budget(spec).get("seconds")
            if own is not None:
                seconds = min(seconds, float(own))
        return {"seconds": f"{seconds:g}"}


Think = Callable[[str, int, str, State[Any], bool], Awaitable[str]]
"""How a computer player's move is found: ``think(spec, seed, game_id, state, interactive)`` gives the move's
text; ``interactive`` says whether a person plays in the game (and so waits for the move)."""


def choose_move(spec: str, seed: int, game_id: str, state: State[Any], budget: dict[str, str]) -> str:
    """Let the agent of ``spec`` choose a move in ``state``; its text (runs in a worker process)."""
    agent = make_agent(spec, seed=seed, game=game_id, budget=budget)
    return state.move_to_text(agent.select_move(state))


def think_in_thread(limits: ComputerLimits) -> Think:
    """A :data:`Think` that runs the agent in a thread of this process, within ``limits``' budget."""

    async def think(spec: str, seed: int, game_id: str, state: State[Any], interactive: bool) -> str:
        return await asyncio.to_thread(choose_move, spec, seed, game_id, state, limits.budget(spec))

    return think


async def computer_move(
    live: LiveGame, think: Think, limits: ComputerLimits, rng: random.Random
) -> tuple[Any, str | None]:
    """The move of the computer seat to move in the game as it stands, and a notice if it had to be random.

    Where a person plays, the move has its time and no more (``max_seconds + grace_seconds``); between
    computer players, the move may wait for its turn on the engine's study workers first (``think``'s own
    limit starts when it runs). A computer player that fails or runs past its time plays a random move
    instead; the failure is logged, and the notice says so.
    """
    state = live.state
    seat = state.to_move
    assert seat is not None and seat != CHANCE
    spec = live.seats[seat].agent or "random"
    interactive = any(other.kind == PERSON for other in live.seats)
    limit = limits.max_seconds + limits.grace_seconds if interactive else None
    try:
        move_text = await asyncio.wait_for(
            think(spec, rng.randrange(2**31), live.game.id, state, interactive), limit
        )
        return state.parse_move(move_text), None
    except asyncio.CancelledError:
        raise
    except Exception as error:
        reason = "took too long" if isinstance(error, TimeoutError) else f"failed ({error})"
        logger.error("game %s: the computer player %s %s; it plays a random move", live.id, spec, reason)
        moves = state.legal_moves()
        notice = f"{live.seats[seat].name} {reason}, so a random move was played for it."
        return moves[rng.randrange(len(moves))], notice
