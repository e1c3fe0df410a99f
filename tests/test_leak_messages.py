"""PRM001's advice names the dtype of the data the leak widens: an int32 action widened by an
int64 table is cast back to int32, not float32 (gymnax's FrozenLake, x64 on)."""

from __future__ import annotations

import textwrap

from promolint.frontend.analysis import Settings
from promolint.lint import lint_source

FROZEN_LAKE = """
import jax
import jax.numpy as jnp

def transition(key, action):
    action = jnp.asarray(action, dtype=jnp.int32)
    offset = jax.random.choice(key, jnp.array((-1, 1)))
    return (action + offset) % 4
"""


def test_the_advice_names_the_widened_integer_dtype() -> None:
    (found,) = lint_source(textwrap.dedent(FROZEN_LAKE).encode(), "m.py", Settings(x64="on"), frozenset({"PRM001"}))
    assert "widens int32 `action` to int64" in found.message
    assert "`.astype(jnp.int32)`" in found.message and "float32" not in found.message
