"""``linalg``: ``norm``, ``inv``, ``det``, ``solve`` and the decompositions compute in floats.
NumPy converts an integer (or bool) to float64, where ``np.sqrt(int8)`` is float16; JAX as its
elementwise float functions do (float32 up to 32-bit integers, x64 or not).  Other floats keep
their dtype; a norm of complex values is real.  NumPy's ``inv`` and ``det`` have no float16 loop (TypeError),
JAX's ``inv`` none either (NotImplementedError; its ``det`` and ``solve_triangular`` have one).
Results are strong (measured)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.core.dtypes import CUSTOM_FLOATS, DTYPES, INTN
from promolint.engine import operations
from promolint.engine.calls.conversions import REAL_OF, reduced_inputs
from promolint.engine.calls.promotion import promote
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Items, Library, Refusal, Value, numpy_library



def _in_floats(call: Call, source: Array | None = None) -> Value:
    """The first input's dtype (or ``source``'s) as the float the function computes in."""
    inputs = [source] if source is not None else reduced_inputs(call)
    if not inputs or not inputs[0].dtypes or inputs[0].dtypes & (CUSTOM_FLOATS | INTN):
        return UNKNOWN  # ml_dtypes' types: not measured here
    source = inputs[0]
    if call.fn.library is Library.JAX:
        return Array(operations.to_inexact(source, Library.JAX).dtypes, Library.JAX, False)
    dtypes = frozenset("float64" if DTYPES[d].kind in "biu" else d for d in source.dtypes)
    return Array(dtypes, Library.NUMPY_ARRAY, False)


def _norm(call: Call) -> Value:
    value = _in_floats(call)
    if not isinstance(value, Array):
        return value
    return Array(frozenset(REAL_OF.get(d, d) for d in value.dtypes), value.library, False)


def _without_float16(call: Call, value: Value) -> Value:
    """The refusal of float16 by a function without a float16 loop (its row's ``float16_runs`` says it has one)."""
    if not isinstance(value, Array) or "float16" not in value.dtypes or call.fn.float16_runs:
        return value
    if value.dtypes != {"float16"}:
        return Array(frozenset(), value.library, None)
    # NumPy raises TypeError; JAX as its version says (NotImplementedError before 0.12, TypeError since)
    error = call.ctx.jax_facts.linalg_float16_error if value.library is Library.JAX else "TypeError"
    return Refusal(error, f"array type float16 is unsupported in linalg.{call.short}")


def _linalg(call: Call) -> Value:
    """``inv`` keeps the dimensions; ``det`` drops the last two (a scalar of one matrix)."""
    value = _without_float16(call, _in_floats(call))
    if not isinstance(value, Array):
        return value
    source = call.first()
    rank = source.rank if isinstance(source, Array) else None
    if call.short == "det":
        rank = rank - 2 if rank is not None and rank >= 2 else None
        library = numpy_library(rank) if value.library.is_numpy else value.library
        return Array(value.dtypes, library, False, ndim=rank)
    return Array(value.dtypes, value.library, False, ndim=rank)


def _solve(call: Call) -> Value:
    """``solve(a, b)``: a and b promoted, then computed in floats as ``inv`` is (float16 refused
    after promotion: ``jnp.linalg.solve(f32, f16)`` runs), in b's dimensions."""
    inputs = reduced_inputs(call)
    if len(inputs) != 2:
        return UNKNOWN
    promoted = promote(call, inputs)
    if not isinstance(promoted, Array):
        return promoted
    value = _without_float16(call, _in_floats(call, promoted))
    return replace(value, ndim=inputs[1].rank) if isinstance(value, Array) else value


def _decomposition(call: Call) -> Value:
    """``eigh``, ``svd``, ``qr``, ``slogdet``...: arrays in the input's float dtype ('same') or
    its real dtype ('real': eigenvalues, singular values, the log of a determinant), each with
    the input's rank plus the part's offset; one part is an array, several a tuple.  Without
    ``compute_uv``, ``svd`` gives the singular values only."""
    value = _without_float16(call, _in_floats(call))
    if not isinstance(value, Array):
        return value
    source = call.first()
    rank = source.rank if isinstance(source, Array) else None
    parts = call.fn.parts
    compute_uv = call.bound.get("compute_uv")
    if isinstance(compute_uv, Array) and compute_uv.literal is False:
        parts = tuple(part for part in parts if part.real)
    elif compute_uv is not None and call.short == "svd":
        return UNKNOWN  # compute_uv of a value the engine does not know
    arrays = []
    for part in parts:
        ndim = None if rank is None else max(rank + part.rank_change, 0)
        dtypes = frozenset(REAL_OF.get(d, d) for d in value.dtypes) if part.real else value.dtypes
        library = numpy_library(ndim) if value.library.is_numpy else value.library
        arrays.append(Array(dtypes, library, False, ndim=ndim))
    return arrays[0] if len(arrays) == 1 else Items(tuple(arrays), is_tuple=True)


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "norm": _norm,
    "linalg": _linalg,
    "solve": _solve,
    "decomposition": _decomposition,
}
