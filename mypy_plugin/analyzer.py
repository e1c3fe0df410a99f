"""The plugin's side of the one engine: each module is analyzed as ``promolint check`` analyzes it,
seeded with what mypy knows, and its findings become mypy errors.

The analysis is the command line's own (``promolint.driver.lint``: the ``ast`` front end, the engine's
flow, the rules, ``# noqa``), so the two agree by construction.  What mypy adds are seeds
(``promolint.engine.records.Seeds``): the values of names the module imports from the program's
other modules, read from the dtype tags the plugin leaves on their types, and the declared types
of parameters whose annotation the module alone cannot resolve.  Findings are reported from
mypy's hooks: at the first hook inside a fine-grained target (a top-level function, a method, or
the module's top level), every finding of that target is reported, so that the daemon, which
re-checks one target at a time, keeps them right.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from mypy.nodes import Context as MypyContext
from mypy.nodes import Decorator, FuncDef, MypyFile, TypeInfo, Var
from mypy.types import CallableType, Instance, get_proper_type

from promolint.core.diagnostics import Diagnostic
from promolint.engine.context import Context
from promolint.engine.records import Seeds
from promolint.engine.values import Array, Returns, Value
from promolint.engine.walker.analysis import analyze
from promolint.engine.walker.source import ParseFailure, parse_bytes
from promolint.driver.lint import diagnose
from promolint.driver.project import project_facts
from promolint.engine.project_facts import ProjectFacts
from promolint_mypy import errorcodes, settings, tags
from promolint_mypy.translate import TypeFactory, value_of_type, with_value_tag

Span = tuple[int, int, int, int]  # line, column, end line, end column: ast's (and mypy's) own offsets


class ModuleRun:
    """One analysis of one module and its findings, by fine-grained target."""

    def __init__(self, tree: MypyFile, diagnostics: list[Diagnostic], targets: list[tuple[int, int, str]],
                 values: dict[Span, Value], final: dict[str, Value]):  # fmt: skip
        self.values = values
        self.final = final
        self.findings: dict[str, list[tuple[MypyContext, object, str]]] = {}  # by fine-grained target
        for d in diagnostics:
            finding = (_context(d), errorcodes.BY_RULE_CODE[d.code], d.message)
            self.findings.setdefault(_target_of(d.line, targets, tree.fullname), []).append(finding)


class Reporter:
    """Reports findings as mypy errors without taking part in mypy's inference.

    mypy checks operators and overloads speculatively: it watches for errors while it tries
    ``__add__``, and takes any error as "this variant does not apply".  Findings are therefore
    recorded past mypy's error watchers.  Each one is recorded under its own fine-grained target
    (the function or method it is in, whichever hook reported it), so that the daemon drops it
    when it checks that target again; it is recorded again at the next hook of the module.
    ``# type: ignore[...]`` and disabled codes are handled by mypy's ``Errors.report`` as for
    any error."""

    def __init__(self) -> None:
        self._reported: dict[tuple[str, str], tuple[object, list]] = {}  # (path, target) -> (version, infos)
        self._checked: dict[str, tuple[object, int, object]] = {}  # path -> mypy's error list, its length, version

    def report(self, api, version: object, by_target: dict[str, list[tuple[MypyContext, object, str]]]) -> None:
        errors = api.msg.errors
        path = api.path
        current = errors.error_info_map.get(path)
        if self._checked.get(path) == (current, len(current or ()), version) and current is not None:
            return  # nothing of ours can have been dropped since the last look
        present = {id(info) for info in current or ()}
        for target, findings in by_target.items():
            entry = self._reported.get((path, target))
            if entry is not None and entry[0] is version and all(id(info) in present for info in entry[1]):
                continue
            if entry is not None and entry[1]:  # a newer analysis, or mypy dropped some: record afresh
                stale = {id(info) for info in entry[1]}
                errors.error_info_map[path] = [info for info in errors.error_info_map.get(path, []) if id(info) not in stale]
            self._reported[(path, target)] = (version, self._record(api, target, findings))
        current = errors.error_info_map.get(path)
        self._checked[path] = (current, len(current or ()), version)

    @staticmethod
    def _record(api, target: str, findings: list[tuple[MypyContext, object, str]]) -> list:
        errors = api.msg.errors
        watchers = list(errors._watchers)
        errors._watchers.clear()
        recorded = []
        try:
            for context, code, message in findings:
                before = len(errors.error_info_map.get(api.path, ()))
                api.fail(message, context, code=code)
                recorded += errors.error_info_map.get(api.path, [])[before:]
        finally:
            errors._watchers.extend(watchers)
        for info in recorded:
            info.target = target
        return recorded

    def forget(self, path: str) -> None:
        self._checked.pop(path, None)
        for key in [k for k in self._reported if k[0] == path]:
            del self._reported[key]


class Analyzer:
    """Per-build state: configuration, one analysis per module being checked, the reporter."""

    def __init__(self, raw: settings.RawConfig, modules, is_library):
        self.config, self.config_error = settings.load(raw)
        self.modules = modules
        self.is_library = is_library
        self.reporter = Reporter()
        self._runs: dict[str, tuple[MypyFile, list, ModuleRun | None]] = {}  # path -> (tree, its defs, run)
        self._failed: set[str] = set()
        self._config_reported = False
        self._facts: tuple[frozenset, dict[str, ProjectFacts]] | None = None

    # --- the analysis of a module --------------------------------------------------------
    def run(self, api) -> ModuleRun | None:
        """The analysis of the module being checked; None where the plugin has nothing to say
        (an excluded file, one that does not parse)."""
        tree, path = api.tree, api.path
        cached = self._runs.get(path)
        # The daemon merges a re-parsed file into the old MypyFile: compare its statements too.
        if cached is not None and cached[0] is tree and cached[1] is tree.defs:
            return cached[2]
        run = self._analyze(tree, path)
        self._runs[path] = (tree, tree.defs, run)
        if run is not None and self.config_error and not self._config_reported:
            self._config_reported = True  # once, in the first module analyzed, so that editors show it
            config = (_line_one(), errorcodes.CONFIG, f"promolint: {self.config_error}")
            run.findings.setdefault(tree.fullname, []).insert(0, config)
        return run

    def _analyze(self, tree: MypyFile, path: str) -> ModuleRun | None:
        if self.config.excluded(Path(path)):
            return None
        try:
            data = Path(path).read_bytes()
        except OSError:
            return None
        source = parse_bytes(data, self.config.python)
        if isinstance(source, ParseFailure):
            return None  # mypy reports what it cannot parse itself
        facts = self._project_facts().get(path, ProjectFacts())
        modes = self.config.settings(facts)
        read = {name for name, _ in facts.modules}  # the project pass runs their code: no tags needed
        seeds = Seeds(declared=self._declared(tree, modes.initial()), names=self._imported(source.tree, tree, read),
                      module=tree.fullname)  # fmt: skip
        analysis = analyze(source, modes, seeds)
        codes = frozenset(code for code in self.config.enabled_codes(Path(path)) if code in errorcodes.BY_RULE_CODE)
        diagnostics = [d for d in diagnose(analysis, data, path, codes) if d.code in errorcodes.BY_RULE_CODE]
        values: dict[Span, Value] = {}
        for site in analysis.sites.values():
            values.setdefault(_span(site.node), site.value)
        for operation in analysis.operations.values():
            values[_span(operation.node)] = operation.result
        return ModuleRun(tree, diagnostics, _targets(source.tree, tree.fullname), values,
                         dict(analysis.flow.module_names))  # fmt: skip

    def _project_facts(self) -> dict[str, ProjectFacts]:
        """The project pass over the program's own modules in the build (what `promolint check`
        does over the files of its run): the modules each one reads, the x64 mode set at
        import; made again when a module is added, moved or modified (the daemon)."""
        files = {}
        for module in (self.modules or {}).values():
            path = getattr(module, "path", None)
            if path and path.endswith(".py") and not self.is_library(path) and not self.config.excluded(Path(path)):
                try:
                    files[path] = os.stat(path).st_mtime_ns
                except OSError:
                    continue
        key = frozenset(files.items())
        if self._facts is None or self._facts[0] != key:
            read = []
            for path in files:
                try:
                    read.append((Path(path), Path(path).read_bytes()))
                except OSError:
                    continue
            self._facts = key, project_facts(read, self.config.x64 == "auto")
        return self._facts[1]

    def _declared(self, tree: MypyFile, ctx: Context) -> dict[int, dict[str, Value]]:
        """Parameters' declared types, by the line of their ``def``: mypy resolves aliases and
        imports from other modules that the module's own text does not."""
        declared: dict[int, dict[str, Value]] = {}
        for node in _functions(tree):
            signature = get_proper_type(node.type) if node.type is not None else None
            arg_types = getattr(signature, "arg_types", None)
            if arg_types is None or len(arg_types) != len(node.arguments):
                continue
            for argument, typ in zip(node.arguments, arg_types):
                if argument.type_annotation is None:
                    continue
                value = value_of_type(typ, ctx, trust_values=False)
                if isinstance(value, Array):
                    declared.setdefault(node.line, {})[argument.variable.name] = value
        return declared

    def _imported(self, module: ast.Module, tree: MypyFile, read: set[str]) -> dict[str, Value]:
        """The values of the names the module imports from the program's other modules, by
        qualified name, from the tags the plugin left on their types when it checked them;
        none from the modules the project pass reads (``read``), whose code the analysis runs
        (a declared ``-> float`` of a function that returns a JAX array would override it)."""
        names: dict[str, Value] = {}
        for node in ast.walk(module):
            if type(node) is ast.ImportFrom:
                base = _absolute(node.module, node.level, tree.fullname)
                for alias in node.names:
                    qualname = f"{base}.{alias.name}" if base else None
                    if qualname is None or alias.name == "*":
                        continue
                    if qualname in self.modules:  # a module: its names may be read as attributes
                        self._module_names(qualname, names, read=read)
                    else:
                        self._module_names(base, names, only=alias.name, read=read)
            elif type(node) is ast.Import:
                for alias in node.names:
                    self._module_names(alias.name, names, read=read)
        return names

    def _module_names(self, module: str, names: dict[str, Value], only: str | None = None,
                      read: set[str] = frozenset()) -> None:  # fmt: skip
        if module in read:
            return
        tree = self.modules.get(module) if self.modules is not None else None
        if tree is None or self.is_library(tree.path):
            return
        for name, symbol in tree.names.items():
            node = symbol.node
            if (only is not None and name != only) or getattr(node, "fullname", None) != f"{module}.{name}":
                continue
            if isinstance(node, Var) and node.type is not None:
                text = tags.read(get_proper_type(node.type))
                if text is not None and text.startswith(tags.VALUE_PREFIX):
                    value = value_of_type(node.type, Context(), trust_values=True)
                    if isinstance(value, Array) and value.dtypes:
                        names[f"{module}.{name}"] = value
            elif isinstance(node, (FuncDef, Decorator)):
                function = node.func if isinstance(node, Decorator) else node
                signature = get_proper_type(function.type) if function.type is not None else None
                if isinstance(signature, CallableType) and not signature.variables:
                    value = value_of_type(signature.ret_type, Context(), trust_values=False)
                    if isinstance(value, Array):  # a declared NDArray[np.int32], jax.Array...
                        names[f"{module}.{name}"] = Returns(value)

    # --- hooks ---------------------------------------------------------------------------
    def report(self, api) -> ModuleRun | None:
        """Report the module's findings (each target's once per check of it)."""
        run = self.run(api)
        if run is not None and run.findings:
            self.reporter.report(api, run, run.findings)
        return run

    def value_at(self, api, node: MypyContext) -> Value | None:
        """The analysis's value of the expression mypy asks about, found by its position."""
        run = self.report(api)
        if run is None or node.end_line is None or node.end_column is None:
            return None
        return run.values.get((node.line, node.column, node.end_line, node.end_column))

    def result_type(self, ctx, node: MypyContext):
        value = self.value_at(ctx.api, node)
        if value is None:
            return ctx.default_return_type
        return TypeFactory(ctx.api, self.modules).result(value, ctx.default_return_type)

    def finish(self, tree: MypyFile) -> None:
        """A module is checked: its module-level variables carry the values they end with (in
        mypy's cache too), for the modules that import them; the analysis is forgotten."""
        cached = self._runs.pop(tree.path, None)
        self.reporter.forget(tree.path)
        run = cached[2] if cached is not None and cached[0] is tree and cached[1] is tree.defs else None
        if run is None:
            return
        str_type = _str_type(self.modules)
        for name, symbol in tree.names.items():
            var = symbol.node
            if isinstance(var, Var) and var.type is not None and var.fullname == f"{tree.fullname}.{name}":
                var.type = with_value_tag(var.type, run.final.get(name), str_type)

    def internal_error(self, api, node, description: str) -> None:
        """Report a failure of the plugin once per file, where it happened."""
        if api.path in self._failed:
            return
        self._failed.add(api.path)
        message = f"promolint plugin error (please report it): {description}"
        self.reporter.report(api, None, {api.tscope.current_target(): [(node, errorcodes.INTERNAL, message)]})


def _functions(tree: MypyFile):
    """Every ``def`` of the module, methods and nested functions included."""
    stack = list(tree.defs)
    while stack:
        node = stack.pop()
        kind = type(node).__name__
        if kind == "FuncDef":
            yield node
            stack.extend(node.body.body)
        elif kind == "Decorator":
            stack.append(node.func)
        elif kind == "OverloadedFuncDef":
            stack.extend(node.items)
            if node.impl is not None:
                stack.append(node.impl)
        elif kind == "ClassDef":
            stack.extend(node.defs.body)
        else:
            for attribute in ("body", "else_body", "handlers", "finally_body", "bodies"):
                blocks = getattr(node, attribute, None)
                for block in blocks if isinstance(blocks, list) else [blocks]:
                    if block is not None and hasattr(block, "body"):
                        stack.extend(block.body)


def _targets(module: ast.Module, name: str) -> list[tuple[int, int, str]]:
    """The fine-grained targets of a module's functions, as mypy names them: a top-level function
    ``mod.f`` or a method ``mod.Class.f`` (nested functions belong to their enclosing target),
    with the lines of their ``def``; everything else is the module's own target."""
    found: list[tuple[int, int, str]] = []
    stack: list[tuple[ast.AST, str]] = [(statement, name) for statement in module.body]
    while stack:
        node, prefix = stack.pop()
        kind = type(node)
        if kind in (ast.FunctionDef, ast.AsyncFunctionDef):
            found.append((node.lineno, node.end_lineno or node.lineno, f"{prefix}.{node.name}"))
        elif kind is ast.ClassDef:
            stack.extend((statement, f"{prefix}.{node.name}") for statement in node.body)
        else:  # compound statements: functions and classes defined inside them are the module's too
            for block in ("body", "orelse", "finalbody"):
                stack.extend((statement, prefix) for statement in getattr(node, block, ()))
            for clause in (*getattr(node, "handlers", ()), *getattr(node, "cases", ())):
                stack.extend((statement, prefix) for statement in clause.body)
    return found


def _target_of(line: int, targets: list[tuple[int, int, str]], module: str) -> str:
    inside = [(start, end, target) for start, end, target in targets if start <= line <= end]
    return max(inside)[2] if inside else module  # the innermost: the latest start


def _absolute(module: str | None, level: int, current: str) -> str | None:
    if not level:
        return module
    parts = current.split(".")
    if len(parts) < level:
        return None
    base = ".".join(parts[: len(parts) - level])
    return f"{base}.{module}" if base and module else base or module


def _span(node: ast.AST) -> Span:
    return node.lineno, node.col_offset, node.end_lineno, node.end_col_offset


def _context(diagnostic: Diagnostic) -> MypyContext:
    context = MypyContext(line=diagnostic.line, column=diagnostic.column - 1)
    context.end_line = diagnostic.end_line
    context.end_column = diagnostic.end_column - 1 if diagnostic.end_column else None
    return context


def _str_type(modules) -> Instance | None:
    builtins = modules.get("builtins") if modules else None
    symbol = builtins.names.get("str") if builtins is not None else None
    return Instance(symbol.node, []) if symbol is not None and isinstance(symbol.node, TypeInfo) else None


def _line_one() -> MypyContext:
    context = MypyContext(line=1, column=0)
    context.end_line = 1
    return context
