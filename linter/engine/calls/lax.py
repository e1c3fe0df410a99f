"""``jax.lax`` rules: binary operations take operands of one dtype (Python scalars count as
their default dtype) and give it, bool or its complex; ``convert_element_type`` is a request."""

from __future__ import annotations

from collections.abc import Callable

from promolint.engine.calls.conversions import as_dtype, requested
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Library, Refusal, Value, array
from promolint.systems.base import Operand

_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}


def _rule_lax(call: Call) -> Value:
    """``jax.lax`` binary ops: operands must share a dtype; Python scalars count as their
    default dtype.  The result is that dtype, bool (comparisons) or its complex (``complex``)."""
    inputs = call.arrays()
    if len(inputs) != 2 or not all(v.dtype for v in inputs):
        return UNKNOWN
    dtypes = [call.ctx.jax.canonical_dtype(Operand(v.dtype)) if v.library is not Library.JAX else v.dtype
              for v in inputs]  # fmt: skip
    op = call.short
    if dtypes[0] != dtypes[1]:
        return Refusal("TypeError", f"lax.{op} requires arguments to have the same dtypes, got "
                       f"{dtypes[0]}, {dtypes[1]}.")  # fmt: skip
    if call.fn.default == "complex":
        dtype = _COMPLEX_OF.get(dtypes[0])
        if dtype is None:
            return UNKNOWN
    else:
        dtype = call.fn.default or dtypes[0]
    weak = all(v.weak for v in inputs) and dtype != "bool"
    return array(dtype, Library.JAX, weak)


def _rule_lax_convert(call: Call) -> Value:
    ref = as_dtype(call.bound.get("new_dtype"))
    return requested(ref, Library.JAX, call.ctx) if ref else UNKNOWN


RULES: dict[str, Callable[[Call], Value]] = {
    "lax": _rule_lax,
    "lax_convert": _rule_lax_convert,
}
