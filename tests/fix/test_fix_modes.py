"""A fix is safe only if it keeps every dtype in every mode the code can run in, the one it sets
itself included: `--x64 off` chooses what is reported, not what a module that turns x64 on runs
in.  And an unsafe fix's title says what it changes, from the dtypes inferred before and after.

The dtypes the tests expect are JAX's: each snippet is run with the installed JAX in the modes
named (``_run``), never taken from promolint's own output."""

from __future__ import annotations

import textwrap

import pytest

from promolint.driver.config import X64_PORTABILITY, known_codes
from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import fix_source, lint_source

CODES = frozenset(known_codes()) - {X64_PORTABILITY}

# A test module that exists to test float64: it turns x64 on three lines before.
SETS_X64_ON = """
import jax
import jax.numpy as jnp

jax.config.update("jax_enable_x64", True)

x = jnp.ones(3, dtype=jnp.float64)
"""
WITH_BLOCK = """
import jax
import jax.numpy as jnp

with jax.enable_x64(True):
    x = jnp.ones(3, dtype=jnp.float64)
"""
# `i8 + 1.5` is a weak float; cast for strict mode it becomes strong, and the product with the
# float16 array changes dtype: the fix's title must say to what.
STRONG_CAST = """
import jax.numpy as jnp

i8 = jnp.ones(3, dtype=jnp.int8)
f16 = jnp.ones(3, dtype=jnp.float16)
y = (i8 + 1.5) * f16
"""


def _run(code: str, x64: bool, name: str, promotion: str = "standard") -> str:
    """The dtype of ``name`` once ``code`` runs under JAX with x64 ``x64`` (its own
    `config.update` lines left out: the mode is the one asked for)."""
    jax = pytest.importorskip("jax")
    lines = [line for line in textwrap.dedent(code).splitlines() if "config.update" not in line]
    namespace: dict = {}
    with jax.enable_x64(x64), jax.numpy_dtype_promotion(promotion):
        exec("\n".join(lines), namespace)  # the test's own snippet, not linted code
        return str(namespace[name].dtype)


def _fix_of(source: str, settings: Settings, code: str, describe_unsafe_fixes: bool = True):
    data = textwrap.dedent(source).encode()
    (finding,) = [d for d in lint_source(data, "m.py", settings, CODES, describe_unsafe_fixes=describe_unsafe_fixes)
                  if d.code == code]  # fmt: skip
    return finding.fix


@pytest.mark.parametrize("source", [SETS_X64_ON, WITH_BLOCK], ids=["config-update", "with-enable-x64"])
def test_a_forced_x64_off_does_not_make_narrowing_safe_where_the_code_sets_x64_on(source) -> None:
    assert _run(source, True, "x") == "float64"  # what the fix would turn into float32
    fix = _fix_of(source, Settings(x64="off"), "PRM007")
    assert not fix.safe
    assert "it makes `jnp.ones(3, dtype=jnp.float64)` float32 where the code sets x64; it was float64" in fix.title
    data = textwrap.dedent(source).encode()
    fixed, applied, _ = fix_source(data, "m.py", Settings(x64="off"), CODES)
    assert (fixed, applied) == (data, 0)


def test_the_narrowing_stays_safe_where_the_code_sets_nothing() -> None:
    source = SETS_X64_ON.replace('jax.config.update("jax_enable_x64", True)\n', "")
    assert _fix_of(source, Settings(x64="off"), "PRM007").safe


def test_an_unsafe_fix_title_says_what_the_fix_changes_in_each_mode() -> None:
    cast = STRONG_CAST.replace("(i8 + 1.5)", "(i8.astype(float) + 1.5)")
    assert [_run(STRONG_CAST, x64, "y") for x64 in (False, True)] == ["float16", "float16"]
    assert [_run(cast, x64, "y") for x64 in (False, True)] == ["float32", "float64"]
    fix = _fix_of(STRONG_CAST, Settings(promotion="strict"), "PRM004")
    assert not fix.safe
    assert fix.title.endswith("it makes `(i8 + 1.5) * f16` float32 with x64 off, float64 with x64 on; "
                              "it was float16")  # fmt: skip
    applied = fix_source(textwrap.dedent(STRONG_CAST).encode(), "m.py", Settings(promotion="strict"), CODES,
                         unsafe=True)[0].decode()  # fmt: skip
    assert "y = (i8.astype(float) + 1.5) * f16" in applied


def test_a_report_that_shows_no_unsafe_title_does_not_weigh_unsafe_fixes() -> None:
    """Weighing an unsafe fix costs analyses of the fixed file in every mode: ``check``'s report
    and ``--fix`` show no unsafe fix's title, and keep the rule's own."""
    described = _fix_of(STRONG_CAST, Settings(promotion="strict"), "PRM004")
    plain = _fix_of(STRONG_CAST, Settings(promotion="strict"), "PRM004", describe_unsafe_fixes=False)
    assert not plain.safe and described.title.startswith(plain.title + "; it makes ")


def test_a_safe_fix_is_weighed_where_the_code_sets_x64_without_describing() -> None:
    assert not _fix_of(SETS_X64_ON, Settings(x64="off"), "PRM007", describe_unsafe_fixes=False).safe
