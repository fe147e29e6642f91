"""What the game service refuses, and how: the errors its callers see (with an HTTP status) and its own."""

from __future__ import annotations


class ServiceError(Exception):
    """A request the server refuses, with an HTTP status and a message saying what was wrong.

    Args:
        status: 400 bad request, 403 no right to do it, 404 no such game, 409 not possible now.
        message: what was wrong and what is expected.
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class DatabaseFullError(ServiceError):
    """The database has no room left for a write (its disk is full): 503, and nothing changed."""

    def __init__(self) -> None:
        super().__init__(
            503,
            "the server's database has no room left (its disk is full): nothing changed; games can still be "
            "read, and moves can be made again once there is room",
        )


class StaleError(Exception):
    """The database holds a newer version of the game than this process did: nothing was written."""


def is_disk_full(error: BaseException) -> bool:
    """Whether a database error says that the disk (or the database's room) is full.

    SQLite says ``database or disk is full`` (SQLITE_FULL); PostgreSQL raises SQLSTATE 53100
    (``disk_full``) or reports ``No space left on device``.
    """
    cause = getattr(error, "orig", None) or error
    text = str(cause)
    return (
        getattr(cause, "sqlite_errorcode", None) == 13  # SQLITE_FULL
        or getattr(cause, "sqlstate", None) == "53100"
        or "database or disk is full" in text
        or "No space left on device" in text
    )
