"""Rules of functions that answer a dtype or its limits rather than an array: ``finfo``,
``iinfo``, ``dtype``, and ``result_type`` and ``promote_types``, which ask the promotion systems."""

from __future__ import annotations

from collections.abc import Callable

from promolint.core.dtypes import DTYPES, NUMPY_NATIVE, WEAK_NODES, narrow_x32
from promolint.engine.calls.conversions import as_dtype
from promolint.engine.context import Context
from promolint.engine.records import Call
from promolint.engine.values import UNKNOWN, Array, DTypeRef, FInfo, Items, Library, Refusal, Value, is_none
from promolint.systems.base import Operand, Origin, Refused


def _finfo(call: Call) -> Value:
    """``finfo(dtype)``; ``jnp.finfo(jnp.float64)`` is float64's even with x64 off (measured)."""
    arg = call.bound.get("dtype")
    ref = as_dtype(arg)
    name = ref.name if ref else (arg.dtype if isinstance(arg, Array) and arg.dtype else None)
    if name is None:
        return UNKNOWN
    return FInfo(name)


def _iinfo(call: Call) -> Value:
    finfo = _finfo(Call(call.name, call.fn, {"dtype": call.bound.get("int_type")}, call.ctx))
    return FInfo(finfo.dtype, integer=True) if isinstance(finfo, FInfo) else UNKNOWN


def _dtype_of(call: Call) -> Value:
    arg = call.bound.get("dtype")
    ref = as_dtype(arg)
    if ref:
        return DTypeRef(ref.name)
    if isinstance(arg, Array) and arg.dtype:
        return DTypeRef(arg.dtype)
    return UNKNOWN


def _canonical_dtype(call: Call) -> Value:
    """``jax.dtypes.canonicalize_dtype(dtype)``: the dtype JAX computes with in the mode in force
    (``float`` is float32 with x64 off, float64 with it on; ``jnp.float64`` float32 with it off);
    not modelled where explicit 64-bit dtypes are allowed with x64 off."""
    arg = call.bound.get("dtype")
    if is_none(arg):
        return DTypeRef(call.ctx.jax.default_dtype("f"))
    ref = as_dtype(arg)
    if ref is None:
        return UNKNOWN
    if call.ctx.x64:
        return DTypeRef(ref.name)
    if call.ctx.explicit_x64 == "allow":
        return UNKNOWN
    return DTypeRef(narrow_x32(ref.name))


def _result_type(call: Call) -> Value:
    """``np.result_type`` / ``jnp.result_type``: a dtype.  Dtypes and arrays are strong, Python
    values weak; a Python *type* is its default dtype in NumPy, a weak node in JAX, where a weak
    result becomes its kind's default and ``None`` stands for the default float."""
    arguments = call.bound.get("arrays_and_dtypes")
    values = list(arguments.items) if isinstance(arguments, Items) else []
    if not values:
        return UNKNOWN
    jax = call.fn.library is Library.JAX
    operands = []
    for value in values:
        operand = _type_operand(value, jax, call.ctx)
        if operand is None:
            return UNKNOWN
        operands.append(operand)
    if jax:
        result = call.ctx.jax.result_type(*operands)
        if isinstance(result, Refused):
            return Refusal("TypePromotionError", result.message, result.reason.value)
    elif any(op.dtype not in NUMPY_NATIVE for op in operands):
        return _numpy_extension_types(operands, call.ctx)
    else:
        result = call.ctx.numpy.result_type(*operands)
        if isinstance(result, Refused):
            return Refusal("TypeError", result.message, result.reason.value)
    return DTypeRef(result.dtype)


def _numpy_extension_types(operands: list[Operand], ctx: Context) -> Value:
    """``np.result_type`` with an ml_dtypes type follows ml_dtypes' table: two dtypes as
    ``NumpySystem.promote_types`` says (``(int, bfloat16)`` raises DTypePromotionError), a dtype
    and a Python value as measured, whatever the value (``(bfloat16, 1.0)`` is float64,
    ``(bfloat16, 1)`` bfloat16, ``(int4, 1)`` int8); more operands are not modelled."""
    if len(operands) > 2:
        return UNKNOWN
    python = [op for op in operands if op.weak]
    if python:
        dtypes = [op.dtype for op in operands if not op.weak]
        dtype = ctx.numpy.ml_result_type_with_python(dtypes[0], python[0].dtype) if len(dtypes) == 1 else None
        return DTypeRef(dtype) if dtype else UNKNOWN
    dtype = ctx.numpy.promote_types(operands[0].dtype, operands[-1].dtype)
    if isinstance(dtype, Refused):
        return Refusal("DTypePromotionError", dtype.message, dtype.reason.value)
    return DTypeRef(dtype) if dtype else UNKNOWN


def _type_operand(value: Value, jax: bool, ctx: Context) -> Operand | None:
    if is_none(value):
        return Operand(ctx.jax.default_dtype("f") if jax else "float64", origin=Origin.DTYPE)
    ref = as_dtype(value) if not isinstance(value, Array) else None
    if ref is not None:
        if ref.builtin and jax and ref.name != "bool":
            return Operand(ref.name, weak=True, origin=Origin.DTYPE)  # int/float/complex: JAX's weak nodes
        return Operand(ref.name, origin=Origin.DTYPE)
    if isinstance(value, Array) and value.dtype is not None and value.weak is not None:
        if value.library is Library.PYTHON:
            return Operand(value.dtype, value.weak, Origin.VALUE)
        if value.library is Library.JAX:
            return Operand(value.dtype, value.weak, Origin.ARRAY)
        return Operand(value.dtype, False, Origin.VALUE)
    return None


def _promote_types(call: Call) -> Value:
    """``promote_types(a, b)`` of two dtypes.  JAX's neither narrows nor canonicalizes: Python
    types are its weak nodes and a weak result comes out 64-bit (``promote_types(int, float)`` is
    float64 with x64 off)."""
    refs = [as_dtype(call.bound.get(p)) for p in ("type1", "type2")]
    if not all(refs):
        return UNKNOWN
    if call.fn.library is Library.JAX:
        nodes = [WEAK_NODES[DTYPES[r.name].kind] if r.builtin and r.name != "bool" else r.name for r in refs]
        joined = call.ctx.jax.promote_types(*nodes)
        if isinstance(joined, Refused):
            return Refusal("TypePromotionError", joined.message, joined.reason.value)
        return DTypeRef(joined)
    dtype = call.ctx.numpy.promote_types(refs[0].name, refs[1].name)
    if isinstance(dtype, Refused):
        return Refusal("DTypePromotionError", dtype.message, dtype.reason.value)
    return DTypeRef(dtype) if dtype else UNKNOWN


SEMANTICS: dict[str, Callable[[Call], Value]] = {
    "finfo": _finfo,
    "iinfo": _iinfo,
    "dtype_of": _dtype_of,
    "canonical_dtype": _canonical_dtype,
    "result_type": _result_type,
    "promote_types": _promote_types,
}
