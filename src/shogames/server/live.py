"""What a game in play is, as the server holds it in memory: its seats, its clock, and one list of plies.

A :class:`LiveGame` holds the start position and a :class:`Ply` for every move since (the move, its text,
who made it, the state after it, and its note), so the position after any ply, and the move list sent to
clients, come from that one list. The server holds no rules: states, moves and notes come from the
protocol and the game's view module.
"""

from __future__ import annotations

import asyncio
import datetime
import secrets
from dataclasses import dataclass, field
from typing import Any, Final

from shogames.core.protocol import Game, State
from shogames.server.views import move_note

PERSON: Final = "person"
"""Seat kind of a person, who moves with the seat's secret token."""
AI: Final = "ai"
"""Seat kind of the computer, which plays an AI level or agent spec."""

FISCHER: Final = "fischer"
"""Clock kind: a time bank per seat with an increment after each of its moves (a chess clock)."""
PER_MOVE: Final = "per_move"
"""Clock kind: at most so long for each move, or the game is lost (the designers' rule for Shoo)."""


@dataclass(frozen=True)
class SeatRequest:
    """How one seat is played in a game to be created.

    Attributes:
        kind: :data:`PERSON` or :data:`AI`.
        name: the player's name for the record (a person's choice; the level for an AI by default).
        agent: for an AI seat, a level (``hard``) or an agent spec (``mcts:iterations=500``).
    """

    kind: str
    name: str | None = None
    agent: str | None = None


@dataclass(frozen=True)
class TimeControl:
    """A clock: :data:`FISCHER` (``initial_ms``, ``increment_ms``) or :data:`PER_MOVE` (``limit_ms``)."""

    kind: str
    initial_ms: int = 0
    increment_ms: int = 0
    limit_ms: int = 0

    def header(self) -> str:
        """The TimeControl header as PGN writes it: ``300+2`` (seconds), or ``1/60`` (a move a minute)."""
        if self.kind == FISCHER:
            return f"{self.initial_ms // 1000}+{self.increment_ms // 1000}"
        return f"1/{self.limit_ms // 1000}"

    def as_json(self) -> dict[str, Any]:
        """The time control as stored and sent to clients."""
        return {
            "kind": self.kind,
            "initial_ms": self.initial_ms,
            "increment_ms": self.increment_ms,
            "limit_ms": self.limit_ms,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> TimeControl | None:
        """Read a stored time control (``None`` for a game without a clock)."""
        if not data:
            return None
        return cls(data["kind"], data["initial_ms"], data["increment_ms"], data["limit_ms"])


@dataclass
class Seat:
    """One seat of a live game."""

    seat: int
    name: str
    kind: str
    agent: str | None
    token: str | None


@dataclass(frozen=True)
class Ply:
    """One move of a game as played: the move, its text, the seat that made it, the state after it, its note.

    Attributes:
        move: the move, as the game's states take it.
        text: the move in the game's notation, as stored and shown.
        mover: the seat that made it (``CHANCE`` for the dice or the toss).
        after: the state after it.
        note: what the move did that its text does not say (dice lost, a turn passed), or ``None``.
    """

    move: Any
    text: str
    mover: int
    after: State[Any]
    note: str | None

    @classmethod
    def played(cls, before: State[Any], move: Any, mover: int, text: str | None = None) -> Ply:
        """The ply of ``move`` played by ``mover`` in ``before`` (the state writes its text if not given)."""
        after = before.play_unchecked(move)
        if text is None:
            text = before.move_to_text(move)
        return cls(move, text, mover, after, move_note(before, move, after))


@dataclass
class LiveGame:
    """A game held in memory: its settings, seats, start position and plies, its clock and listeners."""

    id: str
    game: Game[Any]
    preset: str | None
    mode: str
    seats: list[Seat]
    status: str
    result: str
    termination: str
    version: int
    time_control: TimeControl | None
    clock_ms: list[int] | None
    turn_started: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    start: State[Any]
    """The position the game started from (the game's initial state, or a position given at creation)."""
    start_position: str | None = None
    plies: list[Ply] = field(default_factory=list)
    """Every move since the start, the dice and the toss included, in order."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    listeners: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    ai_task: asyncio.Task[None] | None = None
    timer: asyncio.Task[None] | None = None
    notice: str | None = None
    """Something the players should know that is not a move: a computer player that failed, say."""
    touched: float = 0.0
    """When (the event loop's clock) the game was last used in this process, for eviction."""
    cached: tuple[int, dict[str, Any]] | None = None
    """The snapshot without its clock, and the version it was made at."""
    draw_offer: int | None = None
    """The seat that offers a draw, until the other seat answers it or moves (a person's ``draw``)."""

    @property
    def state(self) -> State[Any]:
        """The current position."""
        return self.state_at(len(self.plies))

    def state_at(self, ply: int) -> State[Any]:
        """The position after ``ply`` plies (0 for the start)."""
        return self.plies[ply - 1].after if ply > 0 else self.start

    @property
    def is_active(self) -> bool:
        """Whether the game is still being played."""
        return self.status == "active"

    def has_moved(self, seat: int, within: int | None = None) -> bool:
        """Whether ``seat`` made a move among the first ``within`` plies (all of them by default)."""
        plies = self.plies if within is None else self.plies[:within]
        return any(ply.mover == seat for ply in plies)

    def seat_of_token(self, token: str | None) -> Seat | None:
        """The person's seat whose secret token this is, if any.

        Any text is accepted (an unknown or non-ASCII one matches no seat); tokens are compared as UTF-8
        bytes, in constant time.
        """
        if not token or not isinstance(token, str):
            return None
        given = token.encode("utf-8", "surrogatepass")
        for seat in self.seats:
            if seat.token is not None and secrets.compare_digest(seat.token.encode(), given):
                return seat
        return None


def result_text(game: Game[Any], result: str, termination: str) -> str:
    """The outcome in words: ``Black wins (resignation)``, ``Draw (normal)``, or the scores."""
    if result == "*":
        return "in progress" if termination == "unterminated" else termination
    scores = result.split("-")
    winners = [name for name, score in zip(game.player_names, scores, strict=False) if score == "1"]
    if len(winners) == 1:
        text = f"{winners[0]} wins"
    elif len(set(scores)) == 1:
        text = "Draw"
    else:
        best = max(scores, key=lambda score: score_value(score))
        leaders = [name for name, score in zip(game.player_names, scores, strict=False) if score == best]
        text = " and ".join(leaders) + (" win" if len(leaders) > 1 else " wins")
    return f"{text} ({termination})"


def score_value(text: str) -> float:
    """The value of a score written ``1``, ``0`` or ``a/b``."""
    numerator, _, denominator = text.partition("/")
    return int(numerator) / int(denominator or 1)
