"""Fixes from a new user's tour of the web app that need no browser (issue 17, section 4).

The browser's side of the same fixes is in ``test_browser_play.py``.
"""

from __future__ import annotations

import random

import shogames
from shogames.games.shobu import BLACK, ShobuMove, ShobuState
from shogames.games.shobu.view import _target
from shogames.server.views import last_move_targets


def _pushing_turns(count: int) -> list[tuple[ShobuState, ShobuMove]]:
    """Turns of random Shobu games that push a stone: off the board, and along it."""
    rng = random.Random(5)
    found: dict[bool, list[tuple[ShobuState, ShobuMove]]] = {True: [], False: []}
    while min(len(found[True]), len(found[False])) < count:
        state = shogames.make("shobu").new_initial_state()
        while not state.is_terminal():
            assert isinstance(state, ShobuState)
            for move in state.legal_moves():
                after = state.play(move)
                assert isinstance(after, ShobuState)
                theirs, left = (
                    (state.white, after.white) if state.side == BLACK else (state.black, after.black)
                )
                if theirs != left:
                    found[theirs.bit_count() > left.bit_count()].append((state, move))
            state = state.play(rng.choice(state.legal_moves()))
    return found[True][:count] + found[False][:count]


def test_shobus_last_move_shows_where_the_aggressive_stone_landed_and_the_pushed_stone() -> None:
    for state, move in _pushing_turns(5):
        targets = last_move_targets(state, move)
        text = state.move_to_text(move)
        after = state.play(move)
        mine_before = state.black if state.side == BLACK else state.white
        mine_after = after.black if state.side == BLACK else after.white
        theirs_before = state.white if state.side == BLACK else state.black
        theirs_after = after.white if state.side == BLACK else after.black
        changed = (mine_before ^ mine_after) | (theirs_before ^ theirs_after)
        every = {_target(bit) for bit in range(64) if changed >> bit & 1}
        assert every <= set(targets), f"{text}: {sorted(every - set(targets))} left out of {targets}"
