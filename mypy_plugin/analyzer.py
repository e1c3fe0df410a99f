"""The engine behind the hooks: mypy expressions to engine values, operations to rule findings,
findings to mypy errors.

Nothing here re-implements promotion or rules: values come from ``promolint.engine`` (operators,
calls, attributes, annotations), findings from ``promolint.rules.ALL_RULES``.  What is specific to
mypy is (1) reading values from mypy's tree and types (``Evaluator``), (2) knowing when a dtype
tag can be trusted (``promolint_mypy.flow``), and (3) reporting without disturbing mypy's own
inference (``Reporter``).
"""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path

from mypy.nodes import (
    ARG_NAMED,
    ARG_POS,
    GDEF,
    LDEF,
    AssignmentExpr,
    CallExpr,
    ComparisonExpr,
    ComplexExpr,
    ConditionalExpr,
    Decorator,
    Expression,
    ExpressionStmt,
    FloatExpr,
    FuncBase,
    FuncItem,
    Import,
    ImportFrom,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    SliceExpr,
    StrExpr,
    TupleExpr,
    TypeAlias,
    TypeInfo,
    UnaryExpr,
    Var,
    WithStmt,
)
from mypy.nodes import (
    Context as MypyContext,
)
from mypy.types import Type

from promolint.engine import calls, operations
from promolint.engine.context import Context
from promolint.engine.records import Operation
from promolint.engine.values import UNKNOWN, Array, Bound, DTypeRef, Items, Library, Reference, Value, join, python_scalar

try:
    from promolint.engine.values import numpy_library
except ImportError:  # an engine without ranks
    numpy_library = None  # type: ignore[assignment]
from promolint.dtypes import resolve_string
from promolint.noqa import line_suppresses
from promolint.rules import ALL_RULES
from promolint_mypy import errorcodes, settings
from promolint_mypy.flow import AMBIGUOUS, Definition, ScopeIndex, strip_rebound, walk_statements
from promolint_mypy.translate import TypeFactory, library_only, value_of_type

_HAS_NDIM = any(field.name == "ndim" for field in fields(Array))
_MAX_DEPTH = 40
_COMPARE = {"<", "<=", ">", ">=", "==", "!="}
_MEMO_LIMIT = 200_000
# with-statements and config calls that switch JAX's modes (as the CLI's front end reads them).
_X64_SWITCHES = {"jax.enable_x64": None, "jax.experimental.enable_x64": None, "jax.experimental.disable_x64": False}
_PROMOTION_SWITCHES = {"jax.numpy_dtype_promotion", "jax.experimental.numpy_dtype_promotion"}
_CONFIG_UPDATES = {"jax.config.update", "jax.config.config.update"}


# --- modes ----------------------------------------------------------------------------------
def _apply_setting(ctx: Context, key: str, setting, x64_mode: str, promotion_mode: str) -> Context:
    """Mirrors ``promolint.frontend.analysis._apply_setting``: forced modes win over the code's."""
    if key == "jax_enable_x64" and isinstance(setting, bool) and x64_mode == "auto":
        return replace(ctx, x64=setting)
    if key == "jax_numpy_dtype_promotion" and setting in ("strict", "standard") and promotion_mode == "auto":
        return replace(ctx, strict=setting == "strict")
    if key == "jax_explicit_x64_dtypes" and setting in ("warn", "error", "allow"):
        return replace(ctx, explicit_x64=setting)
    return ctx


def _literal(expression: Expression):
    if isinstance(expression, NameExpr) and expression.fullname in ("builtins.True", "builtins.False"):
        return expression.fullname == "builtins.True"
    if isinstance(expression, StrExpr):
        return expression.value
    return None


class ModuleInfo:
    """What the plugin knows about one module being checked: its imports, its modes, its scopes."""

    def __init__(self, tree: MypyFile, path: str, codes: frozenset[str], x64_mode: str, promotion_mode: str):
        self.tree = tree
        self.path = path
        self.codes = codes
        self.x64_mode, self.promotion_mode = x64_mode, promotion_mode
        self.imports = _import_names(tree)
        self.scopes: dict[int, tuple[object, ScopeIndex]] = {}
        self._lines: list[bytes] | None = None
        self.initial = Context(x64=x64_mode == "on", strict=promotion_mode == "strict")
        self._updates: list[tuple[int, str, object]] = []  # top-level jax.config.update calls
        self._withs: list[tuple[WithStmt, list[tuple[str, object]]]] = []
        for statement in tree.defs:
            self._scan_updates(statement)
        self._scan_withs(tree.defs)
        self.final = self.initial
        for _, key, setting in self._updates:
            self.final = _apply_setting(self.final, key, setting, x64_mode, promotion_mode)

    # modes
    def _scan_updates(self, statement) -> None:
        if isinstance(statement, ExpressionStmt) and isinstance(statement.expr, CallExpr):
            call = statement.expr
            if self.reference(call.callee) in _CONFIG_UPDATES and len(call.args) == 2 and \
                    isinstance(call.args[0], StrExpr):  # fmt: skip
                self._updates.append((statement.line, call.args[0].value, _literal(call.args[1])))

    def _scan_withs(self, statements) -> None:
        for statement in walk_statements(statements):
            if not isinstance(statement, WithStmt):
                continue
            switches = []
            for item in statement.expr:
                if not isinstance(item, CallExpr):
                    continue
                name = self.reference(item.callee)
                argument = _literal(item.args[0]) if item.args else None
                if name in _X64_SWITCHES:
                    setting = _X64_SWITCHES[name]
                    switches.append(("jax_enable_x64", (True if argument is None else argument) if setting is None
                                     else setting))  # fmt: skip
                elif name in _PROMOTION_SWITCHES:
                    switches.append(("jax_numpy_dtype_promotion", argument))
            if switches:
                self._withs.append((statement, switches))

    def context_at(self, node: MypyContext, in_function: bool) -> Context:
        if in_function:
            ctx = self.final
        else:
            ctx = self.initial
            for line, key, setting in self._updates:
                if line < node.line:
                    ctx = _apply_setting(ctx, key, setting, self.x64_mode, self.promotion_mode)
        for statement, switches in self._withs:
            if statement.body.body and statement.body.body[0].line <= node.line <= (statement.end_line or 0):
                for key, setting in switches:
                    ctx = _apply_setting(ctx, key, setting, self.x64_mode, self.promotion_mode)
        return ctx

    # names
    def reference(self, expression: Expression | None) -> str | None:
        """The qualified name an expression spells (``jnp.float32`` is ``jax.numpy.float32``)."""
        if isinstance(expression, NameExpr):
            node = expression.node
            if isinstance(node, MypyFile):
                return node.fullname
            if expression.name in self.imports and expression.kind == GDEF:
                fullname = getattr(node, "fullname", None)
                if fullname != f"{self.tree.fullname}.{expression.name}":
                    return self.imports[expression.name]
            if isinstance(node, (FuncBase, TypeInfo, TypeAlias, Decorator)) or (
                isinstance(node, Var) and expression.kind == GDEF
            ):
                return node.fullname or None
            return None
        if isinstance(expression, MemberExpr):
            base = self.reference(expression.expr)
            return f"{base}.{expression.name}" if base else None
        return None

    def scope(self, owner) -> ScopeIndex:
        cached = self.scopes.get(id(owner))
        if cached is None or not cached[1].current(owner):
            cached = (owner, ScopeIndex(owner))
            self.scopes[id(owner)] = cached
        return cached[1]

    def lines(self) -> list[bytes]:
        if self._lines is None:
            try:
                self._lines = Path(self.path).read_bytes().splitlines()
            except OSError:
                self._lines = []
        return self._lines

    def noqa(self, line: int, code: str) -> bool:
        """``# noqa`` / ``# noqa: PRM006`` on the line, as ``promolint check`` reads them."""
        lines = self.lines()
        return 0 < line <= len(lines) and line_suppresses(lines[line - 1].decode("utf-8", errors="replace"), code)

    def text(self, node: MypyContext) -> str:
        """The source text of an expression (for messages that quote operands)."""
        lines = self.lines()
        end_line = node.end_line or node.line
        if not lines or end_line > len(lines) or node.end_column is None:
            return "?"
        if node.line == end_line:
            chunk = lines[node.line - 1][node.column : node.end_column]
        else:
            chunk = b"\n".join([lines[node.line - 1][node.column :], *lines[node.line : end_line - 1],
                                lines[end_line - 1][: node.end_column]])  # fmt: skip
        return chunk.decode("utf-8", errors="replace")


def _import_names(tree: MypyFile) -> dict[str, str]:
    names: dict[str, str] = {}
    for node in tree.imports:
        if isinstance(node, Import):
            for module, alias in node.ids:
                if alias:
                    names[alias] = module
                else:
                    head = module.split(".")[0]
                    names[head] = head
        elif isinstance(node, ImportFrom) and not node.relative:
            for name, alias in node.names:
                names[alias or name] = f"{node.id}.{name}"
    return names


# --- reporting ------------------------------------------------------------------------------
class Reporter:
    """Reports findings as mypy errors without taking part in mypy's inference.

    mypy checks operators and overloads speculatively: it watches for errors while it tries
    ``__add__``, and takes any error as "this variant does not apply" (then tries ``__radd__``,
    or the next overload, and may end with ``Any``).  A finding reported from a hook the normal
    way would thus change the type of the very expression it is about.  So findings are recorded
    past mypy's error watchers (which then never see them), per syntax node: each evaluation of
    a node replaces the errors its previous evaluation recorded, so a node that mypy checks
    several times (overload attempts, loop passes, deferred functions) keeps the findings of
    its last evaluation only.  ``# type: ignore[...]``, disabled codes and fine-grained targets
    (the daemon) are handled by mypy's ``Errors.report`` as for any error.
    """

    def __init__(self) -> None:
        self._reported: dict[tuple[str, int], tuple[object, list]] = {}

    def replace(self, api, node: MypyContext, findings: list[tuple[object, str]]) -> None:
        errors = api.msg.errors
        key = (api.path, id(node))
        previous = self._reported.pop(key, None)
        if previous is not None and previous[0] is node and previous[1]:
            stale = {id(info) for info in previous[1]}
            current = errors.error_info_map.get(api.path)
            if current:
                errors.error_info_map[api.path] = [info for info in current if id(info) not in stale]
        if not findings:
            return
        watchers = list(errors._watchers)
        errors._watchers.clear()
        recorded = []
        try:
            for code, message in findings:
                before = len(errors.error_info_map.get(api.path, ()))
                api.fail(message, node, code=code)
                recorded += errors.error_info_map.get(api.path, [])[before:]
        finally:
            errors._watchers.extend(watchers)
        self._reported[key] = (node, recorded)

    def forget(self, path: str) -> None:
        for key in [k for k in self._reported if k[0] == path]:
            del self._reported[key]


# --- evaluation -----------------------------------------------------------------------------
class Evaluator:
    """The engine value of a mypy expression at one point of one module."""

    def __init__(self, analyzer: Analyzer, api, module: ModuleInfo, ctx: Context):
        self.analyzer = analyzer
        self.api = api
        self.module = module
        self.ctx = ctx
        self.depth = 0
        self.stack = list(api.scope.stack)

    def type_of(self, expression: Expression) -> Type | None:
        return self.api.lookup_type_or_none(expression)

    def value(self, expression: Expression | None) -> Value:
        if expression is None:
            return UNKNOWN
        memo = self.analyzer.recall(self.module.path, expression)
        if memo is not None:
            return memo
        if self.depth > _MAX_DEPTH:
            return UNKNOWN
        self.depth += 1
        try:
            return self._evaluate(expression)
        finally:
            self.depth -= 1

    def _evaluate(self, e: Expression) -> Value:
        if isinstance(e, IntExpr):
            return python_scalar("int", e.value)
        if isinstance(e, FloatExpr):
            return python_scalar("float", e.value)
        if isinstance(e, ComplexExpr):
            return python_scalar("complex", e.value)
        if isinstance(e, StrExpr):
            name = resolve_string(e.value)
            return DTypeRef(name) if name else UNKNOWN
        if isinstance(e, NameExpr):
            return self._name(e)
        if isinstance(e, MemberExpr):
            return self._member(e)
        if isinstance(e, UnaryExpr):
            return operations.unary(e.op, self.value(e.expr), self.ctx)
        if isinstance(e, OpExpr):
            if e.op in ("and", "or"):
                return join([self.value(e.left), self.value(e.right)])
            return operations.binary(e.op, self.value(e.left), self.value(e.right), self.ctx)
        if isinstance(e, ComparisonExpr):
            pairs = list(zip(e.operators, e.operands, e.operands[1:]))
            if len(pairs) == 1 and pairs[0][0] in _COMPARE:
                return operations.compare(pairs[0][0], self.value(pairs[0][1]), self.value(pairs[0][2]), self.ctx)
            return python_scalar("bool") if all(op in ("is", "is not", "in", "not in") for op, _, _ in pairs) \
                else UNKNOWN  # fmt: skip
        if isinstance(e, CallExpr):
            value, _, _ = self.call(e)
            return value if value is not UNKNOWN else self._typed(e)
        if isinstance(e, (TupleExpr, ListExpr)):
            return Items(tuple(self.value(item) for item in e.items), is_tuple=isinstance(e, TupleExpr))
        if isinstance(e, IndexExpr):
            return self._index(e)
        if isinstance(e, ConditionalExpr):
            return join([self.value(e.if_expr), self.value(e.else_expr)])
        if isinstance(e, AssignmentExpr):
            return self.value(e.value)
        return self._typed(e)

    def _typed(self, e: Expression) -> Value:
        """An expression the plugin did not evaluate: what its type says, without value tags
        (a generic function or a container may hand back a tag of some other expression)."""
        return value_of_type(self.type_of(e), self.ctx, trust_values=False)

    # names ------------------------------------------------------------------------------
    def _name(self, e: NameExpr) -> Value:
        node = e.node
        if isinstance(node, MypyFile):
            return Reference(node.fullname)
        if e.fullname in ("builtins.True", "builtins.False"):
            return python_scalar("bool", e.fullname == "builtins.True")
        if isinstance(node, Var) and (e.kind == LDEF or node.fullname == f"{self.module.tree.fullname}.{e.name}"):
            return self._variable(e, node)
        qualname = self.module.reference(e)
        if qualname is not None:
            resolved = calls.resolve_reference(qualname)
            if not isinstance(resolved, Reference) or not isinstance(node, Var) or not self._user_variable(node):
                return resolved
        if isinstance(node, Var):
            return self._variable(e, node)
        return self._typed(e)

    def _member(self, e: MemberExpr) -> Value:
        base = self.value(e.expr)
        if isinstance(base, Reference):
            resolved = calls.attribute(base, e.name)
            if isinstance(resolved, Reference) and isinstance(e.node, Var) and self._user_variable(e.node):
                return self._variable(e, e.node)  # a module's variable: helpers.W
            return resolved
        if base is not UNKNOWN:
            resolved = calls.attribute(base, e.name)
            if resolved is not UNKNOWN:
                return resolved
        return self._attribute(e)

    def _user_variable(self, var: Var) -> bool:
        """A variable of a module the plugin checks (not ``numpy.ones``, a variable of NumPy's)."""
        module = self.analyzer.modules.get(var.fullname.rpartition(".")[0]) if self.analyzer.modules else None
        return module is not None and not self.analyzer.is_library(module.path)

    def _attribute(self, e: MemberExpr) -> Value:
        """An attribute of an object: its declared type only (annotations, ndarray dtypes)."""
        node = e.node
        if isinstance(node, Var) and node.type is not None and not node.is_inferred:
            return value_of_type(node.type, self.ctx, trust_values=False)
        typ = self.type_of(e)
        return _annotation_only(typ, self.ctx)

    def _index(self, e: IndexExpr) -> Value:
        base = self.value(e.base)
        elements = e.index.items if isinstance(e.index, TupleExpr) else [e.index]
        if isinstance(base, Bound) and base.method == "at":
            return Bound(base.receiver, "at.")
        if isinstance(base, Items):
            index = self.value(e.index)
            literal = index.literal if isinstance(index, Array) else None
            if type(literal) is int and -len(base.items) <= literal < len(base.items):
                return base.items[literal]
            return UNKNOWN
        if isinstance(base, Array) and base.library is not Library.PYTHON:
            if not _HAS_NDIM:
                return replace(base, literal=None, provenance="")
            ndim = self._indexed_rank(base.rank, elements)
            library = numpy_library(ndim) if base.library.is_numpy else base.library
            return replace(base, literal=None, provenance="", ndim=ndim, library=library)
        return self._typed(e)

    def _indexed_rank(self, rank: int | None, elements: list[Expression]) -> int | None:
        """Mirrors the CLI front end's ``_indexed_rank``: an integer drops a dimension, a
        slice keeps it, ``None`` adds one; anything else leaves the rank unknown."""
        if rank is None:
            return None
        for element in elements:
            if isinstance(element, SliceExpr):
                continue
            if isinstance(element, NameExpr) and element.fullname == "builtins.None":
                rank += 1
                continue
            index = self.value(element)
            if isinstance(index, Array) and index.library is Library.PYTHON and index.dtypes == {"int64"}:
                rank -= 1
            else:
                return None
        return rank if rank >= 0 else None

    # variables --------------------------------------------------------------------------
    def _variable(self, e: NameExpr | MemberExpr, var: Var) -> Value:
        use_type = self.type_of(e)
        if isinstance(e, NameExpr) and e.kind == LDEF:
            return self._local(e, var, use_type)
        if _is_member(var):
            # A class attribute: its declaration only.
            return _annotation_only(var.type, self.ctx) if not var.is_inferred else library_only(use_type)
        module_name = var.fullname.rpartition(".")[0]
        if module_name == self.module.tree.fullname and isinstance(e, NameExpr) and \
                self.api.scope.current_function() is None:  # fmt: skip
            index = self.module.scope(self.module.tree)
            return self._from_definition(index.reaching(var, e.line, e.column), use_type)
        return self._module_variable(var, module_name, use_type)

    def _local(self, e: NameExpr, var: Var, use_type) -> Value:
        functions = [f for f in self.stack if isinstance(f, FuncItem)]
        for depth, function in enumerate(reversed(functions)):
            index = self.module.scope(function)
            if not index.owns(var):
                continue
            if depth == 0:
                return self._from_definition(index.reaching(var, e.line, e.column), use_type)
            # A variable of an enclosing function: only if it is bound exactly once.
            return self._from_definition(index.single(var), use_type, closure=True)
        return library_only(use_type)

    def _module_variable(self, var: Var, module_name: str, use_type) -> Value:
        """A module-level variable read from a function or another module: its declared type,
        tags included, when the module binds it once (tags of variables bound more than once
        are removed when their module is done, so that the cache never holds them)."""
        tree = self.analyzer.modules.get(module_name) if self.analyzer.modules is not None else None
        if tree is None or self.analyzer.is_library(tree.path):
            return _annotation_only(var.type, self.ctx)
        if not tree.defs:
            return value_of_type(var.type, self.ctx, trust_values=True)  # from the cache: checked
        index = self.analyzer.module_scope(tree)
        definition = index.single(var)
        if definition is None or definition.kind != "assign":
            return _annotation_only(var.type, self.ctx)
        memo = self.analyzer.recall(tree.path, definition.rvalue)
        if memo is not None:
            return memo
        return value_of_type(var.type, self.ctx, trust_values=True)

    def _from_definition(self, definition: Definition | None, use_type, closure: bool = False) -> Value:
        if definition is None or definition is AMBIGUOUS:
            return library_only(use_type)
        if definition.kind == "param":
            return _annotation_only(use_type, self.ctx) if closure else self._parameter(use_type)
        if definition.kind == "assign":
            value = self.value(definition.rvalue)
            return value if value is not UNKNOWN else library_only(use_type)
        if definition.kind == "unpack":
            value = self.value(definition.rvalue)
            for position in definition.path:
                if isinstance(value, Items) and position < len(value.items):
                    value = value.items[position]
                else:
                    value = UNKNOWN
                    break
            return value if value is not UNKNOWN else library_only(use_type)
        if definition.kind == "augassign":
            memo = self.analyzer.recall(self.module.path, definition.statement)
            if memo is not None:
                return memo
        return library_only(use_type)

    def _parameter(self, use_type) -> Value:
        return _annotation_only(use_type, self.ctx)

    # calls ------------------------------------------------------------------------------
    def arguments(self, call: CallExpr) -> tuple[list[Value], dict[str, Value], bool]:
        args: list[Value] = []
        kwargs: dict[str, Value] = {}
        positional = True
        for argument, kind, name in zip(call.args, call.arg_kinds, call.arg_names):
            value = self.value(argument)
            if kind == ARG_POS and positional:
                args.append(value)
            elif kind == ARG_NAMED and name is not None:
                kwargs[name] = value
            else:
                positional = False
        return args, kwargs, positional

    def call(self, call: CallExpr):
        func = self.value(call.callee)
        if not isinstance(func, (Reference, Bound)) and not _is_dtype_ref(func):
            return UNKNOWN, None, func
        args, kwargs, _ = self.arguments(call)
        if isinstance(func, Bound) and func.method.startswith("at."):
            return func.receiver, None, func
        result, record = calls.call(func, args, kwargs, self.ctx)
        return result, (record, args), func


def _is_dtype_ref(value: Value) -> bool:
    return isinstance(value, DTypeRef)


def _annotation_only(typ, ctx: Context) -> Value:
    """A declared type's value: annotation tags and type arguments, never value tags."""
    return value_of_type(typ, ctx, trust_values=False)


# --- the analyzer ---------------------------------------------------------------------------
def _is_member(var: Var) -> bool:
    return type(var.info).__name__ != "FakeInfo"


class Analyzer:
    """Per-build state: configuration, values of evaluated nodes, the reporter."""

    def __init__(self, raw: settings.RawConfig, modules, is_library):
        self.config, self.config_error = settings.load(raw)
        self.modules = modules
        self.is_library = is_library
        self.codes = {rule.code: errorcodes.error_code(rule) for rule in ALL_RULES}
        self.reporter = Reporter()
        self._memo: dict[str, dict[int, tuple[object, Value]]] = {}
        self._modules: dict[str, tuple[MypyFile, ModuleInfo | None, list]] = {}
        self._module_scopes: dict[int, tuple[MypyFile, ScopeIndex]] = {}
        self._config_reported = False
        self._failed: set[str] = set()
        self._last: dict[int, tuple[object, tuple, Value]] = {}
        self._pending: tuple[object, tuple] | None = None

    # modules
    def module(self, api) -> ModuleInfo | None:
        """The module being checked, or None where the plugin has nothing to say (excluded)."""
        tree = api.tree
        cached = self._modules.get(api.path)
        # The daemon merges a re-parsed file into the old MypyFile: compare its statements too.
        if cached is not None and cached[0] is tree and cached[2] is tree.defs:
            return cached[1]
        path = Path(api.path)
        info = None
        if not self.config.excluded(path):
            info = ModuleInfo(tree, api.path, self.config.enabled_codes(path), self.config.x64, self.config.promotion)
        if cached is not None:  # the daemon re-parsed the file: its old nodes are gone
            self._memo.pop(api.path, None)
        self._modules[api.path] = (tree, info, tree.defs)
        if info is not None and self.config_error and not self._config_reported:
            self._config_reported = True
            self.reporter.replace(api, _line_one(), [(errorcodes.CONFIG, f"promolint: {self.config_error}")])
        return info

    def internal_error(self, api, node, description: str) -> None:
        """Report a failure of the plugin once per file, where it happened."""
        if api.path in self._failed:
            return
        self._failed.add(api.path)
        message = f"promolint plugin error (please report it): {description}"
        self.reporter.replace(api, node, [(errorcodes.INTERNAL, message)])

    def module_scope(self, tree: MypyFile) -> ScopeIndex:
        cached = self._module_scopes.get(id(tree))
        if cached is None or not cached[1].current(tree):
            cached = (tree, ScopeIndex(tree))
            self._module_scopes[id(tree)] = cached
        return cached[1]

    # values of evaluated nodes, per file
    def remember(self, path: str, node, value: Value) -> None:
        memo = self._memo.setdefault(path, {})
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[id(node)] = (node, value)

    def recall(self, path: str, node) -> Value | None:
        entry = self._memo.get(path, {}).get(id(node))
        return entry[1] if entry is not None and entry[0] is node else None

    def finish(self, tree: MypyFile) -> None:
        """A module is checked: strip rebound variables and forget its nodes."""
        strip_rebound(tree)
        self._memo.pop(tree.path, None)
        self._module_scopes.pop(id(tree), None)
        cached = self._modules.get(tree.path)
        if cached is not None:
            cached[1] and cached[1].scopes.clear()
        self.reporter.forget(tree.path)

    # evaluation entry points
    def evaluator(self, api, module: ModuleInfo, node) -> Evaluator:
        in_function = api.scope.current_function() is not None
        return Evaluator(self, api, module, module.context_at(node, in_function))

    def check(self, api, module: ModuleInfo, node, operations_: list[Operation]) -> None:
        findings = []
        for operation in operations_:
            for rule in ALL_RULES:
                if rule.code in module.codes:
                    findings += [(f.code, f.message) for f in rule.check(operation)]
        if findings:
            findings = [(self.codes[code], message) for code, message in findings if not module.noqa(node.line, code)]
        self.reporter.replace(api, node, findings)

    def _seen(self, api, node, expressions: list[Expression]) -> Value | None:
        """The value of ``node`` if it was just evaluated with the same operand types: mypy calls
        a hook once per overload it tries and per union member, with the same operands."""
        key = tuple(id(api.lookup_type_or_none(e)) for e in expressions)
        entry = self._last.get(id(node))
        if entry is not None and entry[0] is node and entry[1] == key:
            return entry[2]
        self._pending = (node, key)
        return None

    def _done(self, node, value: Value) -> None:
        pending = self._pending
        if pending is not None and pending[0] is node:
            if len(self._last) > _MEMO_LIMIT:
                self._last.clear()
            self._last[id(node)] = (node, pending[1], value)

    def on_call(self, ctx) -> Type:
        api = ctx.api
        call = ctx.context
        module = self.module(api)
        if module is None:
            return ctx.default_return_type
        if isinstance(call, (IndexExpr, UnaryExpr)):
            return self._on_expression(ctx, module, call)
        if not isinstance(call, CallExpr):
            return ctx.default_return_type
        seen = self._seen(api, call, [call.callee, *call.args])
        if seen is not None:
            return TypeFactory(api, self.modules).result(seen, ctx.default_return_type)
        evaluator = self.evaluator(api, module, call)
        result, record, func = evaluator.call(call)
        operations_ = []
        if record is not None and record[0] is not None:
            engine_call, args = record
            receiver = (func.receiver,) if isinstance(func, Bound) else ()
            operations_.append(Operation("call", engine_call.name, (*receiver, *args), result, evaluator.ctx, call,
                                         call=engine_call, in_function=api.scope.current_function() is not None))
        self.remember(api.path, call, result)
        self.check(api, module, call, operations_)
        self._done(call, result)
        return TypeFactory(api, self.modules).result(result, ctx.default_return_type)

    def _on_expression(self, ctx, module: ModuleInfo, node: IndexExpr | UnaryExpr) -> Type:
        """``x[i]`` and ``-x``: no rule looks at them, but their types carry the dtype on."""
        api = ctx.api
        operands = [node.base, node.index] if isinstance(node, IndexExpr) else [node.expr]
        seen = self._seen(api, node, operands)
        if seen is None:
            seen = self.evaluator(api, module, node).value(node)
            self.remember(api.path, node, seen)
            self._done(node, seen)
        return TypeFactory(api, self.modules).result(seen, ctx.default_return_type)

    def on_operator(self, ctx) -> Type:
        api = ctx.api
        node = ctx.context
        module = self.module(api)
        if module is None:
            return ctx.default_return_type
        operands = [node.left, node.right] if isinstance(node, OpExpr) else list(node.operands) \
            if isinstance(node, ComparisonExpr) else [node.lvalue, node.rvalue] \
            if isinstance(node, OperatorAssignmentStmt) else None  # fmt: skip
        if operands is None:
            return ctx.default_return_type
        seen = self._seen(api, node, operands)
        if seen is not None:
            return TypeFactory(api, self.modules).result(seen, ctx.default_return_type)
        evaluator = self.evaluator(api, module, node)
        in_function = api.scope.current_function() is not None
        if isinstance(node, OpExpr) and node.op not in ("and", "or"):
            left, right = evaluator.value(node.left), evaluator.value(node.right)
            result = operations.binary(node.op, left, right, evaluator.ctx)
            leaves = _chain(node)
            chain, chain_text = (), ()
            if len(leaves) >= 3:
                chain = tuple(evaluator.value(leaf) for leaf in leaves)
                chain_text = tuple(module.text(leaf) for leaf in leaves)
            operation = Operation("binop", node.op, (left, right), result, evaluator.ctx, node, chain=chain,
                                  chain_text=chain_text, in_function=in_function)  # fmt: skip
        elif isinstance(node, ComparisonExpr):
            pairs = [(op, l, r) for op, l, r in zip(node.operators, node.operands, node.operands[1:])]
            operation, result = None, UNKNOWN
            for op, left_node, right_node in pairs:
                if op not in _COMPARE:
                    continue
                left, right = evaluator.value(left_node), evaluator.value(right_node)
                result = operations.compare(op, left, right, evaluator.ctx)
                operation = Operation("compare", op, (left, right), result, evaluator.ctx, node,
                                      in_function=in_function)  # fmt: skip
            if operation is None:
                return ctx.default_return_type
            if len(pairs) > 1:
                result = UNKNOWN
        elif isinstance(node, OperatorAssignmentStmt):
            current, other = evaluator.value(node.lvalue), evaluator.value(node.rvalue)
            result = operations.binary(node.op, current, other, evaluator.ctx)
            if isinstance(current, Array) and current.library is Library.NUMPY_ARRAY and isinstance(result, Array):
                result = operations.in_place(current, result)
            operation = Operation("augassign", node.op, (current, other), result, evaluator.ctx, node,
                                  in_function=in_function)  # fmt: skip
        else:
            return ctx.default_return_type
        self.remember(api.path, node, result)
        self.check(api, module, node, [operation])
        self._done(node, result)
        return TypeFactory(api, self.modules).result(result, ctx.default_return_type)


def _chain(node: OpExpr) -> list[Expression]:
    """The leaves of a left-nested chain of one operator: ``a + b + c`` is [a, b, c]."""
    leaves: list[Expression] = [node.right]
    current: Expression = node.left
    while isinstance(current, OpExpr) and current.op == node.op:
        leaves.append(current.right)
        current = current.left
    leaves.append(current)
    return leaves[::-1]


def _line_one() -> MypyContext:
    context = MypyContext(line=1, column=0)
    context.end_line = 1
    return context
