"""Elementwise semantics and their relatives: the inputs promoted together (``add``, ``where``,
``concatenate``, ``append``), promoted then made inexact (``sqrt``, ``arctan2``), kept
(``reshape``, ``rint``, ``abs`` and ``real`` made real), promoted with the Python scalar an
activation computes with (``relu``), and NumPy's ``polyval`` and ``interp``, which make arrays of
their arguments first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.core.dtypes import DTYPES, NUMPY_NATIVE
from promolint.engine import operations
from promolint.engine.calls.conversions import REAL_OF, as_dtype, as_numpy, default, library_inputs, requested
from promolint.engine.calls.creation import numpy_array_of
from promolint.engine.calls.promotion import promote
from promolint.engine.catalog import NUMPY_INT_TO_FLOAT64, RankChange, Weak
from promolint.engine.records import Call
from promolint.engine.values import (
    UNKNOWN,
    Array,
    Items,
    Library,
    Refusal,
    Value,
    broadcast_rank,
    numpy_library,
    python_scalar,
)


def _promote(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    value = promote(call, inputs)
    if call.fn.weak is Weak.STRONG and isinstance(value, Array):
        return replace(value, weak=False)  # jax.scipy.linalg.block_diag builds a new array
    return value


def _inexact(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    python = any(v.library is Library.PYTHON for v in inputs)  # np.copysign(100, bool) is float64
    extension_dtypes = any(d not in NUMPY_NATIVE for v in inputs for d in v.dtypes)  # ml_dtypes loops decide
    if call.fn.library is Library.NUMPY_ARRAY and call.short not in NUMPY_INT_TO_FLOAT64 and not (
            python or extension_dtypes):  # fmt: skip
        # NumPy's float functions run each integer array in the first float loop it casts to
        # safely: np.arctan2(uint8, int8) is float16, where promoting first would give float32.
        inputs = [replace(v, dtypes=frozenset(operations.NUMPY_TO_INEXACT.get(d, d) for d in v.dtypes))
                  for v in inputs]  # fmt: skip
    promoted = promote(call, inputs) if len(inputs) > 1 else promote(call, inputs[:1])
    if not isinstance(promoted, Array):
        return promoted
    weak = call.fn.weak
    if weak is Weak.STRONG:
        promoted = replace(promoted, weak=False)
    elif weak is Weak.AS_FIRST:
        # Weak where x1 is a weak number and promotion keeps the result weak: a strong x2 of the
        # promoted dtype makes it strong (jnp.heaviside(1.5, float16 array) is strong; measured).
        first = inputs[0]
        flags = {False if first.library.is_numpy or "bool" in first.dtypes else first.weak, promoted.weak}
        promoted = replace(promoted, weak=False if False in flags else None if None in flags else True)
    elif weak is Weak.ALL or (weak is Weak.ALL_IF_COMPLEX and any(DTYPES[d].kind == "c" for d in promoted.dtypes)):
        weaks = {False if v.library.is_numpy else v.weak for v in inputs}
        promoted = replace(promoted, weak=False if False in weaks else None if None in weaks else promoted.weak)
    if call.fn.library is Library.JAX:
        if "bool" in promoted.dtypes:  # a weak bool made inexact is strong (jnp.sqrt(jnp.isnan(2.0)))
            promoted = replace(promoted, weak=False)
        return operations.to_inexact(promoted, Library.JAX)
    if call.short in NUMPY_INT_TO_FLOAT64:
        return replace(promoted, dtypes=frozenset(operations.NUMPY_TRUE_DIVIDE.get(d, d) for d in promoted.dtypes))
    return operations.to_inexact(promoted, Library.NUMPY_ARRAY)


def _jax_power(call: Call) -> Value:
    inputs = library_inputs(call)
    return operations.jax_power(inputs[0], inputs[1], call.ctx) if len(inputs) == 2 else UNKNOWN


def _same(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    if call.fn.library is Library.PYTHON:
        return inputs[0]
    value = promote(call, inputs[:1])
    if call.fn.shape == "array" and isinstance(value, Array):
        # reshape/ravel/... change the dimensions; transpose/flip/sort/... keep them.
        change = call.fn.rank_change
        value = replace(value, ndim=inputs[0].rank if change is RankChange.KEPT else 1 if change is RankChange.FLAT
                        else None)  # fmt: skip
    if call.fn.weak is Weak.STRONG_IF_INEXACT and isinstance(value, Array) and all(
            DTYPES[d].kind in "fc" for d in value.dtypes):  # fmt: skip
        # jnp.nan_to_num selects between x and strong constants of its float dtype (measured:
        # jnp.nan_to_num(1.5) is a strong float32, jnp.nan_to_num(1) a weak int32)
        value = replace(value, weak=False)
    return value


def _atleast(call: Call) -> Value:
    """``atleast_1d(a)`` / ``atleast_2d(a)``: a's dtype (and weak flag) with at least ``least_ndim``
    dimensions; given more arrays, a list of them (not modelled)."""
    more = call.bound.get("more")
    if isinstance(more, Items) and more.items:
        return UNKNOWN
    value = _same(call)
    least = call.fn.least_ndim
    if isinstance(value, Array) and value.library is not Library.PYTHON:
        rank = call.first().rank if isinstance(call.first(), Array) else None
        return replace(value, ndim=None if rank is None else max(rank, least))
    return value


def _real(call: Call) -> Value:
    """``real(x)`` / ``imag(x)``: the real dtype of x's precision, x's kind of value (a NumPy
    scalar stays one) and weak flag; of a Python number, Python's ``.real`` (not modelled)."""
    inputs = library_inputs(call)
    if not inputs or inputs[0].library is Library.PYTHON:
        return UNKNOWN
    source = inputs[0]
    return replace(source, dtypes=frozenset(REAL_OF.get(d, d) for d in source.dtypes), literal=None, provenance="")


def _append(call: Call) -> Value:
    """``append(arr, values)``: both flattened and joined.  NumPy makes arrays of them first, so a
    Python scalar counts as its 64-bit dtype (``np.append(f32, 1.0)`` is float64); JAX promotes it
    weakly (``jnp.append(f32, 1.0)`` is float32)."""
    inputs = library_inputs(call)
    if len(inputs) != 2:
        return UNKNOWN
    if call.fn.library is Library.NUMPY_ARRAY:
        inputs = [_as_strong_numpy(v) for v in inputs]
    value = promote(call, inputs)
    if isinstance(value, Array) and call.bound.get("axis") is None:
        value = replace(value, ndim=1)
    return value


def _as_strong_numpy(value: Array) -> Array:
    """What ``np.asanyarray`` makes of a value: a Python scalar becomes a strong 0-d array of its
    64-bit dtype."""
    if value.library is Library.PYTHON:
        return Array(value.dtypes, Library.NUMPY_ARRAY, False, ndim=0)
    return value


def _polyval(call: Call) -> Value:
    """``np.polyval(p, x)`` makes arrays of both (``asarray(p)``, ``asanyarray(x)``), then evaluates
    ``y = y * x + p[i]`` from ``y = zeros_like(x)``: their dtypes promote as arrays
    (``np.polyval(f32, 2.0)`` and ``np.polyval([1.0, 2.0], f32_scalar)`` are float64), in x's shape."""
    if call.fn.library is Library.JAX:
        return _jax_polyval(call)
    coefficients, x = (numpy_array_of(call.bound.get(p), call.ctx) for p in ("p", "x"))
    if not (isinstance(coefficients, Array) and isinstance(x, Array) and coefficients.dtypes and x.dtypes):
        return UNKNOWN
    value = promote(call, [coefficients, x])
    if isinstance(value, Array):
        value = replace(value, library=numpy_library(x.rank), ndim=x.rank)
    return value


def _jax_polyval(call: Call) -> Value:
    """``jnp.polyval(p, x)`` promotes p and x as they are, a Python x weakly
    (``jnp.polyval(i8, 2)`` is int8), to a strong array in x's shape (measured)."""
    inputs = library_inputs(call)
    if len(inputs) != 2 or not all(v.dtypes for v in inputs):
        return UNKNOWN
    value = promote(call, inputs)
    return replace(value, weak=False, ndim=inputs[1].rank) if isinstance(value, Array) else value


def _interp(call: Call) -> Value:
    """``np.interp(x, xp, fp)`` makes arrays of its arguments and computes in float64
    (complex128 for complex ``fp``), in x's shape; complex ``x`` or ``xp`` raise TypeError
    (measured)."""
    x, xp, fp = (numpy_array_of(call.bound.get(p), call.ctx) for p in ("x", "xp", "fp"))
    if not all(isinstance(v, Array) and v.dtypes for v in (x, xp, fp)):
        return UNKNOWN
    kinds = [{DTYPES[d].kind for d in v.dtypes} for v in (x, xp, fp)]
    if "c" in kinds[0] | kinds[1] or ("c" in kinds[2] and len(kinds[2]) > 1):
        return UNKNOWN
    dtype = "complex128" if "c" in kinds[2] else "float64"
    return Array(frozenset([dtype]), numpy_library(x.rank), False, ndim=x.rank,
                 provenance=f"np.interp gives {dtype}")  # fmt: skip


def _abs(call: Call) -> Value:
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    if call.fn.library is Library.PYTHON:  # the builtin: the operand's own __abs__
        value = operations.check_domain("abs(x)", inputs[0].library, inputs[0], "abs")
        value = operations.fallback_loops("absolute", inputs[0].library, value)
    else:
        value = promote(call, inputs[:1])
    if not isinstance(value, Array):
        return value
    if value.library is Library.PYTHON:
        literal = abs(value.literal) if value.literal is not None else None
        kinds = {"complex128": "float", "float64": "float", "int64": "int", "bool": "int"}
        return python_scalar(kinds[value.dtype], literal) if value.dtype in kinds else UNKNOWN
    return replace(value, dtypes=frozenset(REAL_OF.get(d, d) for d in value.dtypes), literal=None)


def _scaled(call: Call) -> Value:
    """Activations computed with a Python scalar (``relu`` is ``maximum(x, 0)``, ``relu6``
    scales by a float, ``softplus`` is ``logaddexp(x, 0)``): the input promotes with it, and
    ``int-inexact`` then makes the result inexact (a bool becomes a weak float)."""
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    promoted = promote(call, [inputs[0], python_scalar(call.fn.scalar)])
    if call.fn.then_inexact and isinstance(promoted, Array):
        return operations.to_inexact(promoted, Library.JAX)
    return promoted


def _float_default(call: Call) -> Value:
    """``jnp.rint`` of integers converts them to the default float (a strong one)."""
    inputs = library_inputs(call)
    if not inputs:
        return UNKNOWN
    value = promote(call, inputs[:1])
    if not isinstance(value, Array) or not any(DTYPES[d].kind in "biu" for d in value.dtypes):
        return value
    floating = default("f", call.fn.library, call.ctx, "").dtype
    return replace(value, dtypes=frozenset(floating if DTYPES[d].kind in "biu" else d for d in value.dtypes), weak=False)


def _float_only(call: Call) -> Value:
    """``jax.nn.sigmoid`` and friends go through ``lax.logistic``, which takes inexact dtypes only."""
    inputs = library_inputs(call)
    if not inputs or not inputs[0].dtypes:
        return UNKNOWN
    if all(DTYPES[d].kind in "biu" for d in inputs[0].dtypes):
        return Refusal("TypeError", f"logistic does not accept dtype {'|'.join(sorted(inputs[0].dtypes))}")
    return promote(call, inputs[:1])


def _concatenate(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx)
    sequence = next((call.bound[p] for p in call.fn.arrays if p in call.bound), None)
    if not isinstance(sequence, Items):
        return UNKNOWN
    leaves = [v for v in sequence.items if isinstance(v, Array)]
    if len(leaves) != len(sequence.items) or not leaves:
        return UNKNOWN
    if call.fn.library is not Library.JAX:
        leaves = [as_numpy(v) for v in leaves]
    promoted = promote(call, leaves)
    if isinstance(promoted, Array):
        library = Library.NUMPY_ARRAY if call.fn.library is Library.NUMPY_ARRAY else Library.JAX
        return Array(promoted.dtypes, library, promoted.weak if library is Library.JAX else False)
    return promoted


def _where(call: Call) -> Value:
    inputs = library_inputs(call)
    if len(inputs) != 2:
        return UNKNOWN  # one-argument where gives index arrays
    value = promote(call, inputs)
    condition = call.bound.get("condition")
    if isinstance(value, Array) and isinstance(condition, Array):
        value = replace(value, ndim=broadcast_rank([condition, *inputs]))
    return value


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "promote": _promote,
    "inexact": _inexact,
    "jax_power": _jax_power,
    "same": _same,
    "abs": _abs,
    "scaled": _scaled,
    "float_default": _float_default,
    "float_only": _float_only,
    "concatenate": _concatenate,
    "where": _where,
    "atleast": _atleast,
    "real": _real,
    "append": _append,
    "polyval": _polyval,
    "interp": _interp,
}
