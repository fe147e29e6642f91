"""What clients are sent about a game: its snapshot after every event, any position of it, its record.

A snapshot is everything a client shows: the game, seats, position, legal moves, move list, clock and
result. It carries the game's version, so a client that reconnects with an old version catches up with
one message; it never contains a token. The body is made once per version and the clock, which changes
with time, is added fresh each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
from collections.abc import Callable, Sequence
from typing import Any

from shogames.core.protocol import CHANCE, State
from shogames.records import Record, start_record, write_record
from shogames.server.clocks import clock_view
from shogames.server.errors import ServiceError
from shogames.server.live import LiveGame, result_text
from shogames.server.views import last_move_targets, legal_move_views, views_for


class Snapshots:
    """Makes the snapshots of games and sends them to their listeners.

    Args:
        now: the clock (UTC wall time), for the clocks shown.
    """

    def __init__(self, now: Callable[[], datetime.datetime]) -> None:
        self.now = now

    def snapshot(self, live: LiveGame) -> dict[str, Any]:
        """Everything a client shows: the game, seats, position, legal moves, move list, clock and result.

        Made once per version (the clock, which changes with time, is added fresh). Never contains a token.
        """
        if live.cached is None or live.cached[0] != live.version:
            live.cached = (live.version, snapshot_body(live))
        return {**live.cached[1], "clock": clock_view(live, self.now())}

    def publish(self, live: LiveGame) -> None:
        """Send the game's snapshot to each of its listeners (a listener that lags loses its oldest one)."""
        if not live.listeners:
            return
        message = self.snapshot(live)
        for queue in list(live.listeners):
            if queue.full():
                with contextlib.suppress(asyncio.QueueEmpty):
                    queue.get_nowait()
            queue.put_nowait(message)

    def tell(self, live: LiveGame, notice: str) -> None:
        """Tell the players something that is not a move (it stays in the snapshot until the next move)."""
        live.notice = notice
        live.cached = None
        self.publish(live)


def subscribe(live: LiveGame) -> asyncio.Queue[dict[str, Any]]:
    """A queue that receives the game's snapshot after every event, until :func:`unsubscribe`."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=4)
    live.listeners.add(queue)
    return queue


def unsubscribe(live: LiveGame, queue: asyncio.Queue[dict[str, Any]]) -> None:
    """Stop sending events to ``queue``."""
    live.listeners.discard(queue)
    live.touched = asyncio.get_running_loop().time()


def snapshot_body(live: LiveGame) -> dict[str, Any]:
    """The snapshot without its clock: everything in it that changes only with an event."""
    game = live.game
    state = live.state
    return {
        "type": "game",
        "id": live.id,
        "version": live.version,
        "game": {
            "id": game.id,
            "name": game.name,
            "settings": game.settings_text(),
            "preset": live.preset,
            "players": list(game.player_names),
        },
        "mode": live.mode,
        "status": live.status,
        "result": live.result,
        "termination": live.termination,
        "result_text": result_text(game, live.result, live.termination),
        "notice": live.notice,
        "draw_offer": live.draw_offer if live.is_active else None,
        "seats": [
            {"seat": seat.seat, "name": seat.name, "kind": seat.kind, "agent": seat.agent}
            for seat in live.seats
        ],
        "ply": len(live.plies),
        "to_move": state.to_move if live.is_active else None,
        "position": views_for(game.id).position_view(state),
        "position_text": state.to_text(),  # for the analysis board's link
        "legal": legal_move_views(state) if live.is_active else [],
        "last": _last_targets(live, len(live.plies)),
        "moves": [
            {"ply": number, "text": ply.text, "seat": ply.mover, **({"note": ply.note} if ply.note else {})}
            for number, ply in enumerate(live.plies, start=1)
        ],
    }


def _last_targets(live: LiveGame, ply: int) -> list[str]:
    """The squares of the last seat's move (not the dice's) within the first ``ply`` plies."""
    for index in range(ply - 1, -1, -1):
        if live.plies[index].mover != CHANCE:
            return last_move_targets(live.state_at(index), live.plies[index].move)
    return []


def _step(ply: int, state: State[Any], last: list[str]) -> dict[str, Any]:
    return {
        "ply": ply,
        "to_move": state.to_move,
        "position": views_for(state.game.id).position_view(state),
        "position_text": state.to_text(),  # for the analysis board's link
        "last": last,
    }


def position_at(live: LiveGame, ply: int) -> dict[str, Any]:
    """The position after ``ply`` moves (0 for the start), to step through the game.

    Raises:
        ServiceError: no such ply (404).
    """
    if not 0 <= ply <= len(live.plies):
        raise ServiceError(404, f"ply {ply} is not in this game, which has {len(live.plies)} moves")
    return _step(ply, live.state_at(ply), _last_targets(live, ply))


def position_step(
    states: Sequence[State[Any]], moves: Sequence[Any], movers: Sequence[int], ply: int
) -> dict[str, Any]:
    """The position after ``ply`` moves of a replay: the board, who moves, the last seat's move."""
    last: list[str] = []
    for index in range(ply - 1, -1, -1):
        if movers[index] != CHANCE:
            last = last_move_targets(states[index], moves[index])
            break
    return _step(ply, states[ply], last)


def record(live: LiveGame) -> Record:
    """The game's record: headers (with the time control), every move and dice throw, the result."""
    control = live.time_control.header() if live.time_control else None
    made = start_record(
        live.game,
        [seat.name for seat in live.seats],
        time_control=control,
        date=live.created_at.date(),
        position=live.start_position,
    )
    for ply in live.plies:
        made.add_move(ply.text)
    made.headers["Result"] = live.result
    made.headers["Termination"] = live.termination
    return made


def record_text(live: LiveGame) -> str:
    """The record as text (``shogames replay`` reads it)."""
    return write_record(record(live))
