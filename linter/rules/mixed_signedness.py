"""PRM020 mixed-signedness: uint32 meeting a signed integer in JAX."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.engine.model import Operation, OperationKind
from promolint.engine.values import Array, Library
from promolint.rules.base import Example, Finding, Rule, exact
from promolint.rules.shared.promoted import promoted

_SIGNED_32 = frozenset({"int8", "int16", "int32"})


class MixedSignedness(Rule):
    summary = (
        "Flags JAX operations where a uint32 operand meets a signed integer of at most 32 bits: with "
        "x64 off they compute in int32, so uint32 values from 2**31 up wrap to negative numbers; "
        "with x64 on they compute in int64, 64-bit arithmetic no operand asked for."
    )
    why = """
        With x64 off JAX has no int64, so its lattice joins uint32 with int8, int16 or int32 at
        int32 (with x64 on, at int64). The uint32 operand is converted to int32 first, and every
        value from 2**31 up becomes negative: `jnp.add(np.uint32(2**32 - 1), np.int8(1))` is 0,
        `jnp.uint32(2**31) < jnp.int32(0)` is True, and `jnp.uint32(2**31) >> jnp.int32(1)` is
        negative (jax issues 4187, 27021, 16748). The same code with x64 on gives int64 results:
        right values, but twice the memory and 64-bit arithmetic, which is slow on GPUs and
        unsupported on TPUs, from two 32-bit operands.
    """
    fix_safety = """
        No automatic fix is offered: whether the values are unsigned or signed is for the author
        to say. Cast one operand so that both have one signedness (`i.astype(jnp.uint32)` for
        bit patterns, hashes and random bits; `u.astype(jnp.int32)` for values known to stay
        below 2**31).
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            total = jnp.add(np.uint32(2**32 - 1), np.int8(1))
        """),
        Example("""
            import jax.numpy as jnp
            negative = jnp.uint32(2**31) < jnp.int32(0)
        """),
        Example("""
            import jax.numpy as jnp
            half = jnp.uint32(2**31) >> jnp.int32(1)
        """),
        Example("""
            import jax.numpy as jnp
            widened = jnp.ones(3, jnp.uint32) + jnp.ones(3, jnp.int32)
        """, x64="on"),
    )
    valid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            total = jnp.add(np.uint32(2**32 - 1), np.uint32(1))
        """),
        Example("""
            import jax.numpy as jnp
            shifted = jnp.ones(3, jnp.uint32) >> 1
        """),
        Example("""
            import jax.numpy as jnp
            mixed = jnp.ones(3, jnp.uint16) + jnp.ones(3, jnp.int16)
        """),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        inputs = promoted(operation)
        if inputs is None or inputs.library is not Library.JAX or not isinstance(operation.result, Array):
            return
        strong = inputs.strong()
        unsigned = next((v for v in strong if v.dtypes == {"uint32"}), None)
        signed = next((v for v in strong if v.dtypes <= _SIGNED_32), None)
        if unsigned is None or signed is None or inputs.kinds() - {"b", "u", "i"}:
            return
        pair = f"uint32 with {signed.dtype or '|'.join(sorted(signed.dtypes))}"
        comparison = operation.kind == OperationKind.COMPARE or (operation.call is not None
                                                                 and operation.call.fn.semantics == "compare")
        if not operation.ctx.x64:
            if type(unsigned.literal) is int and unsigned.literal < 2**31:
                return  # a known value that survives the conversion to int32
            what = "compares" if comparison else "computes"
            yield self.finding(operation, f"{pair} {what} in int32 with x64 off: uint32 values from 2**31 up "
                               "wrap to negative numbers. Give both operands one signedness, e.g. "
                               "`.astype(jnp.uint32)`.")  # fmt: skip
            return
        result = exact(operation.result)
        if not comparison and result is not None and result.dtype == "int64":
            yield self.finding(operation, f"{pair} gives int64 with x64 on: 64-bit arithmetic no operand asked "
                               "for (int32 with x64 off, where uint32 values from 2**31 up wrap). Give both "
                               "operands one signedness, e.g. `.astype(jnp.uint32)`.")  # fmt: skip
