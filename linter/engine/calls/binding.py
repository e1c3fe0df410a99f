"""A call's arguments by parameter name, and the name messages give the function called."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from promolint.engine.catalog import Fn
from promolint.engine.values import Items, Value


def bind(fn: Fn, args: Sequence[Value], kwargs: Mapping[str, Value]) -> dict[str, Value]:
    """Arguments by parameter name; a last parameter ``*name`` collects the rest as Items."""
    params = fn.params
    if params and params[-1].startswith("*"):
        bound = dict(zip(params[:-1], args))
        bound[params[-1][1:]] = Items(tuple(args[len(params) - 1 :]), is_tuple=True)
    else:
        bound = dict(zip(params, args))
    bound.update(kwargs)
    return bound


def display_name(qualname: str) -> str:
    """``jnp.zeros`` for ``jax.numpy.zeros``: the spelling messages use."""
    for module, alias in (("jax.numpy.", "jnp."), ("numpy.", "np.")):
        if qualname.startswith(module):
            return alias + qualname[len(module) :]
    return qualname
