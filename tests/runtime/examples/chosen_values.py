"""Values a test on the arguments chooses (coordax's `map_indexers_using_ticks`): a parameter
that may be None given a fallback, an item of a dict parameter, and an isinstance test that no
number passes.  Each site is evaluated at the branch the call takes."""

from typing import Any

import numpy as np


class Axis:
    def __init__(self, ticks):
        self.ticks = np.asarray(ticks)


def nearest(axis: Axis, indexers: dict[str, Any], ticks: np.ndarray | None = None, key: str = "x"):
    ticks = ticks if ticks is not None else axis.ticks
    value = indexers[key]
    if isinstance(value, Axis):
        value = value.ticks
    candidates = np.searchsorted(ticks, value)
    right = np.minimum(candidates, len(ticks) - 1)
    return np.abs(value - ticks[right])


def shifted(x, shift: np.ndarray | None = None):
    if shift is None:
        shift = np.zeros((), np.float16)
    return x + shift


def scaled(values: dict[str, Any]):
    if "scale" in values:
        return values["x"] * values["scale"]
    return values["x"]
