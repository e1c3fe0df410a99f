"""``jax.lax`` semantics: lax never promotes.  Its elementwise operations, ``select``, ``clamp``,
``concatenate``, ``pad``, dynamic slices and scatters take array operands of one dtype (Python
scalars count as the default dtype of their kind, NumPy values as JAX converts them) and give
it, bool or its complex; the start indices of a dynamic slice are integers of one type;
``convert_element_type`` is a request.  Measured on jax 0.10.2 (tests/oracle/corpus/lax.py)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from promolint.core.dtypes import DTYPES
from promolint.engine.calls.conversions import as_dtype, requested
from promolint.engine.catalog import Weak
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Items, Library, Refusal, Value
from promolint.systems.base import Operand

SHAPE = "shape"  # the reason of a refusal for ranks, not dtypes
_COMPLEX_OF = {"float32": "complex64", "float64": "complex128"}
# The jnp function that promotes where the lax one refuses, as JAX's own tip names it
# (jax._src.lax.lax._JNP_FUNCTION_EQUIVALENTS, for the functions of this catalog).
JNP_EQUIVALENTS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "div": "divide", "max": "maximum", "min": "minimum",
    "atan2": "arctan2", "nextafter": "nextafter", "bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or",
    "bitwise_xor": "bitwise_xor", "shift_left": "left_shift", "shift_right_logical": "right_shift",
    "shift_right_arithmetic": "right_shift", "eq": "equal", "ne": "not_equal", "select": "where",
    "select_n": "where", "concatenate": "concatenate",
}  # fmt: skip


def lax_dtype(value: Array, ctx) -> str | None:
    """The dtype lax computes ``value`` in: a JAX array's own, a Python or NumPy value's as JAX
    converts it (the default dtype of its kind; narrowed with x64 off)."""
    dtype = value.dtype
    if dtype is None or value.library is Library.JAX:
        return dtype
    return ctx.jax.canonical_dtype(Operand(dtype))


def all_weak(values: Sequence[Array]) -> bool | None:
    """Weak when every value is, strong when one is strong, None when that is not known."""
    if any(v.weak is False for v in values):
        return False
    return True if all(v.weak for v in values) else None


def _rank_refusal(call: Call) -> Refusal | None:
    """lax's rank checks (its row's ``lax``), where the ranks are known."""
    params = call.fn.lax.same_rank
    ranks = [v.rank for p in params for v in _items(call.bound.get(p))]
    if len(ranks) > 1 and None not in ranks and len(set(ranks)) > 1:
        return Refusal("TypeError", f"lax.{call.short} requires operands of the same rank, got ranks "
                       f"{', '.join(map(str, ranks))}.", SHAPE)  # fmt: skip
    scalar = call.bound.get(call.fn.lax.scalar)
    if isinstance(scalar, Array) and scalar.rank not in (None, 0):
        return Refusal("ValueError", f"{call.fn.lax.scalar} must be a scalar; got rank {scalar.rank}", SHAPE)
    return None


def _items(value: Value | None) -> list[Array]:
    items = value.items if isinstance(value, Items) else (value,)
    return [v for v in items if isinstance(v, Array)]


def _index_refusal(call: Call) -> Refusal | None:
    """The start indices of ``dynamic_slice``/``dynamic_update_slice``: integers of one type,
    Python ints counting as the default int (``(i, 0)`` with an int32 ``i`` raises under x64)."""
    indices = call.bound.get("start_indices") if call.fn.lax.integer_indices else None
    if indices is None:
        return None
    values = indices.items if isinstance(indices, Items) else (indices,)
    if not all(isinstance(v, Array) and v.dtype for v in values):
        return None
    dtypes = [lax_dtype(v, call.ctx) for v in values]
    if len(set(dtypes)) > 1 or any(DTYPES[d].kind not in "iu" for d in dtypes):
        got = "got:" if call.short == "dynamic_slice" else "got"  # JAX's two wordings, verbatim
        return Refusal("TypeError", f"index arguments to {call.short} must be integers of the same type, {got} "
                       f"{', '.join(dtypes)}")  # fmt: skip
    return None


def _which_refusal(call: Call) -> Refusal | None:
    """``select``'s predicate and ``select_n``'s ``which``: booleans or integers."""
    which = call.bound.get(call.fn.lax.which)
    dtype = lax_dtype(which, call.ctx) if isinstance(which, Array) else None
    if dtype and DTYPES[dtype].kind not in "biu":
        return Refusal("TypeError", f"select `which` must be boolean or integer type, got {dtype}.")
    return None


def _lax(call: Call) -> Value:
    """Operands of one dtype, which is the result's (or bool for comparisons, its complex for
    ``complex``).  The result is weak when every operand is; its row's ``weak`` says otherwise
    where the function does: ``AS_OPERAND`` (scatters: the operand's flag), ``STRONG``
    (``dynamic_update_slice``)."""
    inputs = call.arrays()
    if not inputs or not all(v.dtype for v in inputs):
        return UNKNOWN
    dtypes = [lax_dtype(v, call.ctx) for v in inputs]
    if len(set(dtypes)) > 1:
        return _dtypes_refusal(call, dtypes)
    refused = _which_refusal(call) or _index_refusal(call) or _rank_refusal(call)
    if refused:
        return refused
    if call.fn.result == "complex":
        dtype = _COMPLEX_OF.get(dtypes[0])
        if dtype is None:
            return UNKNOWN
    else:
        dtype = call.fn.result or dtypes[0]
    if dtype == "bool" or call.fn.weak is Weak.STRONG:
        weak: bool | None = False
    elif call.fn.weak is Weak.AS_OPERAND:
        weak = inputs[0].weak
    else:
        weak = all_weak(inputs)
    ndim = inputs[0].rank if call.fn.shape == "array" else None
    return Array(frozenset([dtype]), Library.JAX, weak, ndim=ndim)


def _lax_pow(call: Call) -> Value:
    """``lax.pow``: an inexact base, and an exponent of the base's dtype or of any integer dtype
    (``lax.pow(x, -1)``, ``lax.pow(x, n)`` with an int64 ``n`` keep a float32 ``x``'s dtype); the
    result is the base's dtype, weak when both are.  Measured, jax 0.10.2, in JAX's words."""
    inputs = call.arrays()
    if len(inputs) != 2 or not all(v.dtype for v in inputs):
        return UNKNOWN
    base, exponent = (lax_dtype(v, call.ctx) for v in inputs)
    if DTYPES[base].kind not in "fc":
        return Refusal("TypeError", f"pow does not accept dtype {base} at position 0. Accepted dtypes at position 0 "
                       "are subtypes of floating, complexfloating.")  # fmt: skip
    if DTYPES[exponent].kind == "b":
        return Refusal("TypeError", "pow does not accept dtype bool at position 1. Accepted dtypes at position 1 are "
                       "subtypes of integer, floating, complexfloating.")  # fmt: skip
    if DTYPES[exponent].kind not in "iu" and exponent != base:
        return Refusal("TypeError", "the first argument to pow must have an inexact dtype (float or complex), and the "
                       "second argument must have an inexact or integer dtype, and two inexact dtypes must match, "
                       f"but got {base} and {exponent} respectively.")  # fmt: skip
    return Array(frozenset([base]), Library.JAX, all_weak(inputs))


def _dtypes_refusal(call: Call, dtypes: list[str]) -> Refusal:
    """JAX's TypeError for operands of different dtypes, in its words (measured)."""
    if call.short == "pad":
        return Refusal("TypeError", f"pad operand and padding_value must be same dtype: got {dtypes[0]} and {dtypes[1]}.")
    name = call.fn.lax.reported_as or call.short
    return Refusal("TypeError", f"lax.{name} requires arguments to have the same dtypes, got {', '.join(dtypes)}.")


def _collective(call: Call) -> Value:
    """A collective over a named axis (``psum``, ``pmean``, ``pmax``, ``pmin``, ``ppermute``,
    ``pshuffle``, ``all_gather``) of one JAX array: its dtype and weak flag.  ``psum`` counts
    booleans in a strong int32 in both x64 modes; ``pmean`` of integers gives float32 or float64
    by their width, so it is claimed for inexact operands only; ``all_gather`` adds a dimension
    unless tiled.  A pytree operand (a tuple of arrays) gives a pytree: not modelled.  A Python
    or NumPy operand is left as it is where the axis does not trace it (``jax.vmap``:
    ``psum(1.0, 'i')`` is a Python float there) and converted where it does (``shard_map``):
    only JAX operands are claimed.  Measured under ``jax.vmap`` and ``shard_map``, jax 0.10.2."""
    operand = call.bound.get("x")
    if not isinstance(operand, Array) or not operand.dtype or operand.library is not Library.JAX:
        return UNKNOWN
    dtype, weak = operand.dtype, operand.weak
    if call.short == "psum" and dtype == "bool":
        dtype, weak = "int32", False
    elif call.short == "pmean" and DTYPES[dtype].kind not in "fc":
        return UNKNOWN
    ndim = None if call.short == "all_gather" else operand.rank
    return Array(frozenset([dtype]), Library.JAX, weak, ndim=ndim)


def _lax_convert(call: Call) -> Value:
    ref = as_dtype(call.bound.get("new_dtype"))
    return requested(ref, Library.JAX, call.ctx) if ref else UNKNOWN


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "lax": _lax,
    "lax_pow": _lax_pow,
    "lax_convert": _lax_convert,
    "collective": _collective,
}
