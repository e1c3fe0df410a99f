"""``linalg``: ``norm``, ``inv`` and ``det`` compute in floats.  NumPy converts an integer (or
bool) to float64, where ``np.sqrt(int8)`` is float16; JAX as its elementwise float functions do
(float32 up to 32-bit integers, x64 or not).  Other floats keep their dtype; a norm of complex
values is real.  NumPy's ``inv`` and ``det`` have no float16 loop (TypeError),
JAX's ``inv`` none either (NotImplementedError).  Results are strong (measured)."""

from __future__ import annotations

from collections.abc import Callable

from promolint.dtypes import CUSTOM_FLOATS, DTYPES, INTN
from promolint.engine import operations
from promolint.engine.calls.conversions import REAL_OF, reduced_inputs
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Library, Refusal, Value, numpy_library

_NO_FLOAT16 = {Library.NUMPY_ARRAY: "TypeError", Library.JAX: "NotImplementedError"}


def _in_floats(call: Call) -> Value:
    inputs = reduced_inputs(call)
    if not inputs or not inputs[0].dtypes or inputs[0].dtypes & (CUSTOM_FLOATS | INTN):
        return UNKNOWN  # ml_dtypes' types: not measured here
    source = inputs[0]
    if call.fn.library is Library.JAX:
        return Array(operations.to_inexact(source, Library.JAX).dtypes, Library.JAX, False)
    dtypes = frozenset("float64" if DTYPES[d].kind in "biu" else d for d in source.dtypes)
    return Array(dtypes, Library.NUMPY_ARRAY, False)


def _rule_norm(call: Call) -> Value:
    value = _in_floats(call)
    if not isinstance(value, Array):
        return value
    return Array(frozenset(REAL_OF.get(d, d) for d in value.dtypes), value.library, False)


def _rule_linalg(call: Call) -> Value:
    """``inv`` keeps the dimensions; ``det`` drops the last two (a scalar of one matrix)."""
    value = _in_floats(call)
    if not isinstance(value, Array):
        return value
    if "float16" in value.dtypes:
        if value.dtypes != {"float16"}:
            return Array(frozenset(), value.library, None)
        return Refusal(_NO_FLOAT16[value.library], f"array type float16 is unsupported in linalg.{call.short}")
    source = call.first()
    rank = source.rank if isinstance(source, Array) else None
    if call.short == "det":
        rank = rank - 2 if rank is not None and rank >= 2 else None
        library = numpy_library(rank) if value.library.is_numpy else value.library
        return Array(value.dtypes, library, False, ndim=rank)
    return Array(value.dtypes, value.library, False, ndim=rank)


RULES: dict[str, Callable[[Call], Value]] = {
    "norm": _rule_norm,
    "linalg": _rule_linalg,
}
