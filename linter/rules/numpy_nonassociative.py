"""PRM003 numpy-nonassociative: pure NumPy chains whose dtype depends on their association."""

from __future__ import annotations

from promolint.engine.values import Library
from promolint.rules.base import Example
from promolint.rules.shared.chains import ChainRule


class NumpyNonassociative(ChainRule):
    cause = "NumPy's promotion table is not associative. Cast to one dtype before combining."
    summary = "Flags pure NumPy chains whose dtype depends on how the chain is associated."
    fix_safety = """
        No automatic fix is offered: which dtype was meant is a choice. Cast the operands to it
        first (`np.float16(a)`, `a.astype(np.float32)`) so every order gives that dtype.
    """
    why = """
        NumPy's promotion is a table, not a lattice: `np.int8(1) + np.uint8(1) + np.float16(1)` is
        float32 (int8 with uint8 gives int16, which needs float32), while
        `np.int8(1) + (np.uint8(1) + np.float16(1))` is float16.
    """
    invalid = (
        Example("""
            import numpy as np
            r = np.int8(1) + np.uint8(1) + np.float16(1)
        """),
    )
    valid = (
        Example("""
            import numpy as np
            r = np.float16(np.int8(1)) + np.float16(np.uint8(1)) + np.float16(1)
        """),
        Example("""
            import numpy as np
            r = np.float32(1) + np.float32(2) + 3.0
        """),
    )

    def applies(self, libraries):
        return Library.JAX not in libraries and bool(libraries & {Library.NUMPY_ARRAY, Library.NUMPY_SCALAR})
