"""PRM001 (implicit-x64): its advice names the dtype of the data the leak widens (bfloat16 activations are cast back
to bfloat16, not float32), and integers widened by integers are no leak: an int32 action widened
by an int64 table keeps its values (gymnax's FrozenLake, x64 on)."""

from __future__ import annotations

import textwrap

import pytest

from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import lint_source

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


# With x64 on, the leak does not widen silently: the 64-bit value reaches a loop's carry or a
# `jax.lax` operation, and JAX raises there (``test_the_raising_snippets_raise_in_jax``).
INTO_A_CARRY = """
import jax
import jax.numpy as jnp
import numpy as np

def body(i, x):
    return x / np.sqrt(2)

y = jax.lax.fori_loop(0, 3, body, jnp.ones(3, jnp.float32))
"""
INTO_LAX_ADD = """
import jax
import jax.numpy as jnp
import numpy as np

x = jnp.ones(3, jnp.float32)
scaled = x * np.sqrt(2)
z = jax.lax.add(scaled, x)
"""
INTO_A_BRANCH = """
import jax
import jax.numpy as jnp
import numpy as np

x = jnp.ones(3, jnp.float32)
y = jax.lax.cond(x[0] > 0, lambda v: v * np.sqrt(2), lambda v: v, x)
"""


def test_the_raising_snippets_raise_in_jax() -> None:
    jax = pytest.importorskip("jax")
    for source in (INTO_A_CARRY, INTO_LAX_ADD, INTO_A_BRANCH):
        with jax.enable_x64(True), pytest.raises(TypeError):
            exec(textwrap.dedent(source), {})  # the test's own snippet, not linted code
        with jax.enable_x64(False):
            exec(textwrap.dedent(source), {})  # with x64 off, np.sqrt(2) meets JAX as float32


@pytest.mark.parametrize(("source", "raises"), [
    (INTO_A_CARRY, "With x64 on, `lax.fori_loop` raises TypeError at line 9: lax.fori_loop's body returns its "
                   "carry as float64 where it received float32"),
    (INTO_LAX_ADD, "With x64 on, `lax.add` raises TypeError at line 8: lax.add requires arguments to have the "
                   "same dtypes, got float64, float32"),
    (INTO_A_BRANCH, "With x64 on, `lax.cond` raises TypeError at line 7: lax.cond's branches return float32 and "
                    "float64"),
], ids=["carry", "lax-add", "branch"])  # fmt: skip
def test_a_leak_that_makes_jax_raise_says_so_and_where_the_cast_removes_it(source, raises) -> None:
    (found,) = _findings(source)
    assert raises in found.message
    assert found.message.endswith("or cast it to the narrower dtype where it is made.")
    assert any("raises TypeError" in r.message for r in found.related)


def test_a_leak_that_only_widens_keeps_the_widening_text() -> None:
    (found,) = _findings(HALF_PRECISION)
    assert "raises" not in found.message and "where it is made" not in found.message
