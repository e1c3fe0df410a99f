"""PRM008 lax-dtype-mismatch: jax.lax operations on different dtypes."""

from __future__ import annotations

from promolint.engine.values import Refusal
from promolint.rules.base import Example, Rule


class LaxDtypeMismatch(Rule):
    summary = "Flags `jax.lax` operations whose operands differ in dtype: lax never promotes."
    why = """
        `jax.lax.add(x, y)` requires one dtype, Python scalars included (`lax.add(int8_array, 1)`
        fails: the literal is int32). It raises TypeError at trace time.
    """
    invalid = (
        Example("""
            import jax
            import jax.numpy as jnp
            z = jax.lax.add(jnp.ones(3, jnp.int8), 1)
        """),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            z = jax.lax.add(jnp.ones(3, jnp.int8), jnp.int8(1))
        """),
    )

    def check(self, operation):
        result = operation.result
        if isinstance(result, Refusal) and result.error == "TypeError" and operation.op.startswith("jax.lax."):
            yield self.finding(operation, f"{result.message} Use the jnp function, or cast one operand.")
