"""Rules of array methods with no function of their own: ``x.astype(dtype)`` is a request in the
receiver's library, ``x.view(dtype)`` too (but of a 0-d array whose item size it changes),
``x.item()`` the Python scalar of its kind."""

from __future__ import annotations

from collections.abc import Callable

from promolint.core.dtypes import DTYPES
from promolint.engine.calls.conversions import as_dtype, requested
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Library, Refusal, Value, python_scalar


def _astype(call: Call) -> Value:
    receiver = call.bound.get("self")
    ref = as_dtype(call.bound.get("dtype"))
    if not isinstance(receiver, Array) or ref is None:
        return UNKNOWN
    library = Library.JAX if receiver.library is Library.JAX else receiver.library
    return requested(ref, library, call.ctx)


def _view(call: Call) -> Value:
    """The same bits read as another dtype.  Where the item size changes, the last axis changes
    length, so a 0-d array raises (NumPy 2.4.6 and JAX 0.10.2: ValueError); another one may too,
    for its shape (3 float32 as int64), which the engine does not follow for any operation: the
    dtype is claimed where the shape allows it, as for broadcasting."""
    receiver = call.bound.get("self")
    value = _astype(call)
    if not (isinstance(receiver, Array) and isinstance(value, Array) and receiver.dtype and value.dtype):
        return UNKNOWN
    if receiver.ndim == 0 and DTYPES[receiver.dtype].bits != DTYPES[value.dtype].bits:
        return Refusal("ValueError", f"a 0-d {receiver.dtype} cannot be viewed as {value.dtype}: the item size changes")
    return value


def _item(call: Call) -> Value:
    receiver = call.bound.get("self")
    if not isinstance(receiver, Array) or receiver.dtype is None:
        return UNKNOWN
    kind = DTYPES[receiver.dtype].kind
    return python_scalar({"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}[kind])


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "astype": _astype,
    "view": _view,
    "item": _item,
}
