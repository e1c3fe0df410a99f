"""PRM001's fix: a NumPy scalar made from a Python scalar (``np.sqrt(n)``, ``np.float64(c)``)
written as that Python scalar (``math.sqrt(n)``, ``float(c)``), kept only where every place it
widens then keeps its narrower dtype."""

from __future__ import annotations

from promolint.core.dtypes import is_64bit
from promolint.engine.model import Operation, OperationKind
from promolint.engine.values import Array, Library, Value, python_scalar
from promolint.rules.base import Edit, Fix, exact
from promolint.rules.implicit_x64.leaks import Leak
from promolint.rules.shared.rewrites import reevaluate

# NumPy ufuncs of one float with a Python equivalent in ``math`` (same value, a Python float).
_MATH = {name: name for name in ("sqrt", "exp", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
                                 "sinh", "cosh", "tanh")} | {
    "arcsin": "asin", "arccos": "acos", "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh",
    "arctanh": "atanh", "deg2rad": "radians", "rad2deg": "degrees", "radians": "radians", "degrees": "degrees",
}  # fmt: skip
# NumPy's 64-bit scalar types and the Python type of the same value (JAX takes the latter as weak).
_BUILTIN = {"float64": "float", "int64": "int"}


def python_scalars_fix(leak: Leak, syntax) -> Fix | None:
    """The source, a NumPy scalar made from a Python scalar, written as that Python scalar, if
    every place it widens then keeps its narrower dtype."""
    handle = leak.source.handle
    producer = syntax.operation_at(handle)
    rewrite = _as_python_scalar(producer)
    if rewrite is None:
        return None
    code, argument, imports, kind = rewrite
    replacement = python_scalar(kind)
    narrowed = set()
    for place in leak.widens:
        fixed = exact(_again(syntax, place.operation, producer, replacement))
        if fixed is None or fixed.dtype not in place.narrow.dtypes:
            return None
        narrowed.add(fixed.dtype)
    for returned, _ in leak.returns:  # a returned expression the engine can evaluate again
        operation = syntax.operation_at(returned.node)
        fixed = exact(_again(syntax, operation, producer, replacement)) if operation is not None else None
        if fixed is None or is_64bit(fixed.dtype):
            return None
        narrowed.add(fixed.dtype)
    return Fix(f"Use a Python scalar so the result stays {'|'.join(sorted(narrowed))} (changes its dtype with "
               "x64 on)", (Edit(handle, code, (argument,)),), safe=False, imports=imports)  # fmt: skip


def _again(syntax, operation: Operation, producer: Operation, replacement: Array, depth: int = 0) -> Value | None:
    """``operation``'s result were ``producer``'s value ``replacement``: its operands written
    as that value, or computed from it by operations the engine can evaluate again."""
    nodes = syntax.operand_nodes(operation)
    if len(nodes) != len(operation.operands) or depth > 8:
        return None
    replacements = {}
    for i, (node, value) in enumerate(zip(nodes, operation.operands)):
        if not isinstance(value, Array) or value.source is None or value.source.handle is not producer.node:
            continue
        if node is producer.node or value == producer.result:
            replacements[i] = replacement
            continue
        inner = syntax.operation_at(node)
        computed = _again(syntax, inner, producer, replacement, depth + 1) if inner is not None else None
        if computed is None:
            return None
        replacements[i] = computed
    return reevaluate(operation, replacements, operation.ctx) if replacements else None


def _as_python_scalar(producer: Operation | None) -> tuple[str, object, tuple[str, ...], str] | None:
    """``np.sqrt(n)`` as ``math.sqrt(n)``, ``np.float64(c)`` as ``float(c)`` (``np.float64(0.5)``
    as ``0.5``), for a Python int or float ``n`` or ``c``: the code, the argument's node, the
    imports and the kind of Python scalar it makes."""
    call = producer.call if producer is not None and producer.kind == OperationKind.CALL else None
    result = exact(producer.result) if call else None
    if result is None or result.library is not Library.NUMPY_SCALAR or not call.fn.params:
        return None
    param = call.fn.params[0]
    argument = exact(call.bound.get(param))
    if argument is None or argument.library is not Library.PYTHON or argument.dtype not in ("int64", "float64"):
        return None  # bools and complex numbers have no same-valued math counterpart
    node = producer.syntax.argument_node(producer, param)
    if node is None or not call.name.startswith("numpy."):
        return None
    if call.fn.semantics == "scalar_type" and call.short in _BUILTIN:
        kind = _BUILTIN[call.short]
        same = type(argument.literal).__name__ == kind  # a literal of that type already
        return (producer.syntax.text(node) if same else f"{kind}({{0}})"), node, (), kind
    if call.short not in _MATH or set(call.bound) != {param}:
        return None
    return f"math.{_MATH[call.short]}({{0}})", node, ("import math",), "float"
