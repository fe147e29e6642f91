"""The three error types every game raises, all subclasses of :class:`ValueError`.

* :class:`NotationError`: text (a move, a position, a record, a setting value) that cannot be read.
* :class:`IllegalMoveError`: a well-formed move that the rules do not allow in this position.
* :class:`SettingsError`: an unknown setting, a value of the wrong kind or out of range, an unknown preset.

Each message says what was wrong and what was expected. Errors raised while reading a record also carry
the 1-based ``line`` of the record where the problem is.
"""

from __future__ import annotations


class ShogamesError(ValueError):
    """Base class of every error this package raises on bad input.

    Args:
        message: what was wrong and what was expected.
        line: the 1-based line of a record or file the error refers to, if any.
    """

    def __init__(self, message: str, *, line: int | None = None) -> None:
        self.message = message
        self.line = line
        super().__init__(f"line {line}: {message}" if line is not None else message)


class NotationError(ShogamesError):
    """Text that cannot be read: a malformed move, position, record or setting value."""


class IllegalMoveError(ShogamesError):
    """A well-formed move that the rules do not allow in the current position."""


class SettingsError(ShogamesError):
    """An unknown setting or preset, or a setting value that is not allowed."""
