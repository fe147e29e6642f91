"""The games. Importing this package registers every game with :mod:`shogames.core.registry`."""

from shogames.games import sho, shobu, shogammon, shoo

__all__ = ["sho", "shobu", "shogammon", "shoo"]
