"""PRM001's advice names the dtype of the data the leak widens (bfloat16 activations are cast back
to bfloat16, not float32), and integers widened by integers are no leak: an int32 action widened
by an int64 table keeps its values (gymnax's FrozenLake, x64 on)."""

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

HALF_PRECISION = """
import jax.numpy as jnp

def scaled(x):
    h = jnp.asarray(x, dtype=jnp.bfloat16)
    return h * jnp.array([0.5, 2.0])
"""

COUNT_INTO_FLOATS = """
import jax.numpy as jnp

def normalised(mask, x):
    x = jnp.asarray(x, dtype=jnp.float32)
    p = jnp.asarray(mask, dtype=jnp.int32)
    return x * (p / p.sum())
"""


def _findings(source: str) -> list:
    return lint_source(textwrap.dedent(source).encode(), "m.py", Settings(x64="on"), frozenset({"PRM001"}))


def test_the_advice_names_the_widened_float_dtype() -> None:
    (found,) = _findings(HALF_PRECISION)
    assert "widens bfloat16 `h` to float64" in found.message
    assert "`.astype(jnp.bfloat16)`" in found.message and "float32" not in found.message


def test_integers_widened_by_integers_are_no_leak() -> None:
    assert _findings(FROZEN_LAKE) == []


def test_an_int64_count_is_reported_where_it_widens_floats() -> None:
    (found,) = _findings(COUNT_INTO_FLOATS)
    assert "widens float32 `x` to float64" in found.message
