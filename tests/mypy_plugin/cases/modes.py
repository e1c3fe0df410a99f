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
outside = jnp.ones(3, jnp.int8) + 1.0


def step() -> None:
    in_function = count + 1.0
