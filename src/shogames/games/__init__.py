"""The games shipped with shogames, one package each.

A game's package holds everything about it: the rules and notation (``__init__.py``), the browser view
(``view.py``) and the browser's renderer and stylesheet (``static/``). ``docs/adding-a-game.md`` lists every
file of a game.

This package imports none of them: :data:`BUILTIN_GAMES` names each game's class, and the registry
(:mod:`shogames.core.registry`) imports a game when it is first asked for the games.
"""

from typing import Final

BUILTIN_GAMES: Final = {
    "sho": "shogames.games.sho:ShoGame",
    "shobu": "shogames.games.shobu:ShobuGame",
    "shogammon": "shogames.games.shogammon:ShogammonGame",
    "shoo": "shogames.games.shoo:ShooGame",
}
"""The games shipped with shogames: id to ``module:ClassName``, the form of an entry point."""

__all__ = ["BUILTIN_GAMES"]
