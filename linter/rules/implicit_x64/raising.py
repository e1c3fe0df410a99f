"""Where a leak's 64 bits make JAX raise rather than widen silently (a `jax.lax` operation, a loop
or conditional given a body returning them): what PRM001's message names first."""

from __future__ import annotations

import re

from promolint.core.dtypes import is_64bit
from promolint.engine.model import Module, Operation, OperationKind
from promolint.engine.values import Refusal
from promolint.rules.implicit_x64.leaks import Leak, leaves, source_handle
from promolint.systems.base import Reason


def raising_operation(leak: Leak, module: Module, syntax) -> Operation | None:
    """The first place where the leak's 64 bits make JAX raise rather than widen silently: a
    `jax.lax` operation given them (`lax.add` requires equal dtypes), or a loop or conditional
    that raises and is given a body returning them (the carry, the branches must keep one
    dtype): a function by name, or a lambda written in the call."""
    handle = leak.source.handle
    bodies = {syntax.function_of(r.node) for r in module.returns
              if any(source_handle(v) is handle for v in leaves(r.value))} - {None}  # fmt: skip
    names = {_function_name(syntax.text(body)) for body in bodies} - {""}
    # A lambda (which has no return statement) whose body ends with what the leak widens returns it.
    lambdas = [text for place in leak.widens if (body := syntax.function_of(place.operation.node)) is not None
               and (text := syntax.text(body)).startswith("lambda")
               and text.endswith(syntax.text(place.operation.node))]  # fmt: skip
    for operation in module.operations:
        if not isinstance(operation.result, Refusal) or operation.result.reason == Reason.STRICT.value:
            continue
        if operation.kind == OperationKind.CALL and operation.op.startswith("jax.lax.") and any(
                source_handle(v) is handle and v.exact and is_64bit(v.dtype) for v in operation.operands):  # fmt: skip
            return operation
        if operation.kind == OperationKind.CONTROL and _runs(syntax.text(operation.node), names, lambdas):
            return operation
    return None


def _runs(call: str, names: set[str], lambdas: list[str]) -> bool:
    """Whether a loop's or conditional's call (its code) is given one of the functions: by name,
    or written there as a lambda."""
    by_name = bool(names) and re.search(rf"\b(?:{'|'.join(map(re.escape, sorted(names)))})\b", call) is not None
    return by_name or any(text in call for text in lambdas)


def _function_name(text: str) -> str:
    match = re.match(r"\s*(?:@.*\n\s*)*(?:async\s+)?def\s+(\w+)", text)
    return match.group(1) if match else ""
