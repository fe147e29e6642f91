"""The games. Importing this package registers every game with :mod:`shogames.core.registry`."""

from shogames.games import shobu, shoo

__all__ = ["shobu", "shoo"]
