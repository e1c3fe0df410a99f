"""Rules of Python's own functions (``len``, ``math.floor``...): a Python scalar of a fixed kind
whatever the argument; ``range`` gives Python ints."""

from __future__ import annotations

from collections.abc import Callable

from promolint.engine.records import Call
from promolint.engine.values import Elements, Value, python_scalar


def _rule_python_scalar(call: Call) -> Value:
    return python_scalar(call.fn.default)


def _rule_python_range(call: Call) -> Value:
    return Elements(python_scalar("int"))


def _rule_int_tuple(call: Call) -> Value:
    """``np.shape(a)``: a tuple of Python ints, as ``a.shape`` is."""
    return Elements(python_scalar("int"))


RULES: dict[str, Callable[[Call], Value]] = {
    "python_scalar": _rule_python_scalar,
    "python_range": _rule_python_range,
    "int_tuple": _rule_int_tuple,
}
