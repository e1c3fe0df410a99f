"""Rules of array methods with no function of their own: ``x.astype(dtype)`` is a request in the
receiver's library, ``x.item()`` the Python scalar of its kind."""

from __future__ import annotations

from collections.abc import Callable

from promolint.dtypes import DTYPES
from promolint.engine.calls.conversions import as_dtype, requested
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, Library, Value, python_scalar


def _rule_astype(call: Call) -> Value:
    receiver = call.bound.get("self")
    ref = as_dtype(call.bound.get("dtype"))
    if not isinstance(receiver, Array) or ref is None:
        return UNKNOWN
    library = Library.JAX if receiver.library is Library.JAX else receiver.library
    return requested(ref, library, call.ctx)


def _rule_item(call: Call) -> Value:
    receiver = call.bound.get("self")
    if not isinstance(receiver, Array) or receiver.dtype is None:
        return UNKNOWN
    kind = DTYPES[receiver.dtype].kind
    return python_scalar({"b": "bool", "i": "int", "u": "int", "f": "float", "c": "complex"}[kind])


RULES: dict[str, Callable[[Call], Value]] = {
    "astype": _rule_astype,
    "item": _rule_item,
}
