"""Sampling chance outcomes with exactly their probabilities.

The probabilities are fractions; one uniform integer below their common denominator picks the outcome,
so no floating-point rounding skews rare outcomes.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from shogames.core.protocol import CHANCE, MoveT, State

_TABLES: dict[int, tuple[Sequence[Any], int, tuple[int, ...]]] = {}
"""Weights of the outcome tables seen lately, by ``id``: games hand out the same constant table (the
21 throws of two dice) at every chance node, and summing and checking its fractions on every throw
used to be most of the time a random Sho game took. Each entry keeps its table alive, so an ``id``
cannot be reused while its entry is here."""
_TABLES_KEPT = 64
"""How many tables :data:`_TABLES` holds before it is emptied (tables built afresh at every call pass
through)."""


def _weights(outcomes: Sequence[tuple[Any, Fraction]]) -> tuple[int, tuple[int, ...]]:
    """The common denominator of ``outcomes``' probabilities and each one's numerator over it (cached).

    Raises:
        ValueError: the probabilities do not sum to 1.
    """
    entry = _TABLES.get(id(outcomes))
    if entry is not None and entry[0] is outcomes:
        return entry[1], entry[2]
    if sum(probability for _, probability in outcomes) != 1:
        raise ValueError("the chance outcomes' probabilities do not sum to 1")
    denominator = math.lcm(*(probability.denominator for _, probability in outcomes))
    weights = tuple(p.numerator * (denominator // p.denominator) for _, p in outcomes)
    if isinstance(outcomes, tuple):  # only an immutable table can be reused safely
        if len(_TABLES) >= _TABLES_KEPT:
            _TABLES.clear()
        _TABLES[id(outcomes)] = (outcomes, denominator, weights)
    return denominator, weights


def sample_outcome(outcomes: Sequence[tuple[MoveT, Fraction]], rng: random.Random) -> MoveT:
    """Pick one of ``outcomes`` with exactly its probability.

    The common denominator of a tuple of outcomes is worked out once per tuple object and reused while
    the same tuple comes back, so a game that hands out one constant table pays for it once.

    >>> sample_outcome([("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))], random.Random(1))
    'heads'

    Raises:
        ValueError: the probabilities do not sum to 1.
    """
    denominator, weights = _weights(outcomes)
    draw = rng.randrange(denominator)
    for (outcome, _), weight in zip(outcomes, weights, strict=True):
        draw -= weight
        if draw < 0:
            return outcome
    raise AssertionError("unreachable: the probabilities sum to 1")


def sample_chance(state: State[Any], rng: random.Random) -> Any:
    """Pick a chance outcome of ``state`` (whose mover is :data:`CHANCE`) with exactly its probability.

    Raises:
        ValueError: the state is not a chance node, or its probabilities do not sum to 1.
    """
    if state.to_move != CHANCE:
        raise ValueError(f"sample_chance needs a chance node; the mover is {state.to_move!r}")
    return sample_outcome(state.chance_outcomes(), rng)


def random_plies(state: State[Any], plies: int, rng: random.Random) -> State[Any]:
    """``state`` after up to ``plies`` random plies (fewer where the game ends first).

    A chance outcome is drawn with its probability, a seat's move uniformly among its legal moves.
    """
    for _ in range(plies):
        if state.is_terminal():
            break
        if state.to_move == CHANCE:
            state = state.play_unchecked(sample_chance(state, rng))
        else:
            moves = state.legal_moves()
            state = state.play_unchecked(moves[rng.randrange(len(moves))])
    return state
