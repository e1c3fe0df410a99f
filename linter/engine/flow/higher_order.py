"""JAX functions that take the program's own functions: transformations that keep what the
function computes, and control flow that calls it."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from promolint.engine.context import Context
from promolint.engine.flow.functions import Functions
from promolint.engine.symbolic import join
from promolint.engine.values import UNKNOWN, Function, Value

# JAX's transformations that trace the function: its arguments arrive as JAX arrays.
TRACING = frozenset({"jax.jit", "jax.vmap", "jax.pmap", "jax.checkpoint", "jax.remat"})
# Decorators that trace the function without changing what its body computes.
TRANSPARENT = TRACING | {"jax.named_call", "functools.wraps", "functools.cache", "functools.lru_cache", "staticmethod"}


def keeps_body(decorators: Sequence[str | None]) -> bool:
    """Whether a function with these decorators (qualified names) computes what its body does."""
    return all(name in TRANSPARENT for name in decorators)


def call(functions: Functions, name: str, args: Sequence[Value], ctx: Context,
         static: Callable[[list[str]], frozenset[str]]) -> Value | None:  # fmt: skip
    """The value of ``name(*args)`` when ``name`` takes the program's functions, else None:
    ``jax.jit(f)`` is f, traced (``static`` names the parameters the call keeps static, given
    f's parameter names); ``lax.cond`` calls both branches; the loops call their body with the
    carry, whose type JAX requires the body to keep."""
    local = [a for a in args if isinstance(a, Function)]
    first = args[0] if args else None
    if name in TRACING and isinstance(first, Function):
        return Function(first.key, True, first.static | static(functions.parameter_names(first.key)))
    if name in TRANSPARENT and isinstance(first, Function):
        return first
    if name == "jax.lax.cond" and len(args) >= 3 and len(local) >= 2:
        return join([functions.call(f, list(args[3:]), {}, ctx) for f in args[1:3] if isinstance(f, Function)])
    if name == "jax.lax.fori_loop" and len(args) == 4 and isinstance(args[2], Function):
        functions.call(args[2], [UNKNOWN, args[3]], {}, ctx)
        return args[3]
    if name == "jax.lax.while_loop" and len(args) == 3 and len(local) == 2:
        for function in local:
            functions.call(function, [args[2]], {}, ctx)
        return args[2]
    return None
