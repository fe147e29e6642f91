"""A search budget in time, work, or both, shared by the searching agents."""

from __future__ import annotations

import time


class Budget:
    """How long one search may go on: a count of work units (nodes, iterations) and/or seconds.

    A work limit makes a search reproducible on any machine (a fixed seed gives a fixed move); a time
    limit keeps an interactive game moving. With both, the search stops at whichever comes first.

    Args:
        work: the most work units per move, or ``None`` for no limit.
        seconds: the most seconds per move, or ``None`` for no limit.
    """

    __slots__ = ("_deadline", "seconds", "used", "work")

    def __init__(self, work: int | None = None, seconds: float | None = None) -> None:
        if work is not None and work < 1:
            raise ValueError(f"a work budget must be at least 1, got {work}")
        if seconds is not None and seconds <= 0:
            raise ValueError(f"a time budget must be positive, got {seconds}")
        self.work = work
        self.seconds = seconds
        self.used = 0
        self._deadline = 0.0

    def start(self) -> None:
        """Start counting for a new move."""
        self.used = 0
        if self.seconds is not None:
            self._deadline = time.perf_counter() + self.seconds

    def spent(self) -> bool:
        """Whether the work done (:attr:`used`) or the time taken has reached the budget."""
        if self.work is not None and self.used >= self.work:
            return True
        return self.seconds is not None and time.perf_counter() >= self._deadline

    def __repr__(self) -> str:
        return f"Budget(work={self.work!r}, seconds={self.seconds!r})"
