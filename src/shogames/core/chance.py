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


def sample_outcome(outcomes: Sequence[tuple[MoveT, Fraction]], rng: random.Random) -> MoveT:
    """Pick one of ``outcomes`` with exactly its probability.

    >>> sample_outcome([("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))], random.Random(1))
    'heads'

    Raises:
        ValueError: the probabilities do not sum to 1.
    """
    if sum(probability for _, probability in outcomes) != 1:
        raise ValueError("the chance outcomes' probabilities do not sum to 1")
    denominator = math.lcm(*(probability.denominator for _, probability in outcomes))
    draw = rng.randrange(denominator)
    for outcome, probability in outcomes:
        draw -= probability.numerator * (denominator // probability.denominator)
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
