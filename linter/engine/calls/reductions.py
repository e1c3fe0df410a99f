"""Reduction semantics: sums and products widen small integers, cumulative sums, means (inexact,
real for ``var``/``std`` of complex), ``max``/``min``/``ptp`` in their loop, and index results
(``argmax``, ``argsort``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.core.dtypes import DTYPES, INTN
from promolint.engine import operations
from promolint.engine.calls.binding import display_name
from promolint.engine.calls.conversions import REAL_OF, as_dtype, default, reduced_inputs, requested
from promolint.engine.calls.promotion import check_domain
from promolint.engine.catalog.rows import RankChange
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Elements, Library, Refusal, Value, is_none, join


def _index(call: Call) -> Value:
    inputs = reduced_inputs(call)
    refused = check_domain(call, inputs[0]) if inputs else None
    if isinstance(refused, Refusal):
        return refused  # jnp.argmax has no complex implementation
    source = call.first()
    if (call.fn.library is Library.NUMPY_ARRAY and call.fn.through_nonzero
            and isinstance(source, Array) and source.library is Library.JAX):  # fmt: skip
        # np.argwhere(J) stacks J.nonzero()'s JAX indices into a NumPy array; a 0-d J is converted first.
        through_jax = replace(default("i", Library.JAX, call.ctx, ""), library=Library.NUMPY_ARRAY, intended64=False)
        own = default("i", call.fn.library, call.ctx, "")
        if source.rank == 0:
            return own
        return through_jax if source.rank is not None else join([through_jax, own])
    value = default(call.fn.result or "i", call.fn.library, call.ctx, "")
    if call.fn.rank_change is RankChange.KEPT and isinstance(source, Array) and source.rank \
            and not is_none(call.bound.get("axis")):  # fmt: skip
        value = replace(value, ndim=source.rank)  # argsort along an axis (run: a 0-d input is 1-d, or raises)
    return value


def _nonzero(call: Call) -> Value:
    """``nonzero(a)``: a tuple of index arrays, one per dimension of a (the default int)."""
    if not reduced_inputs(call):
        return UNKNOWN
    return Elements(default("i", call.fn.library, call.ctx, "", ndim=1))


def _bincount(call: Call) -> Value:
    """``bincount(x)`` counts in the default int (NumPy: int64; JAX: the x64-dependent one) for a
    1-d x of bool or integers (ml_dtypes' too); floats and complex raise TypeError, 0-d input
    ValueError.  NumPy's weighted counts are float64 (weights of any real dtype); JAX's take
    the weights' dtype, not modelled (measured)."""
    inputs = reduced_inputs(call)
    if not inputs or not inputs[0].dtypes:
        return UNKNOWN
    source = inputs[0]
    if source.rank == 0:
        return Refusal("ValueError", f"{display_name(call.name)} needs a 1-d array")
    kinds = {DTYPES[d].kind for d in source.dtypes}
    if kinds <= {"f", "c"}:
        return Refusal("TypeError", f"{display_name(call.name)} needs integers, not {'/'.join(sorted(source.dtypes))}")
    if not kinds <= {"b", "i", "u"}:
        return UNKNOWN
    weights = call.bound.get("weights")
    if weights is None:
        return default("i", call.fn.library, call.ctx, "", ndim=1)
    real = isinstance(weights, Array) and weights.dtypes and all(DTYPES[d].kind in "biuf" for d in weights.dtypes)
    if call.fn.library is not Library.JAX and real:
        return Array(frozenset({"float64"}), Library.NUMPY_ARRAY, False, ndim=1)
    return UNKNOWN


def _accumulated(call: Call) -> tuple[Array | None, Value]:
    """What a sum or a mean accumulates, ``(input, None)``; or ``(None, result)`` where the
    result does not depend on it: the dtype ``dtype=`` asks for, the refusal of an input
    outside the function's domain, or unknown."""
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return None, requested(ref, call.fn.library, call.ctx)
    inputs = reduced_inputs(call)
    if not inputs:
        return None, UNKNOWN
    refused = check_domain(call, inputs[0])
    return (None, refused) if isinstance(refused, Refusal) else (inputs[0], None)


def _sum(call: Call) -> Value:
    """Sums and products widen small integers to the default integer of their signedness
    (NumPy: 64-bit; JAX: the x64-dependent default) and bools to the default int.  NumPy keeps
    ml_dtypes' sub-byte ints (not ``np.integer`` to it: no ``int_`` accumulator; measured)."""
    source, result = _accumulated(call)
    if source is None:
        return result  # the dtype asked for, a refusal (jnp.sum of int4) or unknown
    library = call.fn.library
    dtypes = set()
    for d in source.dtypes:
        kind = DTYPES[d].kind
        if d in INTN and library is not Library.JAX:
            dtypes.add(d)
        elif kind in "biu":
            wide = default("u" if kind == "u" else "i", library, call.ctx, "").dtype
            dtypes.add(wide if kind == "b" or DTYPES[d].bits < DTYPES[wide].bits else d)
        else:
            dtypes.add(d)
    return Array(frozenset(dtypes), library if library is Library.JAX else Library.NUMPY_ARRAY, False)


def _cumsum(call: Call) -> Value:
    """Cumulative sums: NumPy widens like ``sum``; JAX keeps integers and makes bools the
    default int.  Without an axis the input is flattened."""
    source = call.first()
    ndim = 1 if "axis" not in call.bound else source.rank if isinstance(source, Array) else None
    if call.fn.library is Library.JAX:
        ref = as_dtype(call.bound.get("dtype"))
        if ref:
            return requested(ref, Library.JAX, call.ctx, ndim)
        inputs = reduced_inputs(call)
        if not inputs:
            return UNKNOWN
        integer = call.ctx.jax.default_dtype("i")
        return Array(frozenset(integer if d == "bool" else d for d in inputs[0].dtypes), Library.JAX, False, ndim=ndim)
    summed = _sum(call)
    return replace(summed, ndim=ndim) if isinstance(summed, Array) else summed


def _mean(call: Call) -> Value:
    source, result = _accumulated(call)
    if source is None:
        return result
    if call.fn.library is Library.JAX:
        value = Array(operations.to_inexact(source, Library.JAX).dtypes, Library.JAX, False)
    else:
        # ml_dtypes' sub-byte ints are not np.integer: their mean, var and std keep them (measured).
        integers = {d for d in source.dtypes if DTYPES[d].kind in "biu" and d not in INTN}
        dtypes = frozenset("float64" if d in integers else d for d in source.dtypes)
        provenance = f"{display_name(call.name)} of integers is float64" if integers else ""
        value = Array(dtypes, Library.NUMPY_ARRAY, False, provenance=provenance)
    if call.fn.real:  # var and std of complex values are real
        value = replace(value, dtypes=frozenset(REAL_OF.get(d, d) for d in value.dtypes))
    return value


def _average(call: Call) -> Value:
    """``average(a, weights=w)``: without weights, the mean.  With them JAX makes ``a`` and ``w``
    inexact together (``promote_dtypes_inexact``: int32 values with float16 weights average in
    float16), a strong result; NumPy takes ``result_type(a, w)``, with float64 where ``a`` holds
    integers or bools (measured: jax 0.10.2, numpy 2.4.6).  ``returned=True`` gives a pair,
    not modelled."""
    weights = call.bound.get("weights")
    returned = call.bound.get("returned")
    if returned is not None and not (isinstance(returned, Array) and returned.literal is False):
        return UNKNOWN
    if weights is None or is_none(weights):
        return _mean(call)
    inputs = reduced_inputs(call)
    if not isinstance(weights, Array) or len(inputs) != 2 or any(v.library is Library.PYTHON for v in inputs):
        return UNKNOWN
    library = call.fn.library
    if library is Library.JAX:
        promoted = operations.collect(operations.promote(inputs, library, call.ctx), library)
        if isinstance(promoted, Refusal):
            return promoted  # strict promotion: int32 values with float16 weights
        inexact = operations.to_inexact(promoted, library)
        return replace(inexact, weak=False, ndim=None) if isinstance(inexact, Array) and inexact.dtypes else UNKNOWN
    kinds = {DTYPES[d].kind in "biu" and d not in INTN for d in inputs[0].dtypes}
    if len(kinds) != 1:
        return UNKNOWN
    float64 = [Array(frozenset({"float64"}), Library.NUMPY_ARRAY, False)] if kinds.pop() else []
    promoted = operations.collect(operations.promote([*inputs, *float64], library, call.ctx), Library.NUMPY_ARRAY)
    return replace(promoted, ndim=None) if isinstance(promoted, Array) and promoted.dtypes else UNKNOWN


def _reduce(call: Call) -> Value:
    """max, min, ptp, segment_sum: the input's dtype, in the loop NumPy's maximum and minimum run it in
    (ml_dtypes' sub-byte ints in int8; measured)."""
    inputs = reduced_inputs(call)
    if not inputs:
        return UNKNOWN
    library = Library.JAX if call.fn.library is Library.JAX else Library.NUMPY_ARRAY
    value = check_domain(call, Array(inputs[0].dtypes, library, False))  # segment_sum of bools
    return operations.fallback_loops(call.short, library, value)


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "index": _index,
    "nonzero": _nonzero,
    "bincount": _bincount,
    "sum": _sum,
    "cumsum": _cumsum,
    "mean": _mean,
    "average": _average,
    "reduce": _reduce,
}
