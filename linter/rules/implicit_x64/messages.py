"""The words of PRM001's findings: the code quoted, each place a leak widens or leaves its
function, where JAX raises, and the advice for the source."""

from __future__ import annotations

from promolint.core.dtypes import DTYPES
from promolint.engine.model import Operation, Returned
from promolint.engine.values import Array, Library
from promolint.rules.base import exact
from promolint.rules.implicit_x64.leaks import Leak, Widening

_TEXT = 40  # longest code quoted in a message
# NumPy functions that make their 64 bits themselves and take no dtype: the way out of each.
_FUNCTION_ADVICE = {
    "interp": "np.interp computes in float64 whatever its inputs: cast its result (`.astype(np.float32)`).",
    "polyval": "Give the coefficients the narrower dtype (`np.asarray(p, np.float32)`), or cast the result.",
}


def narrow_example(leak: Leak) -> str:
    """The narrower dtype the advice names: that of the first data the leak widens, where it is a
    float (integers a leak widens become floats: the advice names float32 for them)."""
    dtypes = leak.widens[0].narrow.dtypes if leak.widens else frozenset()
    dtype = next(iter(dtypes)) if len(dtypes) == 1 else "float32"
    return dtype if DTYPES[dtype].kind in "fc" else "float32"


def advice(producer: Operation | None, narrow: str, where_made: bool = False) -> str:
    """What to do about the source; ``where_made``: the cast goes where the 64 bits are made (where
    they make JAX raise further on, only a cast before the raising operation removes the error)."""
    if producer is not None and producer.call is not None and producer.call.fn.semantics in _FUNCTION_ADVICE:
        return _FUNCTION_ADVICE[producer.call.fn.semantics]
    result = exact(producer.result) if producer is not None else None
    library = result.library if result is not None else Library.JAX
    here = " where it is made" if where_made else ""
    if library is Library.NUMPY_SCALAR:
        return f"Use a Python scalar (`math.sqrt(n)`, `float(c)`), or cast it to the narrower dtype{here}."
    if library is Library.NUMPY_ARRAY:
        return f"Give it the narrower dtype (`np.zeros(n, np.{narrow})`), or cast it{here}."
    return f"Cast it to the narrower dtype{here} (`.astype(jnp.{narrow})`), or compute it from narrower operands."


def raises_text(syntax, operation: Operation) -> str:
    mode = "With x64 on, " if operation.ctx.x64 else ""
    return (f"{mode}`{operation.op.removeprefix('jax.')}` raises {operation.result.error} at line "
            f"{syntax.line(operation.node)}: {operation.result.message.rstrip('.')}")


def short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _TEXT else text[: _TEXT - 3] + "..."


def widens_text(syntax, place: Widening) -> str:
    nodes = syntax.operand_nodes(place.operation)
    narrow_text = syntax.text(nodes[place.index]) if place.index is not None and place.index < len(nodes) else ""
    named = f" `{short(narrow_text)}`" if narrow_text else ""
    line = syntax.line(place.operation.node)
    if place.every_member:
        return (f"widens{named or ' its operand'} to {place.dtype} at line {line} whenever it is narrower "
                f"(e.g. {place.narrow.describe()} {place.narrow.library.value})")  # fmt: skip
    return f"widens {place.narrow.describe()}{named} to {place.dtype} at line {line}"


def returns_text(syntax, returned: Returned, value: Array) -> str:
    inputs = ", ".join(f"{name}: {v.describe()}" for name, v in returned.inputs
                       if isinstance(v, Array) and v.library is not Library.PYTHON)  # fmt: skip
    return (f"leaves its function as {value.describe()} at line {syntax.line(returned.node)} while the array "
            f"inputs are {inputs}")  # fmt: skip
