"""PRM022 int-to-float: integer operands whose promotion gives a float."""

from __future__ import annotations

from collections.abc import Iterator

from promolint.core.dtypes import DTYPES
from promolint.engine.model import Operation, OperationKind
from promolint.engine.values import Array, Library
from promolint.rules.base import Example, Finding, Rule
from promolint.rules.shared.promoted import promoted


class IntToFloat(Rule):
    summary = (
        "Flags operations on integers only whose promoted dtype is a float: uint64 meeting a signed "
        "integer is float64 in NumPy and a weak float64 in JAX with x64 on."
    )
    why = """
        No integer type holds both uint64 and int64 values, so NumPy promotes them to float64
        (`int64_array + np.uint64(10)` is float64) and JAX with x64 on to a weak float64. The
        result silently stops being an integer: values above 2**53 lose their exactness, indices
        and counts become floats that no longer index, and equality tests of large values fail.
    """
    fix_safety = """
        No automatic fix is offered: which integer type holds the values is for the author to
        say. Cast the unsigned operand to the signed type (`x.astype(np.int64)`) when its values
        stay below 2**63, or both to uint64 when none is negative.
    """
    invalid = (
        Example("""
            import numpy as np
            ids = np.ones(3, np.int64) + np.uint64(10)
        """),
        Example("""
            import jax.numpy as jnp
            ids = jnp.ones(3, jnp.int64) + jnp.ones(3, jnp.uint64)
        """, x64="on"),
    )
    valid = (
        Example("""
            import numpy as np
            ids = np.ones(3, np.int64) + np.int64(10)
        """),
        Example("""
            import numpy as np
            ids = np.ones(3, np.uint64) + 10
        """),
        Example("""
            import numpy as np
            half = np.ones(3, np.int64) / 2
        """),
        Example("""
            import numpy as np

            def to_uint8_range(arr: np.ndarray):
                normalized = arr.astype(np.float64)
                return np.clip(normalized, 0, 255)  # float64 from `normalized`, not from 0 and 255
        """),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        if operation.kind in (OperationKind.BINOP, OperationKind.AUGASSIGN) and operation.op == "/":
            return  # true division makes floats on purpose
        inputs = promoted(operation)
        result = operation.result
        if inputs is None or not isinstance(result, Array) or not result.dtypes or inputs.kinds() - {"b", "u", "i"}:
            return
        if not all(DTYPES[d].kind == "f" for d in result.dtypes) or operation.kind == OperationKind.COMPARE:
            return
        described = " with ".join(v.describe() for v in inputs.operands)
        where = "NumPy" if inputs.library is Library.NUMPY_ARRAY else "JAX (x64 on)" if operation.ctx.x64 else "JAX"
        yield self.finding(operation, f"{described} promotes to {result.describe()} in {where}: no integer type "
                           "holds both, so the integers become floats and values above 2**53 lose their "
                           "exactness. Cast both to one integer type, e.g. `.astype(np.int64)`.")  # fmt: skip
