"""PRM004 strict-promotion, PRM005 no-promotion-path, PRM008 lax-dtype-mismatch, PRM009
inplace-cast: operations the library rejects at run time."""

from __future__ import annotations

from linter.engine.values import Array, Refusal
from linter.rules.base import Example, Rule
from linter.systems.base import Reason

_SMALL_TYPE_REASONS = {r.value for r in (Reason.FLOAT8, Reason.FLOAT6, Reason.FLOAT4, Reason.INTN)}


def _operands(operation) -> str:
    return ", ".join(v.describe() for v in operation.operands if isinstance(v, Array)) or "its operands"


class StrictPromotion(Rule):
    code = "PRM004"
    name = "strict-promotion"
    summary = (
        "Flags implicit promotions that raise TypePromotionError under "
        "`jax_numpy_dtype_promotion='strict'`: where strict mode is active at that point, or "
        "everywhere with `--promotion strict`."
    )
    why = """
        Strict mode allows only a weak scalar of the same or a lower kind beside a typed array: two
        different dtypes, a float literal with an integer array, or any literal with a bool array
        raise. Code that passes in standard mode breaks as soon as a caller enables strict mode.
    """
    fix_safety = """
        `promolint check --fix` inserts the casts standard mode performs implicitly
        (`.astype(...)`, typed scalars), which keeps every dtype as it was.
    """
    invalid = (
        Example("""
            import jax
            import jax.numpy as jnp
            with jax.numpy_dtype_promotion("strict"):
                x = jnp.ones(3, jnp.int8) + 1.0
        """),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.bfloat16) + jnp.ones(3, jnp.float16)
        """, promotion="strict"),
    )
    valid = (
        Example("""
            import jax
            import jax.numpy as jnp
            with jax.numpy_dtype_promotion("strict"):
                x = jnp.ones(3, jnp.int8).astype(jnp.float32) + 1.0
        """),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.bfloat16) + jnp.ones(3, jnp.float16)
        """),
    )

    def check(self, operation):
        result = operation.result
        if isinstance(result, Refusal) and result.reason == Reason.STRICT.value:
            yield self.finding(operation, f"TypePromotionError under strict promotion: {_operands(operation)} have "
                               "no implicit promotion path. Cast explicitly, e.g. `.astype(...)`.")  # fmt: skip


class NoPromotionPath(Rule):
    code = "PRM005"
    name = "no-promotion-path"
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
                               f"implicitly ({_operands(operation)}). Cast explicitly, e.g. `x.astype('float32')`.")  # fmt: skip


class LaxDtypeMismatch(Rule):
    code = "PRM008"
    name = "lax-dtype-mismatch"
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


class InplaceCast(Rule):
    code = "PRM009"
    name = "inplace-cast"
    summary = "Flags in-place operators on NumPy arrays whose result cannot be stored in the array's dtype."
    why = """
        `a += 0.5` on an integer NumPy array raises UFuncTypeError: the float64 result cannot be cast
        back to the array's dtype with NumPy's 'same_kind' rule. (JAX arrays rebind instead.)
    """
    invalid = (
        Example("""
            import numpy as np
            a = np.zeros(3, np.int32)
            a += 0.5
        """),
    )
    valid = (
        Example("""
            import numpy as np
            a = np.zeros(3, np.float32)
            a += 0.5
        """),
    )

    def check(self, operation):
        result = operation.result
        if operation.kind == "augassign" and isinstance(result, Refusal) and result.error == "TypeError":
            yield self.finding(operation, f"UFuncTypeError: {result.message}. Make the array a float array or "
                               "write `a = a + x`.")  # fmt: skip
