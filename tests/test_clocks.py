"""Clocks as players expect them (findings, "Learn and play in the browser" 3 and 5; issue 17).

* A seat's clock starts with its first move, as lichess does: a person who has not arrived yet cannot
  lose on time, however long the others wait.
* After a game ends, the clocks show the time actually left: the running clock is charged up to the end,
  and the seat that lost on time shows 0:00, with a chess clock and with a clock of moves alike.

The service is driven directly on a real SQLite file, with time moved by hand.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from fake_clock import Clock
from shogames.core.protocol import CHANCE
from shogames.server.db import migrate, open_database
from shogames.server.service import FISCHER, PER_MOVE, PERSON, GameService, SeatRequest, TimeControl


async def service_on(tmp_path: Path, clock: Clock) -> GameService:
    url = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    await asyncio.to_thread(migrate, url)
    _, sessions = open_database(url)
    return GameService(sessions, rng=random.Random(3), now=clock, sweep_seconds=0)


async def close(service: GameService) -> None:
    await service.close()
    await service.sessions.kw["bind"].dispose()


async def move(service: GameService, game_id: str) -> None:
    """The seat to move plays its first legal move."""
    live = await service.get(game_id)
    mover = live.state.to_move
    assert mover is not None and mover != CHANCE
    await service.play(game_id, live.state.move_to_text(live.state.legal_moves()[0]), live.seats[mover].token)


def persons(count: int) -> list[SeatRequest]:
    return [SeatRequest(PERSON, name=f"P{index}") for index in range(count)]


def run(scenario: Any) -> None:
    asyncio.run(scenario())


def test_a_chess_clock_waits_for_each_seats_first_move(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await service_on(tmp_path, clock)
        control = TimeControl(FISCHER, initial_ms=60_000, increment_ms=2_000)
        live = await service.create("shobu", seats=persons(2), time_control=control)
        clock.advance(75)  # Black has not arrived yet: more than the whole clock goes by
        await service.sweep()
        assert live.is_active, f"a seat lost before its first move: {live.termination}"
        view = service.snapshot(live)["clock"]
        assert view["running"] is None and view["remaining_ms"] == [60_000, 60_000]
        await move(service, live.id)  # Black's first move: untimed
        clock.advance(90)  # White arrives late too
        await service.sweep()
        assert live.is_active
        assert service.snapshot(live)["clock"]["running"] is None
        await move(service, live.id)  # White's first move: untimed
        assert live.clock_ms == [60_000, 60_000]
        view = service.snapshot(live)["clock"]
        assert view["running"] == 0, "Black has moved, so Black's clock runs from now"
        clock.advance(10)
        await move(service, live.id)
        assert live.clock_ms == [52_000, 60_000]
        assert service.snapshot(live)["clock"]["running"] == 1
        await close(service)

    run(scenario)


def test_a_clock_of_moves_does_not_flag_an_invitee_who_comes_late(tmp_path: Path) -> None:
    """The findings' Shoo invitee who came after 75 s and found the game lost on time."""

    async def scenario() -> None:
        clock = Clock()
        service = await service_on(tmp_path, clock)
        live = await service.create(
            "shoo", seats=persons(2), time_control=TimeControl(PER_MOVE, limit_ms=60_000)
        )
        clock.advance(75)
        await service.sweep()
        assert live.is_active, f"lost before arriving: {live.result} {live.termination}"
        first = live.state.to_move
        while live.state.to_move == first:  # Shoo's first seat may decide who starts, then moves
            await move(service, live.id)
        clock.advance(75)
        await service.sweep()
        assert live.is_active, "the second seat's first move is not timed either"
        await move(service, live.id)
        assert service.snapshot(live)["clock"]["move_left_ms"] == 60_000
        clock.advance(61)
        await service.sweep()
        assert live.status == "finished" and live.termination == "time forfeit"
        await close(service)

    run(scenario)


def test_after_a_loss_on_time_the_clocks_show_zero_for_the_loser(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await service_on(tmp_path, clock)
        live = await service.create(
            "shobu", seats=persons(2), time_control=TimeControl(PER_MOVE, limit_ms=60_000)
        )
        await move(service, live.id)
        await move(service, live.id)
        clock.advance(61)  # Black runs out
        await service.sweep()
        assert live.termination == "time forfeit" and live.result == "0-1"
        view = service.snapshot(live)["clock"]
        assert view["running"] is None
        assert view["remaining_ms"] == [0, 60_000], view
        # It is stored: a reload (another process, a restart) shows the same.
        service.live.clear()
        again = service.snapshot(await service.get(live.id))["clock"]
        assert again["remaining_ms"] == [0, 60_000]
        await close(service)

    run(scenario)


def test_after_a_resignation_the_running_chess_clock_is_charged(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await service_on(tmp_path, clock)
        live = await service.create(
            "shobu", seats=persons(2), time_control=TimeControl(FISCHER, initial_ms=60_000, increment_ms=0)
        )
        await move(service, live.id)
        await move(service, live.id)
        clock.advance(25)  # Black thinks 25 s, then resigns
        await service.resign(live.id, live.seats[0].token)
        view = service.snapshot(live)["clock"]
        assert view["running"] is None and view["remaining_ms"] == [35_000, 60_000]
        clock.advance(100)
        assert service.snapshot(live)["clock"]["remaining_ms"] == [35_000, 60_000], "the clocks stopped"
        await close(service)

    run(scenario)
