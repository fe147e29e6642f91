"""A clock for the server's tests that moves only when a test moves it."""

from __future__ import annotations

import datetime


class Clock:
    """The service's ``now``: a fixed UTC moment that :meth:`advance` moves forward."""

    def __init__(self) -> None:
        self.moment = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)

    def __call__(self) -> datetime.datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` forward."""
        self.moment += datetime.timedelta(seconds=seconds)
