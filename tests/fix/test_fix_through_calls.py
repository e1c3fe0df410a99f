"""`--promotion strict --fix` through the program's own functions: where bfloat16 activations meet
float32 weights inside a helper, the casts go in the helper when they suit every call of it, else
at the calls; the fixed module then runs under strict promotion without TypePromotionError and
computes the dtypes the original computed under standard promotion (real JAX, x64 off and on)."""

from __future__ import annotations

import textwrap

import pytest

from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import fix_source, lint_source
from safe_fixes import check_safe_fixes
from test_fix import CODES, run_with_jax

HEAD = """\
import jax
import jax.numpy as jnp
import numpy as np

params = jnp.ones((3, 3), jnp.float32)
bias = jnp.zeros(3, jnp.float32)
acts = jnp.ones((2, 3), jnp.bfloat16)
"""

# name -> (module body after HEAD, the lines --fix writes there: (original, fixed))
MODULES = {
    # The flat module: the cast goes on the operand.
    "flat": ("y = jnp.tanh(acts @ params + bias)\n",
             [("y = jnp.tanh(acts @ params + bias)", "y = jnp.tanh(acts.astype(jnp.float32) @ params + bias)")]),
    # One helper, called with one combination of dtypes: the cast goes in the helper, as flat.
    "helper": ("""
def dense(x, w):
    return x @ w + bias


y = dense(acts, params)
""", [("    return x @ w + bias", "    return x.astype(jnp.float32) @ w + bias")]),
    # The helper is called by another helper: the cast goes at the call that passes bfloat16.
    "nested": ("""
def dense(x, w):
    return x @ w


def layer(x, w, b):
    return jnp.tanh(dense(x, w) + b)


y = layer(acts, params, bias)
""", [("    return jnp.tanh(dense(x, w) + b)", "    return jnp.tanh(dense(x.astype(jnp.float32), w) + b)")]),
    # Called with two combinations: a cast in the helper would make the bfloat16-only call
    # float32, so the cast goes at the call that raises.
    "two_calls": ("""
def dense(x, w):
    return x @ w


y = dense(acts, params)
z = dense(acts, acts.T)
""", [("y = dense(acts, params)", "y = dense(acts.astype(jnp.float32), params)")]),
    # The same, the second call made from another helper the analysis records later.
    "two_calls_nested": ("""
def dense(x, w):
    return x @ w


def block(x):
    return dense(x, x.T)


y = dense(acts, params)
z = block(acts)
""", [("y = dense(acts, params)", "y = dense(acts.astype(jnp.float32), params)")]),
    # A jitted helper, and NumPy weights (which strict promotion treats as typed arrays).
    "jitted_numpy": ("""
@jax.jit
def project(x, w):
    return jnp.dot(x, w)


weights = np.ones((3, 3), np.float32)
y = project(acts, weights)
z = project(acts, acts.T)
""", [("y = project(acts, weights)", "y = project(acts.astype(jnp.float32), weights)")]),
}


def fix(body: str, unsafe: bool = False) -> str:
    data = (HEAD + textwrap.dedent(body)).encode()
    return fix_source(data, "m.py", Settings(promotion="strict"), CODES, unsafe)[0].decode()


@pytest.mark.parametrize("name", list(MODULES))
def test_strict_fix_writes_the_casts_where_they_keep_every_dtype(name) -> None:
    body, rewritten = MODULES[name]
    fixed = fix(body)
    expected = HEAD + textwrap.dedent(body)
    for original, new in rewritten:
        assert original in expected
        expected = expected.replace(original + "\n", new + "\n")
    assert fixed == expected
    assert not lint_source(fixed.encode(), "m.py", Settings(promotion="strict"), frozenset({"PRM004"}))


@pytest.mark.parametrize("x64", [False, True], ids=["x64 off", "x64 on"])
def test_fixed_modules_run_under_strict_promotion_with_the_original_dtypes(x64) -> None:
    originals = [HEAD + textwrap.dedent(body) for body, _ in MODULES.values()]
    fixed = [fix(body) for body, _ in MODULES.values()]
    runs = run_with_jax([(s, False) for s in originals] + [(s, True) for s in originals + fixed], x64=x64)
    standard, strict, migrated = runs[: len(MODULES)], runs[len(MODULES) : 2 * len(MODULES)], runs[2 * len(MODULES) :]
    for name, was, raised, now in zip(MODULES, standard, strict, migrated):
        assert not was["errors"], name
        assert any("TypePromotionError" in error for error in raised["errors"]), f"{name} runs strict unfixed"
        assert not now["errors"], f"{name}, fixed, under strict promotion: {now['errors']}"
        assert now["dtypes"] == was["dtypes"], name


EARLY_CAST = """
def scaled(x, w):
    h = x * 2
    return h @ w


y = scaled(acts, params)
z = scaled(acts, acts.T)
"""


def test_a_cast_at_the_call_that_changes_a_dtype_inside_the_helper_is_unsafe() -> None:
    """Cast at the call, `x * 2` is computed in float32 instead of bfloat16: the result keeps its
    dtype, an intermediate does not.  Only `--unsafe-fixes` applies it, and the module then runs
    under strict promotion."""
    (finding,) = [d for d in lint_source((HEAD + EARLY_CAST).encode(), "m.py", Settings(promotion="strict"), CODES)
                  if d.code == "PRM004"]  # fmt: skip
    assert finding.line == 14 and finding.message.startswith(
        "This call raises TypePromotionError under strict promotion at line 11 (`h @ w`): bfloat16, float32")
    assert not finding.fix.safe and "`x * 2` at line 10 becomes float32 instead of bfloat16" in finding.fix.title
    assert fix(EARLY_CAST) == HEAD + EARLY_CAST
    fixed = fix(EARLY_CAST, unsafe=True)
    assert "y = scaled(acts.astype(jnp.float32), params)\n" in fixed
    was, now = run_with_jax([(HEAD + EARLY_CAST, False), (fixed, True)])
    assert not now["errors"] and now["dtypes"] == was["dtypes"]


def test_no_cast_is_offered_where_every_placement_changes_a_result() -> None:
    """`x.sum()` is part of the result: a cast of `x` at the call changes it, and a cast inside
    would change the bfloat16-only call.  The call is reported, with no fix."""
    body = """
def dense(x, w):
    return x @ w, x.sum()


out, total = dense(acts, params)
again = dense(acts, acts.T)
"""
    (finding,) = [d for d in lint_source((HEAD + body).encode(), "m.py", Settings(promotion="strict"), CODES)
                  if d.code == "PRM004"]  # fmt: skip
    assert finding.line == 13 and finding.fix is None
    assert fix(body, unsafe=True) == HEAD + body


def test_a_cast_at_a_call_inside_a_helper_must_suit_every_call_of_that_helper() -> None:
    """`layer` is called with float32 and with bfloat16 weights: a cast of `x` at its call of
    `dense` would make the bfloat16-only call float32, so the cast goes at the outer call that
    passes float32 weights."""
    body = """
def dense(x, w):
    return x @ w


def layer(x, w):
    return jnp.tanh(dense(x, w))


y = layer(acts, params)
z = layer(acts, acts.T)
"""
    fixed = fix(body)
    assert "    return jnp.tanh(dense(x, w))\n" in fixed
    assert "y = layer(acts.astype(jnp.float32), params)\n" in fixed
    was, now = run_with_jax([(HEAD + body, False), (fixed, True)])
    assert not now["errors"] and now["dtypes"] == was["dtypes"]


def test_a_cast_at_a_call_is_spelled_to_follow_x64_where_only_that_keeps_the_dtype() -> None:
    """`jnp.ones((3, 3))` is float32 with x64 off and float64 with it on: cast to `jnp.float32`
    at the call, bfloat16 activations would still meet float64 weights with x64 on, which
    strict promotion refuses; cast to `float`, which follows x64, the call runs in both modes.
    With x64 pinned off the explicit spelling is safe as it is."""
    body = """
def dense(x, w):
    return x @ w


y = dense(acts, jnp.ones((3, 3)))
z = dense(acts, acts.T)
"""
    fixed = fix(body)
    assert "y = dense(acts.astype(float), jnp.ones((3, 3)))\n" in fixed
    pinned = fix_source((HEAD + body).encode(), "m.py", Settings("off", "strict"), CODES)[0].decode()
    assert "y = dense(acts.astype(jnp.float32), jnp.ones((3, 3)))\n" in pinned
    for x64 in (False, True):
        was, now = run_with_jax([(HEAD + body, False), (fixed, True)], x64=x64)
        assert not now["errors"] and now["dtypes"] == was["dtypes"], x64


@pytest.mark.parametrize("name", list(MODULES))
def test_the_casts_keep_every_dtype_the_analysis_sees(name) -> None:
    """As tests/fix/test_safe_fixes.py checks the fixtures: reveal of every expression before and after,
    x64 off and on; the parameters that receive a cast argument (and their reads) change by design."""
    outcome = check_safe_fixes((HEAD + textwrap.dedent(MODULES[name][0])).encode(), Settings(promotion="strict"),
                               CODES, net=False)  # fmt: skip
    assert outcome.applied and outcome.error is None
    assert not outcome.changes, "\n".join(map(str, outcome.changes))
