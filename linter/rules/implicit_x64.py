"""PRM001 implicit-x64: a 64-bit result nobody asked for."""

from __future__ import annotations

from linter.dtypes import is_64bit
from linter.engine.values import Array, Library
from linter.rules.base import Example, Rule, exact


class ImplicitX64(Rule):
    code = "PRM001"
    name = "implicit-x64"
    summary = (
        "Flags operations whose result is 64-bit although no operand asked for 64 bits: NumPy's "
        "int32 + float32 (float64), a Python float with an integer JAX array under x64, uint64 with "
        "int64, and NumPy's float64 defaults or strong np.float64 scalars meeting JAX arrays."
    )
    why = """
        64-bit arithmetic is slow on GPUs and unsupported on TPUs. NumPy promotes mixed-kind operands
        to 64 bits, and with `jax_enable_x64` a float64 value leaking into JAX code (a NumPy default,
        `np.sqrt(n)`, a Python float beside an integer array) silently turns float32 models into
        float64 ones: twice the memory, a fraction of the speed, and no error anywhere.
    """
    fix_safety = """
        The fix depends on intent: write the Python scalar (`math.sqrt(n)`, `float(c)`), give the
        NumPy array a dtype (`np.ones(3, np.float32)`), or cast explicitly (`.astype(jnp.float32)`).
        `promolint check --fix` rewrites strong NumPy scalars to Python scalars where that keeps the
        intended dtype.
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="on"),
        Example("""
            import numpy as np
            a = np.ones(3, np.int32) + np.ones(3, np.float32)
        """),
        Example("""
            import jax.numpy as jnp
            count = jnp.zeros([], jnp.int32)
            step = count + 1.0
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            m = jnp.mean(np.ones(30)) + jnp.ones(3, jnp.float32)
        """, x64="on"),
    )
    valid = (
        Example("""
            import math
            import jax.numpy as jnp
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / math.sqrt(10)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="off"),
        Example("""
            import jax.numpy as jnp
            x = jnp.zeros(3) + 1.0
        """, x64="on"),
        Example("""
            import numpy as np
            a = np.ones(3, np.float64) * np.ones(3, np.float32)
        """),
    )

    def check(self, operation):
        if operation.kind not in ("binop", "augassign", "call"):
            return
        result = exact(operation.result)
        if result is None or not is_64bit(result.dtype) or result.intended64:
            return
        arrays = [v for v in operation.operands if isinstance(v, Array)]
        if not arrays or any(not v.dtypes for v in arrays):
            return
        strong = [v for v in arrays if v.library is not Library.PYTHON]
        if result.library is Library.JAX:
            # Reported where the 64-bit JAX value is created, not again wherever it flows.
            if any(v.library is Library.JAX and result.dtype in v.dtypes for v in arrays):
                return
            yield self.finding(operation, f"result is {result.describe()} ({operation.ctx.describe()}) although no "
                               f"operand asked for 64 bits: {_sources(arrays)}; bites when x64 is on. "
                               "Cast explicitly or use Python scalars / float32 NumPy values.")  # fmt: skip
        elif result.library.is_numpy and strong and not any(is_64bit(d) for v in strong for d in v.dtypes):
            yield self.finding(operation, f"NumPy promotes {_sources(arrays)} to {result.describe()} (always, "
                               "whatever x64 says). Give the operands one dtype, e.g. `.astype(np.float32)`.")  # fmt: skip


def _sources(values) -> str:
    return " with ".join(
        f"{v.describe()}{' (' + v.provenance + ')' if v.provenance else ''}"
        + (f" [{v.library.value}]" if v.library is not Library.PYTHON else "")
        for v in values
    )
