"""Exact chance sampling (``core.chance``): the draws, the checks, and the cached outcome tables."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shogames import make
from shogames.core.chance import sample_chance, sample_outcome


def plain_sample(outcomes: list[tuple[int, Fraction]], rng: random.Random) -> int:
    """The sampling rule written out with no cache: one draw below the common denominator."""
    denominator = math.lcm(*(p.denominator for _, p in outcomes))
    draw = rng.randrange(denominator)
    for outcome, probability in outcomes:
        draw -= probability.numerator * (denominator // probability.denominator)
        if draw < 0:
            return outcome
    raise AssertionError("unreachable")


@st.composite
def tables(draw: st.DrawFn) -> tuple[tuple[int, Fraction], ...]:
    """Outcome tables whose probabilities sum to 1 exactly."""
    weights = draw(st.lists(st.integers(min_value=1, max_value=50), min_size=1, max_size=8))
    total = sum(weights)
    return tuple((index, Fraction(weight, total)) for index, weight in enumerate(weights))


@given(tables(), st.integers(min_value=0, max_value=2**32))
def test_sampling_draws_exactly_as_the_plain_rule(table: tuple[tuple[int, Fraction], ...], seed: int) -> None:
    cached, plain = random.Random(seed), random.Random(seed)
    for _ in range(5):  # the same table again: the cached weights give the same draws
        assert sample_outcome(table, cached) == plain_sample(list(table), plain)


def test_a_constant_table_is_summed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Finding (fast engines): Sho spent 69% of a random game re-adding the 21 throws' fractions."""
    rng = random.Random(3)
    table = make("sho", players=2).new_initial_state().chance_outcomes()
    sample_outcome(table, rng)
    calls = 0
    real_lcm = math.lcm

    def counting_lcm(*numbers: int) -> int:
        nonlocal calls
        calls += 1
        return real_lcm(*numbers)

    monkeypatch.setattr(math, "lcm", counting_lcm)
    for _ in range(100):
        sample_outcome(table, rng)
    assert calls == 0


def test_a_table_that_does_not_sum_to_one_is_refused_every_time() -> None:
    table = (("a", Fraction(1, 2)), ("b", Fraction(1, 3)))
    for _ in range(2):
        with pytest.raises(ValueError, match="sum to 1"):
            sample_outcome(table, random.Random(0))


def test_a_list_table_is_read_afresh_each_time() -> None:
    """A mutable table may change between calls, so only tuples are cached."""
    table = [("a", Fraction(1)), ("b", Fraction(0))]
    assert sample_outcome(table, random.Random(0)) == "a"
    table[:] = [("a", Fraction(0)), ("b", Fraction(1))]
    assert sample_outcome(table, random.Random(0)) == "b"


def test_sample_chance_refuses_a_state_where_a_seat_moves() -> None:
    state = make("shobu").new_initial_state()
    with pytest.raises(ValueError, match="chance node"):
        sample_chance(state, random.Random(0))
