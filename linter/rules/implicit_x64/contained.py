"""Leaks PRM001 lets be, where the 64 bits are the code's own choice and reach no JAX value or
caller: host-side NumPy work stored into NumPy arrays, and a function that casts back what it
widened before it returns."""

from __future__ import annotations

from promolint.core.dtypes import is_64bit
from promolint.engine.model import Module, OperationKind, Symbolic, uniform_instances
from promolint.engine.values import Array, Items, Library, Refusal, Value
from promolint.rules.implicit_x64.leaks import UNIFORM, Leak, library_of, source_handle


def stays_on_host(leak: Leak, module: Module) -> bool:
    """The leak widens NumPy data only, and its 64-bit values end written into NumPy arrays (which
    keep their own dtype) without ever reaching a JAX value or a function's result: a host-side
    computation, such as a table filled slice by slice (evosax's positional encoding)."""
    if leak.returns or any(library_of(place.operation.result) is Library.JAX for place in leak.widens):
        return False
    handle, stored = leak.source.handle, False
    for operation in module.operations:
        values = (*operation.operands, operation.result)
        if any(library_of(v) is Library.JAX and source_handle(v) is handle for v in values):
            return False
        if operation.kind == OperationKind.STORE and len(operation.operands) == 2:
            target, value = operation.operands
            stored = stored or (source_handle(value) is handle and library_of(target) is Library.NUMPY_ARRAY)
    return stored


def cast_back(leak: Leak, module: Module, syntax) -> bool:
    """The data the leak widens never leaves the one function it is widened in: that function
    returns, and every value it returns is narrower whenever its inputs are (interpax's FFT shift
    runs in complex128 and returns ``out.astype(f.dtype)``), and nothing it stores holds the 64
    bits.  Its callers see no 64-bit value; the double precision inside is the code's choice."""
    if leak.returns or not leak.widens:
        return False
    functions = {syntax.function_of(place.operation.node) for place in leak.widens}
    function = functions.pop() if len(functions) == 1 else None
    if function is None:
        return False
    returned = [r.value for r in module.returns if syntax.function_of(r.node) is function]
    stores = [op for op in module.operations
              if op.kind == OperationKind.STORE and syntax.function_of(op.node) is function]
    return bool(returned) and all(_narrow_whenever_inputs_are(v) for v in returned) and \
        not any(source_handle(v) is leak.source.handle for op in stores for v in op.operands)  # fmt: skip


def _narrow_whenever_inputs_are(value: Value) -> bool:
    """``value`` holds no 64-bit data when its array inputs all hold float32 (bfloat16, float16)
    JAX arrays, the question PRM001 asks of a function; unknown values may."""
    if isinstance(value, Items):
        return all(_narrow_whenever_inputs_are(item) for item in value.items)
    if isinstance(value, Array):
        return value.library is Library.PYTHON or (value.exact and not is_64bit(value.dtype))
    if type(value) is not Symbolic:
        return False
    # Members where the code raises say nothing (a PRNG key given float32 data); one must not.
    outcomes = [outcome for _, outcome in uniform_instances((), value, UNIFORM) if not isinstance(outcome, Refusal)]
    return bool(outcomes) and all(type(o) is not Symbolic and _narrow_whenever_inputs_are(o) for o in outcomes)
