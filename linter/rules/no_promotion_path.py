"""PRM005 no-promotion-path: promotions JAX rejects in every mode."""

from __future__ import annotations

from promolint.engine.values import Refusal
from promolint.rules.base import Example, Rule, describe_operands
from promolint.systems.base import Reason

_SMALL_TYPE_REASONS = {r.value for r in (Reason.FLOAT8, Reason.FLOAT6, Reason.FLOAT4, Reason.INTN)}


class NoPromotionPath(Rule):
    summary = (
        "Flags promotions JAX rejects even in standard mode: 8-, 6- and 4-bit floats and 1-, 2- and "
        "4-bit integers with other types."
    )
    why = """
        JAX deliberately gives the small float and integer types no implicit promotion path:
        `int4 + int8` and `float8_e4m3fn + float32` raise TypePromotionError in every mode.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.float8_e4m3fn) + jnp.ones(3, jnp.float32)
        """),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.int4) + jnp.ones(3, jnp.int8)
        """),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.float8_e4m3fn).astype(jnp.float32) + jnp.ones(3, jnp.float32)
        """),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.int4) + 1
        """),
    )

    def check(self, operation):
        result = operation.result
        if isinstance(result, Refusal) and result.reason in _SMALL_TYPE_REASONS:
            yield self.finding(operation, f"TypePromotionError in every mode: {result.reason}s do not promote "
                               f"implicitly ({describe_operands(operation)}). Cast explicitly, e.g. `x.astype('float32')`.")  # fmt: skip
