"""The dice race in the browser: two tracks of squares, each seat's token, and the die.

View fields: ``target`` (the winning square), ``players``, ``places`` (each seat's square), ``turn`` (the
seat whose turn it is), ``throw`` (the die to play, or ``None`` before the throw), ``to_move``,
``terminal`` and ``winner`` (the seat that reached the target, else ``None``).

Clicks: an advance is one click on the square where the token lands, ``cell:<seat>:<square>``; squares
past the target are drawn too, so the two advances of a throw never share a square.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from shogames.core.protocol import CHANCE, State
from toy_games import DiceRaceState


def position_view(state: State[Any]) -> dict[str, Any]:
    """The position for ``static/renderer.js`` (fields in the module docstring)."""
    assert isinstance(state, DiceRaceState)
    return {
        "target": state.race.target,
        "players": list(state.race.player_names),
        "places": list(state.pos),
        "turn": state.turn,
        "throw": state.throw,
        "to_move": state.to_move,
        "terminal": state.is_terminal(),
        "winner": state.winner,
    }


def move_clicks(state: State[Any], move: Hashable) -> tuple[str, ...]:
    """The square where the mover's token lands; a throw has no clicks (the server throws)."""
    assert isinstance(state, DiceRaceState) and isinstance(move, int)
    if state.to_move == CHANCE:
        return ()
    return (f"cell:{state.turn}:{state.pos[state.turn] + move}",)
