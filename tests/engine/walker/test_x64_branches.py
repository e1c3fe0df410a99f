"""Branches on the x64 mode (``Analysis._x64_test``, ``Analysis._assuming``): a branch runs in the
mode its test implies, through ``and``, ``or`` and ``not``; a function's branch that runs only with
x64 on is not judged, in a run with x64 off, over the narrower arrays JAX has with x64 off.  What
each branch gives, and what raises, is what jax 0.10.2 does with the same code."""

from __future__ import annotations

import textwrap

import jax
import jax.numpy as jnp
import pytest

from promolint.driver.lint import lint_source
from promolint.driver.reveal import reveal_records
from promolint.engine.walker.analysis import Settings

# A test, and the x64 mode where it holds and where it fails (None: either mode).
TESTS = {
    "flag and read": ('F and jax.config.read("jax_enable_x64")', True, None),
    "read and flag": ("jax.config.jax_enable_x64 and F", True, None),
    "not (flag or not read)": ("not (F or not jax.config.jax_enable_x64)", True, None),
    "not flag or not read": ('not F or not jax.config.read("jax_enable_x64")', None, True),
    "flag or read": ("F or jax.config.jax_enable_x64", None, False),
    "read is True": ("jax.config.x64_enabled is True", True, False),
    "not read": ("not jax.config.x64_enabled", False, True),
}


def _zeros_in_branches(test: str, x64: str) -> tuple[str, str]:
    """The dtype reveal gives `jnp.zeros(3)` where ``test`` holds, and where it fails."""
    source = textwrap.dedent(f"""\
        import jax
        import jax.numpy as jnp
        from settings import F
        if {test}:
            z = jnp.zeros(3)
        else:
            w = jnp.zeros(3)
        """).encode()
    records = reveal_records(source, Settings(x64, "auto"))
    found = {r["text"]: r["dtype"] for r in records if r["target"]}
    return found["z"], found["w"]


def _jax_zeros(x64: bool) -> str:
    with jax.enable_x64(x64):
        return str(jnp.zeros(3).dtype)


@pytest.mark.parametrize("name", TESTS)
@pytest.mark.parametrize("x64", ["off", "on"])
def test_a_branch_runs_in_the_mode_its_test_implies(name: str, x64: str) -> None:
    test, where_true_mode, where_false_mode = TESTS[name]
    where_true, where_false = _zeros_in_branches(test, x64)
    run_mode = x64 == "on"
    # Each branch makes what JAX makes in the mode its test implies, else in the run's mode.
    assert where_true == _jax_zeros(run_mode if where_true_mode is None else where_true_mode)
    assert where_false == _jax_zeros(run_mode if where_false_mode is None else where_false_mode)


SOLVE = """\
import jax
import jax.numpy as jnp


def solve(a: jax.Array, b: jax.Array, force_x64: bool) -> jax.Array:
    if force_x64 and jax.config.read("jax_enable_x64"):
        a = a.astype(jnp.promote_types(a.dtype, jnp.float64))
    return jnp.linalg.solve(a, b)
"""


def _solve_error(dtype, x64: bool) -> str | None:
    """The error `solve` raises for an `a` of ``dtype`` under strict promotion, if any."""
    namespace: dict = {}
    exec(SOLVE, namespace)  # the test's own snippet, not linted code
    with jax.enable_x64(x64), jax.numpy_dtype_promotion("strict"):
        a = jnp.eye(2, dtype=dtype)
        try:
            namespace["solve"](a, jnp.ones(2, a.dtype), True)
        except Exception as error:
            return type(error).__name__
    return None


@pytest.mark.parametrize("x64", ["off", "on"])
def test_a_function_s_branch_for_x64_on_is_no_strict_error_for_every_array(x64: str) -> None:
    """fmmax's `solve` (fmmax 1.7.1): with x64 off the branch never runs; with x64 on a float64
    `a` passes.  With x64 off the engine's arrays have no float64 member, so the branch, judged
    over them, seemed to raise for every `a`."""
    on = x64 == "on"
    dtypes = [jnp.float32, jnp.complex64] + ([jnp.float64, jnp.complex128] if on else [])
    errors = {jnp.dtype(d).name: _solve_error(d, on) for d in dtypes}
    assert set(errors.values()) <= {None, "TypePromotionError"}
    raising = {name for name, error in errors.items() if error}
    assert raising == ({"float32", "complex64", "complex128"} if on else set())
    codes = {d.code for d in lint_source(SOLVE.encode(), "solve.py", Settings(x64, "strict"), frozenset({"PRM004"}))}
    assert "PRM004" not in codes
