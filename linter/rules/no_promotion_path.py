"""PRM005 no-promotion-path: promotions JAX rejects in every mode."""

from __future__ import annotations

from promolint.engine.model import OperationKind
from promolint.engine.values import Refusal
from promolint.rules.base import Example, Rule, describe_operands
from promolint.rules.shared.through_calls import reported_with_calls, settled
from promolint.systems.base import Reason

_SMALL_TYPE_REASONS = {r.value for r in (Reason.FLOAT8, Reason.FLOAT6, Reason.FLOAT4, Reason.INTN)}
_LEAD = "TypePromotionError in every mode: "


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
        # A helper called with int16 and with int4 weights: the int4 call raises inside it.
        Example("""
            import jax.numpy as jnp
            def scaled(w):
                return w * jnp.ones(3, jnp.int8)
            x = scaled(jnp.ones(3, jnp.int16))
            y = scaled(jnp.ones(3, jnp.int4))
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
        if _refused(operation):
            yield self.finding(operation, _explained(operation))

    def check_module(self, module):
        """Each refused promotion, then each call of the program's own functions whose body
        refuses one for the arguments the call passes (an int4 array given to a helper)."""
        return reported_with_calls(self, module, _refused, _told)


def _refused(operation) -> bool:
    result = settled(operation.result)
    return (isinstance(result, Refusal) and result.reason in _SMALL_TYPE_REASONS
            and operation.kind != OperationKind.INVOKE)


def _explained(operation) -> str:
    return (f"{_LEAD}{settled(operation.result).reason}s do not promote implicitly "
            f"({describe_operands(operation)}). Cast explicitly, e.g. `x.astype('float32')`.")  # fmt: skip


def _told(operation) -> tuple[str, str]:
    return "TypePromotionError in every mode", _explained(operation).removeprefix(_LEAD)
