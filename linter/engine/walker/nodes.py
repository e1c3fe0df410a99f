"""What a syntax node says by itself, before any evaluation: literals, the names a target binds
or a function reads, a function's parameters, a decorator's target and the arguments
``jax.jit`` keeps static."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from promolint.engine.flow.functions import Param

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def parameters(node: FunctionNode) -> Iterator[tuple[ast.arg, ast.expr | None]]:
    """Each named parameter (not ``*args``/``**kwargs``) with its default."""
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    yield from zip(positional, defaults)
    yield from zip(arguments.kwonlyargs, arguments.kw_defaults)

def place(node: FunctionNode) -> int | tuple[int, int]:
    """What the engine's variables of a function's parameters are keyed by, unique in its module:
    a ``def``'s line, a lambda's line and column (the run-time shim names them so too)."""
    return (node.lineno, node.col_offset) if type(node) is ast.Lambda else node.lineno


def literal(node: ast.expr) -> bool | str | None:
    if type(node) is ast.Constant and type(node.value) in (bool, str):
        return node.value
    return None


def key_literal(node: ast.expr) -> object:
    """A string or integer literal (a dict key or an index the engine follows), else None."""
    if type(node) is ast.Constant and type(node.value) in (str, int):
        return node.value
    return None


def index_elements(index: ast.expr) -> list[ast.expr]:
    """``x[i, j:k]`` indexes with ``i`` and ``j:k``; ``x[(i, j)]`` means the same to Python."""
    return index.elts if type(index) is ast.Tuple else [index]


def dotted(node: ast.expr) -> str:
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return f"{dotted(node.value)}.{node.attr}"
    return ""


def free_names(node: FunctionNode, params: list[Param]) -> tuple[str, ...]:
    """The names a function's body (nested functions included) reads that may be its enclosing
    functions' variables: every name read but its parameters (a name it also binds is read
    from its own frame first; listing it too only costs a memo entry)."""
    own = {param.name for param in params}
    return tuple(sorted({n.id for n in ast.walk(node) if type(n) is ast.Name and type(n.ctx) is ast.Load} - own))


def target_names(node: ast.expr) -> list[str]:
    if type(node) is ast.Name:
        return [node.id]
    if type(node) in (ast.Tuple, ast.List):
        return [n for e in node.elts for n in target_names(e)]
    return []


def static_names(node: ast.expr, names: list[str]) -> frozenset[str]:
    """The parameters ``jax.jit(f, static_argnums=..., static_argnames=...)`` (or the same in
    ``partial(jax.jit, ...)``) keeps static, and those ``jnp.vectorize(f, excluded={...})``
    excludes: they stay Python values while tracing."""
    if type(node) is not ast.Call:
        return frozenset()
    static: set[str] = set()
    for keyword in node.keywords:
        if keyword.arg not in ("static_argnums", "static_argnames", "excluded"):
            continue
        parts = keyword.value.elts if type(keyword.value) in (ast.Tuple, ast.List, ast.Set) else [keyword.value]
        for part in parts:
            value = part.value if type(part) is ast.Constant else None
            if type(value) is int and value < len(names):
                static.add(names[value])
            elif type(value) is str:
                static.add(value)
    return frozenset(static)


def decorator_target(node: ast.expr) -> ast.expr:
    """``@partial(jax.jit, static_argnums=0)`` decorates with ``jax.jit``."""
    if type(node) is ast.Call:
        if dotted(node.func).endswith("partial") and node.args:
            return node.args[0]
        return node.func
    return node


def none_test(test: ast.expr) -> tuple[str | None, bool]:
    """The name ``test`` compares with None (``x is None``, ``x is not None``), and whether the
    test holds where it is None; (None, False) for any other test."""
    if (type(test) is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.IsNot)
            and type(test.left) is ast.Name and type(test.comparators[0]) is ast.Constant
            and test.comparators[0].value is None):  # fmt: skip
        return test.left.id, type(test.ops[0]) is ast.Is
    return None, False


def leaves(body: list[ast.stmt]) -> str | None:
    """``"raise"`` or ``"return"`` where a block always ends in one (its last statement is)."""
    last = type(body[-1]) if body else None
    return "raise" if last is ast.Raise else "return" if last is ast.Return else None
