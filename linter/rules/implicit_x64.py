"""PRM001 implicit-x64: a 64-bit result nobody asked for."""

from __future__ import annotations

from promolint.dtypes import DTYPES, is_64bit
from promolint.engine.values import Array, Library, python_scalar
from promolint.rules.base import Edit, Example, Fix, Rule, exact
from promolint.rules.rewrites import reevaluate

# NumPy ufuncs of one float with a Python equivalent in ``math`` (same value, a Python float).
_MATH = {name: name for name in ("sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                                 "sinh", "cosh", "tanh")} | {
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "deg2rad": "radians", "rad2deg": "degrees", "radians": "radians", "degrees": "degrees",
}  # fmt: skip
# NumPy's 64-bit scalar types and the Python type of the same value (JAX takes the latter as weak).
_BUILTIN = {"float64": "float", "int64": "int"}


class ImplicitX64(Rule):
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
        `promolint check --fix` rewrites a strong NumPy scalar computed from a Python number beside
        a JAX array to the Python scalar of the same value (`np.sqrt(n)` to `math.sqrt(n)`, adding
        `import math`; `np.float64(c)` to `float(c)`; `np.float64(0.5)` to `0.5`) when the result
        then keeps the JAX array's dtype. It does so only where the
        engine knows the argument is a Python int or float, so the value is the same; the fix is
        safe. (`math` raises ValueError where NumPy returns nan, e.g. the square root of a
        negative number.)
    """
    invalid = (
        Example("""
            import jax.numpy as jnp
            import numpy as np
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / np.sqrt(10)
        """, x64="on", expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            import math
            x = jnp.ones(3, dtype=jnp.float32)
            y = x / math.sqrt(10)
        """),
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
        Example("""
            import jax.numpy as jnp
            x = jnp.ones(3, jnp.uint64) + jnp.ones(3, jnp.int64)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            import numpy as np
            def scale(x, c):
                return x * np.float64(c)
            x = jnp.ones(3, jnp.float32)
            y = scale(x, x.shape[0] / 2)
        """, x64="on", expected_replacement="""
            import jax.numpy as jnp
            import numpy as np
            def scale(x, c):
                return x * float(c)
            x = jnp.ones(3, jnp.float32)
            y = scale(x, x.shape[0] / 2)
        """),
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
            import jax.numpy as jnp
            eps = jnp.array(1e-6)
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            counts = jnp.sum(jnp.ones(3, bool))
        """, x64="on"),
        Example("""
            import jax.numpy as jnp
            y = jnp.ones(3, jnp.float64) * jnp.float64(0.5)
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
        if result is None or not is_64bit(result.dtype):
            return
        arrays = [v for v in operation.operands if isinstance(v, Array)]
        if not arrays or any(not v.dtypes for v in arrays):
            return
        if result.intended64 and not (result.library is Library.JAX and _asked_by_numpy_scalars_only(result, arrays)):
            return
        strong = [v for v in arrays if v.library is not Library.PYTHON]
        if result.library is Library.JAX:
            # Reported where the 64-bit JAX value is created, not again wherever it flows.
            if any(v.library is Library.JAX and result.dtype in v.dtypes for v in arrays):
                return
            if not _unintended_source(result, arrays, strong):
                return  # JAX's own defaults under x64 (jnp.sum of bools is int64) are what x64 asks for
            yield self.finding(operation, f"result is {result.describe()} ({operation.ctx.describe()}) although no "
                               f"JAX operand asked for 64 bits: {_sources(arrays)}; bites when x64 is on. "
                               "Cast explicitly or use Python scalars / float32 NumPy values.",
                               _python_scalars_fix(operation))  # fmt: skip
        elif result.library.is_numpy and strong and not any(is_64bit(d) for v in strong for d in v.dtypes):
            yield self.finding(operation, f"NumPy promotes {_sources(arrays)} to {result.describe()} (always, "
                               "whatever x64 says). Give the operands one dtype, e.g. `.astype(np.float32)`.")  # fmt: skip


def _asked_by_numpy_scalars_only(result: Array, arrays: list[Array]) -> bool:
    """``x * np.float64(c)``: the 64 bits were asked of NumPy, and JAX takes the strong scalar
    at its word; nothing asked JAX for them."""
    return all(v.library is Library.NUMPY_SCALAR for v in arrays if v.intended64 and result.dtype in v.dtypes)


def _unintended_source(result: Array, arrays: list[Array], strong: list[Array]) -> bool:
    """Where 64 bits come from that nobody asked for, in JAX: a NumPy 64-bit value (a default, a
    strong np.float64 scalar), a Python scalar widening a typed array (an int array + 1.0 under
    x64), or uint64 with int64 (a float)."""
    if any(v.library.is_numpy and any(is_64bit(d) for d in v.dtypes) for v in arrays):
        return True
    if result.weak and strong and any(v.library is Library.PYTHON for v in arrays):
        return any(v.weak is False for v in strong)  # a weak-only value adopts what it meets
    kinds = {DTYPES[d].kind for v in strong for d in v.dtypes}
    return kinds == {"u", "i"} and DTYPES[result.dtype].kind == "f"


def _sources(values) -> str:
    return " with ".join(
        f"{v.describe()}{' (' + v.provenance + ')' if v.provenance else ''}"
        + (f" [{v.library.value}]" if v.library is not Library.PYTHON else "")
        for v in values
    )


def _python_scalars_fix(operation) -> Fix | None:
    """NumPy scalars made from Python scalars written as Python scalars, if the result then has
    the dtype of the JAX arrays beside them."""
    syntax = operation.syntax
    nodes = syntax.operand_nodes(operation) if syntax else ()
    if len(nodes) != len(operation.operands):
        return None
    edits, replacements, imports = [], {}, []
    for i, (value, node) in enumerate(zip(operation.operands, nodes)):
        if isinstance(value, Array) and value.library is Library.NUMPY_SCALAR:
            rewrite = _as_python_scalar(syntax.operation_at(node))
            if rewrite:
                code, argument, needs, kind = rewrite
                edits.append(Edit(node, code, (argument,)))
                replacements[i] = python_scalar(kind)
                imports += needs
    if not edits:
        return None
    intended = {v.dtype for v in operation.operands if isinstance(v, Array) and v.library is Library.JAX}
    fixed = exact(reevaluate(operation, replacements, operation.ctx))
    if fixed is None or fixed.dtype not in intended:
        return None
    return Fix(f"Use Python scalars so the result stays {fixed.dtype}", tuple(edits), safe=True,
               imports=tuple(dict.fromkeys(imports)))  # fmt: skip


def _as_python_scalar(producer) -> tuple[str, object, tuple[str, ...], str] | None:
    """``np.sqrt(n)`` as ``math.sqrt(n)``, ``np.float64(c)`` as ``float(c)`` (``np.float64(0.5)``
    as ``0.5``), for a Python int or float ``n`` or ``c``: the code, the argument's node, the
    imports and the kind of Python scalar it makes."""
    call = producer.call if producer is not None and producer.kind == "call" else None
    result = exact(producer.result) if call else None
    if result is None or result.library is not Library.NUMPY_SCALAR or not call.fn.params:
        return None
    param = call.fn.params[0]
    argument = exact(call.bound.get(param))
    if argument is None or argument.library is not Library.PYTHON or argument.dtype not in ("int64", "float64"):
        return None  # bools and complex numbers have no same-valued math counterpart
    node = producer.syntax.argument_node(producer, param)
    if node is None or not call.name.startswith("numpy."):
        return None
    if call.fn.rule == "scalar_type" and call.short in _BUILTIN:
        kind = _BUILTIN[call.short]
        same = type(argument.literal).__name__ == kind  # a literal of that type already
        return (producer.syntax.text(node) if same else f"{kind}({{0}})"), node, (), kind
    if call.short not in _MATH or set(call.bound) != {param}:
        return None
    return f"math.{_MATH[call.short]}({{0}})", node, ("import math",), "float"
