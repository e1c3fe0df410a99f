"""PRM009 inplace-cast: in-place NumPy operations whose result cannot be stored."""

from __future__ import annotations

from promolint.engine.model import OperationKind
from promolint.engine.values import Refusal
from promolint.rules.base import Example, Rule


class InplaceCast(Rule):
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
