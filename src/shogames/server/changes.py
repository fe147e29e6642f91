"""What one event does to a game: the plies it adds, the clock after it, and how the game stands.

A change is made here, written by :mod:`~shogames.server.storage`, and applied in memory here.

Every event (a move with its chance outcomes, a takeback, a resignation, a loss on time, a draw offer or
agreement) is one :class:`Change`, and one commit raises the game's version by one. Chance outcomes are
drawn with exactly their probabilities from the random source given, and stored as moves, in the same
change as the move that made them due, so no game is ever stored with dice due and nobody to throw them.
"""

from __future__ import annotations

import datetime
import json
import random
from dataclasses import dataclass, field
from typing import Any, Final

from shogames.core.chance import sample_chance
from shogames.core.protocol import CHANCE, State
from shogames.records import Record, finish_record, result_for
from shogames.server.clocks import budget_ms, charge, clocks_at_finish
from shogames.server.live import AI, LiveGame, Ply

WAITING_PERSON: Final = "person"
"""``games.waiting`` when a person's seat is to move."""
WAITING_AI: Final = "ai"
"""``games.waiting`` when a computer seat is to move."""
WAITING_CHANCE: Final = "chance"
"""``games.waiting`` when the dice (or the toss) are due: only ever seen after a crash of an old server."""


@dataclass
class Change:
    """What one commit writes: the plies it adds, and how the game stands after it."""

    plies: list[Ply]
    """The plies added, in order."""
    clock_ms: list[int] | None
    turn_started: datetime.datetime | None
    status: str
    result: str
    termination: str
    move_clocks: list[int | None] = field(default_factory=list)
    """Each added ply's mover's time left after it (chess clocks only)."""
    truncate_to: int | None = None
    """For a takeback: the number of plies kept."""
    draw_offer: int | None = None
    """The seat that offers a draw after the change (``None``: no offer stands)."""

    def kept(self, live: LiveGame) -> int:
        """How many of the game's plies stay: all of them, but for a takeback."""
        return self.truncate_to if self.truncate_to is not None else len(live.plies)

    def state_after(self, live: LiveGame) -> State[Any]:
        """The position after the change."""
        return self.plies[-1].after if self.plies else live.state_at(self.kept(live))

    def deadline(self, live: LiveGame) -> datetime.datetime | None:
        """When the clock that runs after the change runs out, if one runs (stored to find late players)."""
        control, mover = live.time_control, self.state_after(live).to_move
        if control is None or self.status != "active" or mover is None or mover == CHANCE:
            return None
        if self.turn_started is None:
            return None
        if not live.has_moved(mover, self.kept(live)) and all(ply.mover != mover for ply in self.plies):
            return None  # the seat has not moved yet: its clock has not started
        return self.turn_started + datetime.timedelta(milliseconds=budget_ms(control, self.clock_ms, mover))

    def waiting(self, live: LiveGame) -> str | None:
        """Who the game waits for after the change (``games.waiting``): a person, the computer, the dice."""
        if self.status != "active":
            return None
        mover = self.state_after(live).to_move
        if mover == CHANCE:
            return WAITING_CHANCE
        if mover is None:
            return None
        return WAITING_AI if live.seats[mover].kind == AI else WAITING_PERSON


def play_change(
    live: LiveGame, played: list[tuple[Any, int]], now: datetime.datetime, rng: random.Random
) -> Change:
    """The change that plays ``played`` (moves with their movers), then every chance outcome due after it."""
    clock = list(live.clock_ms) if live.clock_ms is not None else None
    control = live.time_control
    turn_started = live.turn_started
    state = live.state
    plies: list[Ply] = []
    move_clocks: list[int | None] = []
    for move, mover in played:
        # A seat's clock starts with its first move (as lichess does): that move costs no time.
        started = live.has_moved(mover) or any(earlier.mover == mover for earlier in plies)
        move_clocks.append(charge(control, clock, mover, turn_started, now) if started else None)
        plies.append(Ply.played(state, move, mover))
        turn_started = now
        state = plies[-1].after
    while not state.is_terminal() and state.to_move == CHANCE:
        plies.append(Ply.played(state, sample_chance(state, rng), CHANCE))
        move_clocks.append(None)
        state = plies[-1].after
    status, result, termination = live.status, live.result, live.termination
    if plies and state.is_terminal():
        status, result, termination = "finished", result_for(state), state.termination() or "normal"
    # A draw offer stands until the offerer's opponent moves (that move declines it) or the game ends.
    offer = live.draw_offer
    if offer is not None and (status != "active" or any(mover != offer for _, mover in played)):
        offer = None
    return Change(plies, clock, turn_started, status, result, termination, move_clocks, draw_offer=offer)


def offer_change(live: LiveGame, offer: int | None) -> Change:
    """A change that only sets (or clears) the standing draw offer."""
    return Change(
        plies=[],
        clock_ms=live.clock_ms,
        turn_started=live.turn_started,
        status=live.status,
        result=live.result,
        termination=live.termination,
        draw_offer=offer,
    )


def takeback_change(live: LiveGame, keep: int, now: datetime.datetime) -> Change:
    """A change that keeps the first ``keep`` plies; the turn starts again now."""
    return Change(
        plies=[],
        clock_ms=live.clock_ms,
        turn_started=now,
        status=live.status,
        result=live.result,
        termination=live.termination,
        truncate_to=keep,
    )


def finish_change(live: LiveGame, resigned: int | None, termination: str, now: datetime.datetime) -> Change:
    """A change that ends the game now by resignation, loss on time or an agreed draw.

    ``resigned`` is the seat that resigned or lost on time; ``None`` with termination ``agreement``. The
    clocks keep the time actually left (:func:`~shogames.server.clocks.clocks_at_finish`).
    """
    record = Record({})
    finish_record(record, live.state, resigned=resigned, termination=termination)
    return Change(
        plies=[],
        clock_ms=clocks_at_finish(live, resigned, termination, now),
        turn_started=live.turn_started,
        status="finished",
        result=record.result,
        termination=record.termination,
    )


def apply(live: LiveGame, change: Change, now: datetime.datetime) -> None:
    """Apply a committed change to the game in memory (its version goes up by one)."""
    if change.truncate_to is not None:
        del live.plies[change.truncate_to :]
    live.plies.extend(change.plies)
    live.version += 1
    live.clock_ms = change.clock_ms
    live.turn_started = change.turn_started
    live.status, live.result, live.termination = change.status, change.result, change.termination
    live.draw_offer = change.draw_offer
    live.updated_at = now
    if change.plies or change.truncate_to is not None:
        live.notice = None


NOTIFY_LIMIT: Final = 7900
"""The longest notification payload sent with the change in it (PostgreSQL takes 8,000 bytes)."""


@dataclass(frozen=True)
class RemoteEvent:
    """A change another process committed, as its notification carries it (:func:`event_payload`).

    A process whose copy stands at ``base`` applies it without reading the game again
    (:meth:`~shogames.server.sync.GameSync.apply_remote`); any other copy reads the database.
    """

    game_id: str
    version: int
    base: int
    truncate_to: int | None
    moves: list[tuple[str, int]]
    clock_ms: list[int] | None
    turn_started: datetime.datetime | None
    status: str
    result: str
    termination: str
    draw_offer: int | None
    updated_at: datetime.datetime


def _moment(value: datetime.datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _read_moment(value: object) -> datetime.datetime | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise ValueError("a moment is an ISO 8601 text")
    return datetime.datetime.fromisoformat(value)


def event_payload(live: LiveGame, change: Change, now: datetime.datetime) -> str:
    """The notification of a commit: the change itself as JSON, or ``ID:VERSION`` where it is too long.

    Other processes apply the change from it (no read of the game) when their copy stands at the version
    before it; a payload over :data:`NOTIFY_LIMIT` bytes sends only the id and version, and they read.
    """
    body = json.dumps(
        {
            "id": live.id,
            "version": live.version + 1,
            "base": live.version,
            "truncate_to": change.truncate_to,
            "moves": [[ply.text, ply.mover] for ply in change.plies],
            "clock_ms": change.clock_ms,
            "turn_started": _moment(change.turn_started),
            "status": change.status,
            "result": change.result,
            "termination": change.termination,
            "draw_offer": change.draw_offer,
            "updated_at": _moment(now),
        },
        separators=(",", ":"),
    )
    return body if len(body.encode()) <= NOTIFY_LIMIT else f"{live.id}:{live.version + 1}"


def read_event(payload: str) -> tuple[str, int, RemoteEvent | None] | None:
    """``(game id, version, the change or None)`` from a notification; ``None`` for one not ours."""
    if not payload.startswith("{"):
        game_id, _, version = payload.rpartition(":")
        return (game_id, int(version), None) if game_id and version.isdigit() else None
    try:
        data = json.loads(payload)
        event = RemoteEvent(
            game_id=str(data["id"]),
            version=int(data["version"]),
            base=int(data["base"]),
            truncate_to=None if data["truncate_to"] is None else int(data["truncate_to"]),
            moves=[(str(text), int(seat)) for text, seat in data["moves"]],
            clock_ms=None if data["clock_ms"] is None else [int(ms) for ms in data["clock_ms"]],
            turn_started=_read_moment(data["turn_started"]),
            status=str(data["status"]),
            result=str(data["result"]),
            termination=str(data["termination"]),
            draw_offer=None if data["draw_offer"] is None else int(data["draw_offer"]),
            updated_at=_read_moment(data["updated_at"]) or datetime.datetime.now(datetime.UTC),
        )
    except (ValueError, KeyError, TypeError):
        return None
    return event.game_id, event.version, event
