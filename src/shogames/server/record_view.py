"""The record viewer's work: check an uploaded record, replay it and draw a window of its positions.

:func:`replay_view` runs in a worker process (:mod:`shogames.server.workers`), never in the server's event
loop: replaying checks every move of the record against the rules, which takes a while for a long game.

Limits (a record beyond them is refused with a message that names the limit):

* :data:`MAX_RECORD_BYTES`: 256 KiB of record text. A full-length game of any of the four games under its
  default length cap takes at most a few tens of KiB (a Shoo game of 1,000 standing moves, about 12 KiB).
* :data:`MAX_RECORD_PLIES`: 10,000 plies (dice throws and tosses count). The longest games under the
  games' default length caps stay below it: Shobu stops at 300 turns, Shogammon at 1,000 rolls of at most
  three plies each, Shoo at 1,000 standing moves (with its tosses and hushes), and a two-player Sho game
  reaches its 2,000-turn cap only in a contrived record.
* :data:`MAX_STEPS`: an answer draws at most 200 positions (a position is 1 to 3 KiB of JSON); the viewer
  asks for another window when it steps outside the one it has.
"""

from __future__ import annotations

from typing import Any, Final

from shogames.core.errors import ShogamesError
from shogames.records import UNFINISHED, parse_record, replay
from shogames.server.live import result_text
from shogames.server.snapshots import position_step

MAX_RECORD_BYTES: Final = 256 * 1024
"""The largest record text the viewer replays, in bytes (UTF-8)."""

MAX_RECORD_PLIES: Final = 10_000
"""The most plies (moves, dice throws and tosses) of a record the viewer replays."""

MAX_STEPS: Final = 200
"""The most positions one answer of the viewer draws."""

REPLAY_SECONDS: Final = 30.0
"""How long a replay may take in its worker before it is stopped and refused."""


class RecordError(Exception):
    """A record the viewer does not replay, with the HTTP status and the reason."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(status, message)
        self.status = status
        self.message = message


def replay_view(text: str, around: int | None = None, count: int = MAX_STEPS) -> dict[str, Any]:
    """Check and replay a record; its headers, every move, and the positions of a window of plies.

    Args:
        text: the record, as ``shogames`` writes it.
        around: the ply whose position the window holds (centred on it where it can be); the last by
            default.
        count: how many positions the window holds, 1 to :data:`MAX_STEPS`.

    Returns:
        ``game`` (id, name, settings, players), ``names`` of the players, ``result_text``, ``finished``
        (whether the record has a result), ``moves`` (every ply: number, text and seat, ``-1`` for
        chance), ``plies`` (how many), and ``steps``: the positions
        after plies ``first_step`` to ``first_step + len(steps) - 1``, as ``GET
        /api/games/{id}/positions/{ply}`` gives them.

    Raises:
        RecordError: a record over the limits (413 for its size, 400 for its plies), or one that does not
            follow the rules (400, with the line and the reason).
    """
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(413, f"a record may have at most {MAX_RECORD_BYTES} bytes, this one has {size}")
    if not 1 <= count <= MAX_STEPS:
        raise RecordError(400, f"'count' must be from 1 to {MAX_STEPS}, got {count}")
    if around is not None and around < 0:
        raise RecordError(400, f"'around' must be a ply from 0, got {around}")
    try:
        record = parse_record(text)
        if len(record.moves) > MAX_RECORD_PLIES:
            raise RecordError(
                400, f"a record may have at most {MAX_RECORD_PLIES} plies, this one has {len(record.moves)}"
            )
        played = replay(record)
    except ShogamesError as error:
        raise RecordError(400, f"record refused: {error}") from None
    except (ValueError, ArithmeticError, RecursionError) as error:  # a reader's last line of defence
        raise RecordError(400, f"record refused: {error}") from None
    plies = len(played.moves)
    centre = plies if around is None else min(around, plies)
    first = max(0, min(centre - count // 2, plies + 1 - count))
    last = min(plies, first + count - 1)
    movers = [state.to_move if state.to_move is not None else -1 for state in played.states[:-1]]
    game = played.game
    return {
        "game": {
            "id": game.id,
            "name": game.name,
            "settings": game.settings_text(),
            "players": list(game.player_names),
        },
        "names": [record.headers.get(seat, "?") for seat in game.player_names],
        "result_text": result_text(game, record.result, record.termination),
        "finished": record.result != UNFINISHED,
        "moves": [
            {"ply": index + 1, "text": move_text, "seat": movers[index]}
            for index, move_text in enumerate(record.moves)
        ],
        "plies": plies,
        "first_step": first,
        "steps": [position_step(played.states, played.moves, movers, ply) for ply in range(first, last + 1)],
    }
