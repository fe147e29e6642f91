"""shogames: Shoo, Shobu, Sho and Shogammon, with one game protocol, records, agents and interfaces.

>>> import shogames
>>> state = shogames.make("shobu").new_initial_state()
>>> len(state.legal_moves())
232
"""

from shogames.core import (
    CHANCE,
    Game,
    IllegalMoveError,
    NotationError,
    Setting,
    SettingsError,
    SettingValue,
    ShogamesError,
    State,
    available_games,
    game_class,
    make,
    perft,
    perft_divide,
    register,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "Game",
    "IllegalMoveError",
    "NotationError",
    "Setting",
    "SettingValue",
    "SettingsError",
    "ShogamesError",
    "State",
    "__version__",
    "available_games",
    "game_class",
    "make",
    "perft",
    "perft_divide",
    "register",
]
