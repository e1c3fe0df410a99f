"""PRM021 numpy-scalar-overflow: NumPy integer scalar arithmetic whose known values overflow."""

from __future__ import annotations

import operator
from collections.abc import Iterator

from promolint.engine.model import Operation, OperationKind, int_bounds
from promolint.engine.values import Array, Library
from promolint.rules.base import Example, Finding, Rule, exact
from promolint.rules.shared.integers import wrapped

# The operators NumPy's integer scalars check for overflow (they warn), and ``**``, which wraps
# without a word (measured, numpy 2.4.6).
_CHECKED = {"+": ("add", operator.add), "-": ("subtract", operator.sub), "*": ("multiply", operator.mul),
            "//": ("floor_divide", operator.floordiv), "**": ("", operator.pow)}  # fmt: skip
_LARGEST_EXPONENT = 64  # beyond it every integer power overflows; folding it would only cost time


class NumpyScalarOverflow(Rule):
    summary = (
        "Flags arithmetic on NumPy integer scalars whose values are known and whose result does not fit "
        "their dtype: NumPy 2 computes `np.uint8(200) + 128` in uint8 and wraps it to 72."
    )
    why = """
        Under NumPy 2 (NEP 50) a Python int beside a NumPy integer scalar takes the scalar's
        dtype, so `np.uint8(200) + 128` is `np.uint8(72)` with only a RuntimeWarning ("overflow
        encountered in scalar add"), and `np.int8(2) ** 7` is -128 without one. NumPy 1 gave
        int64 328: code written for NumPy 1 that counts, indexes or accumulates in small NumPy
        scalars now gets wrong numbers. (Python ints that do not fit the dtype at all raise
        OverflowError: PRM006.)
    """
    fix_safety = """
        No automatic fix is offered. Compute in a type that holds the result: `int(x) + 128`
        (a Python int) or `np.int64(x) + 128`.
    """
    invalid = (
        Example("""
            import numpy as np
            total = np.uint8(200) + 128
        """),
        Example("""
            import numpy as np
            count = np.int32(2**31 - 1)
            count += 1
        """),
        Example("""
            import numpy as np
            power = np.int8(2) ** 7
        """),
    )
    valid = (
        Example("""
            import numpy as np
            total = int(np.uint8(200)) + 128
        """),
        Example("""
            import numpy as np
            total = np.uint8(100) + 128
        """),
    )

    def check(self, operation: Operation) -> Iterator[Finding]:
        if operation.kind not in (OperationKind.BINOP, OperationKind.AUGASSIGN) or operation.op not in _CHECKED:
            return
        result = exact(operation.result)
        if result is None or result.library is not Library.NUMPY_SCALAR or int_bounds(result.dtype) is None:
            return
        values = [v.literal for v in operation.operands if isinstance(v, Array)]
        if len(values) != 2 or not all(type(v) in (int, bool) for v in values):
            return
        name, compute = _CHECKED[operation.op]
        if operation.op == "**" and not 0 <= values[1] <= _LARGEST_EXPONENT:
            return
        try:
            exact_value = compute(*values)
        except ArithmeticError:  # division by zero: NumPy warns of that instead
            return
        low, high = int_bounds(result.dtype)
        if low <= exact_value <= high:
            return
        warning = (f"with a RuntimeWarning (overflow encountered in scalar {name})" if name
                   else "without a warning")  # fmt: skip
        yield self.finding(operation, f"{exact_value} does not fit {result.dtype}: NumPy computes in "
                           f"{result.dtype} and wraps it to {wrapped(exact_value, result.dtype)} {warning}. "
                           "Compute in a wider type, e.g. `int(x)` or `np.int64(x)`.")  # fmt: skip
