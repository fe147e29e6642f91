"""The game service under faults: restarts, downtime, failing computer players, memory, several processes.

Each test drives :class:`GameService` directly on a real database, a SQLite file and then PostgreSQL (the
``database_url`` fixture), with time moved by hand where it matters; the same scenarios through a real
server process are in ``test_durability.py`` and ``test_multiprocess.py``.
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import random
from typing import Any

import pytest
from sqlalchemy import delete, select, update

from fake_clock import Clock
from shogames.core.protocol import CHANCE, State
from shogames.server.db import GameRow, MoveRow, ServiceClockRow, migrate, open_database
from shogames.server.service import (
    AI,
    FISCHER,
    PER_MOVE,
    PERSON,
    GameService,
    LiveGame,
    SeatRequest,
    ServiceError,
    TimeControl,
)

_MIGRATED: set[str] = set()


def texts(live: LiveGame) -> list[str]:
    """The texts of the game's plies, in order."""
    return [ply.text for ply in live.plies]


async def service_on(url: str, **options: Any) -> GameService:
    """A service on the test's database (migrated on first use); no sweep unless asked for."""
    if url not in _MIGRATED:
        await asyncio.to_thread(migrate, url)
        _MIGRATED.add(url)
    _, sessions = open_database(url)
    options.setdefault("sweep_seconds", 0)
    options.setdefault("rng", random.Random(7))
    return GameService(sessions, **options)


async def finish(*services: GameService) -> None:
    """Close the services and their database engines."""
    for service in services:
        await service.close()
        await service.sessions.kw["bind"].dispose()


def persons(count: int) -> list[SeatRequest]:
    return [SeatRequest(PERSON)] * count


def first_move(state: State[Any]) -> str:
    return state.move_to_text(state.legal_moves()[0])


async def play_first(service: GameService, game_id: str) -> None:
    live = await service.get(game_id)
    mover = live.state.to_move
    assert mover is not None and mover != CHANCE
    await service.play(game_id, first_move(live.state), live.seats[mover].token)


# --- Dice due at start-up (findings, server defect 1) ----------------------------------------------------


def test_a_move_and_the_dice_after_it_are_one_event(database_url: str) -> None:
    async def scenario() -> None:
        service = await service_on(database_url)
        live = await service.create("sho", settings="players=2", seats=persons(2))
        version = live.version
        await play_first(service, live.id)
        assert live.state.to_move != CHANCE
        assert live.version == version + 1, "the move and its dice commit together, as one event"
        await finish(service)

    asyncio.run(scenario())


@pytest.mark.parametrize("game, settings", [("sho", "players=2"), ("shogammon", ""), ("shoo", "")])
def test_dice_due_at_a_restart_are_thrown(database_url: str, game: str, settings: str) -> None:
    """The reproduction of the findings: a kill left the dice unthrown; a restart must throw them."""

    async def scenario() -> None:
        service = await service_on(database_url)
        live = await service.create(game, settings=settings, seats=persons(2))
        while live.plies[-1].mover != CHANCE:
            await play_first(service, live.id)
        await service.close()
        # What an older server (a move and its dice in two commits) left after a kill between them.
        async with service.sessions() as session, session.begin():
            last = await session.scalar(select(func_max_ply()).where(MoveRow.game_id == live.id))
            row = await session.get(MoveRow, (live.id, last))
            assert row is not None and row.seat == CHANCE, "the last stored move is a chance outcome"
            await session.execute(delete(MoveRow).where(MoveRow.game_id == live.id, MoveRow.ply == last))
            await session.execute(
                update(GameRow).where(GameRow.id == live.id).values(version=GameRow.version - 1, waiting=None)
            )

        restarted = await service_on(database_url)
        await restarted.start()
        again = await restarted.get(live.id)
        assert again.state.to_move not in (None, CHANCE), "the dice were thrown at start-up"
        await play_first(restarted, live.id)
        await finish(restarted, service)

    asyncio.run(scenario())


def func_max_ply() -> Any:
    from sqlalchemy import func

    return func.max(MoveRow.ply)


# --- Clocks across downtime (defect 2) ---------------------------------------------------------------------


@pytest.mark.parametrize("control", [TimeControl(PER_MOVE, limit_ms=60_000), TimeControl(FISCHER, 60_000, 0)])
def test_the_servers_downtime_is_not_charged_to_the_player_to_move(
    database_url: str, control: TimeControl
) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await service_on(database_url, now=clock)
        await service.start()
        live = await service.create("shobu", seats=persons(2), time_control=control)
        for _ in range(2):  # each seat's first move is untimed (tests/test_clocks.py)
            await play_first(service, live.id)
        clock.advance(5)
        await play_first(service, live.id)  # White's clock starts now
        clock.advance(20)  # White thinks for 20 s, then the server dies...
        await service.sweep()  # (its last sign of life)
        clock.advance(3600)  # ...and is down for an hour
        restarted = await service_on(database_url, now=clock)
        await restarted.start()
        again = await restarted.get(live.id)
        assert again.is_active, f"the game was lost to the downtime: {again.termination}"
        left = restarted.snapshot(again)["clock"]
        assert left["running"] == 1
        remaining = left["move_left_ms"] if control.kind == PER_MOVE else left["remaining_ms"][1]
        assert 39_000 <= remaining <= 40_000, remaining
        clock.advance(39)
        await play_first(restarted, live.id)
        await finish(restarted, service)

    asyncio.run(scenario())


def test_a_restart_without_downtime_changes_no_clock(database_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await service_on(database_url, now=clock)
        await service.start()
        live = await service.create(
            "shobu", seats=persons(2), time_control=TimeControl(PER_MOVE, limit_ms=60_000)
        )
        for _ in range(2):  # each seat's first move is untimed (tests/test_clocks.py)
            await play_first(service, live.id)
        clock.advance(30)
        await service.sweep()
        clock.advance(0.5)
        restarted = await service_on(database_url, now=clock)
        await restarted.start()
        left = restarted.snapshot(await restarted.get(live.id))["clock"]["move_left_ms"]
        assert 29_000 <= left <= 29_500, left
        await finish(restarted, service)

    asyncio.run(scenario())


def test_the_sweep_marks_the_service_alive_and_flags_late_players(database_url: str) -> None:
    async def scenario() -> None:
        clock = Clock()
        service = await service_on(database_url, now=clock)
        await service.start()
        live = await service.create(
            "shobu", seats=persons(2), time_control=TimeControl(PER_MOVE, limit_ms=5_000)
        )
        for _ in range(2):  # each seat's first move is untimed (tests/test_clocks.py)
            await play_first(service, live.id)
        service.live.clear()  # not in memory: only the sweep can find it
        clock.advance(6)
        await service.sweep()
        async with service.sessions() as session:
            alive = await session.scalar(select(ServiceClockRow.alive_at))
            row = await session.get(GameRow, live.id)
        assert alive is not None and alive.replace(tzinfo=datetime.UTC) == clock()
        assert row is not None and row.status == "finished" and row.termination == "time forfeit"
        assert row.result == "0-1"
        await finish(service)

    asyncio.run(scenario())


# --- Computer players (defect 4) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec, words",
    [
        ("mcts:seconds=inf", "finite"),
        ("mcts:seconds=nan", "finite"),
        ("mcts:seconds=60", "at most 5"),
        ("mcts:seconds=-1", "time budget must be positive"),
        ("mcts:iterations=-1", "at least 1"),
        ("mcts:iterations=1000000", "at most 10000"),
        ("alphabeta:depth=99", "at most 8"),
        ("alphabeta:depth=0", "at least 1"),
        ("greedy:noise=2", "probability"),
        ("alphabeta:depth=" + "9" * 5000, "integer"),
        ("nosuchagent", "unknown agent"),
    ],
)
def test_agent_specs_past_the_limits_are_refused_with_reasons(
    database_url: str, spec: str, words: str
) -> None:
    async def scenario() -> None:
        service = await service_on(database_url)
        with pytest.raises(ServiceError) as refused:
            await service.create("shobu", seats=[SeatRequest(PERSON), SeatRequest(AI, agent=spec)])
        assert refused.value.status == 400 and words in refused.value.message, refused.value.message
        await finish(service)

    asyncio.run(scenario())


def test_levels_and_bounded_specs_are_accepted(database_url: str) -> None:
    async def scenario() -> None:
        service = await service_on(database_url)
        for spec in (
            "hard",
            "random",
            "mcts:iterations=10000",
            "alphabeta:depth=8,seconds=5",
            "greedy:noise=1",
        ):
            await service.create("shobu", seats=[SeatRequest(PERSON), SeatRequest(AI, agent=spec)])
        await finish(service)

    asyncio.run(scenario())


def test_a_failing_computer_player_does_not_leave_its_game_stuck(
    database_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(spec: str, seed: int, game_id: str, state: State[Any], interactive: bool) -> str:
        raise RuntimeError("out of memory")

    async def scenario() -> None:
        service = await service_on(database_url, think=broken)
        live = await service.create("shobu", seats=[SeatRequest(AI, agent="hard"), SeatRequest(PERSON)])
        for _ in range(100):
            if live.plies:
                break
            await asyncio.sleep(0.02)
        assert len(live.plies) == 1 and live.state.to_move == 1, "a move was played for the broken player"
        assert live.notice is not None and "random move" in live.notice
        assert service.snapshot(live)["notice"] == live.notice
        await play_first(service, live.id)
        await finish(service)

    with caplog.at_level(logging.ERROR, logger="shogames.server"):
        asyncio.run(scenario())
    assert any("out of memory" in record.getMessage() for record in caplog.records)


def test_a_computer_player_past_its_time_is_abandoned(database_url: str) -> None:
    from shogames.server.service import ComputerLimits

    async def stuck(spec: str, seed: int, game_id: str, state: State[Any], interactive: bool) -> str:
        await asyncio.sleep(3600)
        raise AssertionError("never")

    async def scenario() -> None:
        limits = ComputerLimits(max_seconds=0.1, grace_seconds=0.1)
        service = await service_on(database_url, think=stuck, limits=limits)
        live = await service.create("shobu", seats=[SeatRequest(AI, agent="random"), SeatRequest(PERSON)])
        for _ in range(100):
            if live.plies:
                break
            await asyncio.sleep(0.05)
        assert len(live.plies) == 1 and live.notice is not None and "too long" in live.notice
        await finish(service)

    asyncio.run(scenario())


def test_the_sweep_takes_over_a_computer_player_nobody_drives(database_url: str) -> None:
    async def never(spec: str, seed: int, game_id: str, state: State[Any], interactive: bool) -> str:
        await asyncio.sleep(3600)
        raise AssertionError("never")

    async def scenario() -> None:
        clock = Clock()
        dead = await service_on(database_url, now=clock, think=never)
        live = await dead.create("shobu", seats=[SeatRequest(PERSON), SeatRequest(AI, agent="random")])
        await play_first(dead, live.id)  # the computer is to move, and its process dies thinking
        await finish(dead)
        survivor = await service_on(database_url, now=clock)
        await survivor.sweep()
        assert (await survivor.get(live.id)).state.to_move == 1, (
            "too early: the other process may be thinking"
        )
        clock.advance(60)
        await survivor.sweep()
        again = await survivor.get(live.id)
        for _ in range(100):
            if len(again.plies) == 2:
                break
            await asyncio.sleep(0.02)
        assert len(again.plies) == 2 and again.state.to_move == 0
        await finish(survivor)

    asyncio.run(scenario())


# --- Memory (defect 6) ------------------------------------------------------------------------------


def test_idle_and_finished_games_leave_memory_and_come_back(database_url: str) -> None:
    async def scenario() -> None:
        service = await service_on(database_url, idle_seconds=0.2, finished_seconds=0.0)
        done = await service.create("shobu", seats=persons(2))
        await service.resign(done.id, done.seats[0].token)
        playing = await service.create("shobu", seats=persons(2))
        await play_first(service, playing.id)
        watched = await service.create("shobu", seats=persons(2))
        queue = service.subscribe(watched)
        assert service.evict() == 1 and done.id not in service.live
        await asyncio.sleep(0.25)
        assert service.evict() == 1 and set(service.live) == {watched.id}
        again = await service.get(playing.id)
        assert again is not playing and texts(again) == texts(playing) and again.version == playing.version
        await play_first(service, playing.id)
        service.unsubscribe(watched, queue)
        await finish(service)

    asyncio.run(scenario())


def test_looking_up_unknown_games_leaves_nothing_behind(database_url: str) -> None:
    async def scenario() -> None:
        service = await service_on(database_url)
        for number in range(200):
            with pytest.raises(ServiceError) as missing:
                await service.get(f"nosuch{number}")
            assert missing.value.status == 404
        with pytest.raises(ServiceError):
            await service.get("x" * 10_000)
        assert not service.games.loading and not service.live
        await finish(service)

    asyncio.run(scenario())


# --- Two processes on one database (scale past one process) ----------------------------------------------


def test_two_services_on_one_database_accept_one_of_racing_moves_and_stay_coherent(database_url: str) -> None:
    async def scenario() -> None:
        one = await service_on(database_url, shared=True)
        two = await service_on(database_url, shared=True)
        live = await one.create("shobu", seats=persons(2))
        black, white = (seat.token for seat in live.seats)
        await two.get(live.id)  # both processes hold a copy
        moves = ["BDa1-a3 WLb1-b3", "BDb1-b3 WLa1-a3", "BDa1-a2 WLb1-b2"]
        results = await asyncio.gather(
            *(service.play(live.id, move, black) for service in (one, two) for move in moves),
            return_exceptions=True,
        )
        accepted = [result for result in results if not isinstance(result, BaseException)]
        refused = [result for result in results if isinstance(result, ServiceError)]
        assert len(accepted) == 1 and len(refused) == 5, results
        assert all(error.status == 409 for error in refused)
        # The copy that lost the race catches up before it answers, and White can move through either.
        second = await two.fresh(live.id)
        first = await one.fresh(live.id)
        assert texts(second) == texts(first) and second.version == first.version
        await two.play(live.id, first_move(second.state), white)
        await one.play(live.id, first_move((await one.fresh(live.id)).state), black)
        assert texts(await two.fresh(live.id)) == texts(await one.fresh(live.id))
        await finish(one, two)

    asyncio.run(scenario())


def test_a_takeback_in_one_process_is_seen_by_the_other(database_url: str) -> None:
    async def scenario() -> None:
        one = await service_on(database_url, shared=True)
        two = await service_on(database_url, shared=True)
        live = await one.create("shobu", seats=[SeatRequest(PERSON), SeatRequest(AI, agent="random")])
        token = live.seats[0].token
        await one.play(live.id, first_move(live.state), token)
        for _ in range(200):
            if len(live.plies) == 2:
                break
            await asyncio.sleep(0.02)
        other = await two.fresh(live.id)
        assert len(other.plies) == 2
        await two.takeback(live.id, token)
        assert len((await one.fresh(live.id)).plies) == 0
        await finish(one, two)

    asyncio.run(scenario())


def test_another_process_applies_a_move_from_its_notification_without_reading_the_game(
    postgres_url: str,
) -> None:
    """The findings: with --workers N the CPU per move grew with N (5.6, 8.8, 10.4 ms at 1, 2 and 4), since
    every notification made every other process read the game again. Now it carries the change."""
    from shogames.server.events import PostgresEvents

    async def scenario() -> None:
        one = await service_on(postgres_url, shared=True)
        two = await service_on(postgres_url, shared=True)
        events = PostgresEvents(postgres_url, two)
        await events.start()
        live = await one.create("shobu", seats=persons(2))
        black, white = (seat.token for seat in live.seats)
        copy = await two.get(live.id)
        reads = 0
        read = two.store.read_if_newer

        async def counted(game_id: str, version: int) -> GameRow | None:
            nonlocal reads
            reads += 1
            return await read(game_id, version)

        two.store.read_if_newer = counted  # type: ignore[method-assign]
        tokens = [black, white]
        for number in range(4):
            await one.play(live.id, first_move((await one.fresh(live.id)).state), tokens[number % 2])
            for _ in range(250):
                if copy.version == live.version:
                    break
                await asyncio.sleep(0.02)
            assert copy.version == live.version and texts(copy) == texts(live)
        await one.takeback(live.id, white)
        for _ in range(250):
            if copy.version == live.version:
                break
            await asyncio.sleep(0.02)
        assert texts(copy) == texts(live) and len(copy.plies) == len(live.plies)
        assert copy.clock_ms == live.clock_ms and copy.status == live.status
        assert reads == 0, f"the other process read the game {reads} times"
        await events.close()
        await finish(one, two)

    asyncio.run(scenario())


def test_a_database_that_does_not_answer_is_a_503_that_changes_nothing(database_url: str) -> None:
    """Under a load past the connection pool, a request waited 30 s and then broke its WebSocket (1011)."""
    from sqlalchemy.exc import TimeoutError as PoolTimeout

    async def scenario() -> None:
        service = await service_on(database_url)
        live = await service.create("shobu", seats=persons(2))
        sessions = service.sessions

        def exhausted() -> Any:
            raise PoolTimeout("QueuePool limit of size 5 overflow 10 reached")

        service.sessions = exhausted  # type: ignore[assignment]
        with pytest.raises(ServiceError) as busy:
            await play_first(service, live.id)
        assert busy.value.status == 503 and "try again" in busy.value.message
        assert all(ply.mover == CHANCE for ply in live.plies)
        service.sessions = sessions
        await play_first(service, live.id)
        await finish(service)

    asyncio.run(scenario())


def test_processes_starting_together_on_a_new_database_all_start(database_url: str) -> None:
    """Four workers starting at once each added the service clock's row: all but one failed to start."""

    async def scenario() -> None:
        first = await service_on(database_url)
        async with first.sessions() as session, session.begin():
            await session.execute(delete(ServiceClockRow))  # as a database that never had the row
        services = [first] + [await service_on(database_url) for _ in range(3)]
        await asyncio.gather(*(service.start() for service in services))
        async with first.sessions() as session:
            assert len((await session.scalars(select(ServiceClockRow))).all()) == 1
        await finish(*services)

    asyncio.run(scenario())
