"""Glicko-2 ratings: a rating, its deviation and its volatility, updated after a rating period's games.

The puzzles (``docs/puzzles.md``) rate both sides of every first try, as lichess rates its puzzles: a
solver who solves a puzzle has beaten it, one who fails has lost to it, and each side's rating moves by
Glicko-2 with one game in the period. This is Mark E. Glickman's algorithm as his paper gives it, step by
step ("Example of the Glicko-2 system", http://www.glicko.net/glicko/glicko2.pdf, steps 1 to 8), with the
Illinois variant of regula falsi for the new volatility (step 5). ``tests/test_puzzles.py`` checks it
against the paper's worked example: a player rated 1500 (deviation 200, volatility 0.06) who beats a
1400 (30) and loses to a 1550 (100) and a 1700 (300) ends at 1464.06, deviation 151.52, volatility
0.05999 (the paper rounds its steps to four places; unrounded, the rating is 1464.0507 and the
volatility 0.0599960).

>>> player = Rating(1500.0, 200.0, 0.06)
>>> games = [(Rating(1400.0, 30.0), 1.0), (Rating(1550.0, 100.0), 0.0), (Rating(1700.0, 300.0), 0.0)]
>>> after = update(player, games)
>>> round(after.rating, 1), round(after.deviation, 2), round(after.volatility, 4)
(1464.1, 151.52, 0.06)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""The factor between the Glicko scale (ratings around 1500) and Glicko-2's internal one (step 2)."""
DEFAULT_RATING: Final = 1500.0
"""A new player's rating."""
DEFAULT_DEVIATION: Final = 350.0
"""A new player's rating deviation: the rating is that uncertain."""
DEFAULT_VOLATILITY: Final = 0.06
"""A new player's volatility (the paper's example uses 0.06)."""
TAU: Final = 0.5
"""The system constant that limits how fast the volatility changes (the paper suggests 0.3 to 1.2)."""
TOLERANCE: Final = 1e-6
"""The convergence tolerance of the volatility's iteration (step 5)."""


@dataclass(frozen=True, slots=True)
class Rating:
    """One Glicko-2 rating, on the Glicko scale.

    Attributes:
        rating: the rating (1500 for a new player).
        deviation: the rating deviation (RD): about a 95% chance that the strength lies within twice it.
        volatility: how erratic the results have been (sigma).
    """

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The score ``player`` is expected to make against ``opponent`` (0 to 1), by the Glicko-2 model."""
    return _expected(
        (player.rating - DEFAULT_RATING) / SCALE,
        (opponent.rating - DEFAULT_RATING) / SCALE,
        opponent.deviation / SCALE,
    )


def update(player: Rating, games: Sequence[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """``player``'s rating after one rating period in which it played ``games``.

    Args:
        player: the rating before the period.
        games: each opponent's rating (before the period) with ``player``'s score: 1 a win, 0.5 a draw,
            0 a loss.
        tau: the system constant (:data:`TAU`).

    Raises:
        ValueError: a score outside 0 to 1, or a deviation or volatility that is not positive.
    """
    if player.deviation <= 0 or player.volatility <= 0:
        raise ValueError(f"a rating's deviation and volatility are positive, got {player}")
    mu = (player.rating - DEFAULT_RATING) / SCALE  # step 2
    phi = player.deviation / SCALE
    sigma = player.volatility
    if not games:  # step 6 alone: the deviation grows with the volatility
        return Rating(player.rating, SCALE * math.sqrt(phi * phi + sigma * sigma), sigma)
    inverse_v = 0.0
    delta_sum = 0.0
    for opponent, score in games:
        if not 0.0 <= score <= 1.0:
            raise ValueError(f"a score is from 0 (a loss) to 1 (a win), got {score}")
        if opponent.deviation <= 0:
            raise ValueError(f"a rating's deviation is positive, got {opponent}")
        mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
        g_j = _g(opponent.deviation / SCALE)
        e_j = _expected(mu, mu_j, opponent.deviation / SCALE)
        inverse_v += g_j * g_j * e_j * (1.0 - e_j)  # step 3
        delta_sum += g_j * (score - e_j)
    v = 1.0 / inverse_v
    delta = v * delta_sum  # step 4
    sigma = _new_volatility(delta, phi, v, sigma, tau)  # step 5
    phi_star = math.sqrt(phi * phi + sigma * sigma)  # step 6
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)  # step 7
    mu = mu + phi * phi * delta_sum
    return Rating(SCALE * mu + DEFAULT_RATING, SCALE * phi, sigma)  # step 8


def _new_volatility(delta: float, phi: float, v: float, sigma: float, tau: float) -> float:
    """Step 5: the new volatility, the root of the paper's f by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > TOLERANCE:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a = f_a / 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


__all__ = ["Rating", "expected_score", "update"]
