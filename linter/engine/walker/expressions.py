"""The ``ast`` walker's expressions: what each kind of expression node evaluates to, handed to
the flow (names, attributes, calls, operations it records) and to the expression evaluator;
and the qualified name an expression refers to."""

from __future__ import annotations

import ast

from promolint.engine import calls, expressions, operations
from promolint.engine.flow import containers, higher_order
from promolint.engine.flow.frames import Frame
from promolint.engine.records import OperationKind, Site
from promolint.engine.symbolic import Symbolic, item_variable, join
from promolint.engine.symbolic.choice import chosen, decides, join_or_none, presence, short_circuit
from promolint.engine.values import (UNKNOWN, Array, Bound, Class, DTypeRef, Elements, Function, Imported, Instance, Items,
                                     Keyed, Library, NONE, OrNone, Reference, Value, is_none, python_scalar)
from promolint.engine.walker.nodes import index_elements, key_literal, none_test, static_names

BINARY_OPERATORS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip
# Unknown arguments a `*args` in a call stands for: more positions than any callee binds.
_STARRED_POSITIONS = 16
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
# The methods an operator calls on an object: its own, and the other operand's reflected one.
_OPERATOR_METHODS = {
    "+": ("__add__", "__radd__"), "-": ("__sub__", "__rsub__"), "*": ("__mul__", "__rmul__"),
    "/": ("__truediv__", "__rtruediv__"), "//": ("__floordiv__", "__rfloordiv__"), "%": ("__mod__", "__rmod__"),
    "**": ("__pow__", "__rpow__"), "@": ("__matmul__", "__rmatmul__"), "&": ("__and__", "__rand__"),
    "|": ("__or__", "__ror__"), "^": ("__xor__", "__rxor__"), "<<": ("__lshift__", "__rlshift__"),
    ">>": ("__rshift__", "__rrshift__"), "<": ("__lt__", "__gt__"), "<=": ("__le__", "__ge__"),
    ">": ("__gt__", "__lt__"), ">=": ("__ge__", "__le__"), "==": ("__eq__", "__eq__"), "!=": ("__ne__", "__ne__"),
}  # fmt: skip
# Left operands whose own method gives NotImplemented for an object of the program's class, so that
# the object's reflected method runs: a Python number, a JAX array.  A NumPy array or scalar would
# instead convert the object (a NamedTuple becomes an array of its fields).
_DEFERRING = (Library.PYTHON, Library.JAX)
# What evaluates each kind of expression node, by exact type (a dict lookup beats isinstance
# chains on the hottest path).  Names: the analysis's methods of those names, unbound.
EVALUATORS = {
    ast.Constant: "_constant", ast.Name: "_name", ast.Attribute: "_attribute", ast.Call: "_call",
    ast.BinOp: "_binary", ast.Compare: "_compare", ast.UnaryOp: "_unary", ast.BoolOp: "_boolean",
    ast.IfExp: "_conditional", ast.Tuple: "_sequence", ast.List: "_sequence", ast.Subscript: "_subscript",
    ast.Lambda: "_define", ast.NamedExpr: "_walrus", ast.ListComp: "_comprehension", ast.SetComp: "_comprehension",
    ast.GeneratorExp: "_comprehension", ast.DictComp: "_comprehension", ast.JoinedStr: "_formatted",
    ast.Dict: "_dict",
}  # fmt: skip


class ExpressionWalker:
    """The expression half of ``promolint.engine.walker.analysis.Analysis``: it reads the
    analysis's ``flow``, ``source`` and ``_evaluators``, and binds through its ``_assign`` and
    ``_define`` (a walrus, a lambda, a call that changes a dict in place)."""

    # --- expressions --------------------------------------------------------------------
    def _expr(self, node: ast.expr, frame: Frame) -> Value:
        evaluator = self._evaluators.get(type(node))  # unbound: the analysis passes itself
        value = evaluator(self, node, frame) if evaluator is not None else self._children(node, frame)
        flow = self.flow
        if flow.recording:  # record() inlined: this runs for every expression
            flow.sites[id(node)] = Site(node, value, "")
        return value

    def _constant(self, node: ast.Constant, frame: Frame) -> Value:
        return expressions.constant(node.value)

    def _formatted(self, node: ast.JoinedStr, frame: Frame) -> Value:
        """An f-string is a str; what it formats is not analyzed (``ast`` places the parts of
        an f-string unreliably before Python 3.12)."""
        return UNKNOWN

    def _name(self, node: ast.Name, frame: Frame) -> Value:
        name = node.id
        value = frame.names.get(name)
        if value is None and frame.enclosing:
            value = frame.lookup(name)
        if value is None:
            value = self.flow.module_names.get(name)
            if value is None:
                return calls.resolve_reference(f"builtins.{name}")
        return self.flow.resolve(value, node) if type(value) is Imported else value

    def _attribute(self, node: ast.Attribute, frame: Frame) -> Value:
        return self.flow.attribute(self._expr(node.value, frame), node.attr, frame.ctx, node)

    def _unary(self, node: ast.UnaryOp, frame: Frame) -> Value:
        operand = self._expr(node.operand, frame)
        op = _UNARY[type(node.op)]
        result = operations.unary(op, operand, frame.ctx)
        return self.flow.operation(OperationKind.UNARY, op, (operand,), result, frame, node)

    def _boolean(self, node: ast.BoolOp, frame: Frame) -> Value:
        values = iter(node.values)
        result = self._expr(next(values), frame)
        for value in values:  # `a or b or c` is (a or b) or c
            result = short_circuit(result, self._expr(value, frame))
        return result

    def _conditional(self, node: ast.IfExp, frame: Frame) -> Value:
        """``a if test else b``: the one the test chooses (``promolint.engine.symbolic.choice``)
        where it is whether a variable is None, depends on variables or is known, else the join
        of both."""
        test, holds = self._choosing(node.test, self._expr(node.test, frame), frame)
        body, orelse = self._expr(node.body, frame), self._expr(node.orelse, frame)
        if test is None:
            return join_or_none([body, orelse])
        return chosen(test, body, orelse) if holds else chosen(test, orelse, body)

    def _choosing(self, node: ast.expr, test: Value, frame: Frame) -> tuple[Value | None, bool]:
        """What chooses between a test's branches (``promolint.engine.symbolic.choice``), and
        whether its first branch runs where it holds: whether a variable is None (``x is None``:
        its presence variable), else a test that depends on variables or is a known Python bool;
        None where it decides nothing."""
        compared, none_when_true = none_test(node)
        variable = presence(frame.lookup(compared), self.flow.evaluation_state) if compared is not None else None
        if variable is not None:
            return variable, none_when_true
        return (test, True) if decides(test) else (None, True)

    def _sequence(self, node: ast.Tuple | ast.List, frame: Frame) -> Value:
        items = [self._expr(e, frame) for e in node.elts]
        if any(type(e) is ast.Starred for e in node.elts):
            return UNKNOWN
        return Items(tuple(items), is_tuple=type(node) is ast.Tuple)

    def _dict(self, node: ast.Dict, frame: Frame) -> Value:
        entries = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                entries.append((containers.SPREAD, self._expr(value, frame)))
            else:
                self._expr(key, frame)
                entries.append((key_literal(key), self._expr(value, frame)))
        return containers.dict_display(entries)

    def _walrus(self, node: ast.NamedExpr, frame: Frame) -> Value:
        value = self._expr(node.value, frame)
        self._assign(node.target, value, frame)
        return value

    def _children(self, node: ast.expr, frame: Frame) -> Value:
        """Any other expression: its parts are evaluated, its own value is not tracked."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._expr(child, frame)
        return UNKNOWN

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, frame: Frame) -> Value:
        """Names bound inside a comprehension stay inside.  A list comprehension is a list of
        unknown length whose items are all what its element is (each loop variable being any
        item of what it iterates); other comprehensions are not tracked."""
        inner = frame.copy()
        for clause in node.generators:
            self._assign(clause.target, expressions.element_of(self._expr(clause.iter, inner)), inner)
            for condition in clause.ifs:
                self._expr(condition, inner)
        if type(node) is ast.DictComp:
            self._expr(node.key, inner)
            self._expr(node.value, inner)
            return UNKNOWN
        element = self._expr(node.elt, inner)
        return Elements(element) if type(node) is ast.ListComp else UNKNOWN

    def _call(self, node: ast.Call, frame: Frame) -> Value:
        func = self._expr(node.func, frame)
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        positional = True
        for arg in node.args:
            value = self._expr(arg, frame)
            if type(arg) is ast.Starred:
                if positional:  # it may fill every position from here: none is known, none is omitted
                    args += [UNKNOWN] * _STARRED_POSITIONS
                positional = False
            elif positional:
                args.append(value)
        open_keywords = False
        for keyword in node.keywords:
            value = self._expr(keyword.value, frame)
            if keyword.arg is not None:
                kwargs[keyword.arg] = value
            else:
                open_keywords = True
        if type(node.func) is ast.Attribute and containers.mutated(func.receiver if isinstance(func, Bound) else None,
                                                                node.func.attr,
                                                                type(node.func.value) is ast.Name):  # fmt: skip
            frame.changed_in_place(func.receiver, UNKNOWN)
            self._assign(node.func.value, UNKNOWN, frame)  # d.update(...): the dict is no longer followed
        name = _attribute_set_by_name(func, node)
        if name is not None:
            self.flow.objects.assign(args[0], name, args[2], frame.ctx)
            return calls.resolve_reference("builtins.None")
        result = self.flow.call(func, args, kwargs, frame, node, lambda names: static_names(node, names), open_keywords)
        if self.flow.changed_by_call:  # a name passed holds the very object the body changed
            passed = [(a, v) for a, v in zip(node.args, args) if type(a) is ast.Name]
            passed += [(k.value, kwargs[k.arg]) for k in node.keywords if k.arg is not None and type(k.value) is ast.Name]
            for container, after in self.flow.changed_by_call:
                for name, value in passed:
                    if value is container:
                        frame.names[name.id] = after  # no new site: the argument read stays as it was
        return result

    def _subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        base = self._expr(node.value, frame)
        slices, indices = self._index(node.slice, frame)
        if len(indices) == 1 and len(slices) == 1:
            key = key_literal(node.slice)
            item = self.flow.objects.item(base, key)
            if item is not None:
                return item
            if type(base) is Symbolic and base.variable is not None and base.variable.mapping:
                return item_variable(base.variable, key, frame.ctx, state=self.flow.evaluation_state)
            if type(key) is str:
                return expressions.string_subscript(base, key)
        return _indexed(base, slices, indices)

    def _binary(self, node: ast.BinOp, frame: Frame) -> Value:
        """A binary operator, and the chain of binary operators down its left operand, walked
        without recursion (``a + b + ... + z`` as long as Python compiles)."""
        spine = [node]
        while type(spine[-1].left) is ast.BinOp:
            spine.append(spine[-1].left)
        left = self._expr(spine[-1].left, frame)
        flow = self.flow
        for current in reversed(spine):
            op = BINARY_OPERATORS[type(current.op)]
            right = self._expr(current.right, frame)
            result = self._operator_method(op, left, right, frame, current)
            if result is None:
                result = operations.binary(op, left, right, frame.ctx)
            chain, chain_text = (), ()
            inner_node = current.left
            if type(inner_node) is ast.BinOp and type(inner_node.op) is type(current.op):
                inner = flow.operations.get(id(inner_node))
                if inner is not None:
                    code = self.source.code
                    chain, chain_text = expressions.extend_chain(
                        inner, right, (code(inner_node.left), code(inner_node.right)), code(current.right))
            result = flow.operation(OperationKind.BINOP, op, (left, right), result, frame, current, chain=chain,
                                    chain_text=chain_text)  # fmt: skip
            if current is not node and flow.recording:
                flow.sites[id(current)] = Site(current, result, "")
            left = result
        return left

    def _compare(self, node: ast.Compare, frame: Frame) -> Value:
        left = self._expr(node.left, frame)
        results = []
        for operator, comparator in zip(node.ops, node.comparators):
            right = self._expr(comparator, frame)
            op = _COMPARE.get(type(operator))
            result = self._operator_method(op, left, right, frame, node) if op else None
            if result is None:
                result = operations.compare(op, left, right, frame.ctx) if op else _identity(operator, left, right)
            if op:
                self.flow.operation(OperationKind.COMPARE, op, (left, right), result, frame, node)
            results.append(result)
            left = right
        return results[0] if len(results) == 1 else UNKNOWN

    def _operator_method(self, op: str, left: Value, right: Value, frame: Frame, node: ast.expr) -> Value | None:
        """``left op right`` where it calls a method of the program's class (jumanji's
        ``Position.__eq__``, jaxns' ``LogSpace.__mul__``): the left object's own method, else the
        right object's reflected one where the left operand defers to it; what the method returns
        (unknown where it returns NotImplemented: the reflected method would run then).  None where
        no such method runs."""
        own, reflected = _OPERATOR_METHODS[op]
        objects = self.flow.objects
        method = objects.operator_method(left, own)
        other = right
        if (method is not None and type(right) is Instance and type(left) is Instance and right.cls != left.cls
                and objects.operator_method(right, reflected) is not None):  # fmt: skip
            return UNKNOWN  # the right object's runs first where its class is a subclass of the left's
        if method is None and type(left) is Array and left.library in _DEFERRING:
            method, other = objects.operator_method(right, reflected), left
        if method is None:
            return None
        if type(method) is not Bound:
            return method
        result = self.flow.call(method, [other], {}, frame, node, higher_order.no_static)
        return UNKNOWN if _not_implemented(result) else result

    def _index(self, index: ast.expr, frame: Frame) -> tuple[list[bool], list[Value]]:
        """Evaluates an index: which of its elements are slices, and the values of the others."""
        elements = index_elements(index)
        indices = []
        for element in elements:
            if type(element) is ast.Slice:
                for part in (element.lower, element.upper, element.step):
                    if part is not None:
                        self._expr(part, frame)
            else:
                indices.append(self._expr(element, frame))
        return [type(e) is ast.Slice for e in elements], indices

    # --- names ------------------------------------------------------------------------
    def _reference_of(self, node: ast.expr | None) -> str | None:
        """The qualified name an expression refers to, without recording it."""
        kind = type(node)
        if kind is ast.Name:
            name = node.id
        elif kind is ast.Attribute:
            base = self._reference_of(node.value)
            return f"{base}.{node.attr}" if base else None
        elif kind is ast.Constant and node.value is None:
            name = "None"
        else:
            return None
        value = self.flow.module_names.get(name) or calls.resolve_reference(f"builtins.{name}")
        if type(value) is Imported:  # an alias another module of the program defines, else its name there
            resolved = self.flow.modules.resolve(value)
            if not isinstance(resolved, (Reference, DTypeRef)):
                resolved = Reference(f"{value.module}.{value.name}")
            value = resolved
        if isinstance(value, Reference):
            return value.qualname
        if isinstance(value, DTypeRef):
            return f"builtins.{name}" if value.builtin else None
        return None


def _attribute_set_by_name(func: Value, node: ast.Call) -> str | None:
    """The attribute ``setattr(obj, "name", value)`` or ``object.__setattr__(obj, "name", value)``
    sets, where the name is a literal (frozen dataclasses set their fields so): the assignment
    ``obj.name = value``; None for other calls."""
    if not (isinstance(func, Reference) and func.qualname in _SETATTR and len(node.args) == 3 and not node.keywords):
        return None
    name = node.args[1]
    if type(name) is ast.Constant and type(name.value) is str and not any(type(a) is ast.Starred for a in node.args):
        return name.value
    return None


_SETATTR = frozenset({"builtins.setattr", "builtins.object.__setattr__"})


# Values that are never None: a comparison ``is None`` of one is known.
_NEVER_NONE = (Array, Items, Keyed, Elements, Instance, Class, Function, DTypeRef, Bound)


def _identity(operator: ast.cmpop, left: Value, right: Value) -> Value:
    """``left is right`` (``is not``, ``in``, ``not in``): a Python bool, known for ``x is None``
    where ``x`` is None or a value that never is."""
    if type(operator) in (ast.Is, ast.IsNot) and is_none(right) and (is_none(left) or type(left) in _NEVER_NONE):
        return python_scalar("bool", is_none(left) == (type(operator) is ast.Is))
    return python_scalar("bool")


def _indexed(base: Value, slices: list[bool], indices: list[Value]) -> Value:
    """``base[...]`` (``expressions.subscript``), where an index that is None or a value
    (``OrNone``) gives the join of both: ``t[None]`` adds an axis."""
    for position, index in enumerate(indices):
        if type(index) is OrNone:
            return join([_indexed(base, slices, [*indices[:position], choice, *indices[position + 1:]])
                         for choice in (NONE, index.value)])  # fmt: skip
    return expressions.subscript(base, slices, indices)



def _not_implemented(result: Value) -> bool:
    return type(result) is Reference and result.qualname == "builtins.NotImplemented"
