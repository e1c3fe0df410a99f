"""Rules of Python's own functions (``len``, ``math.floor``...): a Python scalar of a fixed kind
whatever the argument; ``range`` gives Python ints, ``tuple`` and ``list`` the items they are given."""

from __future__ import annotations

from collections.abc import Callable

from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Elements, Items, Value, python_scalar


def _rule_python_scalar(call: Call) -> Value:
    return python_scalar(call.fn.default)


def _rule_python_range(call: Call) -> Value:
    return Elements(python_scalar("int"))


def _rule_python_sequence(call: Call) -> Value:
    """``tuple(s)``, ``list(s)``: the items of ``s`` where they are known, in a tuple or a list."""
    iterable = call.bound.get("iterable")
    if isinstance(iterable, Elements):
        return iterable
    if isinstance(iterable, Items):
        return Items(iterable.items, call.short == "tuple")
    return UNKNOWN


def _rule_int_tuple(call: Call) -> Value:
    """``np.shape(a)``: a tuple of Python ints, as ``a.shape`` is."""
    return Elements(python_scalar("int"))


RULES: dict[str, Callable[[Call], Value]] = {
    "python_scalar": _rule_python_scalar,
    "python_range": _rule_python_range,
    "python_sequence": _rule_python_sequence,
    "int_tuple": _rule_int_tuple,
}
