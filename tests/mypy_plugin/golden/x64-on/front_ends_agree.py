# promolint mypy plugin golden output -- mypy 2.4.1, config x64-on: {"extend-select": ["PRM001"], "x64": "on"}
"""Two cases where the plugin once disagreed with `promolint check` (jax 0.10.2, x64 on: see
tests/mypy_plugin/golden/x64-on for what both report)."""

import jax.numpy as jnp
import numpy as np


def rebinds_to_jax() -> None:
    # Run, `a` becomes a float32 JAX array: NumPy declines the in-place add of a JAX operand and
    # Python falls back to `a = a + j`. No PRM009 (the plugin once reported an unsafe cast).
    a = np.zeros(3, np.int32)
    a += jnp.ones(3, jnp.float32)
# MYPY: error: Result type of + incompatible in assignment  [misc]


def joined_branches(flag: bool) -> None:
    # `s` is a strong np.float64 on both branches: with x64 on the product is float64 (PRM001,
    # which the plugin once missed because two definitions reached the use).
    if flag:
        s = np.float64(2.0)
# MYPY: error: `np.float64(2.0)` is a strong float64 NumPy scalar, which no operand asked for: from here it widens float32 `jnp.ones(3, jnp.float32)` to float64 at line 22. Use a Python scalar (`math.sqrt(n)`, `float(c)`), or cast it to the narrower dtype.  [promolint-implicit-x64]
    else:
        s = np.float64(3.0)
    y = jnp.ones(3, jnp.float32) * s
