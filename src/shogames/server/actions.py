"""What a person may do in a game with a seat's secret token, and why each action is refused when it is.

A person may move, resign, offer or answer a draw, and take back.

Every action takes the game's lock, brings the copy up to date with the database first (another process
may have moved), checks, and commits one change; in every refusal the game is left exactly as it was.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Callable

from shogames.core.errors import ShogamesError
from shogames.core.protocol import CHANCE
from shogames.records import AGREEMENT
from shogames.server.changes import offer_change, play_change, takeback_change
from shogames.server.driver import GameDriver
from shogames.server.errors import ServiceError, StaleError
from shogames.server.live import AI, LiveGame, Seat, result_text
from shogames.server.memory import LiveGames
from shogames.server.snapshots import Snapshots
from shogames.server.sync import GameSync


class PersonActions:
    """The actions of persons in games, each checked and committed under the game's lock.

    Args:
        games: the games in memory.
        sync: commits changes and brings copies up to date.
        driver: moves games on after each event (computer players, clocks).
        snapshots: tells the players.
        rng: the random source of chance outcomes.
        now: the clock (UTC wall time).
    """

    def __init__(
        self,
        games: LiveGames,
        sync: GameSync,
        driver: GameDriver,
        snapshots: Snapshots,
        *,
        rng: random.Random,
        now: Callable[[], datetime.datetime],
    ) -> None:
        self.games = games
        self.sync = sync
        self.driver = driver
        self.snapshots = snapshots
        self.rng = rng
        self.now = now

    async def play(self, game_id: str, text: str, token: str | None, version: int | None = None) -> LiveGame:
        """Play a person's move given in the game's notation, with the secret token of the seat to move.

        See :meth:`shogames.server.service.GameService.play`.
        """
        live = await self.games.get(game_id)
        async with live.lock:
            seat = person_seat(live, token)
            await self.sync.catch_up(live)
            check_can_move(live, seat, version)
            try:
                move = live.state.parse_move(text)
            except (ShogamesError, ValueError) as error:
                raise ServiceError(400, f"move {text!r} refused: {error}") from None
            if await self.driver.flag_if_late(live):
                raise ServiceError(
                    409, f"{seat.name}'s time ran out before the move arrived; the game is over"
                )
            try:
                await self.sync.commit(live, play_change(live, [(move, seat.seat)], self.now(), self.rng))
            except StaleError:
                raise ServiceError(
                    409, "the game changed while the move was on its way (another window moved); reload it"
                ) from None
        self.driver.after_event(live)
        return live

    async def resign(self, game_id: str, token: str | None) -> LiveGame:
        """The seat of ``token`` resigns (see :meth:`shogames.server.service.GameService.resign`)."""
        live = await self.games.get(game_id)
        async with live.lock:
            seat = person_seat(live, token)
            await self.sync.catch_up(live)
            if not live.is_active:
                raise ServiceError(409, "the game is already over")
            try:
                await self.driver.finish(live, resigned=seat.seat, termination="resignation")
            except StaleError:
                raise ServiceError(409, "the game changed meanwhile; reload it") from None
            self.driver.stop_computer(live)
        self.driver.after_event(live)
        return live

    async def draw(self, game_id: str, token: str | None, accept: bool | None = None) -> LiveGame:
        """Offer, accept, decline or withdraw a draw (see the service's :meth:`~.GameService.draw`)."""
        live = await self.games.get(game_id)
        async with live.lock:
            seat = person_seat(live, token)
            await self.sync.catch_up(live)
            if live.game.num_players != 2:
                raise ServiceError(
                    409, f"draw offers are for two-player games; this one has {live.game.num_players} seats"
                )
            if not live.is_active:
                raise ServiceError(
                    409, f"the game is over: {result_text(live.game, live.result, live.termination)}"
                )
            other = live.seats[1 - seat.seat]
            offer = live.draw_offer
            if accept is None and offer == seat.seat:
                raise ServiceError(409, f"{seat.name} already offers a draw; {other.name} has not answered")
            if accept is True and offer != other.seat:
                raise ServiceError(409, f"{other.name} offers no draw to accept")
            if accept is False and offer is None:
                raise ServiceError(409, "no draw is offered, so there is none to decline or withdraw")
            if accept is None and offer is None and other.kind == AI:
                self.snapshots.tell(live, f"{other.name} declines the draw offer.")
                return live
            try:
                if accept is not False and offer == other.seat:
                    if await self.driver.flag_if_late(live):
                        raise ServiceError(409, "time ran out before the draw was agreed; the game is over")
                    await self.driver.finish(live, resigned=None, termination=AGREEMENT)
                    self.driver.stop_computer(live)
                else:
                    await self.sync.commit(live, offer_change(live, seat.seat if accept is None else None))
            except StaleError:
                raise ServiceError(409, "the game changed meanwhile; reload it") from None
        self.driver.after_event(live)
        return live

    async def takeback(self, game_id: str, token: str | None) -> LiveGame:
        """Take back the seat's last move and every move after it (see the service's ``takeback``)."""
        live = await self.games.get(game_id)
        async with live.lock:
            seat = person_seat(live, token)
            await self.sync.catch_up(live)
            if live.mode != "hotseat" and not any(other.kind == AI for other in live.seats):
                raise ServiceError(409, "takeback is only for games against the computer or on one screen")
            if not live.is_active:
                raise ServiceError(409, "the game is over; nothing can be taken back")
            if not live.has_moved(seat.seat):
                raise ServiceError(409, f"{seat.name} has made no move to take back")
            keep = max(index for index, ply in enumerate(live.plies) if ply.mover == seat.seat)
            self.driver.stop_computer(live)
            try:
                await self.sync.commit(live, takeback_change(live, keep, self.now()))
            except StaleError:
                raise ServiceError(409, "the game changed meanwhile; reload it") from None
        self.driver.after_event(live)
        return live


def person_seat(live: LiveGame, token: str | None) -> Seat:
    """The seat of a person's secret token.

    Raises:
        ServiceError: no token, or a token of no seat of this game (403).
    """
    if not token:
        raise ServiceError(403, "this needs the secret token of a seat (from its invite link)")
    seat = live.seat_of_token(token)
    if seat is None:
        raise ServiceError(403, "this token belongs to no seat of this game")
    return seat


def check_can_move(live: LiveGame, seat: Seat, version: int | None) -> None:
    """Check that ``seat`` may move now, in the version of the game the client saw (if it says which).

    Raises:
        ServiceError: the game is over, it moved on since ``version``, or it is not the seat's turn (409).
    """
    if not live.is_active:
        raise ServiceError(409, f"the game is over: {result_text(live.game, live.result, live.termination)}")
    if version is not None and version != live.version:
        raise ServiceError(
            409,
            f"the game has changed since version {version} (it is at version {live.version}); reload it",
        )
    mover = live.state.to_move
    if mover != seat.seat:
        who = "the dice" if mover == CHANCE else live.seats[mover].name if mover is not None else "nobody"
        raise ServiceError(409, f"it is not {seat.name}'s turn: {who} to move")
