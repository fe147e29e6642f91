"""The players' clocks: how much time each seat has, whose clock runs, and when it runs out.

A seat's clock starts with its first move (as lichess does): that move costs no time. A :data:`FISCHER`
clock charges each move's time to the mover's bank and adds the increment; a :data:`PER_MOVE` clock gives
every move the same time. Only the running clock changes with time, so a game's stored clock is the time
left when its turn started (``turn_started``).
"""

from __future__ import annotations

import datetime
from typing import Any

from shogames.core.protocol import CHANCE
from shogames.server.errors import ServiceError
from shogames.server.live import FISCHER, PER_MOVE, LiveGame, TimeControl


def check_time_control(control: TimeControl) -> None:
    """Check that a clock asked for is one the server runs.

    Raises:
        ServiceError: an unknown clock, or times out of range (400).
    """
    if control.kind == FISCHER:
        if not 1000 <= control.initial_ms <= 6 * 3600 * 1000 or not 0 <= control.increment_ms <= 600 * 1000:
            raise ServiceError(
                400, "a chess clock needs 1 second to 6 hours, and an increment of 0 to 600 seconds"
            )
    elif control.kind == PER_MOVE:
        if not 1000 <= control.limit_ms <= 3600 * 1000:
            raise ServiceError(400, "a time per move must be from 1 second to 1 hour")
    else:
        raise ServiceError(400, f"unknown clock {control.kind!r}; clocks: {FISCHER}, {PER_MOVE}")


def starting_clock(control: TimeControl | None, seats: int) -> list[int] | None:
    """Each seat's time bank at the start: a chess clock's initial time, else none."""
    if control is not None and control.kind == FISCHER:
        return [control.initial_ms] * seats
    return None


def budget_ms(control: TimeControl, clock_ms: list[int] | None, mover: int) -> int:
    """How long ``mover`` has for the turn that starts now: its bank, or the time per move."""
    if control.kind == FISCHER:
        assert clock_ms is not None
        return clock_ms[mover]
    return control.limit_ms


def charge(
    control: TimeControl | None,
    clock_ms: list[int] | None,
    mover: int,
    turn_started: datetime.datetime | None,
    now: datetime.datetime,
) -> int | None:
    """Charge a move's time to the mover's chess clock and add the increment (in place); its time left.

    ``None`` (and nothing charged) without a chess clock. The caller checks that the seat's clock has
    started.
    """
    if control is None or control.kind != FISCHER or clock_ms is None:
        return None
    spent = int(((now - (turn_started or now)).total_seconds()) * 1000)
    clock_ms[mover] = max(0, clock_ms[mover] - spent) + control.increment_ms
    return clock_ms[mover]


def deadline(live: LiveGame) -> tuple[int, datetime.datetime] | None:
    """The seat whose clock is running and when it runs out, if a clock is running."""
    control, mover = live.time_control, live.state.to_move
    if (
        control is None
        or not live.is_active
        or mover is None
        or mover == CHANCE
        or live.turn_started is None
        or not live.has_moved(mover)  # a seat's clock starts with its first move
    ):
        return None
    budget = budget_ms(control, live.clock_ms, mover)
    return mover, live.turn_started + datetime.timedelta(milliseconds=budget)


def ms_left(until: datetime.datetime, now: datetime.datetime) -> int:
    """Milliseconds from ``now`` until ``until``, never below 0."""
    return max(0, int((until - now).total_seconds() * 1000))


def clocks_at_finish(
    live: LiveGame, resigned: int | None, termination: str, now: datetime.datetime
) -> list[int] | None:
    """Each seat's time left when the game ends now: the running clock charged up to now.

    The seat that lost on time has none; a clock of moves (:data:`PER_MOVE`) stores each seat's time too.
    """
    clock = list(live.clock_ms) if live.clock_ms is not None else None
    control = live.time_control
    if control is not None and control.kind == PER_MOVE:
        clock = [control.limit_ms] * live.game.num_players
    running = deadline(live)
    if running is not None and clock is not None:
        clock[running[0]] = ms_left(running[1], now)
    if termination == "time forfeit" and clock is not None and resigned is not None:
        clock[resigned] = 0
    return clock


def clock_view(live: LiveGame, now: datetime.datetime) -> dict[str, Any] | None:
    """The clock as clients show it: the time control, each seat's time left, the running seat."""
    control = live.time_control
    if control is None:
        return None
    running = deadline(live)
    remaining = list(live.clock_ms) if live.clock_ms is not None else None
    left = None
    if running is not None:
        left = ms_left(running[1], now)
        if remaining is not None:
            remaining[running[0]] = left
    return {
        **control.as_json(),
        "remaining_ms": remaining,
        "running": running[0] if running else None,
        "move_left_ms": left,
    }
