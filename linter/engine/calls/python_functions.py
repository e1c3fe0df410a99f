"""Rules of Python's own functions (``len``, ``math.floor``...): a Python scalar of a fixed kind
whatever the argument; ``range`` gives Python ints, ``tuple`` and ``list`` the items they are
given, ``zip`` and ``enumerate`` tuples of the elements of what they iterate, ``min`` and ``max``
one of what they compare, ``round`` an int or the number's own type, ``isinstance`` whether a
number is of a type where its library says."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from promolint.core.dtypes import DTYPES
from promolint.engine.records import Call
from promolint.engine.symbolic import lifted
from promolint.engine.values import (
    PYTHON_TYPE_NAMES,
    UNKNOWN,
    Array,
    Class,
    DTypeRef,
    Elements,
    Items,
    Library,
    Reference,
    Refusal,
    Value,
    join,
    numpy_library,
    python_scalar,
)


@lifted("element_of")
def element_of(value: Value) -> Value:
    """One element of an iterated value: iterating an array yields its rows (a NumPy vector
    yields scalars)."""
    if isinstance(value, Items):
        return join(value.items)
    if isinstance(value, Elements):
        return value.element
    if isinstance(value, Array) and value.library is not Library.PYTHON:
        ndim = value.rank - 1 if value.rank else None
        library = numpy_library(ndim) if value.library.is_numpy else value.library
        return replace(value, literal=None, ndim=ndim, library=library)
    return UNKNOWN


def _python_scalar(call: Call) -> Value:
    return python_scalar(call.fn.result)


def _python_range(call: Call) -> Value:
    """Python ints; a float or complex bound raises TypeError, as each library words it."""
    given = call.bound.get("args")
    for bound in given.items if isinstance(given, Items) else ():
        if isinstance(bound, Array) and bound.dtypes and all(DTYPES[d].kind in "fc" for d in bound.dtypes):
            dtype = PYTHON_TYPE_NAMES.get(bound.dtype, "float") if bound.library is Library.PYTHON else bound.dtype
            return Refusal("TypeError", _NOT_AN_INDEX[bound.library].format(dtype=dtype))
    return Elements(python_scalar("int"))


# What range() says of a float bound (jax 0.10.2, NumPy 2.4).
_NOT_AN_INDEX = {
    Library.PYTHON: "'{dtype}' object cannot be interpreted as an integer",
    Library.NUMPY_SCALAR: "'numpy.{dtype}' object cannot be interpreted as an integer",
    Library.NUMPY_ARRAY: "only integer scalar arrays can be converted to a scalar index",
    Library.JAX: "Only integer scalar arrays can be converted to a scalar index.",
}


def _python_sequence(call: Call) -> Value:
    """``tuple(s)``, ``list(s)``: the items of ``s`` where they are known, in a tuple or a list."""
    iterable = call.bound.get("iterable")
    if isinstance(iterable, Elements):
        return iterable
    if isinstance(iterable, Items):
        return Items(iterable.items, call.short == "tuple")
    return UNKNOWN


def _python_zip(call: Call) -> Value:
    """``zip(*iterables)``: tuples of an element of each (``for p, g in zip(params, grads)``);
    ``enumerate(iterable)``: of a Python int and an element."""
    if call.short == "enumerate":
        iterables = [Elements(python_scalar("int")), call.bound.get("iterable", UNKNOWN)]
    else:
        given = call.bound.get("iterables")
        iterables = list(given.items) if isinstance(given, Items) else []
    if not iterables:
        return UNKNOWN
    return Elements(Items(tuple(element_of(iterable) for iterable in iterables), is_tuple=True))


def _one_of(call: Call) -> Value:
    """``min(a, b, ...)``, ``max(...)``: one of the arguments, unchanged, whichever it is (``key=``
    only chooses); of one iterable, one of its elements or the ``default=``."""
    given = call.bound.get("args")
    arguments = list(given.items) if isinstance(given, Items) else []
    if len(arguments) > 1:
        return join(arguments)
    if len(arguments) == 1:
        chosen = [element_of(arguments[0])]
        if "default" in call.bound:
            chosen.append(call.bound["default"])
        return join(chosen)
    return UNKNOWN


# Types no number is an instance of (``isinstance(v, slice)`` before indexing with ``v``).
_NOT_NUMBERS = frozenset(
    [f"builtins.{name}" for name in ("str", "bytes", "dict", "list", "tuple", "set", "frozenset", "slice", "range", "type")]
    + [f"{module}.{name}" for module in ("collections.abc", "typing")
       for name in ("Sequence", "MutableSequence", "Mapping", "MutableMapping", "Set", "MutableSet")])  # fmt: skip
# The array types, and the libraries whose values are instances of them (a tracer is a jax.Array).
# Not the annotations' sets: a Tracer or a Union alias (chex.Array) is no class a library settles.
_ARRAY_TYPES = {"numpy.ndarray": Library.NUMPY_ARRAY, "jax.Array": Library.JAX, "jax.numpy.ndarray": Library.JAX}
# The kinds of Python's scalar types' instances (a bool is an int), by the type's name.
_PYTHON_KINDS = {"bool": "b", "int": "bi", "float": "f", "complex": "c"}


def _isinstance(call: Call) -> Value:
    """``isinstance(x, T)`` of a number: a known Python bool where the number's library settles
    it (an array is no ``slice`` nor one of the program's classes; a NumPy array is an
    ``np.ndarray``, a JAX array a ``jax.Array``, and neither a ``float``), else a bool."""
    value, types = call.bound.get("obj"), call.bound.get("class_or_tuple")
    if not isinstance(value, Array) or types is None:
        return python_scalar("bool")
    verdicts = {_is_instance(value, t) for t in (types.items if isinstance(types, Items) else (types,))}
    if True in verdicts:
        return python_scalar("bool", True)
    return python_scalar("bool", False) if verdicts == {False} else python_scalar("bool")


def _is_instance(value: Array, kind: Value) -> bool | None:
    if isinstance(kind, Class):
        return False  # one of the program's classes: no number
    if isinstance(kind, Reference):
        if kind.qualname in _NOT_NUMBERS:
            return False
        library = _ARRAY_TYPES.get(kind.qualname)
        return None if library is None else value.library is library
    if isinstance(kind, DTypeRef):
        if value.library is Library.NUMPY_SCALAR:
            return None  # np.float64 is a float, and np.float32 no np.float64 only by its dtype
        if value.library is not Library.PYTHON or not kind.builtin:
            return False  # an array is no scalar type, a Python number no NumPy scalar type
        kinds = _PYTHON_KINDS.get(PYTHON_TYPE_NAMES.get(kind.name, ""))
        found = {DTYPES[d].kind in kinds for d in value.dtypes} if kinds else set()
        return found.pop() if len(found) == 1 else None
    return None


def _python_round(call: Call) -> Value:
    """``round(x)``: a Python int of a Python or NumPy number, a strong default-int JAX array of a
    JAX one (jax's ``__round__``); ``round(x, n)`` keeps the number's type and dtype.  A NumPy
    array has no ``__round__``; a JAX bool is no inexact type.  Measured on jax 0.10.2 and
    NumPy 2.4 (tests/oracle/corpus/math_builtins.py)."""
    number, digits = call.bound.get("number"), call.bound.get("ndigits")
    if not isinstance(number, Array) or not number.dtypes:
        return UNKNOWN
    if number.library is Library.NUMPY_ARRAY:
        return Refusal("TypeError", "type numpy.ndarray doesn't define __round__ method")
    if number.library is Library.JAX:
        if "bool" in number.dtypes:
            return Refusal("ValueError", "data type <class 'numpy.bool'> not inexact") if number.dtype else UNKNOWN
        if digits is None:
            return Array(frozenset([call.ctx.jax.default_dtype("i")]), Library.JAX, False, ndim=number.ndim)
        return replace(number, literal=None)
    kinds = {DTYPES[d].kind for d in number.dtypes}
    if digits is None:
        return python_scalar("int")
    if number.library is Library.PYTHON:
        return python_scalar("int") if kinds <= {"b", "i"} else python_scalar("float") if kinds == {"f"} else UNKNOWN
    return replace(number, literal=None) if "b" not in kinds else UNKNOWN  # np.bool_ has no __round__


def _int_tuple(call: Call) -> Value:
    """``np.shape(a)``: a tuple of Python ints, as ``a.shape`` is."""
    return Elements(python_scalar("int"))


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "python_scalar": _python_scalar,
    "python_range": _python_range,
    "python_sequence": _python_sequence,
    "python_zip": _python_zip,
    "one_of": _one_of,
    "isinstance": _isinstance,
    "int_tuple": _int_tuple,
    "python_round": _python_round,
}
