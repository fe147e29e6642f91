"""The network's two products with the observation, compiled: both skip the observation's zeros.

Observations are mostly zeros (one plane per kind of piece), so a loop over the non-zero inputs beats a
dense product, and it runs on the calling thread: BLAS's threads, woken for each small product between
moves, cost more than the product on a busy machine (measured: a Shogammon game of greedy with the
network took 1.1 s with OpenBLAS's two threads, 0.61 s with one).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def first_layer(x, w1):  # type: ignore[no-untyped-def]
    """``x @ w1`` for float32 rows ``x`` (n, inputs) and weights ``w1`` (inputs, hidden)."""
    rows, inputs = x.shape
    hidden = w1.shape[1]
    out = np.zeros((rows, hidden), dtype=np.float32)
    for r in range(rows):
        for i in range(inputs):
            value = x[r, i]
            if value != 0.0:
                for k in range(hidden):
                    out[r, k] += value * w1[i, k]
    return out


@njit(cache=True)
def weight_gradient(x, dh):  # type: ignore[no-untyped-def]
    """``x.T @ dh`` for float32 rows ``x`` (n, inputs) and ``dh`` (n, hidden)."""
    rows, inputs = x.shape
    hidden = dh.shape[1]
    out = np.zeros((inputs, hidden), dtype=np.float32)
    for r in range(rows):
        for i in range(inputs):
            value = x[r, i]
            if value != 0.0:
                for k in range(hidden):
                    out[i, k] += value * dh[r, k]
    return out
