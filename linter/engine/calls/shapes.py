"""Dimensions: the rank of an array a call makes, reads or returns, given the function's shape
(``promolint.engine.catalog.SHAPES``): whether a NumPy result is an array or a scalar follows."""

from __future__ import annotations

from dataclasses import replace

from promolint.core.dtypes import DTYPES
from promolint.engine.calls.binding import display_name
from promolint.engine.calls.conversions import as_dtype
from promolint.engine.catalog import Draw
from promolint.engine.records import Call
from promolint.engine.values import (UNKNOWN, Array, Items, Library, Refusal, Value, is_none, join, numpy_library,
                                     python_scalar)


def shape_rank(value: Value | None) -> int | None:
    """Dimensions of an array made with ``shape``: ``3`` is one, ``(2, 3)`` two."""
    if isinstance(value, Array) and value.library is Library.PYTHON and value.dtypes == {"int64"}:
        return 1
    if isinstance(value, Items):
        return len(value.items)
    return None


# The parameters that take dimensions, by the function's shape: a creation function's or a
# reshape's ``shape`` (eye's ``N`` and ``M``, identity's ``n``), a jax.random draw's ``shape``.
# NumPy's ``random.gamma`` calls its parameter ``shape`` too, and takes a float there.
_DIMENSIONS = {"array": ("shape", "N", "M", "n"), "draw": ("shape",)}


def non_integer_dimension(call: Call) -> Refusal | None:
    """The TypeError a float or complex dimension raises (``jnp.zeros(n)`` for a float ``n``, in
    NumPy and JAX alike; measured on jax 0.10.2 and NumPy 2.4: "Shapes must be 1D sequences of
    concrete values of integer type", "'float' object cannot be interpreted as an integer")."""
    for param in _DIMENSIONS.get(call.fn.shape, ()):
        if param == "n" and not call.name.endswith("identity"):  # fftfreq's `n`: JAX takes 4.0
            continue
        value = call.bound.get(param)
        for item in value.items if isinstance(value, Items) else (value,):
            if isinstance(item, Array) and item.dtypes and all(DTYPES[d].kind in "fc" for d in item.dtypes):
                return Refusal("TypeError", f"{display_name(call.name)}: dimensions must be integers, "
                                            f"`{param}` is a {item.describe()}")
    return None


def data_rank(value: Value | None) -> int | None:
    """Dimensions of ``np.array(value)``: nested lists add one each."""
    if isinstance(value, Array):
        return value.rank
    if isinstance(value, Items) and value.items:
        inner = data_rank(value.items[0])
        return None if inner is None else inner + 1
    return None


def created_rank(call: Call) -> int | None:
    # Read from bytes, a file, text or an iterable: a flat array, unless given a shape (memmap).
    read = bool({"buffer", "file", "filename", "string", "iter"} & set(call.fn.params))
    for param in ("shape", "size"):
        if param in call.fn.params and (param in call.bound or not read):
            return shape_rank(call.bound.get(param))
    if read:
        return 1
    return 2 if {"N", "n"} & set(call.fn.params) else None  # eye, identity


def shaped(call: Call, value: Value) -> Value:
    shape = call.fn.shape
    if shape == "as-is" or not isinstance(value, Array) or value.library is Library.PYTHON:
        return value
    source = call.first()
    library = value.library
    if shape == "elementwise":
        ranks = [data_rank(call.bound.get(p)) for p in call.fn.arrays if p in call.bound]
        ndim = None if any(r is None for r in ranks) else max(ranks, default=0)
    elif shape == "reduce":
        ndim = _reduced_rank(call)
    elif shape == "contract":
        ndim = _contracted_rank(call)
    elif shape == "scalar":
        ndim = 0
    elif shape == "keep":
        ndim = source.rank if isinstance(source, Array) else None
        if library.is_numpy and isinstance(source, Array) and source.library.is_numpy:
            library = source.library
        return replace(value, library=library, ndim=ndim)
    elif shape == "sample":
        return _sampled(call, value)
    elif shape == "draw":
        ndim = _drawn_rank(call)
    else:  # array
        return replace(value, library=Library.NUMPY_ARRAY if library.is_numpy else library)
    if library.is_numpy:
        library = numpy_library(ndim)
    return replace(value, library=library, ndim=ndim)


def _drawn_rank(call: Call) -> int | None:
    """A jax.random draw's dimensions: ``shape``'s, or without it its parameters' (its row's ``draw``)."""
    draw = call.fn.draw or Draw(())
    params, added, added_to_shape = draw.params, draw.added, draw.added_to_shape
    if "shape" in call.bound and not is_none(call.bound["shape"]):
        rank = shape_rank(call.bound["shape"])
        return None if rank is None else rank + added_to_shape
    if not params:
        return 0
    ranks = [data_rank(call.bound[p]) if p in call.bound else 0 for p in params]  # absent: a scalar default
    if None in ranks:
        return None
    return max(max(ranks) + added, call.fn.least_ndim)


def _reduced_rank(call: Call) -> int | None:
    source = call.first()
    rank = source.rank if isinstance(source, Array) else None
    keepdims = call.bound.get("keepdims")
    if isinstance(keepdims, Array) and keepdims.literal is True:
        return rank
    if call.short == "trace":  # the diagonal summed: two dimensions fewer
        return None if rank is None else max(rank - 2, 0)
    axis = call.bound.get("axis")
    if axis is None or is_none(axis):
        return 0
    if rank is None:
        return None
    if isinstance(axis, Array) and axis.library is Library.PYTHON and axis.dtypes == {"int64"}:
        return max(rank - 1, 0)
    if isinstance(axis, Items):
        return max(rank - len(axis.items), 0)
    return None


def _contracted_rank(call: Call) -> int | None:
    operands = [call.bound.get(p) for p in call.fn.arrays]
    if len(operands) != 2 or not all(isinstance(v, Array) for v in operands):
        return None
    a, b = (v.rank for v in operands)
    if a is None or b is None:
        return None
    if a == 0 or b == 0:
        return max(a, b)
    if call.short == "matmul" and a >= 2 and b >= 2:
        return max(a, b)
    return a + b - 2


def _sampled(call: Call, value: Array) -> Value:
    """A legacy ``np.random`` draw: an array of ``size``, or one value: a NumPy scalar when a
    dtype or an array says which, else a Python float or int."""
    size = next((call.bound[p] for p in ("size", "d0") if p in call.bound), None)
    if size is not None and size is not UNKNOWN:
        ndim = shape_rank(size) if "size" in call.bound else len([p for p in ("d0", "d1", "d2") if p in call.bound])
        return replace(value, library=Library.NUMPY_ARRAY, ndim=ndim)
    if call.fn.semantics == "same" or as_dtype(call.bound.get("dtype")) is not None or value.dtype is None:
        one = replace(value, library=Library.NUMPY_SCALAR, ndim=0)
    else:
        one = python_scalar({"f": "float", "i": "int", "u": "int", "b": "bool", "c": "complex"}[DTYPES[value.dtype].kind])
    # An unknown size (`*shape`, a variable that may be None) may draw one value or an array.
    return one if size is None else join([one, replace(value, library=Library.NUMPY_ARRAY, ndim=None)])
