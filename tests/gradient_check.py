"""A check of a network's gradients against finite differences, shared by the learning tests."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import numpy as np
from numpy.typing import NDArray

from shogames.learning.network import ValueNet

Loss = Callable[[], tuple[float, dict[str, NDArray[np.float32]]]]


def assert_gradients_match(
    net: ValueNet, loss: Loss, trainable: Iterable[str]
) -> dict[str, NDArray[np.float32]]:
    """Assert that ``loss``'s gradient matches central differences at each array's first and last entry.

    ``loss`` computes the loss and gradients of ``net`` as its arrays stand; the gradients are returned.
    """
    _, grads = loss()
    for name in trainable:
        array = net.arrays[name]
        for index in [(0,) * array.ndim, tuple(s - 1 for s in array.shape)]:
            keep = float(array[index])
            step = 1e-2
            array[index] = keep + step
            up = loss()[0]
            array[index] = keep - step
            down = loss()[0]
            array[index] = keep
            numeric = (up - down) / (2 * step)
            assert math.isclose(float(grads[name][index]), numeric, rel_tol=0.05, abs_tol=2e-4), (name, index)
    return grads
