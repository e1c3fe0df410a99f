"""docs/runtime.md's limitation 8, from coordax: a NumPy ufunc of operands nothing is known of
gives a scalar where they have no dimensions, an array elsewhere."""

import numpy as np


def closer(a, b):
    return np.abs(a) <= np.abs(b)


def nearest(indexers: dict, ticks: np.ndarray):
    value = indexers["x"]
    return closer(value - ticks[0], value - ticks[1])
