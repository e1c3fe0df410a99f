"""Contractions: ``dot``, ``matmul``, ``inner``, ``vdot``, ``outer``, ``kron``, ``tensordot``,
``einsum`` and ``linalg.multi_dot``.  Their operands promote together, as elementwise ones do
(strict promotion refuses bfloat16 with float32 in each, measured), except that JAX's take a
``preferred_element_type``: then the result is that dtype, requested as ``dtype=`` is, and the
operands are not promoted with each other at all (no refusal under strict promotion)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.engine.calls.conversions import as_dtype, library_inputs, requested
from promolint.engine.calls.promotion import promote
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Items, Library, Value, numpy_library


def _preferred(call: Call) -> Value | None:
    """The result a JAX contraction's ``preferred_element_type`` asks for (None: not given)."""
    ref = as_dtype(call.bound.get("preferred_element_type")) if call.fn.library is Library.JAX else None
    return requested(ref, Library.JAX, call.ctx) if ref else None


def _contract(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    preferred = _preferred(call)
    if preferred is not None:
        return preferred
    value = promote(call, inputs)
    if call.short == "tensordot" and isinstance(value, Array):
        value = replace(value, ndim=_tensordot_rank(call))
    return value


def _tensordot_rank(call: Call) -> int | None:
    """``tensordot(a, b, axes)``: the ranks of both less twice the axes contracted (two by
    default; an int, or a pair of sequences of axes)."""
    a, b = (call.bound.get(p) for p in ("a", "b"))
    if not (isinstance(a, Array) and isinstance(b, Array)) or a.rank is None or b.rank is None:
        return None
    axes = call.bound.get("axes")
    if axes is None:
        count = 2
    elif isinstance(axes, Array) and axes.library is Library.PYTHON and type(axes.literal) is int:
        count = axes.literal
    elif isinstance(axes, Items) and len(axes.items) == 2 and isinstance(axes.items[0], Items):
        count = len(axes.items[0].items)
    else:
        return None
    rank = a.rank + b.rank - 2 * count
    return rank if rank >= 0 else None


def _einsum(call: Call) -> Value:
    """``jnp.einsum(subscripts, *operands)``: the operands promoted, or the preferred element
    type.  The result's rank is written in the subscripts, which the engine does not read."""
    operands = call.bound.get("operands")
    if not isinstance(operands, Items) or not operands.items or not all(isinstance(v, Array) for v in operands.items):
        return UNKNOWN
    preferred = _preferred(call)
    if preferred is not None:
        return preferred
    value = promote(call, library_inputs(call))
    return replace(value, ndim=None) if isinstance(value, Array) else value


def _multi_dot(call: Call) -> Value:
    """``linalg.multi_dot(arrays)``: a chain of ``dot``s of two-dimensional arrays, the first
    and the last of which may be vectors (whose dimension the product loses)."""
    sequence = call.bound.get("arrays")
    if not isinstance(sequence, Items) or len(sequence.items) < 2 or not all(isinstance(v, Array) for v in sequence.items):
        return UNKNOWN
    value = promote(call, library_inputs(call))
    if not isinstance(value, Array):
        return value
    first, last = sequence.items[0].rank, sequence.items[-1].rank
    ndim = None if first is None or last is None else (first == 2) + (last == 2)
    library = numpy_library(ndim) if call.fn.library is Library.NUMPY_ARRAY else Library.JAX
    return replace(value, library=library, ndim=ndim)


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "contract": _contract,
    "einsum": _einsum,
    "multi_dot": _multi_dot,
}
