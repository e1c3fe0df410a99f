"""Creation semantics: arrays made from a shape, a fill value, another array, data or a range
(``zeros``, ``full``, ``zeros_like``, ``asarray``, ``arange``, ``linspace``), fixed-dtype
constructors and legacy random draws: a requested dtype, else the library's default or the
data's own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.core.dtypes import DTYPES, NUMPY_NATIVE, narrow_x32
from promolint.engine import operations
from promolint.engine.calls.binding import display_name
from promolint.engine.calls.conversions import (
    as_dtype,
    as_numpy,
    default,
    library_inputs,
    list_overflow,
    out_of_bounds,
    python_int_overflow,
    requested,
)
from promolint.engine.calls.shapes import created_rank, data_rank, shape_rank
from promolint.engine.catalog import CATALOG
from promolint.engine.context import Context
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Items, Library, Refusal, Value, array
from promolint.systems.base import Operand


def _create(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    ndim = created_rank(call)
    if ref:
        return requested(ref, call.fn.library, call.ctx, ndim)
    if not call.fn.result:  # a dtype it cannot do without (np.fromiter): not one given here
        return UNKNOWN
    return default(call.fn.result, call.fn.library, call.ctx, display_name(call.name), ndim)


def _full(call: Call) -> Value:
    ndim = shape_rank(call.bound.get("shape"))
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return _filled(call, requested(ref, call.fn.library, call.ctx, ndim))
    fill = call.bound.get("fill_value")
    if fill is None:
        return UNKNOWN
    if call.fn.library is Library.JAX and isinstance(fill, Array) and fill.library is Library.PYTHON:
        # jnp.full converts the fill with lax: weak like the literal, and an int beyond the
        # default int wraps silently instead of raising (measured: jnp.full(3, 2**40)).
        dtypes = frozenset(call.ctx.jax.canonical_dtype(Operand(d)) for d in fill.dtypes)
        return Array(dtypes, Library.JAX, fill.weak, ndim=ndim)
    value = _asarray(Call(call.name, call.fn, {"object": fill}, call.ctx))
    return replace(value, ndim=ndim) if isinstance(value, Array) else value


def _like(call: Call) -> Value:
    source = call.first()
    ndim = source.rank if isinstance(source, Array) else None
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return _filled(call, requested(ref, call.fn.library, call.ctx, ndim))
    if not isinstance(source, Array):
        return UNKNOWN
    if call.fn.library is Library.JAX:
        if source.library is Library.PYTHON:  # only its dtype is read: a big int does not raise
            dtypes = frozenset(call.ctx.jax.canonical_dtype(Operand(d)) for d in source.dtypes)
            return Array(dtypes, Library.JAX, source.weak, ndim=0)
        return _asarray(Call(call.name, call.fn, {"object": source}, call.ctx))
    return _filled(call, Array(source.dtypes, Library.NUMPY_ARRAY, False, ndim=ndim))


def _filled(call: Call, value: Value) -> Value:
    """``value``, what ``np.full`` or ``np.full_like`` makes, or the OverflowError NumPy raises
    converting a Python int fill that does not fit its integer dtype, as ``np.asarray`` does
    (measured, numpy 2.4.6: ``np.full(3, 300, np.uint8)``; a float fill wraps there, and JAX
    wraps both: PRM006 reports those)."""
    fill = call.bound.get("fill_value")
    if (call.fn.library is Library.JAX or not isinstance(value, Array) or value.dtype is None
            or not isinstance(fill, Array) or fill.library is not Library.PYTHON
            or type(fill.literal) is not int):  # fmt: skip
        return value
    return out_of_bounds(fill, value.dtype) or value


def _asarray(call: Call) -> Value:
    data = call.bound.get("object", call.bound.get("a"))
    ndim = data_rank(data)
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        value = requested(ref, call.fn.library, call.ctx, ndim)
        # Python ints convert to the requested dtype itself: np.asarray(300, dtype=np.uint8) raises.
        literals = _leaves(data) if isinstance(data, Items) else [data] if isinstance(data, Array) else []
        overflow = list_overflow([v for v in literals or () if v.library is Library.PYTHON], value)
        return overflow or value
    library = call.fn.library
    if isinstance(data, Items):
        leaves = _leaves(data)
        if leaves is None or not leaves:
            return UNKNOWN
        if library is Library.JAX:
            # jnp.array of a list: the elements' result type, strong; NumPy elements are narrowed.
            outcome = operations.collect(operations.promote(leaves, Library.JAX, call.ctx), Library.JAX)
        else:
            # np.array of a list: Python scalars count as their default dtypes, not as weak.
            strong = [Array(v.dtypes, Library.NUMPY_SCALAR, False) if v.library is Library.PYTHON else as_numpy(v)
                      for v in leaves]  # fmt: skip
            outcome = operations.collect(operations.promote(strong, Library.NUMPY_ARRAY, call.ctx),
                                         Library.NUMPY_ARRAY)  # fmt: skip
        if not isinstance(outcome, Array):
            return outcome
        overflow = list_overflow(leaves, outcome) if library is Library.JAX else None
        return overflow or Array(outcome.dtypes, library, False, ndim=ndim)
    if not isinstance(data, Array):
        return UNKNOWN
    if library is Library.JAX:
        if data.library is Library.JAX:
            return data
        if data.library is Library.PYTHON:
            overflow = python_int_overflow(data, call.ctx)
            if overflow:
                return overflow
            dtypes = frozenset(call.ctx.jax.canonical_dtype(Operand(d)) for d in data.dtypes)
            return Array(dtypes, Library.JAX, data.weak, ndim=0, provenance=data.provenance)
        dtypes = frozenset(narrow_x32(d) if not call.ctx.x64 else d for d in data.dtypes)
        return Array(dtypes, Library.JAX, False, ndim=ndim)
    return Array(data.dtypes, Library.NUMPY_ARRAY, False, intended64=data.intended64, ndim=ndim, named64=data.named64)


def of_empty_list(call: Call) -> Array:
    """What ``np.array`` / ``jnp.array`` (the "asarray" semantics) makes of an empty list: the dtype
    requested, else the default float (measured: np.array([]) is float64, jnp.array([]) float32,
    float64 with x64).  Only for a list known to be empty where it may be: a list display the
    code fills elsewhere (``collect(xs)``) is not followed."""
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx, None)
    return default("f", call.fn.library, call.ctx, "", None)


def numpy_array_of(value: Value | None, ctx: Context) -> Value:
    """What ``np.asarray(value)`` makes of an argument a NumPy function converts first: a list
    of Python floats is a float64 array, a Python scalar a strong 0-d array of its 64-bit dtype,
    a JAX array a NumPy one of its dtype."""
    if value is None:
        return UNKNOWN
    return _asarray(Call("numpy.asarray", CATALOG["numpy.asarray"], {"a": value}, ctx))


def _leaves(items: Items) -> list[Array] | None:
    leaves: list[Array] = []
    for item in items.items:
        if isinstance(item, Items):
            inner = _leaves(item)
            if inner is None:
                return None
            leaves += inner
        elif isinstance(item, Array) and item.dtypes:
            leaves.append(item)
        else:
            return None
    return leaves


def _arange(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref and ref.name == "bool":
        return Refusal("TypeError", f"{display_name(call.name)} does not accept dtype bool")  # measured, both libraries
    if ref:
        return requested(ref, call.fn.library, call.ctx, 1)
    bounds = {p: call.bound[p] for p in ("start", "stop", "step") if p in call.bound}
    if not all(isinstance(b, Array) for b in bounds.values()):
        return UNKNOWN
    if any(len(b.dtypes) != 1 for b in bounds.values()):  # each candidate gives its own: not modelled
        return Array(frozenset(), call.fn.library, None, ndim=1)
    if call.fn.library is Library.JAX:
        return _jax_arange(call, bounds)
    return _numpy_arange(call, bounds)


def _jax_arange(call: Call, bounds: dict[str, Array]) -> Value:
    """``jnp.arange``: of Python numbers the default int or float; of NumPy scalars and 0-d
    arrays a strong array of the dtype JAX promotes the bounds to (``jnp.arange(1, np.int8(3))``
    is int8; strict promotion refuses ``jnp.arange(1.0, np.int8(3))``).  Complex bounds raise,
    bool ones too (iota has no bool), and bounds with dimensions (measured, jax 0.10.2)."""
    kinds = {DTYPES[b.dtype].kind for b in bounds.values()}
    if "c" in kinds:
        return Refusal("ValueError", "Passing complex start/stop/step to jnp.arange is no longer supported starting "
                                     "in JAX v0.10.0.")  # fmt: skip
    if kinds == {"b"}:
        return Refusal("TypeError", "iota does not accept dtype bool. Accepted dtypes are subtypes of integer, "
                                    "floating, complexfloating.")  # fmt: skip
    if all(b.library is Library.PYTHON for b in bounds.values()):
        return default("f" if "f" in kinds else "i", Library.JAX, call.ctx, display_name(call.name), 1)
    if any(b.rank for b in bounds.values()):
        return Refusal("ValueError", "jax.numpy.arange: arguments must be scalars")
    # A bound of unknown rank is 0-d where the program goes on (else it raises ValueError).
    promoted = operations.collect(operations.promote(list(bounds.values()), Library.JAX, call.ctx), Library.JAX, ndim=1)
    return replace(promoted, weak=False) if isinstance(promoted, Array) and promoted.dtypes else promoted


def _numpy_arange_kind(dtype: str) -> str | None:
    """The kind of Python number np.arange reads a bound of ``dtype`` as, whatever its width or
    library (measured, numpy 2.4.6: an int8, int32 or bool bound gives int64, a float16 or float32
    one float64, a complex one complex128): uint64, which int64 cannot hold, as a float; None
    outside NumPy's own dtypes (bfloat16 gives an object array), not modelled."""
    if dtype not in NUMPY_NATIVE:
        return None
    return "f" if dtype == "uint64" else {"b": "i", "u": "i"}.get(DTYPES[dtype].kind, DTYPES[dtype].kind)


def _numpy_arange(call: Call, bounds: dict[str, Array]) -> Value:
    ends = [bounds[p] for p in ("start", "stop") if p in bounds]
    if len(ends) == 2 and all(b.dtype == "bool" for b in ends) and not all(b.library is Library.PYTHON for b in ends):
        if any(b.library is Library.JAX for b in ends):
            return UNKNOWN
        return Refusal("TypeError", "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                                    "the `^` operator, or the logical_xor function instead.")  # fmt: skip
    if any(b.rank not in (0, None) for b in bounds.values()):
        return UNKNOWN  # raises, TypeError or ValueError as the array's size decides
    kinds = {_numpy_arange_kind(b.dtype) for b in bounds.values()}
    if None in kinds or any(b.library is Library.JAX and _numpy_arange_kind(b.dtype) == "c" for b in bounds.values()):
        return Array(frozenset(), Library.NUMPY_ARRAY, None, ndim=1)  # a JAX complex bound raises TypeError
    kind = "c" if "c" in kinds else "f" if "f" in kinds else "i"
    return default(kind, Library.NUMPY_ARRAY, call.ctx, display_name(call.name), 1)


def _linspace(call: Call) -> Value:
    ref = as_dtype(call.bound.get("dtype"))
    if ref:
        return requested(ref, call.fn.library, call.ctx, 1)
    return default("f", call.fn.library, call.ctx, display_name(call.name), 1)


def _fixed(call: Call) -> Value:
    return array(call.fn.result, call.fn.library, provenance=f"{display_name(call.name)} gives {call.fn.result}")


def _random(call: Call) -> Value:
    return _create(call)


def _choice(call: Call) -> Value:
    """``jax.random.choice(key, a)`` and ``permutation(key, x)``: elements of the array ``a``
    (its dtype, strong), or of ``arange(a)`` for a value without dimensions (the default int;
    measured)."""
    a = call.bound.get(call.fn.arrays[0])
    if not isinstance(a, Array) or a.rank is None:
        return UNKNOWN
    if a.rank == 0:
        return default("i", Library.JAX, call.ctx, "")
    source = library_inputs(call)[0]
    return Array(source.dtypes, Library.JAX, False)


def _key(call: Call) -> Value:
    """``jax.random.split`` and ``fold_in``: keys of the key's own dtype, as a strong JAX array.
    A raw key is uint32 data with dimensions; anything else raises a TypeError (measured).  A
    typed key (``jax.random.key``, dtype ``key<fry>``) is outside the engine's dtypes: of one,
    what holds for every key is only that the result has its dtype."""
    key = call.bound.get("key")
    if not isinstance(key, Array) or not key.dtypes:
        return UNKNOWN
    if key.library in (Library.PYTHON, Library.NUMPY_SCALAR) or "uint32" not in key.dtypes:
        return Refusal("TypeError", "JAX encountered invalid PRNG key data: expected uint32 key data with dimensions")
    if key.dtypes != {"uint32"} or key.rank == 0:
        return UNKNOWN  # some of the candidates raise; a 0-d array raises too, where its rank is right
    return Array(key.dtypes, Library.JAX, False)


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "create": _create,
    "key": _key,
    "full": _full,
    "like": _like,
    "asarray": _asarray,
    "arange": _arange,
    "linspace": _linspace,
    "fixed": _fixed,
    "random": _random,
    "choice": _choice,
}
