"""A new game as asked for, each part checked: its game and settings, seats, mode, clock and start position.

A request refused gets a message that says why. A person's seat gets its secret token here.
"""

from __future__ import annotations

import datetime
import secrets
from collections.abc import Sequence
from typing import Any, Final

from shogames.agents.base import level_names
from shogames.core.errors import ShogamesError
from shogames.core.protocol import Game
from shogames.core.registry import make
from shogames.core.settings import parse_settings_text
from shogames.records import start_position_text
from shogames.server.clocks import check_time_control, starting_clock
from shogames.server.computer import ComputerLimits
from shogames.server.errors import ServiceError
from shogames.server.live import AI, PERSON, LiveGame, Seat, SeatRequest, TimeControl

MODES: Final = ("computer", "hotseat", "online")
"""How a game is played: against the computer, on one screen, or online by invite links."""

MAX_NAME: Final = 40
"""The longest name a player may give."""


def new_game(
    game_id: str,
    *,
    preset: str | None,
    settings: str,
    seats: Sequence[SeatRequest],
    time_control: TimeControl | None,
    mode: str | None,
    position: str | None,
    limits: ComputerLimits,
    now: datetime.datetime,
) -> LiveGame:
    """The game asked for, not stored yet (see :meth:`~shogames.server.service.GameService.create`).

    Raises:
        ServiceError: an unknown game, preset, setting or AI level, an agent spec past the server's
            limits, the wrong number of seats, a bad name, clock or position, or a position where the
            game is already over (400).
    """
    try:
        game_class = make(game_id).__class__
        values = parse_settings_text(game_class.setting_specs, settings) if settings.strip() else {}
        game = make(game_id, preset or None, **values)
    except ShogamesError as error:
        raise ServiceError(400, str(error)) from None
    if len(seats) != game.num_players:
        raise ServiceError(
            400,
            f"{game.name} with these settings has {game.num_players} seats "
            f"({', '.join(game.player_names)}); got {len(seats)} seat choices",
        )
    if time_control is not None:
        check_time_control(time_control)
    made = [make_seat(game, number, request, limits) for number, request in enumerate(seats)]
    mode = mode_of(made, mode)
    start = game.new_initial_state()
    if position is not None and position.strip():
        try:
            start = game.state_from_text(position.strip())
        except (ShogamesError, ValueError) as error:
            raise ServiceError(400, f"position refused: {error}") from None
        if start.is_terminal():
            raise ServiceError(400, "position refused: the game is already over there")
    return LiveGame(
        id=new_id(),
        game=game,
        preset=preset or None,
        mode=mode,
        seats=made,
        status="active",
        result="*",
        termination="unterminated",
        version=1,
        time_control=time_control,
        clock_ms=starting_clock(time_control, game.num_players),
        turn_started=now,
        created_at=now,
        updated_at=now,
        start=start,
        start_position=start_position_text(start),
    )


def new_id() -> str:
    """A new game id: short, random, and safe in a URL."""
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


def mode_of(seats: Sequence[Seat], mode: str | None) -> str:
    """The game's mode: the one asked for, checked against the seats, or the one the seats imply.

    Raises:
        ServiceError: an unknown mode, or one the seats do not allow (400).
    """
    persons = sum(seat.kind == PERSON for seat in seats)
    if mode is None:
        return "computer" if persons < len(seats) else "hotseat"
    if mode not in MODES:
        raise ServiceError(400, f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    if mode == "computer" and persons == len(seats):
        raise ServiceError(400, "a game against the computer needs at least one AI seat")
    if mode in ("hotseat", "online") and persons == 0:
        raise ServiceError(400, f"a {mode} game needs at least one person's seat")
    return mode


def make_seat(game: Game[Any], number: int, request: SeatRequest, limits: ComputerLimits) -> Seat:
    """Seat ``number`` as asked for: a person's (with a new secret token) or the computer's.

    Raises:
        ServiceError: a bad name, an unknown seat kind, or a level or agent spec refused (400).
    """
    seat_name = game.player_names[number]
    name = (request.name or "").strip()
    if len(name) > MAX_NAME or any(not ch.isprintable() for ch in name):
        raise ServiceError(400, f"the name of {seat_name} must be at most {MAX_NAME} printable characters")
    if request.kind == PERSON:
        return Seat(number, name or "Anonymous", PERSON, None, secrets.token_urlsafe(18))
    if request.kind == AI:
        spec = (request.agent or "").strip()
        if not spec:
            raise ServiceError(
                400, f"{seat_name} is an AI seat but no level was given; levels: {', '.join(level_names())}"
            )
        try:
            spec = limits.check(spec, game.id)
        except ServiceError as error:
            raise ServiceError(400, f"{seat_name}: {error.message}") from None
        return Seat(number, name or f"AI {spec}", AI, spec, None)
    raise ServiceError(400, f"{seat_name}: seat kind must be {PERSON!r} or {AI!r}, got {request.kind!r}")
