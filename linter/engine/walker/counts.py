"""What a function's body counts with: ``jnp.arange(n)``, ``jnp.arange(self.size)``.

``arange`` runs for a float bound as well, but code that ranges up to a parameter means a count
(a size, a number of steps): such a parameter, or a field of one, is read as an integer, as a
Python int default already says of a parameter (``n=10``).  It counts where it is ``arange``'s
only bound, or its stop after an int start (``arange(1, n + 1)``), or integer arithmetic of it
there (``n - 1``, ``n // 2``), directly or through a local name assigned once, in the function's
body or one it defines.  What the body assigns itself is not counted: its value there may be
another.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from promolint.engine.walker.nodes import FunctionNode

_INTEGER_OPERATORS = (ast.Add, ast.Sub, ast.Mult, ast.FloorDiv, ast.Mod)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def counted(node: FunctionNode, parameters: Sequence[str]) -> frozenset[str]:
    """The parameters among ``parameters``, and their fields (``self.size``), that ``node``'s
    body counts with, or a function it defines that does not bind their names again (a loop's
    body counting with its parent's ``n``)."""
    return frozenset(_counts(node, frozenset(parameters)))


def _counts(node: FunctionNode, names: frozenset[str]) -> set[str]:
    body = node.body if isinstance(node.body, list) else [node.body]
    assigned: dict[str, ast.expr | None] = {}  # a name's one value in the body; None: assigned otherwise
    aranges: list[ast.Call] = []
    nested: list[ast.AST] = []
    for child in _own_nodes(body, nested):
        if isinstance(child, ast.Assign) and len(child.targets) == 1 and isinstance(child.targets[0], ast.Name):
            name = child.targets[0].id
            assigned[name] = None if name in assigned else child.value
        elif isinstance(child, (ast.Name, ast.Attribute)) and isinstance(child.ctx, (ast.Store, ast.Del)):
            dotted = _dotted(child)
            if dotted is not None and not (isinstance(child, ast.Name) and dotted in assigned):
                assigned[dotted] = None
        elif isinstance(child, ast.Call) and _is_arange(child.func):
            aranges.append(child)
    given = {name for name in names if name not in assigned}
    found: set[str] = set()
    for call in aranges:
        stop = _stop(call)
        counts = _integer_arithmetic(stop, assigned, given, frozenset()) if stop is not None else None
        found |= counts or set()
    for inner in nested:
        if not isinstance(inner, ast.ClassDef):  # a class body's names are its own
            arguments = inner.args
            bound = {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                                     arguments.vararg, arguments.kwarg) if a is not None}  # fmt: skip
            found |= _counts(inner, frozenset(name for name in given if name.partition(".")[0] not in bound))
    return {name for name in found if name not in assigned}


def _own_nodes(body: list[ast.stmt], nested: list[ast.AST]) -> Iterator[ast.AST]:
    """The nodes of a body, not those of the functions and classes it defines (``nested``
    gathers those)."""
    stack: list[ast.AST] = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            nested.append(node)
            continue
        yield node
        stack.extend(ast.iter_child_nodes(node))


def _is_arange(func: ast.expr) -> bool:
    return isinstance(func, ast.Attribute) and func.attr == "arange" or isinstance(func, ast.Name) and \
        func.id == "arange"


def _stop(call: ast.Call) -> ast.expr | None:
    """The bound ``arange`` counts up to: its only one, or the stop after an int start; None where
    a step, a dtype or a float start may make it a float range."""
    if call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if len(call.args) == 1:
        return call.args[0]
    if len(call.args) == 2 and _int_literal(call.args[0]):
        return call.args[1]
    return None


def _int_literal(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of a chain of attributes of a name; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return None if base is None else f"{base}.{node.attr}"
    return None


def _integer_arithmetic(node: ast.expr, assigned: dict[str, ast.expr | None], given: set[str],
                        seen: frozenset[str]) -> set[str] | None:  # fmt: skip
    """The parameters and fields of parameters that ``node`` is integer arithmetic of; None where
    it is anything else (a float literal, a call, a subscript)."""
    if _int_literal(node):
        return set()
    if isinstance(node, ast.BinOp) and isinstance(node.op, _INTEGER_OPERATORS):
        left = _integer_arithmetic(node.left, assigned, given, seen)
        right = _integer_arithmetic(node.right, assigned, given, seen)
        return None if left is None or right is None else left | right
    dotted = _dotted(node)
    if dotted is None:
        return None
    if dotted.partition(".")[0] in given:
        return {dotted}
    value = assigned.get(dotted)
    if isinstance(node, ast.Name) and value is not None and dotted not in seen:
        return _integer_arithmetic(value, assigned, given, seen | {dotted})
    return None
