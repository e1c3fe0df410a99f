# promolint mypy plugin golden output -- mypy 2.4.1, config x64-on: {"extend-select": ["PRM001"], "x64": "on"}
# ruff: noqa: F841
"""Modes the code sets: jax.config.update and the with-blocks of jax's mode switches."""
import jax
import jax.numpy as jnp

count = jnp.zeros([], jnp.int32)
before = count + 1.0
jax.config.update("jax_enable_x64", True)
after = count + 1.0

with jax.numpy_dtype_promotion("strict"):
    strict_block = jnp.ones(3, jnp.int8) + 1.0
# MYPY: error: TypePromotionError under strict promotion: int8, Python float have no implicit promotion path. Cast explicitly, e.g. `.astype(...)`.  [promolint-strict-promotion]
outside = jnp.ones(3, jnp.int8) + 1.0


def step() -> None:
    in_function = count + 1.0
