"""What rules need to build fixes: an operation evaluated again with some operands replaced, and
the conversions fixes insert, as code and as the value the engine gives them. No syntax here:
operands are addressed by position, their code by the front end's ``{0}`` placeholders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from promolint.core.dtypes import BUILTIN_TYPE_DTYPES, DTYPES
from promolint.engine.context import Context
from promolint.engine.model import (CALL_SEMANTICS, Call, Operation, OperationKind, apply_call, binary, call_function,
                                    call_method, compare)
from promolint.engine.values import Array, DTypeRef, Items, Library, Value

JNP_IMPORT = "import jax.numpy as jnp"
_BUILTIN_KINDS = {"i": "int", "f": "float", "c": "complex"}


def reevaluate(operation: Operation, replacements: Mapping[int, Value], ctx: Context) -> Value | None:
    """The operation's result with operand ``i`` replaced by ``replacements[i]``, under ``ctx``;
    None for operations the engine cannot evaluate again from their operands."""
    operands = [replacements.get(i, value) for i, value in enumerate(operation.operands)]
    if operation.kind == OperationKind.BINOP or (operation.kind == OperationKind.AUGASSIGN and _jax(operands[0])):
        return binary(operation.op, operands[0], operands[1], ctx)
    if operation.kind == OperationKind.COMPARE:
        return compare(operation.op, operands[0], operands[1], ctx)
    call = operation.call
    if operation.kind == OperationKind.CALL and call is not None and call.fn.semantics in CALL_SEMANTICS:
        bound = dict(call.bound)
        for i, value in replacements.items():
            param = _parameter(call.fn.params, i)
            if param is None:
                return None
            name, rest = param
            if rest is None:
                bound[name] = value
            elif isinstance(bound.get(name), Items) and rest < len(bound[name].items):  # *operands
                items = bound[name].items
                bound[name] = replace(bound[name], items=items[:rest] + (value,) + items[rest + 1 :])
            else:
                return None
        return apply_call(Call(call.name, call.fn, bound, ctx))
    return None


def _parameter(params: tuple[str, ...], position: int) -> tuple[str, int | None] | None:
    """The parameter positional argument ``position`` binds: its name, and for a ``*name``
    parameter the argument's place among those it gathers (None for an ordinary parameter)."""
    for index, param in enumerate(params):
        if param.startswith("*"):
            return param[1:], position - index
        if index == position:
            return param, None
    return None


def promoted_operands(operation: Operation) -> tuple[int, ...]:
    """Positions of the operands that promote with each other (a call's array parameters)."""
    if operation.kind in (OperationKind.BINOP, OperationKind.AUGASSIGN, OperationKind.COMPARE):
        return (0, 1)
    call = operation.call
    if operation.kind == OperationKind.CALL and call is not None:
        return tuple(i for i in range(len(operation.operands))
                     if (param := _parameter(call.fn.params, i)) is not None and param[0] in call.fn.arrays)  # fmt: skip
    return ()


def jax_dtype(dtype: str, weak: bool, ctx: Context) -> tuple[str, DTypeRef]:
    """How a fix spells ``dtype``, and what the engine reads there.  A weak result has the default
    dtype of its kind, which follows x64: spelled as the Python type (``float``), the cast follows
    x64 too (and ``float64`` is not written where x64 may be off)."""
    kind = DTYPES[dtype].kind
    builtin = _BUILTIN_KINDS.get(kind)
    if weak and builtin and dtype == ctx.jax.default_dtype(kind):
        return builtin, DTypeRef(BUILTIN_TYPE_DTYPES[builtin], builtin=True)
    return f"jnp.{dtype}", DTypeRef(dtype, module="jax.numpy")


def following_x64(dtype: str, ctx: Context) -> tuple[str, DTypeRef] | None:
    """``dtype`` spelled as the Python type (``int``) when it is the default dtype of its kind
    here: a cast written so follows x64, as the promotion it replaces may."""
    builtin = _BUILTIN_KINDS.get(DTYPES[dtype].kind)
    if builtin is None or dtype != ctx.jax.default_dtype(DTYPES[dtype].kind):
        return None
    return builtin, DTypeRef(BUILTIN_TYPE_DTYPES[builtin], builtin=True)


def jax_cast(value: Array, spelled: str, ref: DTypeRef, ctx: Context) -> tuple[str, Value]:
    """``value`` converted to the JAX dtype ``spelled``: the code (``{0}`` is the value's) and the value."""
    if value.library is Library.JAX:
        return f"{{0}}.astype({spelled})", call_method(value, "astype", [ref], {}, ctx)[0]
    return f"jnp.asarray({{0}}, dtype={spelled})", call_function("jax.numpy.asarray", [value], {"dtype": ref},
                                                                         ctx)[0]  # fmt: skip


def jax_asarray(value: Array, ctx: Context) -> Value:
    """What ``jnp.asarray(value)`` gives."""
    return call_function("jax.numpy.asarray", [value], {}, ctx)[0]


def same_dtype(a: Value, b: Value) -> bool:
    """Both exactly known, with one dtype and one weak flag."""
    return (isinstance(a, Array) and isinstance(b, Array) and a.exact and b.exact
            and (a.dtype, a.weak) == (b.dtype, b.weak))  # fmt: skip


def _jax(value: Value) -> bool:
    return isinstance(value, Array) and value.library is Library.JAX
