"""Messages name what `promolint reveal` knows: each operand of a refused promotion with its dtype
as reveal shows it (never a single dtype for a binary promotion), and reveal itself prints JAX's
long refusal once, then refers to it.  The refusals are JAX's own (each snippet raises under
strict promotion, checked with the installed JAX in ``test_the_snippets_raise_in_jax``)."""

from __future__ import annotations

import textwrap

import pytest

from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import lint_source
from promolint.driver.reveal import format_text, reveal_records

# `m` is a bool whatever `x` is: reveal says so, and the message must name it beside the int.
BOOL_MASK_PLUS_INT = """
import jax.numpy as jnp

def f(x: jnp.ndarray):
    m = x > 0
    return m + 1
"""
# `x > 0` of an untyped `x` is of a library reveal does not know (NumPy's bool, a Python bool or
# JAX's): it is named as such, not dropped, beside the int32.
UNTYPED_COMPARISON_PLUS_INT32 = """
import jax.numpy as jnp

def f(x):
    return (x > 0) + jnp.int32(1)
"""
# `jnp.floor(x / 2)` is a JAX float whose width follows `x`: it is named by the variable it follows.
FLOAT_OF_UNTYPED_PLUS_INT32 = """
import jax.numpy as jnp

def f(x):
    return jnp.floor(x / 2) + jnp.int32(1)
"""
STRICT = Settings(promotion="strict")


def _prm004(source: str) -> list[str]:
    data = textwrap.dedent(source).encode()
    return [d.message for d in lint_source(data, "m.py", STRICT, frozenset({"PRM004"}))]


@pytest.mark.parametrize(("source", "named"), [
    (BOOL_MASK_PLUS_INT, "weak or strong bool, Python int have"),
    (UNTYPED_COMPARISON_PLUS_INT32, "a value of unknown dtype, int32 have"),
    (FLOAT_OF_UNTYPED_PLUS_INT32, "a jax value whose dtype follows `x`, int32 have"),
], ids=["symbolic-bool", "unknown-library", "jax-following"])  # fmt: skip
def test_a_strict_refusal_names_both_operands_as_reveal_knows_them(source, named) -> None:
    (message,) = _prm004(source)
    assert f"TypePromotionError under strict promotion: {named} no implicit promotion path" in message


def test_the_operand_spelling_is_the_one_reveal_shows() -> None:
    data = textwrap.dedent(BOOL_MASK_PLUS_INT).encode()
    (mask,) = [r for r in reveal_records(data, STRICT) if r["text"] == "m" and not r["target"]]
    assert (mask["dtype"], mask["weak"]) == ("bool", None)  # weak or strong: `x` may be a Python number


@pytest.mark.parametrize(("source", "arguments"), [
    (BOOL_MASK_PLUS_INT, ("weak", "float32", "int8")),  # `x: jnp.ndarray`: arrays, weak ones too
    (UNTYPED_COMPARISON_PLUS_INT32, (1, 1.0, True, "float32", "int8")),
    (FLOAT_OF_UNTYPED_PLUS_INT32, (1, 1.0, "float32", "int8")),
], ids=["symbolic-bool", "unknown-library", "jax-following"])  # fmt: skip
def test_the_snippets_raise_in_jax(source, arguments) -> None:
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    namespace: dict = {}
    exec(textwrap.dedent(source), namespace)  # the test's own snippet, not linted code
    made = {"weak": jnp.asarray(1.0), "float32": jnp.ones(3), "int8": jnp.ones(3, jnp.int8)}
    with jax.numpy_dtype_promotion("strict"):
        for x in arguments:
            with pytest.raises(Exception, match="no available implicit dtype promotion path"):
                namespace["f"](made.get(x, x) if isinstance(x, str) else x)


def test_reveal_prints_a_refusal_once_and_then_refers_to_it() -> None:
    data = textwrap.dedent("""\
        import jax.numpy as jnp
        m = jnp.arange(3) > 1
        a = m + 1
        b = (m + 1) * 2
    """).encode()
    text = format_text("m.py", reveal_records(data, STRICT))
    refusals = [line for line in text.splitlines() if "TypePromotionError" in line]
    full = [line for line in refusals if "no available implicit dtype promotion path" in line]
    assert len(full) == 1 and full[0].startswith("m.py:3:1: a: TypePromotionError: Input dtypes")
    assert len(refusals) == 3  # a, then `m + 1` on lines 3 and 4 (what a refusal feeds is unknown)
    assert all(line.endswith("TypePromotionError (refused: see line 3)") for line in refusals if line not in full)


@pytest.mark.parametrize(("code", "named"), [
    # netket's Pauli basis: a sequence operand is described by its items
    ("jnp.stack([jnp.eye(2), jnp.array([[0, 1], [1, 0]]), jnp.array([[0, -1j], [1j, 0]])])",
     "float32, int32, complex64"),
    # numpyro's Bernoulli.sample: a Python type given as an operand is named (JAX's message names
    # "<class 'int'>" and 'bool'; strict promotion of the two raises, measured with jax 0.10.2)
    ("jnp.result_type(jnp.array([True]), int)", "bool, Python type int"),
])  # fmt: skip
def test_strict_messages_name_every_operand_type(code, named) -> None:
    source = f"import jax.numpy as jnp\ny = {code}\n".encode()
    messages = [d.message for d in lint_source(source, "m.py", Settings("off", "strict"), frozenset({"PRM004"}))]
    assert len(messages) == 1 and f"strict promotion: {named} have no implicit promotion path" in messages[0]
