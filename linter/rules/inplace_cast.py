"""PRM009 inplace-cast: in-place updates whose value cannot be stored in the array's dtype: NumPy's
in-place operators, which raise, and JAX's ``x.at[i].set(v)`` family, which narrows with a
FutureWarning."""

from __future__ import annotations

from promolint.engine.model import OperationKind, update_promotion
from promolint.engine.values import AT_INDEXED, Array, Library, Refusal
from promolint.rules.base import Example, Rule, exact


class InplaceCast(Rule):
    summary = (
        "Flags in-place operators on NumPy arrays whose result cannot be stored in the array's dtype, "
        "and JAX's `x.at[i].set(v)` (`.add`, `.multiply`, ...) of a value JAX cannot safely cast to "
        "`x`'s dtype."
    )
    why = """
        `a += 0.5` on an integer NumPy array raises UFuncTypeError: the float64 result cannot be cast
        back to the array's dtype with NumPy's 'same_kind' rule. JAX arrays rebind instead, and
        their functional update `x.at[i].set(v)` casts `v` to `x`'s dtype: where JAX's promotion of
        `v` with that dtype is another dtype (a float64 value into a float32 array under x64, an
        int64 index into an int32 one, a float into an int array), the value is narrowed, JAX warns
        "FutureWarning: scatter inputs have incompatible types", and future JAX releases will
        raise. A Python scalar of the array's kind is safe (`x.at[0].set(0)`).
    """
    invalid = (
        Example("""
            import numpy as np
            a = np.zeros(3, np.int32)
            a += 0.5
        """),
        # jax-gcm issue 770: a float64 default set into a float32 array under x64
        Example("""
            import jax.numpy as jnp
            tend = jnp.ones(4, jnp.float32)
            tend = tend.at[0].set(jnp.zeros(3).sum() + 1e-3)
        """, x64="on"),
        # apax issue 66: an int64 index set into an int32 array under x64
        Example("""
            import jax.numpy as jnp
            neighbors = jnp.zeros(10, dtype=jnp.int32)
            idx = jnp.arange(3)
            neighbors = neighbors.at[idx].set(idx + 5)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            counts = jnp.zeros(3, jnp.int32).at[0].add(0.5)
        """),
    )
    valid = (
        Example("""
            import numpy as np
            a = np.zeros(3, np.float32)
            a += 0.5
        """),
        Example("""
            import jax.numpy as jnp
            tend = jnp.ones(4, jnp.float32)
            tend = tend.at[0].set(jnp.zeros(3, tend.dtype).sum() + 1e-3)
            counts = jnp.zeros(3, jnp.int32).at[0].add(1)
            cache = jnp.zeros(3, jnp.float32).at[0].set(jnp.int32(2))
        """, x64="on"),
        Example("""
            import numpy as np
            def top_up(fractions, n):
                counts = np.array([int(f * n) for f in fractions])  # float64 if empty, else int64
                counts[0] += 1
        """),
    )

    def check(self, operation):
        result = operation.result
        if operation.kind == OperationKind.AUGASSIGN and isinstance(result, Refusal) and result.error == "TypeError":
            yield self.finding(operation, f"UFuncTypeError: {result.message}. Make the array a float array or "
                               "write `a = a + x`.")  # fmt: skip
            return
        unsafe = _unsafe_update(operation)
        if unsafe is not None:
            target, value = unsafe
            method = operation.op.removeprefix(AT_INDEXED)
            article = "an" if target.dtype.startswith("int") else "a"
            yield self.finding(operation, f"`.at[...].{method}` of {value.describe()} into {article} {target.dtype} "
                               f"array: JAX casts it to {target.dtype}, narrowing it, and warns FutureWarning (scatter "
                               f"inputs have incompatible types); future JAX releases raise. Cast the value "
                               f"(`.astype(x.dtype)`) or make the array wider.")  # fmt: skip


def _unsafe_update(operation) -> tuple[Array, Array] | None:
    """The array and the value of ``x.at[i].set(v)`` and its kin (not ``get``) where JAX's
    ``dtypes.safe_to_cast(v, x)`` fails (``update_promotion`` is another dtype).  Under strict
    promotion it raises instead (PRM004's)."""
    if (operation.kind != OperationKind.CALL or operation.call is not None or not operation.op.startswith(AT_INDEXED)
            or operation.op == AT_INDEXED + "get" or len(operation.operands) != 2 or operation.ctx.strict):  # fmt: skip
        return None
    target, value = (exact(v) for v in operation.operands)
    if target is None or value is None or target.library is not Library.JAX:
        return None
    promoted = update_promotion(target, value, operation.ctx)
    if not isinstance(promoted, Array) or promoted.dtype is None or promoted.dtype == target.dtype:
        return None
    return target, value
