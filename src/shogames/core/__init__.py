"""The core every game, agent and interface shares: protocol, settings, errors, registry, perft."""

from shogames.core.chance import sample_chance, sample_outcome
from shogames.core.errors import IllegalMoveError, NotationError, SettingsError, ShogamesError
from shogames.core.perft import perft, perft_divide
from shogames.core.protocol import CHANCE, Game, State, SuggestedClock
from shogames.core.registry import available_games, game_class, make, register
from shogames.core.settings import Setting, SettingValue

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
    "SuggestedClock",
    "available_games",
    "game_class",
    "make",
    "perft",
    "perft_divide",
    "register",
    "sample_chance",
    "sample_outcome",
]
