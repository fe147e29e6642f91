"""Keeping this process's copy of a game in step with the database that other processes may write too.

Several server processes (``shogames serve --workers N``, or several machines) can share one database. A
change is committed only against the version the database holds (:meth:`GameSync.commit`); a process whose
copy is stale brings it up to date from the database first (:meth:`GameSync.catch_up`): the plies it has
in common are kept, the rest replayed, and its listeners told. On PostgreSQL every commit also sends a
notification, on which every process catches up at once (:mod:`shogames.server.events`).
"""

from __future__ import annotations

import datetime
from collections.abc import Callable

from shogames.server.changes import Change, RemoteEvent, apply
from shogames.server.errors import StaleError
from shogames.server.live import LiveGame, Ply
from shogames.server.storage import GameStore, aware, replay


class GameSync:
    """Commits changes against the database's version, and brings stale copies up to date.

    Args:
        store: the games in the database.
        publish: tells a game's listeners its new snapshot.
        shared: whether other processes may write the same database (then copies may be stale).
        now: the clock (UTC wall time).
    """

    def __init__(
        self,
        store: GameStore,
        publish: Callable[[LiveGame], None],
        *,
        shared: bool,
        now: Callable[[], datetime.datetime],
    ) -> None:
        self.store = store
        self.publish = publish
        self.shared = shared
        self.now = now

    async def catch_up(self, live: LiveGame, *, force: bool = False) -> bool:
        """Bring the copy in memory up to the version the database holds (call with the game's lock held).

        Only a database shared with other processes can be ahead (or ``force``, after a refused write);
        then the moves are read again, the plies this copy has in common kept, the rest replayed, and the
        listeners told. Returns whether anything changed.
        """
        if not (self.shared or force):
            return False
        row = await self.store.read_if_newer(live.id, live.version)
        if row is None:
            return False
        texts = [move.text for move in row.moves]
        keep = 0
        while keep < min(len(texts), len(live.plies)) and texts[keep] == live.plies[keep].text:
            keep += 1
        del live.plies[keep:]
        live.plies.extend(replay(live.state, list(row.moves[keep:])))
        live.version = row.version
        live.status, live.result, live.termination = row.status, row.result, row.termination
        live.draw_offer = row.draw_offer
        live.clock_ms = list(row.clock_ms) if row.clock_ms is not None else None
        live.turn_started = aware(row.turn_started)
        live.updated_at = aware(row.updated_at) or live.updated_at
        live.notice = None
        live.cached = None
        self.publish(live)
        return True

    def apply_remote(self, live: LiveGame, event: RemoteEvent) -> bool:
        """Apply another process's committed change from its notification (call with the game's lock held).

        Only a copy at the version the change was made against takes it (no read of the database: with
        several processes, reading the game again on every move of every other process cost CPU that grew
        with their number); returns ``False`` for any other copy, which then reads the database.
        """
        if live.version != event.base:
            return False
        plies = live.plies[: event.truncate_to] if event.truncate_to is not None else list(live.plies)
        state = plies[-1].after if plies else live.start
        try:
            for text, seat in event.moves:
                ply = Ply.played(state, state.parse_move(text), seat, text)
                plies.append(ply)
                state = ply.after
        except ValueError:  # a move this copy cannot play (it never should): read the database instead
            return False
        live.plies[:] = plies
        live.version = event.version
        live.status, live.result, live.termination = event.status, event.result, event.termination
        live.draw_offer = event.draw_offer
        live.clock_ms = event.clock_ms
        live.turn_started = aware(event.turn_started)
        live.updated_at = aware(event.updated_at) or live.updated_at
        if event.moves or event.truncate_to is not None:
            live.notice = None
        live.cached = None
        self.publish(live)
        return True

    async def commit(self, live: LiveGame, change: Change) -> None:
        """Commit a change (call with the game's lock held), then apply it in memory and announce it.

        Raises:
            StaleError: another process changed the game first; this copy was brought up to date, and
                nothing was written.
        """
        try:
            async with self.store.transaction() as session:
                await self.store.write(session, live, change)
        except StaleError:
            await self.catch_up(live, force=True)
            raise
        apply(live, change, self.now())
        self.publish(live)
