"""Conversions: dtype arguments and requests, default dtypes, values crossing between NumPy,
JAX and Python (``__array__``, ``jnp.asarray``, tracing), and Python scalars converted to a
dtype (``np.float32(x)``, ``float(x)``, the overflow checks)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from promolint.core.dtypes import DEFAULT_DTYPE_X64, DTYPES, INTN, is_64bit, narrow_x32, resolve_string
from promolint.engine import operations
from promolint.engine.calls.binding import bind
from promolint.engine.catalog import Fn
from promolint.engine.symbolic import Symbolic, Variable, apply, lifted
from promolint.engine.context import Context
from promolint.engine.records import Call
from promolint.engine.values import (UNKNOWN, Array, DTypeRef, Elements, Instance, Items, Keyed, Library, Refusal,
                                     Value, array, python_scalar)
from promolint.systems.base import Operand

# The magnitude of a complex number is real: abs(complex64) is float32, abs(1j) a Python float.
REAL_OF = {"complex64": "float32", "complex128": "float64"}


# --- dtype requests --------------------------------------------------------------------------
def as_dtype(value: Value | None) -> DTypeRef | None:
    """A value used as a dtype argument: ``np.float32``, ``'f4'``, ``float``, ``x.dtype``."""
    if isinstance(value, DTypeRef):
        return value
    if isinstance(value, Array) and value.library is Library.PYTHON and isinstance(value.literal, str):
        name = resolve_string(value.literal)
        return DTypeRef(name) if name else None
    return None


def requested(ref: DTypeRef, library: Library, ctx: Context, ndim: int | None = None) -> Array:
    """The array an explicit ``dtype=`` produces: JAX narrows 64-bit requests with x64 off
    (warning unless the request was a builtin type, keeping them with explicit x64 'allow')."""
    name = ref.name
    if library is Library.JAX and not ctx.x64:
        keeps = ctx.explicit_x64 == "allow" and not ref.builtin
        name = name if keeps else narrow_x32(name)
    # NumPy's `dtype=float` is float64 by definition; JAX's is its default float, the mode's.
    intended = is_64bit(name) and (not ref.builtin or library is not Library.JAX)
    return array(name, library, intended64=intended or (library is Library.JAX and ctx.x64 and is_64bit(name)),
                 ndim=ndim, named64=is_64bit(name))  # fmt: skip


def default(kind: str, library: Library, ctx: Context, what: str, ndim: int | None = None) -> Array:
    if kind in DTYPES:
        name = kind
    elif library is Library.JAX:
        name = ctx.jax.default_dtype(kind)
    else:
        name = DEFAULT_DTYPE_X64[kind]
    return array(
        name,
        library,
        intended64=library is Library.JAX and is_64bit(name),
        ndim=ndim,
        provenance=f"{what} defaults to {name}" if what else "",
    )


# --- values crossing libraries ---------------------------------------------------------------
def as_numpy(value: Array) -> Array:
    """A JAX array passed to a NumPy function is converted through ``__array__``."""
    if value.library is Library.JAX:
        return Array(value.dtypes, Library.NUMPY_ARRAY, False, ndim=value.ndim)
    return value


def library_inputs(call: Call) -> list[Array]:
    """The array arguments as the function sees them: NumPy functions convert JAX arrays
    through ``__array__``; JAX functions narrow NumPy values as ``jnp.asarray`` does."""
    inputs = call.arrays()
    if call.fn.library is Library.NUMPY_ARRAY:
        return [as_numpy(v) for v in inputs]
    if call.fn.library is Library.JAX:
        return [_as_jax(v, call.ctx) for v in inputs]
    return inputs


def reduced_inputs(call: Call) -> list[Array]:
    """The arrays a reduction (or a ``linalg`` function) reads.  JAX reads a Python scalar as
    ``jnp.asarray`` does, in the mode's default dtype of its kind, and the result is strong
    (measured: ``jnp.mean(6.0)``, ``jnp.min(3)``, ``jnp.linalg.norm(3.0)`` are float32, int32,
    float32 with x64 off)."""
    inputs = library_inputs(call)
    if call.fn.library is not Library.JAX:
        return inputs
    return [_strong_jax_scalar(v, call.ctx) if v.library is Library.PYTHON else v for v in inputs]


def _strong_jax_scalar(value: Array, ctx: Context) -> Array:
    dtypes = frozenset(ctx.jax.canonical_dtype(Operand(d)) for d in value.dtypes)
    return Array(dtypes, Library.JAX, False, ndim=0)


def _as_jax(value: Array, ctx: Context) -> Array:
    """A NumPy value passed to a JAX function becomes a strong JAX array (narrowed with x64
    off); Python scalars stay weak."""
    if value.library is Library.JAX or value.library is Library.PYTHON:
        return value
    if ctx.x64:  # the dtype stays, and so do the request for it and the source of its 64 bits
        return Array(value.dtypes, Library.JAX, False, intended64=value.intended64, ndim=value.rank,
                     source=value.source, named64=value.named64)  # fmt: skip
    return Array(frozenset(narrow_x32(d) for d in value.dtypes), Library.JAX, False, ndim=value.rank)


def as_traced(value: Value, ctx: Context) -> Value:
    """What a value becomes when JAX traces a function it is passed to (or returned from)
    (``_as_traced``).  A value traced already stays itself, and an object a variable holds,
    copied with fields replaced, stays such a copy, of its traced receiver and fields (JAX traces
    an object's leaves): a loop's body reads the fields of the copy its carry holds."""
    return _traced_symbolic(value, ctx) or _as_traced(value, ctx)


@lifted("as_traced")
def _as_traced(value: Value, ctx: Context) -> Value:
    """What a value becomes when JAX traces a function it is passed to (or returned from):
    arrays become JAX arrays as ``jnp.asarray`` makes them, Python scalars weak ones (a literal
    out of the default int's range raises), NumPy values strong and narrowed with x64 off;
    tuples, lists (of known or unknown length) and dicts are pytrees of those."""
    if isinstance(value, Items):
        items = tuple(as_traced(v, ctx) for v in value.items)
        refused = next((v for v in items if isinstance(v, Refusal)), None)
        return refused or Items(items, value.is_tuple)
    if isinstance(value, Elements):
        element = as_traced(value.element, ctx)
        return element if isinstance(element, Refusal) else Elements(element)
    if isinstance(value, Keyed):
        entries = tuple((key, as_traced(v, ctx)) for key, v in value.entries)
        refused = next((v for _, v in entries if isinstance(v, Refusal)), None)
        return refused or Keyed(entries)
    if isinstance(value, Instance):
        fields = tuple((name, as_traced_field(v, ctx)) for name, v in value.fields)
        refused = next((v for _, v in fields if isinstance(v, Refusal)), None)
        return refused or replace(value, fields=fields)
    if not isinstance(value, Array) or value.library is Library.JAX:
        return replace(value, literal=None) if isinstance(value, Array) else value
    if value.library is Library.PYTHON:
        overflow = python_int_overflow(value, ctx)
        if overflow:
            return overflow
        dtypes = frozenset(ctx.jax.canonical_dtype(Operand(d)) for d in value.dtypes)
        return Array(dtypes, Library.JAX, value.weak, ndim=0)
    return _as_jax(value, ctx)


def as_traced_field(value: Value, ctx: Context) -> Value:
    """A field of a NamedTuple or registered dataclass JAX traces (``_as_traced_field``)."""
    return _traced_symbolic(value, ctx) or _as_traced_field(value, ctx)


@lifted("traced field")
def _as_traced_field(value: Value, ctx: Context) -> Value:
    """A field of a NamedTuple or registered dataclass JAX traces (it is a pytree of its
    fields): traced, but a Python scalar, which may be static (flax's pytree_node=False,
    equinox's static=True) or traced, is unknown."""
    return UNKNOWN if isinstance(value, Array) and value.library is Library.PYTHON else as_traced(value, ctx)


def _traced_symbolic(value: Value, ctx: Context) -> Value | None:
    """A symbolic value traced already (no Python scalar is left to trace: tracing it again, as
    a field or not, changes nothing at any member), or a copy of an object with fields replaced,
    traced leaf by leaf; None for any other value."""
    if type(value) is not Symbolic:
        return None
    if value.function in _TRACING:
        return value
    parts = replaced_parts(value)
    if parts is None:
        return None
    receiver, fields = parts
    traced = {name: as_traced_field(field, ctx) for name, field in fields.items()}
    refused = next((field for field in traced.values() if isinstance(field, Refusal)), None)
    return refused or replaced(as_traced(receiver, ctx), traced)


def replaced(receiver: Value, fields: dict[str, Value]) -> Symbolic:
    """``receiver.replace(**fields)`` of an object a variable holds: reading a field gives what
    replaced it, or else what the receiver holds there (craftax's `state = state.replace(cows=
    cows)`, then `state.zombies`).  No array has the method: at a member it is unknown."""
    return apply("replaced", _replaced, (receiver, dict(fields)))


def _replaced(receiver: Value, fields: dict[str, Value]) -> Value:
    return UNKNOWN


def replaced_parts(value: object) -> tuple[Value, dict[str, Value]] | None:
    """The receiver and the fields of a ``replaced`` value, else None."""
    if type(value) is not Symbolic or value.function is not _replaced:
        return None
    return value.arguments[0], value.arguments[1]


def traced_variable(value: Symbolic) -> Variable | None:
    """The variable ``x`` where ``value`` is what JAX traced of it (a loop's carry, a jitted
    function's parameter, a field of such), else None."""
    if value.function in _TRACING and type(value.arguments[0]) is Symbolic:
        return value.arguments[0].variable
    return None


_TRACING = (_as_traced.exact, _as_traced_field.exact)


# --- Python scalars converted to a dtype -----------------------------------------------------
def python_int_overflow(value: Array, ctx: Context) -> Refusal | None:
    if type(value.literal) is not int:
        return None
    bounds = operations.int_bounds("int64" if ctx.x64 else "int32")
    if bounds and not bounds[0] <= value.literal <= bounds[1]:
        return Refusal("OverflowError", f"Python int {value.literal} too large to convert to "
                       f"{'int64' if ctx.x64 else 'int32'}")  # fmt: skip
    return None


def out_of_bounds(value: Array, dtype: str) -> Refusal | None:
    """NumPy's conversion of a Python scalar to ``dtype`` (measured, numpy 2.4.6): a complex to
    a real dtype raises TypeError; an int out of an integer dtype's range, or a float whose
    integer part is, raises OverflowError (ml_dtypes' narrow ints take any int, wrapping it)."""
    if value.dtypes == {"complex128"} and DTYPES[dtype].kind not in "cb":
        return Refusal("TypeError", f"can't convert a Python complex to {dtype}")
    bounds = operations.int_bounds(dtype)
    literal = value.literal
    if type(literal) is float and math.isfinite(literal):
        literal = int(literal)  # truncated toward zero: -1.5 does not fit uint8
    elif type(literal) is not int or dtype in INTN:
        return None
    if bounds and not bounds[0] <= literal <= bounds[1]:  # NumPy names the integer a float truncates to
        return Refusal("OverflowError", f"Python integer {literal} out of bounds for {dtype}")
    return None


def list_overflow(leaves: Sequence[Array], outcome: Array) -> Refusal | None:
    """``jnp.array([1, 2**40])`` converts the list with NumPy to the result dtype: a literal that
    does not fit, or a complex for a real dtype, raises."""
    if outcome.dtype is None:
        return None
    return next((r for v in leaves if v.library is Library.PYTHON for r in [out_of_bounds(v, outcome.dtype)] if r),
                None)  # fmt: skip


def call_scalar_type(ref: DTypeRef, args, kwargs, ctx: Context) -> tuple[Value, Call | None]:
    """``np.float32(x)`` is a NumPy scalar, ``jnp.float32(x)`` a strong JAX array, ``float(x)``
    a Python float."""
    if ref.builtin:
        kind = {"bool": "bool", "int64": "int", "float64": "float", "complex128": "complex"}[ref.name]
        return (_builtin_conversion(kind, args[0]) if args else python_scalar(kind, kind != "bool" and 0 or False)), None
    library = Library.JAX if ref.module == "jax.numpy" else Library.NUMPY_SCALAR
    fn = Fn("scalar_type", library, ("x",))
    # The type called is the dtype requested: the semantics read it as if passed as dtype=.
    bound = Call(f"{ref.module or 'numpy'}.{ref.name}", fn, {**bind(fn, args, kwargs), "dtype": ref}, ctx)
    value = requested(DTypeRef(ref.name), library, ctx, ndim=0)  # a scalar type makes a 0-d value
    source = bound.bound.get("x")
    bounds = operations.int_bounds(value.dtype)
    if isinstance(source, Array) and source.library is Library.PYTHON and type(source.literal) is int and bounds:
        # The literal converts to the requested integer type itself (measured: jnp.int8(1000)).
        if not bounds[0] <= source.literal <= bounds[1]:
            return Refusal("OverflowError", f"Python integer {source.literal} out of bounds for {value.dtype}"), bound
    held = _held_literal(source, value.dtype)
    return (replace(value, literal=held) if held is not None else value), bound


def _held_literal(source: Value | None, dtype: str) -> int | float | None:
    """The value a scalar type holds when called on a Python int or float (``np.uint8(200)`` holds
    200): for an integer dtype an int in its range, for a float dtype the float."""
    if not isinstance(source, Array) or source.library is not Library.PYTHON or type(source.literal) not in (int, float):
        return None
    kind = DTYPES[dtype].kind
    if kind == "f":
        return float(source.literal)
    bounds = operations.int_bounds(dtype)
    if kind in "iu" and type(source.literal) is int and bounds and bounds[0] <= source.literal <= bounds[1]:
        return source.literal
    return None


def _builtin_conversion(kind: str, source: Value) -> Value:
    literal = None
    if isinstance(source, Array) and source.library is Library.PYTHON and source.literal is not None:
        try:
            literal = {"bool": bool, "int": int, "float": float, "complex": complex}[kind](source.literal)
        except (TypeError, ValueError, OverflowError):
            literal = None
    return python_scalar(kind, literal)
