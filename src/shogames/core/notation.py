"""Small helpers the games' text readers share: whole numbers read safely, long input shown short.

Position and move texts come from users and files. A number is read only from ASCII digits (``'²'`` and
other characters that :meth:`str.isdigit` accepts are refused) and only up to :data:`MAX_DIGITS` digits, so
a reader never meets Python's limit on converting long digit strings (a plain ``ValueError``) and always
answers with a :class:`~shogames.core.errors.NotationError` that says what was wrong.
"""

from __future__ import annotations

from typing import Final

from shogames.core.errors import NotationError

MAX_DIGITS: Final = 30
"""The most digits a number in a position or move text may have: far beyond any count a game reaches."""

_SHOWN: Final = 40
"""How many characters of a text an error message quotes."""


def shown(text: str) -> str:
    """``repr(text)``, cut to its first 40 characters (with the length) when it is longer.

    >>> shown("9" * 100)
    "'9999999999999999999999999999999999999999'... (100 characters)"
    """
    if len(text) <= _SHOWN:
        return repr(text)
    return f"{text[:_SHOWN]!r}... ({len(text)} characters)"


def is_number(text: str) -> bool:
    """Whether ``text`` is a non-empty run of ASCII digits (any length)."""
    return text.isascii() and text.isdigit()


def read_number(text: str, what: str) -> int:
    """Read a whole number written with ASCII digits, of at most :data:`MAX_DIGITS` digits.

    >>> read_number("042", "the ply")
    42

    Raises:
        NotationError: ``text`` is not such a number; the message names ``what`` was being read.
    """
    if not is_number(text):
        raise NotationError(f"{what} must be a whole number (digits 0-9), got {shown(text)}")
    if len(text) > MAX_DIGITS:
        raise NotationError(f"{what} has {len(text)} digits; a number here has at most {MAX_DIGITS}")
    return int(text)
