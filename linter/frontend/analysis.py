"""The analysis front end: walks a module's ``ast`` statements in order and asks the engine for values.

Flow is modelled the way a reader would: assignments bind, ``if``/``else`` branches merge,
loops run until their values settle, ``with`` blocks may switch JAX's modes, and functions of
the module are evaluated at their call sites and once more on their own (parameters from
annotations, else from the module's call sites).  Nothing here imports or runs the code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from promolint.dtypes import DTYPES, resolve_string
from promolint.engine import calls, operations
from promolint.engine.annotations import annotation_value
from promolint.engine.context import Context
from promolint.engine.records import Operation, Seeds, Site
from promolint.engine.values import (
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
from promolint.frontend.source import Source

_BINARY = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
# What handles each kind of node, by exact type (a dict lookup beats isinstance chains on the
# hottest path).  Names, not functions, so that a subclass's overrides apply (the tables are
# bound per analysis).
_STATEMENT_HANDLERS = {
    ast.Expr: "_expression_statement", ast.Assign: "_assign_statement", ast.AnnAssign: "_annotated_assign",
    ast.AugAssign: "_augmented", ast.Return: "_return", ast.Import: "_import", ast.ImportFrom: "_import_from",
    ast.Assert: "_assert", ast.Delete: "_delete", ast.If: "_if", ast.For: "_loop", ast.AsyncFor: "_loop",
    ast.While: "_loop", ast.With: "_with", ast.AsyncWith: "_with", ast.Try: "_try", ast.TryStar: "_try",
    ast.FunctionDef: "_define", ast.AsyncFunctionDef: "_define", ast.ClassDef: "_class", ast.Match: "_match",
}  # fmt: skip
_EVALUATORS = {
    ast.Constant: "_constant", ast.Name: "_name", ast.Attribute: "_attribute", ast.Call: "_call",
    ast.BinOp: "_binary", ast.Compare: "_compare", ast.UnaryOp: "_unary", ast.BoolOp: "_boolean",
    ast.IfExp: "_conditional", ast.Tuple: "_sequence", ast.List: "_sequence", ast.Subscript: "_subscript",
    ast.Lambda: "_define", ast.NamedExpr: "_walrus", ast.ListComp: "_comprehension", ast.SetComp: "_comprehension",
    ast.GeneratorExp: "_comprehension", ast.DictComp: "_comprehension", ast.JoinedStr: "_formatted",
}  # fmt: skip
_SCALAR_KINDS = {bool: "bool", int: "int", float: "float", complex: "complex"}
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

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


@dataclass(frozen=True)
class Settings:
    """Modes to analyze under: 'on'/'off' force them, 'auto' follows what the code sets."""

    x64: str = "auto"
    promotion: str = "auto"

    def initial(self) -> Context:
        return Context(x64=self.x64 == "on", strict=self.promotion == "strict")


@dataclass
class _Definition:
    node: FunctionNode
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

    def __init__(self, source: Source, settings: Settings = Settings(), seeds: Seeds = Seeds()):
        self.source = source
        self.settings = settings
        self.seeds = seeds
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
        self._evaluators = {kind: getattr(self, name) for kind, name in _EVALUATORS.items()}

    # --- driving ------------------------------------------------------------------------
    def run(self) -> Analysis:
        frame = _Frame(self._module_names, self.settings.initial())
        self._block(self.source.tree.body, frame)
        self._final_ctx = frame.ctx
        for index, definition in enumerate(self._definitions):
            self._analyze_definition(index, definition)
        return self

    def _analyze_definition(self, index: int, definition: _Definition) -> None:
        """Record a function's body once, its parameters from the seeds, else from annotations, call
        sites or defaults."""
        node = definition.node
        given = self.seeds.parameters.get(node.lineno, {}) if type(node) is not ast.Lambda else {}
        seeds: dict[str, Value] = {}
        for param, default in _parameters(node):
            name = param.arg
            seen = [args[name] for args in definition.call_args if name in args]
            if name in given:
                seeds[name] = given[name]
            elif param.annotation is not None:
                seeds[name] = self._annotation(param.annotation, self._final_ctx)
            elif seen:
                seeds[name] = join(seen)
            elif name in definition.defaults:
                seeds[name] = definition.defaults[name]
        self._invoke(index, seeds, record=True)

    # --- statements ---------------------------------------------------------------------
    def _block(self, body: list[ast.stmt], frame: _Frame) -> None:
        handlers = self._statement_handlers
        for statement in body:
            handler = handlers.get(type(statement))
            if handler is not None:
                handler(statement, frame)

    def _class(self, node: ast.ClassDef, frame: _Frame) -> None:
        self._block(node.body, _Frame(dict(frame.names), frame.ctx))

    def _match(self, node: ast.Match, frame: _Frame) -> None:
        self._expr(node.subject, frame)
        branches = []
        for case in node.cases:
            branch = frame.copy()
            self._block(case.body, branch)
            branches.append(branch)
        self._merge(frame, branches + [frame.copy()])

    def _expression_statement(self, node: ast.Expr, frame: _Frame) -> None:
        self._config_update(node.value, frame)
        self._expr(node.value, frame)

    def _assign_statement(self, node: ast.Assign, frame: _Frame) -> None:
        value = self._expr(node.value, frame)
        for target in node.targets:
            self._assign(target, value, frame)

    def _annotated_assign(self, node: ast.AnnAssign, frame: _Frame) -> None:
        if node.value is not None:
            value = self._expr(node.value, frame)
        else:
            value = self._annotation(node.annotation, frame.ctx)
        self._assign(node.target, value, frame)

    def _return(self, node: ast.Return, frame: _Frame) -> None:
        frame.returns.append(self._expr(node.value, frame) if node.value is not None else UNKNOWN)

    def _import(self, node: ast.Import, frame: _Frame) -> None:
        for alias in node.names:
            if alias.asname is not None:
                frame.names[alias.asname] = Reference(alias.name)
            else:
                head = alias.name.split(".")[0]
                frame.names[head] = Reference(head)

    def _assert(self, node: ast.Assert, frame: _Frame) -> None:
        self._expr(node.test, frame)

    def _delete(self, node: ast.Delete, frame: _Frame) -> None:
        for target in node.targets:
            for name in _names(target):
                frame.names.pop(name, None)

    def _import_from(self, node: ast.ImportFrom, frame: _Frame) -> None:
        if node.module is None or node.level or any(alias.name == "*" for alias in node.names):
            return
        for alias in node.names:
            frame.names[alias.asname or alias.name] = calls.resolve_reference(f"{node.module}.{alias.name}")

    def _assign(self, target: ast.expr, value: Value, frame: _Frame) -> None:
        kind = type(target)
        if kind is ast.Name:
            self._bind(target, value, frame)
        elif kind is ast.Tuple or kind is ast.List:
            elements = target.elts
            starred = any(type(e) is ast.Starred for e in elements)
            items = value.items if isinstance(value, Items) and len(value.items) == len(elements) and not starred else None
            # Unpacking an array or a homogeneous sequence: every name gets one element.
            each = _element_of(value) if items is None and not starred and not isinstance(value, Items) else UNKNOWN
            for i, element in enumerate(elements):
                self._assign(element.value if type(element) is ast.Starred else element, items[i] if items else each,
                             frame)  # fmt: skip
        else:
            # Attributes and subscripts: evaluate their parts; the value is not tracked.
            self._expr(target, frame)

    def _bind(self, target: ast.Name, value: Value, frame: _Frame) -> None:
        frame.names[target.id] = value
        self._record(target, value, target=True)

    def _augmented(self, node: ast.AugAssign, frame: _Frame) -> None:
        op = _BINARY[type(node.op)]
        current = self._expr(node.target, frame)
        other = self._expr(node.value, frame)
        result = operations.binary(op, current, other, frame.ctx)
        if isinstance(current, Array) and current.library is Library.NUMPY_ARRAY and isinstance(result, Array) \
                and result.library is not Library.JAX:  # fmt: skip
            # In place on the NumPy array; with a JAX operand NumPy declines and Python falls
            # back to ``a = a + j``: the name is rebound to the JAX result, no cast check.
            result = operations.in_place(current, result)
        self._operation("augassign", op, (current, other), result, frame, node)
        if type(node.target) is ast.Name:
            self._bind(node.target, result, frame)

    def _if(self, node: ast.If, frame: _Frame) -> None:
        self._expr(node.test, frame)
        then = frame.copy()
        self._block(node.body, then)
        otherwise = frame.copy()
        self._block(node.orelse, otherwise)  # an `elif` is an `if` alone in the `else` block
        self._merge(frame, [then, otherwise])

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While, frame: _Frame) -> None:
        entry = frame.copy()
        states = [entry]
        current = frame.copy()
        self._loop_depth += 1
        for _ in range(_LOOP_PASSES if self._loop_depth == 1 else 1):
            before = dict(current.names)
            if type(node) is ast.While:
                self._expr(node.test, current)
            else:
                self._assign(node.target, _element_of(self._expr(node.iter, current)), current)
            self._block(node.body, current)
            states.append(current.copy())
            self._merge(current, [entry, current.copy()])
            if current.names == before:
                break
        self._loop_depth -= 1
        self._merge(frame, states)
        self._block(node.orelse, frame)

    def _with(self, node: ast.With | ast.AsyncWith, frame: _Frame) -> None:
        outer = frame.ctx
        for item in node.items:
            value = self._expr(item.context_expr, frame)
            frame.ctx = _mode_switch(item.context_expr, value, frame.ctx, self.settings, self)
            if item.optional_vars is not None:
                self._assign(item.optional_vars, UNKNOWN, frame)
        self._block(node.body, frame)
        frame.ctx = outer

    def _try(self, node: ast.Try | ast.TryStar, frame: _Frame) -> None:
        entry = frame.copy()
        self._block(node.body, frame)
        branches = [frame.copy()]
        for handler in node.handlers:
            branch = entry.copy()
            self._merge(branch, [entry, frame.copy()])
            self._block(handler.body, branch)
            branches.append(branch)
        self._block(node.orelse, branches[0])
        self._merge(frame, branches)
        self._block(node.finalbody, frame)

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
    def _define(self, node: FunctionNode, frame: _Frame) -> Function:
        decorators = getattr(node, "decorator_list", ())
        transparent = all(self._reference_of(_decorator_target(d)) in _TRANSPARENT_DECORATORS for d in decorators)
        tracing = [d for d in decorators if self._reference_of(_decorator_target(d)) in _TRACING]
        # One definition per syntax node: bodies are evaluated repeatedly (loops, calls) and
        # must not register their nested functions again each time.
        index = self._definition_index.get(id(node))
        if index is None:
            index = self._definition_index[id(node)] = len(self._definitions)
            self._definitions.append(_Definition(node, transparent))
            self._calls_left += _CALL_BUDGET_PER_DEFINITION
        function = Function(index)
        if tracing:
            names = [param.arg for param, _ in _parameters(node)]
            function = Function(index, True, frozenset().union(*(_static_names(d, names) for d in tracing)))
        # Defaults are evaluated once, here; a call that omits the argument gets them.
        self._definitions[index].defaults = {
            param.arg: self._expr(default, frame) for param, default in _parameters(node) if default is not None
        }
        if type(node) is not ast.Lambda:
            frame.names[node.name] = function if transparent else UNKNOWN
        return function

    def _call_local(self, function: Function, args: list[Value], kwargs: dict[str, Value]) -> Value:
        definition = self._definitions[function.key]
        names = [param.arg for param, _ in _parameters(definition.node)]
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
        for param, _ in _parameters(definition.node):
            value = frame.names[param.arg] = bound.get(param.arg, UNKNOWN)
            if record:
                self._record(param, value, target=True)
        saved = self._recording
        self._recording, self._depth = record, self._depth + 1
        self._active.add(memo_key)
        try:
            if type(definition.node) is ast.Lambda:
                result = self._expr(definition.node.body, frame)
            else:
                self._block(definition.node.body, frame)
                result = join(frame.returns) if frame.returns else UNKNOWN
        finally:
            self._recording, self._depth = saved, self._depth - 1
            self._active.discard(memo_key)
        if not record:
            self._memo[memo_key] = result
        return result

    # --- expressions --------------------------------------------------------------------
    def _expr(self, node: ast.expr, frame: _Frame) -> Value:
        value = self._evaluators.get(type(node), self._children)(node, frame)
        if self._recording:  # _record inlined: this runs for every expression
            self.sites[id(node)] = Site(node, value, "")
        return value

    def _constant(self, node: ast.Constant, frame: _Frame) -> Value:
        value = node.value
        kind = _SCALAR_KINDS.get(type(value))
        if kind is not None:
            return python_scalar(kind, value)
        if type(value) is str:
            name = resolve_string(value)
            return DTypeRef(name) if name else UNKNOWN
        if value is None:
            return calls.resolve_reference("builtins.None")
        return UNKNOWN  # bytes, ...

    def _formatted(self, node: ast.JoinedStr, frame: _Frame) -> Value:
        """An f-string is a str; what it formats is not analyzed (``ast`` places the parts of
        an f-string unreliably before Python 3.12)."""
        return UNKNOWN

    def _name(self, node: ast.Name, frame: _Frame) -> Value:
        return self._lookup(node.id, frame)

    def _attribute(self, node: ast.Attribute, frame: _Frame) -> Value:
        return calls.attribute(self._expr(node.value, frame), node.attr)

    def _unary(self, node: ast.UnaryOp, frame: _Frame) -> Value:
        operand = self._expr(node.operand, frame)
        op = _UNARY[type(node.op)]
        result = operations.unary(op, operand, frame.ctx)
        self._operation("unary", op, (operand,), result, frame, node)
        return result

    def _boolean(self, node: ast.BoolOp, frame: _Frame) -> Value:
        values = iter(node.values)
        result = self._expr(next(values), frame)
        for value in values:  # `a or b or c` is (a or b) or c
            result = join([result, self._expr(value, frame)])
        return result

    def _conditional(self, node: ast.IfExp, frame: _Frame) -> Value:
        self._expr(node.test, frame)
        return join([self._expr(node.body, frame), self._expr(node.orelse, frame)])

    def _sequence(self, node: ast.Tuple | ast.List, frame: _Frame) -> Value:
        items = [self._expr(e, frame) for e in node.elts]
        if any(type(e) is ast.Starred for e in node.elts):
            return UNKNOWN
        return Items(tuple(items), is_tuple=type(node) is ast.Tuple)

    def _walrus(self, node: ast.NamedExpr, frame: _Frame) -> Value:
        value = self._expr(node.value, frame)
        self._assign(node.target, value, frame)
        return value

    def _children(self, node: ast.expr, frame: _Frame) -> Value:
        """Any other expression: its parts are evaluated, its own value is not tracked."""
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self._expr(child, frame)
        return UNKNOWN

    def _lookup(self, name: str, frame: _Frame) -> Value:
        if name in frame.names:
            return frame.names[name]
        if name in self._module_names:
            return self._module_names[name]
        return calls.resolve_reference(f"builtins.{name}")

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, frame: _Frame) -> Value:
        """Names bound inside a comprehension stay inside; its value is not tracked."""
        inner = frame.copy()
        for clause in node.generators:
            self._assign(clause.target, _element_of(self._expr(clause.iter, inner)), inner)
            for condition in clause.ifs:
                self._expr(condition, inner)
        if type(node) is ast.DictComp:
            self._expr(node.key, inner)
            self._expr(node.value, inner)
        else:
            self._expr(node.elt, inner)
        return UNKNOWN

    def _call(self, node: ast.Call, frame: _Frame) -> Value:
        func = self._expr(node.func, frame)
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        positional = True
        for arg in node.args:
            value = self._expr(arg, frame)
            if type(arg) is ast.Starred:
                positional = False  # positions after *args are unknown
            elif positional:
                args.append(value)
        for keyword in node.keywords:
            value = self._expr(keyword.value, frame)
            if keyword.arg is not None:
                kwargs[keyword.arg] = value
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

    def _higher_order(self, name: str, args: list[Value], call_node: ast.Call) -> Value | None:
        """JAX functions that take the module's functions: ``jax.jit(f)`` is f for dtypes;
        ``lax.cond`` calls both branches; the loops call their body with the carry, whose type
        JAX requires the body to keep."""
        functions = [a for a in args if isinstance(a, Function)]
        if name in _TRACING and args and isinstance(args[0], Function):
            names = [param.arg for param, _ in _parameters(self._definitions[args[0].key].node)]
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

    def _subscript(self, node: ast.Subscript, frame: _Frame) -> Value:
        base = self._expr(node.value, frame)
        elements = _index_elements(node.slice)
        indices = []
        for element in elements:
            if type(element) is ast.Slice:
                for part in (element.lower, element.upper, element.step):
                    if part is not None:
                        self._expr(part, frame)
            else:
                indices.append(self._expr(element, frame))
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
            ndim = _indexed_rank(base.rank, [type(e) is ast.Slice for e in elements], indices)
            library = numpy_library(ndim) if base.library.is_numpy else base.library  # a[0] of a vector is a scalar
            return replace(base, literal=None, provenance="", ndim=ndim, library=library)
        return UNKNOWN

    def _binary(self, node: ast.BinOp, frame: _Frame) -> Value:
        op = _BINARY[type(node.op)]
        left = self._expr(node.left, frame)
        right = self._expr(node.right, frame)
        result = operations.binary(op, left, right, frame.ctx)
        chain, chain_text = (), ()
        if type(node.left) is ast.BinOp and type(node.left.op) is type(node.op):
            inner = self.operations.get(id(node.left))
            if inner is not None:
                code = self.source.code
                chain = (inner.chain or inner.operands) + (right,)
                chain_text = (inner.chain_text or (code(node.left.left), code(node.left.right))) + (code(node.right),)
        self._operation("binop", op, (left, right), result, frame, node, chain=chain, chain_text=chain_text)
        return result

    def _compare(self, node: ast.Compare, frame: _Frame) -> Value:
        left = self._expr(node.left, frame)
        results = []
        for operator, comparator in zip(node.ops, node.comparators):
            right = self._expr(comparator, frame)
            op = _COMPARE.get(type(operator))
            result = operations.compare(op, left, right, frame.ctx) if op else python_scalar("bool")
            if op:
                self._operation("compare", op, (left, right), result, frame, node)
            results.append(result)
            left = right
        return results[0] if len(results) == 1 else UNKNOWN

    # --- modes ------------------------------------------------------------------------
    def _config_update(self, node: ast.expr, frame: _Frame) -> None:
        """``jax.config.update('jax_enable_x64', True)`` changes the mode from here on."""
        if type(node) is not ast.Call:
            return
        arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
        if len(arguments) != 2 or self._reference_of(node.func) not in ("jax.config.update", "jax.config.config.update"):
            return
        key, setting = arguments
        if isinstance(key, ast.Constant) and type(key.value) is str:
            frame.ctx = _apply_setting(frame.ctx, key.value, _literal(setting), self.settings)

    def _annotation(self, node: ast.expr, ctx: Context) -> Value:
        """``head[arg, ...]`` translated to qualified names for the engine."""
        if type(node) is ast.Constant and type(node.value) is str:  # a string annotation: "jax.Array"
            try:
                node = ast.parse(node.value.strip(), mode="eval").body
            except SyntaxError:
                return UNKNOWN
        head, arguments = node, []
        if type(node) is ast.Subscript:
            head = node.value
            arguments = [self._reference_of(e) for e in _index_elements(node.slice) if type(e) is not ast.Slice]
        return annotation_value(self._reference_of(head), arguments, ctx)

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
        value = self._module_names.get(name) or calls.resolve_reference(f"builtins.{name}")
        if isinstance(value, Reference):
            return value.qualname
        if isinstance(value, DTypeRef):
            return f"builtins.{name}" if value.builtin else None
        return None

    # --- records ----------------------------------------------------------------------
    def _record(self, node: ast.AST, value: Value, target: bool = False) -> None:
        if self._recording:
            self.sites[id(node)] = Site(node, value, "", target)

    def _operation(self, kind, op, operands, result, frame: _Frame, node, **extra) -> None:
        if self._recording:
            self.operations[id(node)] = Operation(kind, op, operands, result, frame.ctx, node,
                                                  in_function=frame.in_function, **extra)  # fmt: skip


def _parameters(node: FunctionNode) -> Iterator[tuple[ast.arg, ast.expr | None]]:
    """Each named parameter (not ``*args``/``**kwargs``) with its default."""
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    yield from zip(positional, defaults)
    yield from zip(arguments.kwonlyargs, arguments.kw_defaults)


def _apply_setting(ctx: Context, key: str, setting, settings: Settings) -> Context:
    if key == "jax_enable_x64" and isinstance(setting, bool) and settings.x64 == "auto":
        return replace(ctx, x64=setting)
    if key == "jax_numpy_dtype_promotion" and setting in ("strict", "standard") and settings.promotion == "auto":
        return replace(ctx, strict=setting == "strict")
    if key == "jax_explicit_x64_dtypes" and setting in ("warn", "error", "allow"):
        return replace(ctx, explicit_x64=setting)
    return ctx


def _mode_switch(node: ast.expr, value: Value, ctx: Context, settings: Settings, analysis: Analysis) -> Context:
    """``with jax.enable_x64(True):`` / ``with jax.numpy_dtype_promotion('strict'):``."""
    if type(node) is not ast.Call:
        return ctx
    name = analysis._reference_of(node.func)
    arguments = [*node.args, *(keyword.value for keyword in node.keywords)]
    argument = _literal(arguments[0]) if arguments else None
    if name in ("jax.enable_x64", "jax.experimental.enable_x64"):
        return _apply_setting(ctx, "jax_enable_x64", True if argument is None else argument, settings)
    if name == "jax.experimental.disable_x64":
        return _apply_setting(ctx, "jax_enable_x64", False, settings)
    if name in ("jax.numpy_dtype_promotion", "jax.experimental.numpy_dtype_promotion"):
        return _apply_setting(ctx, "jax_numpy_dtype_promotion", argument, settings)
    return ctx


def _literal(node: ast.expr) -> bool | str | None:
    if type(node) is ast.Constant and type(node.value) in (bool, str):
        return node.value
    return None


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


def _index_elements(index: ast.expr) -> list[ast.expr]:
    """``x[i, j:k]`` indexes with ``i`` and ``j:k``; ``x[(i, j)]`` means the same to Python."""
    return index.elts if type(index) is ast.Tuple else [index]


def _indexed_rank(rank: int | None, slices: list[bool], indices: list[Value]) -> int | None:
    """Dimensions left after basic indexing (``slices`` says which index elements are slices):
    an integer drops one, a slice keeps it, ``None`` adds one; an array index (advanced
    indexing) or ``...`` leaves it unknown."""
    if rank is None:
        return None
    values = iter(indices)
    for is_slice in slices:
        if is_slice:
            continue
        index = next(values)
        if isinstance(index, Items) and index.is_tuple:  # x[(0,), 1]: the inner tuple indexes too; z[()] nothing
            inner = _indexed_rank(rank, [False] * len(index.items), list(index.items))
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


def _dotted(node: ast.expr) -> str:
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _names(node: ast.expr) -> list[str]:
    if type(node) is ast.Name:
        return [node.id]
    if type(node) in (ast.Tuple, ast.List):
        return [n for e in node.elts for n in _names(e)]
    return []


def _static_names(node: ast.expr, names: list[str]) -> frozenset[str]:
    """The parameters ``jax.jit(f, static_argnums=..., static_argnames=...)`` (or the same in
    ``partial(jax.jit, ...)``) keeps static: they stay Python values while tracing."""
    if type(node) is not ast.Call:
        return frozenset()
    static: set[str] = set()
    for keyword in node.keywords:
        if keyword.arg not in ("static_argnums", "static_argnames"):
            continue
        parts = keyword.value.elts if type(keyword.value) in (ast.Tuple, ast.List) else [keyword.value]
        for part in parts:
            value = part.value if type(part) is ast.Constant else None
            if type(value) is int and value < len(names):
                static.add(names[value])
            elif type(value) is str:
                static.add(value)
    return frozenset(static)


def _decorator_target(node: ast.expr) -> ast.expr:
    """``@partial(jax.jit, static_argnums=0)`` decorates with ``jax.jit``."""
    if type(node) is ast.Call:
        if _dotted(node.func).endswith("partial") and node.args:
            return node.args[0]
        return node.func
    return node
