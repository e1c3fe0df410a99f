"""What rules need to build fixes: an operation evaluated again with some operands replaced, and
the conversions fixes insert, as code and as the value the engine gives them. No syntax here:
operands are addressed by position, their code by the front end's ``{0}`` placeholders."""

from __future__ import annotations

from collections.abc import Mapping

from promolint.dtypes import BUILTIN_TYPE_DTYPES, DTYPES
from promolint.engine import calls, operations
from promolint.engine.context import Context
from promolint.engine.records import Call, Operation
from promolint.engine.values import Array, DTypeRef, Library, Value

JNP_IMPORT = "import jax.numpy as jnp"
_BUILTIN_KINDS = {"i": "int", "f": "float", "c": "complex"}


def reevaluate(operation: Operation, replacements: Mapping[int, Value], ctx: Context) -> Value | None:
    """The operation's result with operand ``i`` replaced by ``replacements[i]``, under ``ctx``;
    None for operations the engine cannot evaluate again from their operands."""
    operands = [replacements.get(i, value) for i, value in enumerate(operation.operands)]
    if operation.kind == "binop" or (operation.kind == "augassign" and _jax(operands[0])):
        return operations.binary(operation.op, operands[0], operands[1], ctx)
    if operation.kind == "compare":
        return operations.compare(operation.op, operands[0], operands[1], ctx)
    call = operation.call
    if operation.kind == "call" and call is not None and call.fn.rule in calls.RULES:
        params = call.fn.params
        if any(i >= len(params) for i in replacements):
            return None
        bound = {**call.bound, **{params[i]: value for i, value in replacements.items()}}
        return calls.apply(Call(call.name, call.fn, bound, ctx))
    return None


def promoted_operands(operation: Operation) -> tuple[int, ...]:
    """Positions of the operands that promote with each other (a call's array parameters)."""
    if operation.kind in ("binop", "augassign", "compare"):
        return (0, 1)
    call = operation.call
    if operation.kind == "call" and call is not None:
        return tuple(i for i, param in enumerate(call.fn.params[: len(operation.operands)]) if param in call.fn.arrays)
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


def jax_cast(value: Array, spelled: str, ref: DTypeRef, ctx: Context) -> tuple[str, Value]:
    """``value`` converted to the JAX dtype ``spelled``: the code (``{0}`` is the value's) and the value."""
    if value.library is Library.JAX:
        return f"{{0}}.astype({spelled})", calls.call_method(value, "astype", [ref], {}, ctx)[0]
    return f"jnp.asarray({{0}}, dtype={spelled})", calls.call_function("jax.numpy.asarray", [value], {"dtype": ref},
                                                                         ctx)[0]  # fmt: skip


def jax_asarray(value: Array, ctx: Context) -> Value:
    """What ``jnp.asarray(value)`` gives."""
    return calls.call_function("jax.numpy.asarray", [value], {}, ctx)[0]


def same_dtype(a: Value, b: Value) -> bool:
    """Both exactly known, with one dtype and one weak flag."""
    return (isinstance(a, Array) and isinstance(b, Array) and a.exact and b.exact
            and (a.dtype, a.weak) == (b.dtype, b.weak))  # fmt: skip


def _jax(value: Value) -> bool:
    return isinstance(value, Array) and value.library is Library.JAX
