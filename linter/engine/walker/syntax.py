"""The ``ast`` answers to ``promolint.engine.records.Syntax``: which syntax stands for an
operation's operands and arguments, so that rules can build fixes without knowing the tree."""

from __future__ import annotations

import ast
import weakref
from collections.abc import Iterable, Mapping

from promolint.engine.records import LoopCall, Operation, Site
from promolint.engine.values import AT_INDEXED, Value
from promolint.engine.walker import nodes
from promolint.engine.walker.source import Source


class AstSyntax:
    def __init__(self, source: Source, operations: dict[int, Operation], calls: dict[int, Operation] | None = None,
                 sites: Mapping[int, Site] | None = None):  # fmt: skip
        self._source = source
        self._sites = sites or {}
        # Weakly: the operations hold this syntax, and a reference back would make a cycle.
        self._operations = weakref.WeakValueDictionary(operations)
        self._calls = weakref.WeakValueDictionary(calls or {})
        self._functions: dict[int, ast.AST] | None = None
        self._parents: dict[int, ast.AST] | None = None
        self._nested: set[object] | None = None
        self._assignments: dict[int, dict[str, list[ast.AST]]] = {}

    def operand_nodes(self, operation: Operation) -> tuple[ast.AST, ...]:
        node = operation.node
        kind = type(node)
        if kind is ast.BinOp:
            return node.left, node.right
        if kind is ast.AugAssign:
            return node.target, node.value
        if kind is ast.Compare:
            # A chained comparison records one operation for several pairs: which one is unknown.
            return (node.left, node.comparators[0]) if len(node.comparators) == 1 else ()
        if kind is ast.UnaryOp:
            return (node.operand,)
        if kind is ast.Call:
            if operation.call is None and operation.op.startswith(AT_INDEXED):
                return ()  # x.at[i].set(v): the receiver's syntax is `x.at[i]`, no operand to rewrite
            positional = []
            for arg in node.args:
                if type(arg) is ast.Starred:
                    break  # the engine stops binding positions at the first *args
                positional.append(arg)
            if len(operation.operands) == len(positional) + 1 and type(node.func) is ast.Attribute:
                return (node.func.value, *positional)  # a method: the receiver comes first
            return tuple(positional) if len(operation.operands) == len(positional) else ()
        return ()

    def argument_node(self, operation: Operation, param: str) -> ast.AST | None:
        node, call = operation.node, operation.call
        if type(node) is not ast.Call or call is None:
            return None
        keyword = next((k.value for k in node.keywords if k.arg == param), None)
        if keyword is not None:
            return keyword
        if call.fn.semantics == "scalar_type" and param == "dtype":
            return node.func
        nodes = self.operand_nodes(operation)
        index = call.fn.params.index(param) if param in call.fn.params else len(nodes)
        return nodes[index] if index < len(nodes) else None

    def operation_at(self, node: object) -> Operation | None:
        return self._operations.get(id(node))

    def call_at(self, node: object) -> Operation | None:
        return self._calls.get(id(node))

    def value_at(self, node: object) -> Value | None:
        site = self._sites.get(id(node))
        return site.value if site is not None and not site.target else None

    def text(self, node: ast.AST) -> str:
        return self._source.code(node)

    def line(self, node: ast.AST) -> int:
        return self._source.span(node).line

    def function_of(self, node: object) -> ast.AST | None:
        if self._functions is None:
            self._functions = _enclosing_functions(self._source.tree)
        return self._functions.get(id(node))

    def functions_given(self, operation: Operation) -> tuple[ast.AST, ...]:
        node = operation.node
        if type(node) is not ast.Call:
            return ()
        arguments = [*node.args, *(k.value for k in node.keywords)]
        return tuple(f for argument in arguments for f in self._function_at(argument))

    def _parent_map(self) -> dict[int, ast.AST]:
        if self._parents is None:
            self._parents = {id(child): parent for parent in ast.walk(self._source.tree)
                             for child in ast.iter_child_nodes(parent)}  # fmt: skip
        return self._parents

    def public(self, node: object) -> bool:
        parents = self._parent_map()
        in_function = False
        parent = parents.get(id(node))
        while parent is not None:
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _private(parent.name):
                return False
            in_function = in_function or isinstance(parent, _FUNCTIONS)
            parent = parents.get(id(parent))
        return in_function

    def nested(self, place: object) -> bool:
        if self._nested is None:
            self._nested = {nodes.place(f) for f in ast.walk(self._source.tree)
                            if isinstance(f, _FUNCTIONS) and self.function_of(f) is not None}  # fmt: skip
        return place in self._nested

    def assigns(self, node: object, target: str) -> bool:
        function = self.function_of(node)
        return function is not None and target in self._assigned(function)

    def guards(self, node: object) -> tuple[tuple[ast.AST, bool | None], ...]:
        self._parent_map()
        found = []
        child, parent = node, self._parents.get(id(node))
        while parent is not None:
            for statements in _BLOCKS.get(type(parent), ()):  # the statements before, in its block
                block = getattr(parent, statements)
                if any(child is s for s in block):
                    found.extend(_passed(s) for s in block[:next(i for i, s in enumerate(block) if s is child)]
                                 if _passed(s) is not None)  # fmt: skip
            if isinstance(parent, _FUNCTIONS):
                break
            kind = type(parent)
            if kind in (ast.If, ast.While, ast.IfExp):
                body = parent.body if kind is not ast.IfExp else [parent.body]
                orelse = parent.orelse if kind is ast.If else [parent.orelse] if kind is ast.IfExp else []
                if any(child is n for n in body):
                    found.append((parent.test, True))
                elif any(child is n for n in orelse):
                    found.append((parent.test, False))
            elif kind in (ast.For, ast.AsyncFor) and any(child is n for n in parent.body):
                found.append((parent.iter, None))
            child, parent = parent, self._parents.get(id(parent))
        return tuple(found)

    def reads_fields_of(self, node: object, parameter: str) -> bool:
        function = self.function_of(node)
        if function is None:
            return False
        arguments = function.args
        if parameter not in {a.arg for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}:
            return False
        assigned = self._assigned(function)
        pending, seen = [node], set()
        while pending:
            inner = pending.pop()
            kind = type(inner)
            if kind is ast.Attribute:
                if inner.attr in _NO_DATA:
                    continue  # `state.x.shape`: no data of the field
                if type(inner.value) is ast.Name and inner.value.id == parameter:
                    return True
            elif kind is ast.Name and inner.id in assigned and inner.id not in seen:
                seen.add(inner.id)
                pending.extend(assigned[inner.id])
            pending.extend(ast.iter_child_nodes(inner))
        return False

    def _assigned(self, function: ast.AST) -> dict[str, list[ast.AST]]:
        """The values the function's own statements assign to each local name, and those its
        statements (a nested function's too: the same object) assign to each field (``self.x``,
        tuples unpacked), by the field's text."""
        found = self._assignments.get(id(function))
        if found is not None:
            return found
        found = self._assignments[id(function)] = {}
        for statement in ast.walk(function):
            kind = type(statement)
            if kind is ast.Assign:
                targets, value = statement.targets, statement.value
            elif kind in (ast.AnnAssign, ast.AugAssign) and statement.value is not None:
                targets, value = [statement.target], statement.value
            else:
                continue
            for target in _unpacked(targets):
                if type(target) is ast.Attribute:
                    found.setdefault(ast.unparse(target), []).append(value)
            if self.function_of(statement) is not function:
                continue
            for target in targets:
                for name in ast.walk(target):
                    if type(name) is ast.Name:
                        found.setdefault(name.id, []).append(value)
        return found

    def _function_at(self, node: ast.AST) -> tuple[ast.AST, ...]:
        kind = type(node)
        if kind is ast.Lambda:
            return (node,)
        if kind in (ast.List, ast.Tuple):
            return tuple(f for element in node.elts for f in self._function_at(element))
        if kind is ast.Starred:
            return self._function_at(node.value)
        if kind is not ast.Name:
            return ()
        scope = self.function_of(node)
        while True:  # the innermost scope that defines the name, as Python looks it up
            defined = [d for d in ast.walk(scope if scope is not None else self._source.tree)
                       if type(d) in (ast.FunctionDef, ast.AsyncFunctionDef) and d.name == node.id
                       and self.function_of(d) is scope]  # fmt: skip
            if defined or scope is None:
                before = [d for d in defined if d.lineno < node.lineno]
                return (before or defined)[-1:]  # a module's def may follow the function that uses it
            scope = self.function_of(scope)


_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
# The statement lists of each compound statement.
_BLOCKS = {ast.FunctionDef: ("body",), ast.AsyncFunctionDef: ("body",), ast.With: ("body",), ast.AsyncWith: ("body",),
           ast.ExceptHandler: ("body",), ast.If: ("body", "orelse"), ast.For: ("body", "orelse"),
           ast.AsyncFor: ("body", "orelse"), ast.While: ("body", "orelse"),
           ast.Try: ("body", "orelse", "finalbody")}  # fmt: skip
_VALUED = (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Expr)  # statements that evaluate one expression


def _passed(statement: ast.stmt) -> tuple[ast.expr, bool | None] | None:
    """What a statement before a node says of the way to it: the expression it evaluates (None:
    it must run), an ``assert``'s test (True: it held), an ``if`` whose body always raises and
    that has no ``else``, its test (False: it failed)."""
    kind = type(statement)
    if kind in _VALUED:
        return (statement.value, None) if statement.value is not None else None
    if kind is ast.Assert:
        return statement.test, True
    if kind is ast.If and not statement.orelse and nodes.leaves(statement.body) == "raise":
        return statement.test, False
    return None
_NO_DATA = frozenset({"shape", "ndim", "size", "dtype"})  # attributes of an array that hold no data of it


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _unpacked(targets: list[ast.expr]) -> list[ast.expr]:
    """Assignment targets with tuples, lists and starred targets unpacked (the tree untouched)."""
    pending, found = [*targets], []
    while pending:
        target = pending.pop()
        if type(target) in (ast.Tuple, ast.List):
            pending.extend(target.elts)
        elif type(target) is ast.Starred:
            pending.append(target.value)
        else:
            found.append(target)
    return found


def _enclosing_functions(tree: ast.Module) -> dict[int, ast.AST]:
    """Each node inside a function, by id, with the innermost function holding it."""
    found: dict[int, ast.AST] = {}
    stack: list[tuple[ast.AST, ast.AST | None]] = [(tree, None)]
    while stack:
        node, function = stack.pop()
        if function is not None:
            found[id(node)] = function
        inner = node if isinstance(node, _FUNCTIONS) else function
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))
    return found


def attach_syntax(source: Source, operations: dict[int, Operation],
                  others: Iterable[Operation | LoopCall] = (), sites: Mapping[int, Site] | None = None) -> None:
    """Give ``operations`` (which ``operation_at`` finds) and ``others`` (calls of the module's
    own functions, and of its jitted functions in loops) the syntax that answers for them, with
    the values of the analysis's ``sites`` (which ``value_at`` finds)."""
    others = tuple(others)
    syntax = AstSyntax(source, operations, {id(o.node): o for o in others if isinstance(o, Operation)}, sites)
    for operation in (*operations.values(), *others):
        operation.syntax = syntax
