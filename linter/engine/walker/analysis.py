"""The ``ast`` front end: walks a module's statements in order and translates each piece of syntax
into the engine's calls (expressions: ``promolint.engine.walker.expressions``).

The engine's flow (``promolint.engine.flow``) keeps the state: it binds, branches and merges,
runs loops to a fixed point, evaluates the module's functions at their call sites and once more
on their own, and switches JAX's modes; ``promolint.engine.expressions``, ``operations`` and
``calls`` say what each expression computes.  This module only reads syntax: which statement or
expression a node is, which names and literals it holds.  Nothing here imports or runs the code.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from promolint.engine import expressions
from promolint.engine.annotations import annotation_value, python_type
from promolint.engine.context import Context
from promolint.engine.flow import classes, containers, higher_order, modes
from promolint.engine.flow.flow import Flow
from promolint.engine.flow.frames import Frame
from promolint.engine.flow.functions import Param
from promolint.engine.flow.classes import FieldSpec
from promolint.engine.flow.modes import Settings
from promolint.engine.records import Operation, OperationKind, Seeds, Site
from promolint.engine.symbolic import join
from promolint.engine.symbolic.choice import Split
from promolint.engine.values import (NONE, UNKNOWN, Alternatives, Class, Function, Imported, Instance, OrNone, Reference,
                                     Value)
from promolint.engine.walker.counts import counted
from promolint.engine.walker.deep import deeply
from promolint.engine.walker.expressions import BINARY_OPERATORS, EVALUATORS, ExpressionWalker
from promolint.engine.walker.nodes import (FunctionNode, decorator_target, free_names, index_elements, key_literal,
                                           leaves, literal, none_test, parameters, place, static_names,
                                           target_names)
from promolint.engine.walker.source import Source
from promolint.engine.walker.top_level import TopLevel, top_level

# What a test says of the x64 mode where it holds and where it fails (None: nothing).
X64Said = tuple[bool | None, bool | None]
_READS_X64: X64Said = (True, False)
_SAYS_NOTHING: X64Said = (None, None)

__all__ = ["Analysis", "Settings", "analyze"]

# What handles each kind of statement, by exact type (a dict lookup beats isinstance chains on the
# hottest path).  Names: the class's methods of those names, unbound.
_STATEMENT_HANDLERS = {
    ast.Expr: "_expression_statement", ast.Assign: "_assign_statement", ast.AnnAssign: "_annotated_assign",
    ast.AugAssign: "_augmented", ast.Return: "_return", ast.Import: "_import", ast.ImportFrom: "_import_from",
    ast.Assert: "_assert", ast.Delete: "_delete", ast.If: "_if", ast.For: "_loop", ast.AsyncFor: "_loop",
    ast.While: "_loop", ast.With: "_with", ast.AsyncWith: "_with", ast.Try: "_try", ast.TryStar: "_try",
    ast.FunctionDef: "_define", ast.AsyncFunctionDef: "_define", ast.ClassDef: "_class", ast.Match: "_match",
}  # fmt: skip

# Statements of a class body that cannot define a method out of the engine's sight.
_CLASS_BODY_STATEMENTS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.Assign, ast.AnnAssign, ast.Expr,
                                    ast.Pass, ast.ClassDef, ast.Import, ast.ImportFrom, ast.AugAssign})  # fmt: skip
# What is False when the code runs and True for a type checker.
_TYPE_CHECKING = frozenset({"typing.TYPE_CHECKING", "typing_extensions.TYPE_CHECKING"})
# Annotations in a class body that declare no dataclass field.
_NOT_FIELDS = frozenset({"typing.ClassVar", "dataclasses.InitVar", "typing_extensions.ClassVar"})


class Analysis(ExpressionWalker):
    """Values of every expression of one module, and the operations rules read."""

    def __init__(self, source: Source, settings: Settings = Settings(), seeds: Seeds = Seeds()):
        self.source = source
        self.settings = settings
        self.flow = Flow(self, settings, seeds)

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
                self.flow.statement(statement, lambda f, s=statement, h=handler: h(self, s, f), frame)
        self.flow.finish(frame)
        return self

    @property
    def failures(self) -> list[ast.stmt | FunctionNode]:
        """Statements and functions nested too deeply to analyze: their sites are missing."""
        return self.flow.failures



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
            arguments = [self._reference_of(e) for e in index_elements(node.slice) if type(e) is not ast.Slice]
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
                handler(self, statement, frame)

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
                decorators = [self._reference_of(decorator_target(d)) for d in statement.decorator_list]
                methods.append((statement.name, self._define(statement, inner), decorators))
                continue
            handler = handlers.get(kind)
            if handler is not None:
                handler(self, statement, inner)
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
        decorators = [self._reference_of(decorator_target(d)) for d in node.decorator_list]
        hidden = any(type(statement) not in _CLASS_BODY_STATEMENTS for statement in node.body)
        bound = self.flow.objects.define(node, node.name, bases, decorators, values, methods, fields, hidden)
        defined = self.flow.objects.class_of(node)
        if bound is UNKNOWN and defined is not None:
            bound = self.flow.through_decorators(defined, self._makers(node.decorator_list, decorators,
                                                                       classes.KEEP_CLASS, frame), frame.ctx)  # fmt: skip
        frame.names[node.name] = bound

    def _makers(self, decorators: list[ast.expr], names: list[str | None], kept: frozenset[str],
                frame: Frame) -> list[Value]:  # fmt: skip
        """The values of the decorators whose names are not ``kept`` (those the engine knows keep
        what they decorate), read without recording a site."""
        return [self.flow.unrecorded(lambda d=d: self._expr(d, frame)) for d, name in zip(decorators, names)
                if name not in kept]  # fmt: skip

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
            frame.ctx = modes.config_update(frame.ctx, self._reference_of(call.func), literal(key),
                                            literal(setting), self.settings)  # fmt: skip
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
            for name in target_names(target):
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
            changed = containers.stored(container, key_literal(target.slice), value, type(target.value) is ast.Name)
            if changed is not None:
                frame.changed_in_place(container, changed)
                self._assign(target.value, changed, frame)
            else:
                element = expressions.subscript(container, slices, indices)
                stored = expressions.store(element, value)
                self.flow.operation(OperationKind.STORE, "[]=", (element, value), stored, frame, target)
                self.flow.record(target, stored, target=True)
        else:
            self._expr(target, frame)

    def _bind(self, target: ast.Name, value: Value, frame: Frame) -> None:
        frame.names[target.id] = value
        self.flow.record(target, value, target=True)

    def _augmented(self, node: ast.AugAssign, frame: Frame) -> None:
        op = BINARY_OPERATORS[type(node.op)]
        current = self._expr(node.target, frame)
        other = self._expr(node.value, frame)
        result = expressions.augmented(op, current, other, frame.ctx)
        result = self.flow.operation(OperationKind.AUGASSIGN, op, (current, other), result, frame, node)
        if type(node.target) is ast.Name:
            self._bind(node.target, result, frame)
        else:
            self._assign(node.target, result, frame)

    def _if(self, node: ast.If, frame: Frame) -> None:
        """An ``if``/``elif``/.../``else`` ladder, walked as one statement (an ``elif`` is an
        ``if`` alone in the ``else`` block), so that ladders as long as Python compiles need no
        recursion: the tests, then each branch from the state before them."""
        checking = self._type_checking_test(node.test)
        if checking is not None:
            self._type_checking(node, checking, frame)
            return
        runs = []
        leaving: list[str | None] = []  # "raise" or "return" where a branch always ends in one
        said: list[X64Said] = []  # what each test says of x64 where it holds and where it fails, in order
        not_none: list[str] = []  # names an earlier test found None: later branches run where they are not
        current: ast.If | None = node
        first_test = None
        while current is not None:
            tested = self._expr(current.test, frame)
            first_test = tested if current is node else first_test
            said.append(self._x64_test(current.test))
            compared, none_when_true = none_test(current.test)
            body = self._guarded(current.test, self._runner(current.body))
            if compared is not None and not none_when_true:
                body = _without_none([compared], body)
            runs.append(self._assuming(_without_none(list(not_none), body), said[:-1], said[-1][0]))
            leaving.append(leaves(current.body))
            if compared is not None and none_when_true:
                not_none.append(compared)
            orelse = current.orelse
            if len(orelse) == 1 and type(orelse[0]) is ast.If:
                current = orelse[0]
            else:
                runs.append(self._assuming(_without_none(list(not_none), self._runner(orelse)), said, None))
                leaving.append(leaves(orelse))
                current = None
        self.flow.branches(frame, runs, leaving=leaving, split=self._split(node, first_test, frame, len(runs)))

    def _assuming(self, run, earlier: list[X64Said], holds: bool | None):
        """``run`` (a branch of an ``if`` ladder) in the x64 mode its tests imply: each earlier test
        failed, and its own (``holds``, None for an ``else``) held.  A function's branch that runs
        only with x64 on, met in a run with x64 off, is walked unrecorded: its parameters range
        over what JAX has with x64 off (no float64 arrays), so nothing found there would hold for
        the arrays it really gets."""
        implied = [fails for _, fails in earlier if fails is not None] + ([holds] if holds is not None else [])
        if not implied:
            return run

        def assuming(frame: Frame) -> None:
            narrower = frame.in_function and not frame.ctx.x64 and True in implied
            for on in implied:
                frame.ctx = modes.assume_x64(frame.ctx, on)
            if narrower:
                self.flow.unrecorded(lambda: run(frame))
            else:
                run(frame)

        return assuming

    def _type_checking_test(self, test: ast.expr) -> bool | None:
        """True where ``test`` is ``TYPE_CHECKING`` (``typing``'s or ``typing_extensions``'s),
        False where it is ``not TYPE_CHECKING``, None for any other test."""
        if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
            inner = self._type_checking_test(test.operand)
            return None if inner is None else not inner
        return True if self._reference_of(test) in _TYPE_CHECKING else None

    def _type_checking(self, node: ast.If, holds: bool, frame: Frame) -> None:
        """``if TYPE_CHECKING:`` (``holds``; ``if not TYPE_CHECKING:`` otherwise): the branch a
        type checker reads never runs, the other always does (``if TYPE_CHECKING: from dataclasses
        import dataclass`` / ``else: from chex import dataclass``: chex's).  What only the
        checker's branch binds stays unbound, as when the code runs: an annotation naming it
        (``state: "sinkhorn.SinkhornState"``) is not read as an object of that class, whose fields
        the program may leave unknown where a parameter's variable lets rules weigh every dtype."""
        self._block(node.orelse if holds else node.body, frame)

    def _split(self, node: ast.If, test: Value, frame: Frame, runs: int) -> Split | None:
        """The ladder's branches told apart by its first test (``_choosing``): its first branch
        runs where it holds, the others where it fails."""
        chooser, holds = self._choosing(node.test, test, frame)
        return None if chooser is None else Split(chooser, (holds, *[not holds] * (runs - 1)))

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

    def _x64_test(self, test: ast.expr) -> X64Said:
        """What ``test`` says of the x64 mode where it holds and where it fails: (True, False) for
        a read of it (``jax.config.jax_enable_x64``, ``jax.config.read("jax_enable_x64")``),
        (False, True) for ``not ...``; through ``and`` and ``or`` what every way to hold (or to
        fail) implies: ``force and jax.config.read("jax_enable_x64")`` holds only with x64 on,
        and may fail in either mode."""
        kind = type(test)
        if kind is ast.UnaryOp and type(test.op) is ast.Not:
            holds, fails = self._x64_test(test.operand)
            return fails, holds
        if kind is ast.BoolOp:
            holds, fails = zip(*(self._x64_test(value) for value in test.values))
            # Every operand holds where an `and` holds, and one of them fails where it fails (an
            # `or` the other way round).
            if type(test.op) is ast.And:
                return _any_says(holds), _all_say(fails)
            return _all_say(holds), _any_says(fails)
        if kind is ast.Compare and len(test.ops) == 1 and type(test.ops[0]) in (ast.Is, ast.Eq):
            right = test.comparators[0]
            holds, fails = self._x64_test(test.left)
            if type(right) is ast.Constant and type(right.value) is bool:
                return (holds, fails) if right.value else (fails, holds)
            return _SAYS_NOTHING
        if kind is ast.Call:
            named = test.args[0] if len(test.args) == 1 and not test.keywords else None
            reads = self._reference_of(test.func) in modes.CONFIG_READS
            return _READS_X64 if reads and named is not None and literal(named) == "jax_enable_x64" else _SAYS_NOTHING
        return _READS_X64 if self._reference_of(test) in modes.X64_ATTRIBUTES else _SAYS_NOTHING

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
                arguments = [literal(a) for a in (*context.args, *(k.value for k in context.keywords))]
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
        names = [self._reference_of(decorator_target(d)) for d in decorators]
        params = [Param(param.arg, param, param.annotation) for param, _ in parameters(node)]
        functions = self.flow.functions
        enclosing = (frame.names, *frame.enclosing) if frame.in_function else ()
        key = functions.define(node, params, higher_order.keeps_body(names), place(node), enclosing,
                               lambda: free_names(node, params) if enclosing else (),
                               lambda: counted(node, [param.name for param in params]))  # fmt: skip
        function = Function(key)
        tracing = [d for d, name in zip(decorators, names) if name in higher_order.TRACING]
        if tracing:
            parameter_names = [param.name for param in params]
            static = frozenset().union(*(static_names(d, parameter_names) for d in tracing))
            outermost = next(name for name in names if name in higher_order.TRACING)
            function = Function(key, True, static, outermost in higher_order.COMPILING)
        functions.set_defaults(key, {param.arg: self._expr(default, frame) for param, default in parameters(node)
                                     if default is not None})  # fmt: skip
        if type(node) is not ast.Lambda:
            decorated = classes.decorated_function(function, names)
            if decorated is UNKNOWN and decorators:
                decorated = self.flow.through_decorators(function, self._makers(decorators, names, higher_order.TRANSPARENT,
                                                                                frame), frame.ctx)  # fmt: skip
            frame.names[node.name] = decorated
        return function


# Each node type's handler, unbound: an analysis passes itself to it (bound methods it held would
# make it a reference cycle, which only the cyclic collector frees).
Analysis._statement_handlers = {kind: getattr(Analysis, name) for kind, name in _STATEMENT_HANDLERS.items()}
Analysis._evaluators = {kind: getattr(Analysis, name) for kind, name in EVALUATORS.items()}


def analyze(source: Source, settings: Settings = Settings(), seeds: Seeds = Seeds()) -> Analysis:
    """The analysis of ``source``; code nested more deeply than the default recursion limit
    allows is analyzed again on a deep stack, as deep as CPython compiles."""
    analysis = Analysis(source, settings, seeds).run()
    if analysis.failures:
        analysis = deeply(lambda: Analysis(source, settings, seeds).run())
    return analysis


def _any_says(said: tuple[bool | None, ...]) -> bool | None:
    """What one of several tests that all hold says of x64."""
    return next((one for one in said if one is not None), None)


def _all_say(said: tuple[bool | None, ...]) -> bool | None:
    """What each of several tests, one of which holds, says alike of x64."""
    return said[0] if len(set(said)) == 1 else None


def _without_none(names: list[str], run):
    """``run`` (a branch of an ``if`` ladder) where each of ``names`` is not None: a name that
    holds one of several functions or None (``table.get(key)``) holds one of the functions, one
    that holds a value or None (``OrNone``) the value."""
    if not names:
        return run

    def narrowed(frame: Frame) -> None:
        for name in names:
            value = frame.names.get(name)
            if type(value) is Alternatives and NONE in value.options:
                options = tuple(option for option in value.options if option != NONE)
                frame.names[name] = options[0] if len(options) == 1 else Alternatives(options)
            elif type(value) is OrNone:
                frame.names[name] = value.value
        run(frame)

    return narrowed


