"""The libcst front end: walks a module's statements in order and asks the engine for values.

Flow is modelled the way a reader would: assignments bind, ``if``/``else`` branches merge,
loops run until their values settle, ``with`` blocks may switch JAX's modes, and functions of
the module are evaluated at their call sites and once more on their own (parameters from
annotations, else from the module's call sites).  Nothing here imports or runs the code.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import libcst as cst

from linter.dtypes import DTYPES, resolve_string
from linter.engine import calls, operations
from linter.engine.annotations import annotation_value
from linter.engine.context import Context
from linter.engine.records import Operation, Site
from linter.engine.values import (
    UNKNOWN,
    Array,
    Bound,
    DTypeRef,
    Elements,
    Function,
    Items,
    Library,
    Reference,
    Refusal,
    Value,
    join,
    numpy_library,
    python_scalar,
)

_BINARY = {
    cst.Add: "+", cst.Subtract: "-", cst.Multiply: "*", cst.Divide: "/", cst.FloorDivide: "//",
    cst.Modulo: "%", cst.Power: "**", cst.MatrixMultiply: "@", cst.BitAnd: "&", cst.BitOr: "|",
    cst.BitXor: "^", cst.LeftShift: "<<", cst.RightShift: ">>",
}  # fmt: skip
_AUGMENTED = {
    cst.AddAssign: "+", cst.SubtractAssign: "-", cst.MultiplyAssign: "*", cst.DivideAssign: "/",
    cst.FloorDivideAssign: "//", cst.ModuloAssign: "%", cst.PowerAssign: "**", cst.MatrixMultiplyAssign: "@",
    cst.BitAndAssign: "&", cst.BitOrAssign: "|", cst.BitXorAssign: "^", cst.LeftShiftAssign: "<<",
    cst.RightShiftAssign: ">>",
}  # fmt: skip
_COMPARE = {
    cst.LessThan: "<", cst.LessThanEqual: "<=", cst.GreaterThan: ">", cst.GreaterThanEqual: ">=",
    cst.Equal: "==", cst.NotEqual: "!=",
}  # fmt: skip
_UNARY = {cst.Minus: "-", cst.Plus: "+", cst.BitInvert: "~", cst.Not: "not"}
# What handles each kind of node, by exact type: libcst's node classes are ABCs, and
# isinstance chains against them once took a third of the analysis.  Names, not functions, so
# that a subclass's overrides apply (the tables are bound per analysis).
_STATEMENT_HANDLERS = {
    cst.SimpleStatementLine: "_simple_line", cst.If: "_if", cst.For: "_loop", cst.While: "_loop", cst.With: "_with",
    cst.Try: "_try", cst.TryStar: "_try", cst.FunctionDef: "_define", cst.ClassDef: "_class", cst.Match: "_match",
}  # fmt: skip
_SMALL_STATEMENT_HANDLERS = {
    cst.Expr: "_expression_statement", cst.Assign: "_assign_statement", cst.AnnAssign: "_annotated_assign",
    cst.AugAssign: "_augmented", cst.Return: "_return", cst.Import: "_import", cst.ImportFrom: "_import_from",
    cst.Assert: "_assert", cst.Del: "_delete",
}  # fmt: skip
_EVALUATORS = {
    cst.Integer: "_number", cst.Float: "_number", cst.Imaginary: "_number", cst.SimpleString: "_string",
    cst.Name: "_name", cst.Attribute: "_attribute", cst.Call: "_call", cst.BinaryOperation: "_binary",
    cst.Comparison: "_compare", cst.UnaryOperation: "_unary", cst.BooleanOperation: "_boolean",
    cst.IfExp: "_conditional", cst.Tuple: "_sequence", cst.List: "_sequence", cst.Subscript: "_subscript",
    cst.Lambda: "_define", cst.NamedExpr: "_walrus", cst.ListComp: "_comprehension", cst.SetComp: "_comprehension",
    cst.GeneratorExp: "_comprehension", cst.DictComp: "_comprehension",
}  # fmt: skip
_NUMBER_KINDS = {cst.Integer: "int", cst.Float: "float", cst.Imaginary: "complex"}
_ABSENT = object()  # a name a branch does not bind
# JAX's transformations that trace the function: its arguments arrive as JAX arrays.
_TRACING = {"jax.jit", "jax.vmap", "jax.pmap", "jax.checkpoint", "jax.remat"}
# Decorators that trace the function without changing what its body computes.
_TRANSPARENT_DECORATORS = {"jax.jit", "jax.vmap", "jax.pmap", "jax.checkpoint", "jax.remat", "jax.named_call",
                           "functools.wraps", "functools.cache", "functools.lru_cache", "staticmethod"}  # fmt: skip
_MAX_CALL_DEPTH = 3
# Evaluations of local functions at call sites, per module and per definition: beyond these,
# calls give unknown, which keeps modules of many mutually calling functions linear in size.
_CALL_BUDGET_PER_DEFINITION = 4
_CALL_BUDGET_BASE = 64
# A loop body runs until its values settle, at most this often; loops nested in a loop run
# once per pass of the outer one (the outer passes already feed them settled values).
_LOOP_PASSES = 3


@dataclass(frozen=True)
class Settings:
    """Modes to analyze under: 'on'/'off' force them, 'auto' follows what the code sets."""

    x64: str = "auto"
    promotion: str = "auto"

    def initial(self) -> Context:
        return Context(x64=self.x64 == "on", strict=self.promotion == "strict")


@dataclass
class _Definition:
    node: cst.FunctionDef | cst.Lambda
    transparent: bool
    call_args: list[dict[str, Value]] = field(default_factory=list)
    defaults: dict[str, Value] = field(default_factory=dict)  # evaluated where the function is defined


@dataclass
class _Frame:
    """The state that flows through statements: variables and the JAX modes in force."""

    names: dict[str, Value]
    ctx: Context
    returns: list[Value] = field(default_factory=list)
    in_function: bool = False

    def copy(self) -> _Frame:
        return _Frame(dict(self.names), self.ctx, self.returns, self.in_function)


class Analysis:
    """Values of every expression of one module, and the operations rules read."""

    def __init__(self, module: cst.Module, settings: Settings = Settings()):
        self.module = module
        self.settings = settings
        self.sites: dict[int, Site] = {}
        self.operations: dict[int, Operation] = {}
        self._definitions: list[_Definition] = []
        self._definition_index: dict[int, int] = {}
        self._module_names: dict[str, Value] = {}
        self._recording = True
        self._depth = 0
        self._memo: dict[tuple, Value] = {}
        self._calls_left = _CALL_BUDGET_BASE
        self._loop_depth = 0
        self._active: set[tuple] = set()
        self._final_ctx = settings.initial()
        self._statement_handlers = {kind: getattr(self, name) for kind, name in _STATEMENT_HANDLERS.items()}
        self._small_handlers = {kind: getattr(self, name) for kind, name in _SMALL_STATEMENT_HANDLERS.items()}
        self._evaluators = {kind: getattr(self, name) for kind, name in _EVALUATORS.items()}

    # --- driving ------------------------------------------------------------------------
    def run(self) -> Analysis:
        frame = _Frame(self._module_names, self.settings.initial())
        self._block(self.module.body, frame)
        self._final_ctx = frame.ctx
        for index, definition in enumerate(self._definitions):
            self._analyze_definition(index, definition)
        return self

    def _analyze_definition(self, index: int, definition: _Definition) -> None:
        """Record a function's body once, its parameters seeded from annotations or call sites."""
        seeds: dict[str, Value] = {}
        for name, annotation, default in self._parameters(definition.node):
            seen = [args[name] for args in definition.call_args if name in args]
            if annotation is not None:
                seeds[name] = self._annotation(annotation, self._final_ctx)
            elif seen:
                seeds[name] = join(seen)
            elif name in definition.defaults:
                seeds[name] = definition.defaults[name]
        self._invoke(index, seeds, record=True)

    # --- statements ---------------------------------------------------------------------
    def _block(self, body, frame: _Frame) -> None:
        for statement in body:
            self._statement(statement, frame)

    def _statement(self, node: cst.CSTNode, frame: _Frame) -> None:
        # A body written on its header's line (`if c: y = x * 2`) holds small statements directly.
        handler = self._statement_handlers.get(type(node)) or self._small_handlers.get(type(node))
        if handler is not None:
            handler(node, frame)

    def _simple_line(self, node: cst.SimpleStatementLine, frame: _Frame) -> None:
        handlers = self._small_handlers
        for small in node.body:
            handler = handlers.get(type(small))
            if handler is not None:
                handler(small, frame)

    def _class(self, node: cst.ClassDef, frame: _Frame) -> None:
        self._block(node.body.body, _Frame(dict(frame.names), frame.ctx))

    def _match(self, node: cst.Match, frame: _Frame) -> None:
        self._expr(node.subject, frame)
        branches = []
        for case in node.cases:
            branch = frame.copy()
            self._block(case.body.body, branch)
            branches.append(branch)
        self._merge(frame, branches + [frame.copy()])

    def _expression_statement(self, node: cst.Expr, frame: _Frame) -> None:
        self._config_update(node.value, frame)
        self._expr(node.value, frame)

    def _assign_statement(self, node: cst.Assign, frame: _Frame) -> None:
        value = self._expr(node.value, frame)
        for target in node.targets:
            self._assign(target.target, value, frame)

    def _annotated_assign(self, node: cst.AnnAssign, frame: _Frame) -> None:
        if node.value is not None:
            value = self._expr(node.value, frame)
        else:
            value = self._annotation(node.annotation.annotation, frame.ctx)
        self._assign(node.target, value, frame)

    def _return(self, node: cst.Return, frame: _Frame) -> None:
        frame.returns.append(self._expr(node.value, frame) if node.value is not None else UNKNOWN)

    def _import(self, node: cst.Import, frame: _Frame) -> None:
        for alias in node.names:
            dotted = _dotted(alias.name)
            if alias.asname is not None:
                self._bind(alias.asname.name, Reference(dotted), frame)
            else:
                head = dotted.split(".")[0]
                self._bind(cst.Name(head), Reference(head), frame)

    def _assert(self, node: cst.Assert, frame: _Frame) -> None:
        self._expr(node.test, frame)

    def _delete(self, node: cst.Del, frame: _Frame) -> None:
        for name in _names(node.target):
            frame.names.pop(name, None)

    def _import_from(self, node: cst.ImportFrom, frame: _Frame) -> None:
        if node.module is None or node.relative or isinstance(node.names, cst.ImportStar):
            return
        module = _dotted(node.module)
        for alias in node.names:
            name = _dotted(alias.name)
            bound = alias.asname.name if alias.asname is not None else cst.Name(name)
            self._bind(bound, calls.resolve_reference(f"{module}.{name}"), frame)

    def _assign(self, target: cst.BaseExpression, value: Value, frame: _Frame) -> None:
        if isinstance(target, cst.Name):
            self._bind(target, value, frame)
        elif isinstance(target, (cst.Tuple, cst.List)):
            elements = [e.value for e in target.elements]
            starred = any(isinstance(e, cst.StarredElement) for e in target.elements)
            items = value.items if isinstance(value, Items) and len(value.items) == len(elements) and not starred else None
            # Unpacking an array or a homogeneous sequence: every name gets one element.
            each = _element_of(value) if items is None and not starred and not isinstance(value, Items) else UNKNOWN
            for i, element in enumerate(elements):
                self._assign(element, items[i] if items else each, frame)
        else:
            # Attributes and subscripts: evaluate their parts; the value is not tracked.
            self._expr(target, frame)

    def _bind(self, target: cst.Name, value: Value, frame: _Frame) -> None:
        frame.names[target.value] = value
        self._record(target, value, target=True)

    def _augmented(self, node: cst.AugAssign, frame: _Frame) -> None:
        op = _AUGMENTED[type(node.operator)]
        current = self._expr(node.target, frame)
        other = self._expr(node.value, frame)
        result = operations.binary(op, current, other, frame.ctx)
        if isinstance(current, Array) and current.library is Library.NUMPY_ARRAY and isinstance(result, Array) \
                and result.library is not Library.JAX:  # fmt: skip
            # In place on the NumPy array; with a JAX operand NumPy declines and Python falls
            # back to ``a = a + j``: the name is rebound to the JAX result, no cast check.
            result = operations.in_place(current, result)
        self._operation("augassign", op, (current, other), result, frame, node)
        if isinstance(node.target, cst.Name):
            self._bind(node.target, result, frame)

    def _if(self, node: cst.If, frame: _Frame) -> None:
        self._expr(node.test, frame)
        then = frame.copy()
        self._block(node.body.body, then)
        otherwise = frame.copy()
        if isinstance(node.orelse, cst.If):
            self._if(node.orelse, otherwise)
        elif isinstance(node.orelse, cst.Else):
            self._block(node.orelse.body.body, otherwise)
        self._merge(frame, [then, otherwise])

    def _loop(self, node: cst.For | cst.While, frame: _Frame) -> None:
        entry = frame.copy()
        states = [entry]
        current = frame.copy()
        self._loop_depth += 1
        for _ in range(_LOOP_PASSES if self._loop_depth == 1 else 1):
            before = dict(current.names)
            if isinstance(node, cst.For):
                self._assign(node.target, _element_of(self._expr(node.iter, current)), current)
            else:
                self._expr(node.test, current)
            self._block(node.body.body, current)
            states.append(current.copy())
            self._merge(current, [entry, current.copy()])
            if current.names == before:
                break
        self._loop_depth -= 1
        self._merge(frame, states)
        if node.orelse is not None:
            self._block(node.orelse.body.body, frame)

    def _with(self, node: cst.With, frame: _Frame) -> None:
        outer = frame.ctx
        for item in node.items:
            value = self._expr(item.item, frame)
            frame.ctx = _mode_switch(item.item, value, frame.ctx, self.settings, self)
            if item.asname is not None:
                self._assign(item.asname.name, UNKNOWN, frame)
        self._block(node.body.body, frame)
        frame.ctx = outer

    def _try(self, node, frame: _Frame) -> None:
        entry = frame.copy()
        self._block(node.body.body, frame)
        branches = [frame.copy()]
        for handler in node.handlers:
            branch = entry.copy()
            self._merge(branch, [entry, frame.copy()])
            self._block(handler.body.body, branch)
            branches.append(branch)
        if node.orelse is not None:
            self._block(node.orelse.body.body, branches[0])
        self._merge(frame, branches)
        if node.finalbody is not None:
            self._block(node.finalbody.body.body, frame)

    @staticmethod
    def _merge(frame: _Frame, branches: list[_Frame]) -> None:
        """Each name's value after the branches: the first branch's where every branch kept that
        very value (the common case, found without comparing values), else the join of all."""
        first = branches[0].names
        differing = set()
        for branch in branches[1:]:
            names = branch.names
            if names is first:
                continue
            for name, value in names.items():
                if first.get(name, _ABSENT) is not value:
                    differing.add(name)
            differing.update(name for name in first.keys() - names.keys() if first[name] is not UNKNOWN)
        merged = dict(first)
        for name in differing:
            merged[name] = join([b.names.get(name, UNKNOWN) for b in branches])
        frame.names.clear()
        frame.names.update(merged)
        frame.ctx = branches[0].ctx if all(b.ctx == branches[0].ctx for b in branches) else frame.ctx

    # --- functions ----------------------------------------------------------------------
    def _define(self, node: cst.FunctionDef | cst.Lambda, frame: _Frame) -> Function:
        decorators = [self._reference_of(_decorator_target(d.decorator)) for d in getattr(node, "decorators", ())]
        transparent = all(d in _TRANSPARENT_DECORATORS for d in decorators)
        tracing = [d.decorator for d in getattr(node, "decorators", ())
                   if self._reference_of(_decorator_target(d.decorator)) in _TRACING]  # fmt: skip
        # One definition per syntax node: bodies are evaluated repeatedly (loops, calls) and
        # must not register their nested functions again each time.
        index = self._definition_index.get(id(node))
        if index is None:
            index = self._definition_index[id(node)] = len(self._definitions)
            self._definitions.append(_Definition(node, transparent))
            self._calls_left += _CALL_BUDGET_PER_DEFINITION
        function = Function(index)
        if tracing:
            names = [name for name, _, _ in self._parameters(node)]
            function = Function(index, True, frozenset().union(*(_static_names(d, names) for d in tracing)))
        # Defaults are evaluated once, here; a call that omits the argument gets them.
        self._definitions[index].defaults = {
            name: self._expr(default, frame) for name, _, default in self._parameters(node) if default is not None
        }
        if isinstance(node, cst.FunctionDef):
            self._bind(node.name, function if transparent else UNKNOWN, frame)
        return function

    @staticmethod
    def _parameters(node) -> Iterator[tuple[str, cst.BaseExpression | None, cst.BaseExpression | None]]:
        params = node.params
        for param in itertools.chain(params.posonly_params, params.params, params.kwonly_params):
            annotation = param.annotation.annotation if param.annotation is not None else None
            yield param.name.value, annotation, param.default

    def _call_local(self, function: Function, args: list[Value], kwargs: dict[str, Value]) -> Value:
        definition = self._definitions[function.key]
        names = [name for name, _, _ in self._parameters(definition.node)]
        bound = dict(zip(names, args))
        bound.update({k: v for k, v in kwargs.items() if k in names})
        for name, value in definition.defaults.items():
            bound.setdefault(name, value)
        if function.traced:
            # jax.jit and friends hand the body JAX arrays (tracers) and return JAX arrays.
            bound = {k: v if k in function.static else calls.as_traced(v, self._final_ctx) for k, v in bound.items()}
            refused = next((v for v in bound.values() if isinstance(v, Refusal)), None)
            if refused is not None:
                return refused
            if self._recording:
                definition.call_args.append(bound)
            return calls.as_traced(self._invoke(function.key, bound, record=False), self._final_ctx)
        if self._recording:
            definition.call_args.append(bound)
        return self._invoke(function.key, bound, record=False)

    def _invoke(self, key: int, bound: dict[str, Value], record: bool) -> Value:
        definition = self._definitions[key]
        memo_key = (key, tuple(sorted(bound.items(), key=lambda kv: kv[0])), record)
        if not record and memo_key in self._memo:
            return self._memo[memo_key]
        if memo_key in self._active or self._depth >= _MAX_CALL_DEPTH:
            return UNKNOWN
        if not record:
            if self._calls_left <= 0:
                return UNKNOWN
            self._calls_left -= 1
        # Locals only: module names are read through _lookup, so merges stay small.
        frame = _Frame({}, self._final_ctx, [], in_function=True)
        for name, _, _ in self._parameters(definition.node):
            frame.names[name] = bound.get(name, UNKNOWN)
            if record:
                self._record_parameter(definition.node, name, frame.names[name])
        saved = self._recording
        self._recording, self._depth = record, self._depth + 1
        self._active.add(memo_key)
        try:
            if isinstance(definition.node, cst.Lambda):
                result = self._expr(definition.node.body, frame)
            else:
                body = definition.node.body
                self._block(body.body, frame)  # an indented block's statements, or a one-line suite's
                result = join(frame.returns) if frame.returns else UNKNOWN
        finally:
            self._recording, self._depth = saved, self._depth - 1
            self._active.discard(memo_key)
        if not record:
            self._memo[memo_key] = result
        return result

    def _record_parameter(self, node, name: str, value: Value) -> None:
        for param in itertools.chain(node.params.posonly_params, node.params.params, node.params.kwonly_params):
            if param.name.value == name:
                self._record(param.name, value, target=True)

    # --- expressions --------------------------------------------------------------------
    def _expr(self, node: cst.BaseExpression, frame: _Frame) -> Value:
        value = self._evaluators.get(type(node), self._children)(node, frame)
        if self._recording:  # _record inlined: this runs for every expression
            self.sites[id(node)] = Site(node, value, "")
        return value

    def _number(self, node: cst.Integer | cst.Float | cst.Imaginary, frame: _Frame) -> Value:
        return python_scalar(_NUMBER_KINDS[type(node)], _number_value(node))

    def _string(self, node: cst.SimpleString, frame: _Frame) -> Value:
        text = _string_value(node)
        name = resolve_string(text) if isinstance(text, str) else None
        return DTypeRef(name) if name else UNKNOWN

    def _name(self, node: cst.Name, frame: _Frame) -> Value:
        return self._lookup(node.value, frame)

    def _attribute(self, node: cst.Attribute, frame: _Frame) -> Value:
        return calls.attribute(self._expr(node.value, frame), node.attr.value)

    def _unary(self, node: cst.UnaryOperation, frame: _Frame) -> Value:
        operand = self._expr(node.expression, frame)
        op = _UNARY[type(node.operator)]
        result = operations.unary(op, operand, frame.ctx)
        self._operation("unary", op, (operand,), result, frame, node)
        return result

    def _boolean(self, node: cst.BooleanOperation, frame: _Frame) -> Value:
        return join([self._expr(node.left, frame), self._expr(node.right, frame)])

    def _conditional(self, node: cst.IfExp, frame: _Frame) -> Value:
        self._expr(node.test, frame)
        return join([self._expr(node.body, frame), self._expr(node.orelse, frame)])

    def _sequence(self, node: cst.Tuple | cst.List, frame: _Frame) -> Value:
        items = [self._expr(e.value, frame) for e in node.elements]
        if any(type(e) is cst.StarredElement for e in node.elements):
            return UNKNOWN
        return Items(tuple(items), is_tuple=type(node) is cst.Tuple)

    def _walrus(self, node: cst.NamedExpr, frame: _Frame) -> Value:
        value = self._expr(node.value, frame)
        self._assign(node.target, value, frame)
        return value

    def _children(self, node: cst.BaseExpression, frame: _Frame) -> Value:
        """Any other expression: its parts are evaluated, its own value is not tracked."""
        for child in node.children:
            if _is_expression(type(child)):
                self._expr(child, frame)
        return UNKNOWN

    def _lookup(self, name: str, frame: _Frame) -> Value:
        if name in frame.names:
            return frame.names[name]
        if name in self._module_names:
            return self._module_names[name]
        if name in ("True", "False"):
            return python_scalar("bool", name == "True")
        return calls.resolve_reference(f"builtins.{name}")

    def _comprehension(self, node, frame: _Frame) -> Value:
        """Names bound inside a comprehension stay inside; its value is not tracked."""
        inner = frame.copy()
        clause = node.for_in
        while clause is not None:
            self._assign(clause.target, _element_of(self._expr(clause.iter, inner)), inner)
            for condition in clause.ifs:
                self._expr(condition.test, inner)
            clause = clause.inner_for_in
        if type(node) is cst.DictComp:
            self._expr(node.key, inner)
            self._expr(node.value, inner)
        else:
            self._expr(node.elt, inner)
        return UNKNOWN

    def _call(self, node: cst.Call, frame: _Frame) -> Value:
        func = self._expr(node.func, frame)
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        positional = True
        for arg in node.args:
            value = self._expr(arg.value, frame)
            if arg.star:
                positional = False
            elif arg.keyword is not None:
                kwargs[arg.keyword.value] = value
            elif positional:
                args.append(value)
        if isinstance(func, Function):
            return self._call_local(func, args, kwargs)
        if isinstance(func, Reference):
            result = self._higher_order(func.qualname, args, node)
            if result is not None:
                return result
        result, call = calls.call(func, args, kwargs, frame.ctx)
        if call is not None:
            receiver = (func.receiver,) if isinstance(func, Bound) else ()
            self._operation("call", call.name, (*receiver, *args), result, frame, node, call=call)
        return result

    def _higher_order(self, name: str, args: list[Value], call_node: cst.Call) -> Value | None:
        """JAX functions that take the module's functions: ``jax.jit(f)`` is f for dtypes;
        ``lax.cond`` calls both branches; the loops call their body with the carry, whose type
        JAX requires the body to keep."""
        functions = [a for a in args if isinstance(a, Function)]
        if name in _TRACING and args and isinstance(args[0], Function):
            names = [n for n, _, _ in self._parameters(self._definitions[args[0].key].node)]
            return Function(args[0].key, True, args[0].static | _static_names(call_node, names))
        if name in _TRANSPARENT_DECORATORS and args and isinstance(args[0], Function):
            return args[0]
        if name == "jax.lax.cond" and len(args) >= 3 and len(functions) >= 2:
            return join([self._call_local(f, list(args[3:]), {}) for f in args[1:3] if isinstance(f, Function)])
        if name == "jax.lax.fori_loop" and len(args) == 4 and isinstance(args[2], Function):
            self._call_local(args[2], [UNKNOWN, args[3]], {})
            return args[3]
        if name == "jax.lax.while_loop" and len(args) == 3 and len(functions) == 2:
            for function in functions:
                self._call_local(function, [args[2]], {})
            return args[2]
        return None

    def _subscript(self, node: cst.Subscript, frame: _Frame) -> Value:
        base = self._expr(node.value, frame)
        indices = [self._expr(e.slice.value, frame) for e in node.slice if isinstance(e.slice, cst.Index)]
        for element in node.slice:
            if isinstance(element.slice, cst.Slice):
                for part in (element.slice.lower, element.slice.upper, element.slice.step):
                    if part is not None:
                        self._expr(part, frame)
        if isinstance(base, Bound) and base.method == "at":
            return Bound(base.receiver, "at.")
        if isinstance(base, Elements) and len(indices) == 1 and isinstance(indices[0], Array):
            return base.element if indices[0].library is Library.PYTHON and indices[0].dtypes == {"int64"} else UNKNOWN
        if isinstance(base, Items) and len(indices) == 1 and isinstance(indices[0], Array):
            literal = indices[0].literal
            if type(literal) is int and -len(base.items) <= literal < len(base.items):
                return base.items[literal]
            return UNKNOWN
        if isinstance(base, Array) and base.library is not Library.PYTHON:
            ndim = _indexed_rank(base.rank, node.slice, indices)
            library = numpy_library(ndim) if base.library.is_numpy else base.library  # a[0] of a vector is a scalar
            return replace(base, literal=None, provenance="", ndim=ndim, library=library)
        return UNKNOWN

    def _binary(self, node: cst.BinaryOperation, frame: _Frame) -> Value:
        op = _BINARY[type(node.operator)]
        left = self._expr(node.left, frame)
        right = self._expr(node.right, frame)
        result = operations.binary(op, left, right, frame.ctx)
        chain, chain_text = (), ()
        if isinstance(node.left, cst.BinaryOperation) and _BINARY[type(node.left.operator)] == op:
            inner = self.operations.get(id(node.left))
            if inner is not None:
                chain = (inner.chain or inner.operands) + (right,)
                chain_text = (inner.chain_text or (self._code(node.left.left), self._code(node.left.right)))
                chain_text += (self._code(node.right),)
        self._operation("binop", op, (left, right), result, frame, node, chain=chain, chain_text=chain_text)
        return result

    def _compare(self, node: cst.Comparison, frame: _Frame) -> Value:
        left = self._expr(node.left, frame)
        results = []
        for target in node.comparisons:
            right = self._expr(target.comparator, frame)
            op = _COMPARE.get(type(target.operator))
            result = operations.compare(op, left, right, frame.ctx) if op else python_scalar("bool")
            if op:
                self._operation("compare", op, (left, right), result, frame, node)
            results.append(result)
            left = right
        return results[0] if len(results) == 1 else UNKNOWN

    # --- modes ------------------------------------------------------------------------
    def _config_update(self, node: cst.BaseExpression, frame: _Frame) -> None:
        """``jax.config.update('jax_enable_x64', True)`` changes the mode from here on."""
        if not (isinstance(node, cst.Call) and len(node.args) == 2):
            return
        if self._reference_of(node.func) not in ("jax.config.update", "jax.config.config.update"):
            return
        key, setting = node.args[0].value, node.args[1].value
        if not isinstance(key, cst.SimpleString):
            return
        frame.ctx = _apply_setting(frame.ctx, _string_value(key), _literal(setting), self.settings)

    def _annotation(self, node: cst.BaseExpression, ctx: Context) -> Value:
        """``head[arg, ...]`` translated to qualified names for the engine."""
        if isinstance(node, cst.SimpleString):  # a string annotation: "jax.Array"
            try:
                node = cst.parse_expression(_string_value(node))
            except cst.ParserSyntaxError:
                return UNKNOWN
        head, arguments = node, []
        if isinstance(node, cst.Subscript):
            head = node.value
            arguments = [self._reference_of(e.slice.value) for e in node.slice if isinstance(e.slice, cst.Index)]
        return annotation_value(self._reference_of(head), arguments, ctx)

    def _reference_of(self, node: cst.BaseExpression | None) -> str | None:
        """The qualified name an expression refers to, without recording it."""
        if isinstance(node, cst.Name):
            value = self._module_names.get(node.value) or calls.resolve_reference(f"builtins.{node.value}")
        elif isinstance(node, cst.Attribute):
            base = self._reference_of(node.value)
            return f"{base}.{node.attr.value}" if base else None
        else:
            return None
        if isinstance(value, Reference):
            return value.qualname
        if isinstance(value, DTypeRef):
            return f"builtins.{node.value}" if value.builtin else None
        return None

    # --- records ----------------------------------------------------------------------
    def _record(self, node: cst.CSTNode, value: Value, target: bool = False) -> None:
        if self._recording:
            self.sites[id(node)] = Site(node, value, "", target)

    def _operation(self, kind, op, operands, result, frame: _Frame, node, **extra) -> None:
        if self._recording:
            self.operations[id(node)] = Operation(kind, op, operands, result, frame.ctx, node,
                                                  in_function=frame.in_function, **extra)  # fmt: skip

    def _code(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)


def _apply_setting(ctx: Context, key: str, setting, settings: Settings) -> Context:
    if key == "jax_enable_x64" and isinstance(setting, bool) and settings.x64 == "auto":
        return replace(ctx, x64=setting)
    if key == "jax_numpy_dtype_promotion" and setting in ("strict", "standard") and settings.promotion == "auto":
        return replace(ctx, strict=setting == "strict")
    if key == "jax_explicit_x64_dtypes" and setting in ("warn", "error", "allow"):
        return replace(ctx, explicit_x64=setting)
    return ctx


def _mode_switch(node: cst.BaseExpression, value: Value, ctx: Context, settings: Settings, analysis: Analysis) -> Context:
    """``with jax.enable_x64(True):`` / ``with jax.numpy_dtype_promotion('strict'):``."""
    if not isinstance(node, cst.Call):
        return ctx
    name = analysis._reference_of(node.func)
    argument = _literal(node.args[0].value) if node.args else None
    if name in ("jax.enable_x64", "jax.experimental.enable_x64"):
        return _apply_setting(ctx, "jax_enable_x64", True if argument is None else argument, settings)
    if name == "jax.experimental.disable_x64":
        return _apply_setting(ctx, "jax_enable_x64", False, settings)
    if name in ("jax.numpy_dtype_promotion", "jax.experimental.numpy_dtype_promotion"):
        return _apply_setting(ctx, "jax_numpy_dtype_promotion", argument, settings)
    return ctx


def _literal(node: cst.BaseExpression):
    if isinstance(node, cst.Name) and node.value in ("True", "False"):
        return node.value == "True"
    if isinstance(node, cst.SimpleString):
        return _string_value(node)
    return None


def _number_value(node: cst.Integer | cst.Float | cst.Imaginary) -> int | float | complex:
    """What the literal evaluates to: Python's number syntax is what int(), float() and
    complex() read, so this equals libcst's ``evaluated_value`` (an ``ast.literal_eval``, which
    compiles) at a fraction of the cost."""
    text = node.value
    try:
        kind = type(node)
        return int(text, 0) if kind is cst.Integer else float(text) if kind is cst.Float else complex(text)
    except ValueError:  # past int()'s digit limit, say: whatever libcst does is the answer
        return node.evaluated_value


def _string_value(node: cst.SimpleString) -> str | bytes:
    """What the literal evaluates to: without prefix, escapes or carriage returns (which Python
    reads as newlines), the text between the quotes; else libcst's ``evaluated_value`` (an
    ``ast.literal_eval``; docstrings would make it the costliest step of the analysis)."""
    text = node.value
    if text[0] in "'\"" and "\\" not in text and "\r" not in text:
        return text[3:-3] if text[:3] in ('"""', "'''") else text[1:-1]
    return node.evaluated_value


_EXPRESSION_KINDS: dict[type, bool] = {}


def _is_expression(kind: type) -> bool:
    """``issubclass(kind, cst.BaseExpression)``, remembered: an ABC check costs far more than a lookup."""
    known = _EXPRESSION_KINDS.get(kind)
    if known is None:
        known = _EXPRESSION_KINDS[kind] = issubclass(kind, cst.BaseExpression)
    return known


def _element_of(value: Value) -> Value:
    """One element of an iterated value: iterating an array yields its rows (a NumPy vector
    yields scalars)."""
    if isinstance(value, Items):
        return join(value.items)
    if isinstance(value, Elements):
        return value.element
    if isinstance(value, Array) and value.library is not Library.PYTHON:
        ndim = value.rank - 1 if value.rank else None
        library = numpy_library(ndim) if value.library.is_numpy else value.library
        return replace(value, literal=None, ndim=ndim, library=library)
    return UNKNOWN


_INDEX = cst.SubscriptElement(cst.Index(cst.Name("_")))  # stands for one index in a tuple of them


def _indexed_rank(rank: int | None, elements, indices: list[Value]) -> int | None:
    """Dimensions left after basic indexing: an integer drops one, a slice keeps it, ``None``
    adds one; an array index (advanced indexing) or ``...`` leaves it unknown."""
    if rank is None:
        return None
    values = iter(indices)
    for element in elements:
        if isinstance(element.slice, cst.Slice):
            continue
        index = next(values)
        if isinstance(index, Items) and index.is_tuple:  # x[(0, 1)] is x[0, 1]; z[()] indexes nothing
            inner = _indexed_rank(rank, [_INDEX] * len(index.items), list(index.items))
            if inner is None:
                return None
            rank = inner
            continue
        if isinstance(index, Array) and index.rank == 0 and index.dtypes and all(
                DTYPES[d].kind in "iu" for d in index.dtypes):  # fmt: skip
            rank -= 1  # an integer: Python's, a NumPy scalar or a 0-d array
        elif isinstance(index, Reference) and index.qualname == "builtins.None":
            rank += 1
        else:
            return None
    return rank if rank >= 0 else None


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def _names(node: cst.BaseExpression) -> list[str]:
    if isinstance(node, cst.Name):
        return [node.value]
    if isinstance(node, (cst.Tuple, cst.List)):
        return [n for e in node.elements for n in _names(e.value)]
    return []


def _static_names(node: cst.BaseExpression, names: list[str]) -> frozenset[str]:
    """The parameters ``jax.jit(f, static_argnums=..., static_argnames=...)`` (or the same in
    ``partial(jax.jit, ...)``) keeps static: they stay Python values while tracing."""
    if not isinstance(node, cst.Call):
        return frozenset()
    static: set[str] = set()
    for arg in node.args:
        if arg.keyword is None or arg.keyword.value not in ("static_argnums", "static_argnames"):
            continue
        parts = [e.value for e in arg.value.elements] if isinstance(arg.value, (cst.Tuple, cst.List)) else [arg.value]
        for part in parts:
            if isinstance(part, cst.Integer) and int(part.value) < len(names):
                static.add(names[int(part.value)])
            elif isinstance(part, cst.SimpleString) and isinstance(text := _string_value(part), str):
                static.add(text)
    return frozenset(static)


def _decorator_target(node: cst.BaseExpression) -> cst.BaseExpression:
    """``@partial(jax.jit, static_argnums=0)`` decorates with ``jax.jit``."""
    if isinstance(node, cst.Call):
        if _dotted(node.func).endswith("partial") and node.args:
            return node.args[0].value
        return node.func
    return node
