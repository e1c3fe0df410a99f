"""Python ints in fixed-width integer dtypes: what a value becomes when it wraps."""

from __future__ import annotations

from promolint.engine.model import int_bounds


def wrapped(value: int, dtype: str) -> int:
    """``value`` wrapped into ``dtype``'s range, as a cast or an overflowing operation stores it."""
    low, high = int_bounds(dtype)
    return (value - low) % (high - low + 1) + low
