"""The ``ast`` front end: walks a module's statements in order and translates each piece of syntax
into the engine's calls.

The engine's flow (``promolint.engine.flow``) keeps the state: it binds, branches and merges,
runs loops to a fixed point, evaluates the module's functions at their call sites and once more
on their own, and switches JAX's modes; ``promolint.engine.expressions``, ``operations`` and
``calls`` say what each expression computes.  This module only reads syntax: which statement or
expression a node is, which names and literals it holds.  Nothing here imports or runs the code.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence

from promolint.engine import calls, expressions, operations
from promolint.engine.annotations import annotation_value, python_type
from promolint.engine.context import Context
from promolint.engine.flow import higher_order, modes, objects
from promolint.engine.flow.flow import Flow
from promolint.engine.flow.frames import Frame
from promolint.engine.flow.functions import Param
from promolint.engine.flow.objects import FieldSpec
from promolint.engine.flow.modes import Settings
from promolint.engine.records import Operation, Seeds, Site
from promolint.engine.symbolic import join
from promolint.engine.values import (UNKNOWN, Bound, Class, DTypeRef, Elements, Function, Imported, Instance, Items,
                                     Reference, Value, python_scalar)
from promolint.engine.walker.deep import deeply
from promolint.engine.walker.source import Source
from promolint.engine.walker.top_level import TopLevel, top_level

__all__ = ["Analysis", "Settings", "analyze"]

_BINARY = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.LShift: "<<", ast.RShift: ">>",
}  # fmt: skip
# Unknown arguments a `*args` in a call stands for: more positions than any callee binds.
_STARRED_POSITIONS = 16
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY = {ast.USub: "-", ast.UAdd: "+", ast.Invert: "~", ast.Not: "not"}
# What handles each kind of node, by exact type (a dict lookup beats isinstance chains on the
# hottest path).  Names, not functions: the tables are bound per analysis.
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
    ast.Dict: "_dict",
}  # fmt: skip

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
# Statements of a class body that cannot define a method out of the engine's sight.
_CLASS_BODY_STATEMENTS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.AnnAssign, ast.Expr,
                                    ast.Pass, ast.ClassDef, ast.Import, ast.ImportFrom, ast.AugAssign})  # fmt: skip
# Annotations in a class body that declare no dataclass field.
_NOT_FIELDS = frozenset({"typing.ClassVar", "dataclasses.InitVar", "typing_extensions.ClassVar"})


class Analysis:
    """Values of every expression of one module, and the operations rules read."""

    def __init__(self, source: Source, settings: Settings = Settings(), seeds: Seeds = Seeds()):
        self.source = source
        self.settings = settings
        self.flow = Flow(self, settings, seeds)
        self._statement_handlers = {kind: getattr(self, name) for kind, name in _STATEMENT_HANDLERS.items()}
        self._evaluators = {kind: getattr(self, name) for kind, name in _EVALUATORS.items()}

    @property
    def sites(self) -> dict[int, Site]:
        return self.flow.sites

    @property
    def operations(self) -> dict[int, Operation]:
        return self.flow.operations

    def run(self) -> Analysis:
        frame = self.flow.module_frame()
        handlers = self._statement_handlers
        for statement in self.source.tree.body:
            handler = handlers.get(type(statement))
            if handler is not None:
                self.flow.statement(statement, lambda f, s=statement, h=handler: h(s, f), frame)
        self.flow.finish(frame)
        return self

    @property
    def failures(self) -> list[ast.stmt | FunctionNode]:
        """Statements and functions nested too deeply to analyze: their sites are missing."""
        return self.flow.failures

    def release(self) -> None:
        """The analysis has been read: break the cycles it is made of (its handlers, the flow's
        back references), so that its objects are freed at once, not by the cyclic collector,
        which would traverse every one of them (a tenth of a run)."""
        self._statement_handlers = self._evaluators = {}
        self.flow.release()


    # --- what the flow asks of the front end ----------------------------------------------
    def run_body(self, node: FunctionNode, frame: Frame) -> Value:
        if type(node) is ast.Lambda:
            return self._expr(node.body, frame)
        self._block(node.body, frame)
        return join(frame.returns) if frame.returns else UNKNOWN

    def names(self, node: FunctionNode) -> frozenset[str]:
        """The names and attribute names a function's code (its nested functions' too) reads."""
        found = getattr(node, "_promolint_names", None)
        if found is None:  # kept on the node: a caller module's tree serves the analyses of many files
            found = frozenset(n.id if type(n) is ast.Name else n.attr for n in ast.walk(node)
                              if type(n) in (ast.Name, ast.Attribute))  # fmt: skip
            node._promolint_names = found
        return found

    @staticmethod
    def top_level(path: str) -> TopLevel | None:
        """The top level of another module of the program (``promolint.engine.flow.modules``)."""
        return top_level(path)

    def run_top_level(self, module: TopLevel, statements: Sequence[int], names: dict[str, Value]) -> None:
        """Run ``statements`` of another module's top level into ``names``, in the modes this
        module starts in."""
        self._block([module.statement(index) for index in statements], Frame(names, self.settings.initial()))

    def annotation(self, node: ast.expr, ctx: Context) -> Value:
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
        reference = self._reference_of(head)
        value = annotation_value(reference, arguments, ctx)
        return self._object_of_class(head, reference) if value is UNKNOWN else value

    def _object_of_class(self, node: ast.expr, reference: str | None) -> Value:
        """An object of the program's class ``node`` names (``GameState``; ``core.State``, a class
        of another module), else unknown."""
        if type(node) is ast.Name:
            return self._annotated_object(self.flow.module_names.get(node.id))
        if type(node) is ast.Attribute and reference:
            module, _, name = reference.rpartition(".")
            return self._annotated_object(self.flow.modules.bind(module, name) if module else None)
        return UNKNOWN

    def _annotated_object(self, value: Value | None) -> Value:
        """A value annotated with one of the program's classes: an object of it or of a subclass
        (``state: GameState``), whose fields hold what the program makes such objects with."""
        if type(value) is Imported:
            value = self.flow.modules.resolve(value)
        return Instance(value.cls, exact=False) if type(value) is Class else UNKNOWN

    # --- statements ---------------------------------------------------------------------
    def _block(self, body: list[ast.stmt], frame: Frame) -> None:
        handlers = self._statement_handlers
        for statement in body:
            handler = handlers.get(type(statement))
            if handler is not None:
                handler(statement, frame)

    def _class(self, node: ast.ClassDef, frame: Frame) -> None:
        """A class: its body runs in a frame of its own; the engine gets its bases, decorators,
        the names its body binds, its methods and its annotated names (dataclass fields)."""
        bases = [self._base(base, frame) for base in node.bases]
        for keyword in node.keywords:
            self._expr(keyword.value, frame)
        inner = Frame(dict(frame.names), frame.ctx)
        methods, fields, declared = [], [], set()
        handlers = self._statement_handlers
        for statement in node.body:
            kind = type(statement)
            if kind is ast.FunctionDef or kind is ast.AsyncFunctionDef:
                decorators = [self._reference_of(_decorator_target(d)) for d in statement.decorator_list]
                methods.append((statement.name, self._define(statement, inner), decorators))
                continue
            handler = handlers.get(kind)
            if handler is not None:
                handler(statement, inner)
            if kind is ast.AnnAssign and type(statement.target) is ast.Name:
                name = statement.target.id
                if statement.value is None:
                    declared.add(name)
                else:
                    declared.discard(name)
                annotation = statement.annotation
                head = annotation.value if type(annotation) is ast.Subscript else annotation
                if self._reference_of(head) not in _NOT_FIELDS:
                    default = inner.names.get(name) if statement.value is not None else None
                    fields.append(FieldSpec.declared(name, self.annotation(annotation, inner.ctx), default))
        method_names = {name for name, _, _ in methods}
        values = {name: value for name, value in inner.names.items()
                  if frame.names.get(name) is not value and name not in declared and name not in method_names}
        decorators = [self._reference_of(_decorator_target(d)) for d in node.decorator_list]
        hidden = any(type(statement) not in _CLASS_BODY_STATEMENTS for statement in node.body)
        frame.names[node.name] = self.flow.objects.define(node, node.name, bases, decorators, values, methods,
                                                          fields, hidden)  # fmt: skip

    def _base(self, node: ast.expr, frame: Frame) -> Value:
        """A base class: ``Generic[T]`` is ``Generic``."""
        if type(node) is ast.Subscript:
            self._expr(node, frame)
            node = node.value
        return self._expr(node, frame)

    def _match(self, node: ast.Match, frame: Frame) -> None:
        self._expr(node.subject, frame)
        self.flow.branches(frame, [self._runner(case.body) for case in node.cases], fall_through=True)

    def _runner(self, body: list[ast.stmt]):
        return lambda frame: self._block(body, frame)

    def _expression_statement(self, node: ast.Expr, frame: Frame) -> None:
        call = node.value
        if type(call) is ast.Call and len(call.args) + len(call.keywords) == 2:
            key, setting = [*call.args, *(keyword.value for keyword in call.keywords)]
            frame.ctx = modes.config_update(frame.ctx, self._reference_of(call.func), _literal(key),
                                            _literal(setting), self.settings)  # fmt: skip
        self._expr(call, frame)

    def _assign_statement(self, node: ast.Assign, frame: Frame) -> None:
        value = self._expr(node.value, frame)
        for target in node.targets:
            self._assign(target, value, frame)

    def _annotated_assign(self, node: ast.AnnAssign, frame: Frame) -> None:
        if node.value is not None:
            value = self._expr(node.value, frame)
        else:
            value = self.annotation(node.annotation, frame.ctx)
        self._assign(node.target, value, frame)

    def _return(self, node: ast.Return, frame: Frame) -> None:
        if node.value is None:
            frame.returns.append(UNKNOWN)
        else:
            self.flow.returned(frame, node.value, self._expr(node.value, frame))

    def _import(self, node: ast.Import, frame: Frame) -> None:
        for alias in node.names:
            self.flow.record_import(alias.name)
            if alias.asname is not None:
                frame.names[alias.asname] = Reference(alias.name)
            else:
                head = alias.name.split(".")[0]
                frame.names[head] = Reference(head)

    def _import_from(self, node: ast.ImportFrom, frame: Frame) -> None:
        module = self.flow.absolute_module(node.module, node.level)
        if module is not None:
            self.flow.record_import(module)
        if module is None:
            return
        if any(alias.name == "*" for alias in node.names):
            frame.names.update(self.flow.star_imported(module))
            return
        for alias in node.names:
            frame.names[alias.asname or alias.name] = self.flow.imported(module, alias.name)

    def _assert(self, node: ast.Assert, frame: Frame) -> None:
        self._expr(node.test, frame)

    def _delete(self, node: ast.Delete, frame: Frame) -> None:
        for target in node.targets:
            for name in _names(target):
                frame.names.pop(name, None)

    def _assign(self, target: ast.expr, value: Value, frame: Frame) -> None:
        kind = type(target)
        if kind is ast.Name:
            self._bind(target, value, frame)
        elif kind is ast.Tuple or kind is ast.List:
            elements = target.elts
            starred = any(type(e) is ast.Starred for e in elements)
            value = self.flow.objects.as_items(value) or value  # a NamedTuple unpacks as a tuple
            for element, part in zip(elements, expressions.unpack(value, len(elements), starred)):
                self._assign(element.value if type(element) is ast.Starred else element, part, frame)
        elif kind is ast.Attribute:
            self.flow.objects.assign(self._expr(target.value, frame), target.attr, value, frame.ctx)
        elif kind is ast.Subscript:
            container = self._expr(target.value, frame)
            slices, indices = self._index(target.slice, frame)
            # A dict with literal keys gets the entry: the dict is assigned back where it is held.
            changed = objects.stored(container, _key_literal(target.slice), value, type(target.value) is ast.Name)
            if changed is not None:
                frame.changed_in_place(container, changed)
                self._assign(target.value, changed, frame)
            else:
                element = expressions.subscript(container, slices, indices)
                stored = expressions.store(element, value)
                self.flow.operation("store", "[]=", (element, value), stored, frame, target)
                self.flow.record(target, stored, target=True)
        else:
            self._expr(target, frame)

    def _index(self, index: ast.expr, frame: Frame) -> tuple[list[bool], list[Value]]:
        """Evaluates an index: which of its elements are slices, and the values of the others."""
        elements = _index_elements(index)
        indices = []
        for element in elements:
            if type(element) is ast.Slice:
                for part in (element.lower, element.upper, element.step):
                    if part is not None:
                        self._expr(part, frame)
            else:
                indices.append(self._expr(element, frame))
        return [type(e) is ast.Slice for e in elements], indices

    def _bind(self, target: ast.Name, value: Value, frame: Frame) -> None:
        frame.names[target.id] = value
        self.flow.record(target, value, target=True)

    def _augmented(self, node: ast.AugAssign, frame: Frame) -> None:
        op = _BINARY[type(node.op)]
        current = self._expr(node.target, frame)
        other = self._expr(node.value, frame)
        result = expressions.augmented(op, current, other, frame.ctx)
        result = self.flow.operation("augassign", op, (current, other), result, frame, node)
        if type(node.target) is ast.Name:
            self._bind(node.target, result, frame)
        else:
            self._assign(node.target, result, frame)

    def _if(self, node: ast.If, frame: Frame) -> None:
        """An ``if``/``elif``/.../``else`` ladder, walked as one statement (an ``elif`` is an
        ``if`` alone in the ``else`` block), so that ladders as long as Python compiles need no
        recursion: the tests, then each branch from the state before them."""
        runs = []
        said: list[bool | None] = []  # what each test says of x64 when it holds, in order
        current: ast.If | None = node
        while current is not None:
            self._expr(current.test, frame)
            said.append(self._x64_test(current.test))
            runs.append(_assuming(self._guarded(current.test, self._runner(current.body)), said[:-1], said[-1]))
            orelse = current.orelse
            if len(orelse) == 1 and type(orelse[0]) is ast.If:
                current = orelse[0]
            else:
                runs.append(_assuming(self._runner(orelse), said, None))
                current = None
        self.flow.branches(frame, runs)

    def _guarded(self, test: ast.expr, run):
        """``run`` (the branch an ``if`` test guards) with the name the test checks narrowed:
        ``isinstance(c, float)`` holds only for a Python float (evojax's ``init_stdev``)."""
        if not (type(test) is ast.Call and self._reference_of(test.func) == "builtins.isinstance"
                and len(test.args) == 2 and type(test.args[0]) is ast.Name):  # fmt: skip
            return run
        name, kind = test.args[0].id, test.args[1]
        narrowed = python_type(self._reference_of(kind))
        if narrowed is None:
            # one of the program's classes: an object of it, never a number (penzai's
            # `isinstance(leaf, ArraySpec)` then `leaf.shape`)
            narrowed = self._object_of_class(kind, self._reference_of(kind))
            narrowed = narrowed if type(narrowed) is Instance else None
        if narrowed is None:
            return run

        def guarded(frame: Frame) -> None:
            frame.names[name] = narrowed
            run(frame)

        return guarded

    def _x64_test(self, test: ast.expr) -> bool | None:
        """True where ``test`` holds exactly when x64 is on (``jax.config.jax_enable_x64``,
        ``jax.config.read("jax_enable_x64")``), False where exactly when it is off (``not ...``),
        None for any other test."""
        kind = type(test)
        if kind is ast.UnaryOp and type(test.op) is ast.Not:
            inner = self._x64_test(test.operand)
            return None if inner is None else not inner
        if kind is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.Eq):
            right = test.comparators[0]
            inner = self._x64_test(test.left)
            if inner is not None and type(right) is ast.Constant and type(right.value) is bool:
                return inner if right.value else not inner
            return None
        if kind is ast.Call:
            named = test.args[0] if len(test.args) == 1 and not test.keywords else None
            reads = self._reference_of(test.func) in modes.CONFIG_READS
            return True if reads and named is not None and _literal(named) == "jax_enable_x64" else None
        return True if self._reference_of(test) in modes.X64_ATTRIBUTES else None

    def _loop(self, node: ast.For | ast.AsyncFor | ast.While, frame: Frame) -> None:
        def step(current: Frame) -> None:
            if type(node) is ast.While:
                self._expr(node.test, current)
            else:
                self._assign(node.target, expressions.element_of(self._expr(node.iter, current)), current)
            self._block(node.body, current)

        self.flow.loop(frame, step, self._runner(node.orelse))

    def _with(self, node: ast.With | ast.AsyncWith, frame: Frame) -> None:
        outer = frame.ctx
        for item in node.items:
            context = item.context_expr
            self._expr(context, frame)
            if type(context) is ast.Call:
                arguments = [_literal(a) for a in (*context.args, *(k.value for k in context.keywords))]
                frame.ctx = modes.switched(frame.ctx, self._reference_of(context.func), arguments, self.settings)
            if item.optional_vars is not None:
                self._assign(item.optional_vars, UNKNOWN, frame)
        self._block(node.body, frame)
        frame.ctx = outer

    def _try(self, node: ast.Try | ast.TryStar, frame: Frame) -> None:
        self.flow.attempt(frame, self._runner(node.body), [self._runner(h.body) for h in node.handlers],
                          self._runner(node.orelse), self._runner(node.finalbody))  # fmt: skip

    # --- functions ----------------------------------------------------------------------
    def _define(self, node: FunctionNode, frame: Frame) -> Function:
        decorators = getattr(node, "decorator_list", ())
        names = [self._reference_of(_decorator_target(d)) for d in decorators]
        params = [Param(param.arg, param, param.annotation) for param, _ in _parameters(node)]
        functions = self.flow.functions
        enclosing = (frame.names, *frame.enclosing) if frame.in_function else ()
        key = functions.define(node, params, higher_order.keeps_body(names),
                               node.lineno if type(node) is not ast.Lambda else None,
                               enclosing, lambda: _free_names(node, params) if enclosing else ())  # fmt: skip
        function = Function(key)
        tracing = [d for d, name in zip(decorators, names) if name in higher_order.TRACING]
        if tracing:
            parameter_names = [param.name for param in params]
            static = frozenset().union(*(_static_names(d, parameter_names) for d in tracing))
            outermost = next(name for name in names if name in higher_order.TRACING)
            function = Function(key, True, static, outermost in higher_order.COMPILING)
        functions.set_defaults(key, {param.arg: self._expr(default, frame) for param, default in _parameters(node)
                                     if default is not None})  # fmt: skip
        if type(node) is not ast.Lambda:
            frame.names[node.name] = objects.decorated_function(function, names)
        return function

    # --- expressions --------------------------------------------------------------------
    def _expr(self, node: ast.expr, frame: Frame) -> Value:
        value = self._evaluators.get(type(node), self._children)(node, frame)
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
        return self.flow.operation("unary", op, (operand,), operations.unary(op, operand, frame.ctx), frame, node)

    def _boolean(self, node: ast.BoolOp, frame: Frame) -> Value:
        values = iter(node.values)
        result = self._expr(next(values), frame)
        for value in values:  # `a or b or c` is (a or b) or c
            result = join([result, self._expr(value, frame)])
        return result

    def _conditional(self, node: ast.IfExp, frame: Frame) -> Value:
        self._expr(node.test, frame)
        return join([self._expr(node.body, frame), self._expr(node.orelse, frame)])

    def _sequence(self, node: ast.Tuple | ast.List, frame: Frame) -> Value:
        items = [self._expr(e, frame) for e in node.elts]
        if any(type(e) is ast.Starred for e in node.elts):
            return UNKNOWN
        return Items(tuple(items), is_tuple=type(node) is ast.Tuple)

    def _dict(self, node: ast.Dict, frame: Frame) -> Value:
        entries = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                entries.append((objects.SPREAD, self._expr(value, frame)))
            else:
                self._expr(key, frame)
                entries.append((_key_literal(key), self._expr(value, frame)))
        return objects.dict_display(entries)

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
        if type(node.func) is ast.Attribute and objects.mutated(func.receiver if isinstance(func, Bound) else None,
                                                                node.func.attr,
                                                                type(node.func.value) is ast.Name):  # fmt: skip
            frame.changed_in_place(func.receiver, UNKNOWN)
            self._assign(node.func.value, UNKNOWN, frame)  # d.update(...): the dict is no longer followed
        return self.flow.call(func, args, kwargs, frame, node, lambda names: _static_names(node, names), open_keywords)

    def _subscript(self, node: ast.Subscript, frame: Frame) -> Value:
        base = self._expr(node.value, frame)
        slices, indices = self._index(node.slice, frame)
        if len(indices) == 1 and len(slices) == 1:
            item = self.flow.objects.item(base, _key_literal(node.slice))
            if item is not None:
                return item
        return expressions.subscript(base, slices, indices)

    def _binary(self, node: ast.BinOp, frame: Frame) -> Value:
        """A binary operator, and the chain of binary operators down its left operand, walked
        without recursion (``a + b + ... + z`` as long as Python compiles)."""
        spine = [node]
        while type(spine[-1].left) is ast.BinOp:
            spine.append(spine[-1].left)
        left = self._expr(spine[-1].left, frame)
        flow = self.flow
        for current in reversed(spine):
            op = _BINARY[type(current.op)]
            right = self._expr(current.right, frame)
            result = operations.binary(op, left, right, frame.ctx)
            chain, chain_text = (), ()
            inner_node = current.left
            if type(inner_node) is ast.BinOp and type(inner_node.op) is type(current.op):
                inner = flow.operations.get(id(inner_node))
                if inner is not None:
                    code = self.source.code
                    chain, chain_text = expressions.extend_chain(
                        inner, right, (code(inner_node.left), code(inner_node.right)), code(current.right))
            result = flow.operation("binop", op, (left, right), result, frame, current, chain=chain,
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
            result = operations.compare(op, left, right, frame.ctx) if op else python_scalar("bool")
            if op:
                self.flow.operation("compare", op, (left, right), result, frame, node)
            results.append(result)
            left = right
        return results[0] if len(results) == 1 else UNKNOWN

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


def analyze(source: Source, settings: Settings = Settings(), seeds: Seeds = Seeds()) -> Analysis:
    """The analysis of ``source``; code nested more deeply than the default recursion limit
    allows is analyzed again on a deep stack, as deep as CPython compiles."""
    analysis = Analysis(source, settings, seeds).run()
    if analysis.failures:
        analysis = deeply(lambda: Analysis(source, settings, seeds).run())
    return analysis


def _parameters(node: FunctionNode) -> Iterator[tuple[ast.arg, ast.expr | None]]:
    """Each named parameter (not ``*args``/``**kwargs``) with its default."""
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
    yield from zip(positional, defaults)
    yield from zip(arguments.kwonlyargs, arguments.kw_defaults)


def _assuming(run, earlier: list[bool | None], holds: bool | None):
    """``run`` (a branch of an ``if`` ladder) in the x64 mode its tests imply: each earlier test
    failed, and its own (``holds``, None for an ``else``) held."""
    implied = [not said for said in earlier if said is not None] + ([holds] if holds is not None else [])
    if not implied:
        return run

    def assuming(frame: Frame) -> None:
        for on in implied:
            frame.ctx = modes.assume_x64(frame.ctx, on)
        run(frame)

    return assuming


def _literal(node: ast.expr) -> bool | str | None:
    if type(node) is ast.Constant and type(node.value) in (bool, str):
        return node.value
    return None


def _key_literal(node: ast.expr) -> object:
    """A string or integer literal (a dict key or an index the engine follows), else None."""
    if type(node) is ast.Constant and type(node.value) in (str, int):
        return node.value
    return None


def _index_elements(index: ast.expr) -> list[ast.expr]:
    """``x[i, j:k]`` indexes with ``i`` and ``j:k``; ``x[(i, j)]`` means the same to Python."""
    return index.elts if type(index) is ast.Tuple else [index]


def _dotted(node: ast.expr) -> str:
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return f"{_dotted(node.value)}.{node.attr}"
    return ""


def _free_names(node: FunctionNode, params: list[Param]) -> tuple[str, ...]:
    """The names a function's body (nested functions included) reads that may be its enclosing
    functions' variables: every name read but its parameters (a name it also binds is read
    from its own frame first; listing it too only costs a memo entry)."""
    own = {param.name for param in params}
    return tuple(sorted({n.id for n in ast.walk(node) if type(n) is ast.Name and type(n.ctx) is ast.Load} - own))


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
