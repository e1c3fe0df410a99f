"""The project pre-scan: what the files of one run decide about JAX's x64 mode at import.

A module of the project may switch ``jax_enable_x64`` when it is imported (jaxns'
``mixed_precision``: ``if not jax.config.read("jax_enable_x64"): jax.config.update(..., True)``),
and every module that imports it, or whose package's ``__init__`` does, then runs with x64 on;
a project may also switch it in a function, under a condition or from an environment default
(netket's ``NETKET_ENABLE_X64``), and then no module of it runs with x64 off for sure.  This scan
finds both, cheaply: only files that name the option are parsed, and imports are read from the
lines that start with ``import``/``from`` at the left margin (imports inside functions and
``if TYPE_CHECKING:`` blocks do not run at import).  It gives each file a ``ProjectFacts``.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from promolint.driver.cache import content_key
from promolint.engine.project_facts import MAX_CALLERS, MODULE_DEPTH, ProjectFacts
from promolint.driver.prefilter import may_switch_x64

_IMPORT = re.compile(rb"^(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))",
                     re.MULTILINE)  # fmt: skip
# Imports anywhere (in functions too): what the engine may read of the project's modules.
_ANY_IMPORT = re.compile(rb"^[ \t]*(?:from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#;]*)|import[ \t]+([^\n#;]*))",
                         re.MULTILINE)  # fmt: skip
_DEFINES = re.compile(rb"^(?:async[ \t]+)?def[ \t]+(\w+)", re.MULTILINE)  # a function at the top level
_WORD = re.compile(r"\w+")
# An ASCII text's words are its runs of letters, digits and underscores: splitting a copy with
# every other byte made a space finds them in a third of a regular expression's time.
_NOT_WORD = bytes(b if chr(b).isascii() and (chr(b).isalnum() or b == ord("_")) else ord(" ") for b in range(256))
# A module's names read by a computed name: its callers may call any of its functions.
_DYNAMIC = re.compile(rb"\bgetattr\([^,()]*,[ \t\n]*[^\"' \t\n]|\bvars\(|__dict__|\bglobals\(|\bimport[ \t]+\*")
_MAY_BE_DYNAMIC = re.compile(rb"getattr\(|vars\(|__dict__|globals\(|import[ \t]+\*")  # what _DYNAMIC needs, found fast
_QUERIES = frozenset({"jax_enable_x64", "x64_enabled"})  # jax.config attributes that read the mode


@dataclass
class _Module:
    name: str
    at_import: bool | None = None  # the mode it sets on every path through its top level
    elsewhere: bool = False  # it may switch x64 on where the effect is not known
    imports: set[str] = field(default_factory=set)


@dataclass(frozen=True)
class ModuleNode:
    """A module of the run as the project pass reads it: its file, the run's modules its imports
    name (anywhere in it; a module's packages run first, so they count), a digest of its text, and
    the run's modules whose names its imports bind (``from a.b import c`` binds ``a.b``'s names,
    not ``a``'s: only through them can its code call their functions), the functions it defines
    at its top level, those of the run's modules its text names (a word of it, anywhere), and
    whether it may read a module's names by a computed name.  The run's index keeps them, so that a run
    after a change rebuilds the graph from the changed files alone (``promolint.driver.index``)."""

    path: str
    imports: frozenset[str]
    digest: str
    binds: frozenset[str] = frozenset()
    defines: frozenset[str] = frozenset()  # the functions it defines at its top level
    mentions: frozenset[str] = frozenset()  # the run's modules' top-level functions its text names
    dynamic: bool = False  # it may read a module's names by a computed name (getattr, vars, import *)


def project_facts(files: Sequence[tuple[Path, bytes]], x64: bool = True) -> dict[str, ProjectFacts]:
    """``project_pass``'s facts alone, for callers that keep no index of the run's modules."""
    return project_pass(files, x64)[0]


def project_pass(files: Sequence[tuple[Path, bytes]], x64: bool = True) \
        -> tuple[dict[str, ProjectFacts], dict[str, ModuleNode] | None]:  # fmt: skip
    """Facts by path (as given) for the Python files among ``files``: the modules of the project
    each one's imports reach, and (with ``x64``: the mode follows the code) the x64 mode set at
    import; files with nothing to say are left out (their facts are the default).  And the graph
    of the run's modules they were read from, None where it was not needed.  Every command's one
    way to the facts (``promolint.driver.runner.read_run``)."""
    if len(files) < 2 and not (x64 and any(may_switch_x64(data) for _, data in files)):
        return {}, None  # a run of one file has no project to read
    names = _module_names([path for path, _ in files])
    found = {name: (path, data) for path, data in files if (name := names.get(path)) is not None}
    own = {name: defines(data) for name, (_, data) in found.items()}
    defined = frozenset().union(*own.values())
    graph = {name: module_node(str(path), name, data, found, defined, own[name])
             for name, (path, data) in found.items()}  # fmt: skip
    facts = _x64_facts(files, names) if x64 and any(may_switch_x64(data) for _, data in files) else {}
    return with_module_reads(facts, graph), graph


def module_node(path: str, name: str, data: bytes, modules: Container[str],
                defined: Container[str] = frozenset(), own: frozenset[str] | None = None) -> ModuleNode:  # fmt: skip
    """The module ``name`` (its file's ``path`` and bytes) among the run's ``modules``, whose
    top-level functions are named ``defined`` (``own``: this module's, when known)."""
    targets = _imports(data, name, os.path.basename(path) == "__init__.py", _ANY_IMPORT, bound=True)
    imports = frozenset(m for target in targets for m in (*_packages(target), target) if m in modules)
    mentions = frozenset(w for w in _words(data) if w in defined)
    dynamic = _MAY_BE_DYNAMIC.search(data) is not None and _DYNAMIC.search(data) is not None
    return ModuleNode(path, imports, content_key(data), frozenset(m for m in targets if m in modules),
                      defines(data) if own is None else own, mentions, dynamic)


def _words(data: bytes) -> set[str]:
    """The words of a module's text (what ``\\w+`` matches)."""
    if data.isascii():
        return set(data.translate(_NOT_WORD).decode("ascii").split())
    return set(_WORD.findall(data.decode("utf-8", "replace")))


def defines(data: bytes) -> frozenset[str]:
    """The functions a module's text defines at its top level (by name)."""
    return frozenset(m.decode() for m in _DEFINES.findall(data))


def with_module_reads(facts: dict[str, ProjectFacts], graph: Mapping[str, ModuleNode],
                      among: Iterable[str] | None = None) -> dict[str, ProjectFacts]:  # fmt: skip
    """``facts`` (by path) with, for each module (of ``among``, or all) that imports another of
    ``graph`` or that others import: its name, its callers (the modules that import it within
    ``MODULE_DEPTH`` imports, farthest first, none where more than ``MAX_CALLERS`` do), the
    modules it and its callers reach within ``MODULE_DEPTH`` imports (with itself, by name and
    path) and a digest of their contents."""
    importers = _importers(graph, "binds")
    for name in graph if among is None else among:
        node = graph[name]
        reached = _reach(graph, name)
        callers, complete = _callers(graph, importers, name) if node.defines else ((), True)
        for caller in callers:
            reached |= {caller} | _reach(graph, caller)
        reached.discard(name)
        if not reached:
            continue
        modules = tuple(sorted((m, graph[m].path) for m in reached | {name}))
        digest = content_key("\0".join(f"{m}:{graph[m].digest}" for m in sorted(reached)).encode())
        found = facts.get(node.path, ProjectFacts())
        facts[node.path] = replace(found, module=name, modules=modules, dependencies=digest[:32], callers=callers,
                                   callers_complete=complete)  # fmt: skip
    return facts


def readers(graph: Mapping[str, ModuleNode], changed: Iterable[str]) -> set[str]:
    """The modules whose reads (``with_module_reads``) may differ when the ``changed`` modules
    have changed, in their text or their imports: those that reach one within ``MODULE_DEPTH``
    imports, and the changed ones; and, since a module's callers and what they read count too,
    the modules those reach.  (A module whose path to what it reads passes through no changed
    module reads what it read before.)"""
    importers = _importers(graph, "imports")
    found = frontier = set(changed)
    for _ in range(MODULE_DEPTH):
        frontier = {m for f in frontier for m in importers.get(f, ())} - found
        found = found | frontier
    return found | {m for f in found for m in _reach(graph, f)}


def _importers(graph: Mapping[str, ModuleNode], edges: str) -> dict[str, list[str]]:
    """For each module, those that import it: by ``imports`` (whose import runs it) or ``binds``
    (whose code may read its names)."""
    importers: dict[str, list[str]] = {}
    for name, node in graph.items():
        for module in getattr(node, edges):
            importers.setdefault(module, []).append(name)
    return importers


def _reach(graph: Mapping[str, ModuleNode], name: str) -> set[str]:
    """The modules of ``graph`` that ``name``'s imports reach within ``MODULE_DEPTH`` imports."""
    reached, frontier = set(), {name}
    for _ in range(MODULE_DEPTH):
        frontier = {m for f in frontier for m in graph[f].imports if m in graph} - reached - {name}
        reached |= frontier
    return reached


def _callers(graph: Mapping[str, ModuleNode], importers: Mapping[str, list[str]],
             name: str) -> tuple[tuple[str, ...], bool]:  # fmt: skip
    """The modules that import ``name`` within ``MODULE_DEPTH`` imports and may call its
    functions (their text names one, or reads names by a computed name), farthest first (each at
    its nearest distance); none where more than ``MAX_CALLERS`` do.  And whether they are all
    that import it: one that names none of its functions may still call one another module
    hands it as a value."""
    levels, seen, frontier = [], {name}, {name}
    for _ in range(MODULE_DEPTH):
        frontier = {m for f in frontier for m in importers.get(f, ())} - seen
        seen |= frontier
        levels.append(sorted(frontier))
    functions = graph[name].defines
    every = [m for level in reversed(levels) for m in level]
    callers = tuple(m for m in every if graph[m].dynamic or graph[m].mentions & functions)
    return (callers, len(callers) == len(every)) if len(callers) <= MAX_CALLERS else ((), True)


def _x64_facts(files: Sequence[tuple[Path, bytes]], names: dict[Path, str]) -> dict[str, ProjectFacts]:
    modules = {}
    for path, data in files:
        name = names.get(path)
        if name is None:
            continue
        module = modules[name] = _Module(name, imports=_imports(data, name, path.name == "__init__.py", _IMPORT))
        if may_switch_x64(data):
            module.at_import, module.elsewhere = _switches(data)
    switching = {name for name, m in modules.items() if m.at_import is not None}
    anywhere = any(m.elsewhere for m in modules.values())
    leading = _leading_to(switching, modules)
    facts = {}
    for path, _ in files:
        name = names.get(path)
        if name is None:
            continue
        start = _expanded([*_packages(name), *modules[name].imports], modules)
        before = {s for s in switching if s != name and start & leading[s]}
        settings = {modules[s].at_import for s in before & switching}
        # A module not run before this one matters only if it turns x64 on: off is JAX's default.
        turning_on = {s for s in switching - before - {name} if modules[s].at_import}
        elsewhere = anywhere or bool(turning_on) or len(settings) > 1
        at_import = settings.pop() if len(settings) == 1 else None
        if at_import is not None or elsewhere:
            facts[str(path)] = ProjectFacts(at_import, elsewhere)
    return facts


def scanned(data: bytes) -> bytes:
    """What the scan makes of a file: its imports at the left margin, and the switches of a file
    that names the option.  A file whose scan is unchanged leaves every file's facts as they
    were (while the files and their packages are the same), whatever else changed in it."""
    imports = b"\n".join(match.group(0) for match in _IMPORT.finditer(data))
    return imports + b"\0%r" % (_switches(data),) if may_switch_x64(data) else imports


# --- modules and imports -----------------------------------------------------------------------
def _module_names(paths: Iterable[Path]) -> dict[Path, str]:
    """Each ``.py`` file's dotted module name: its path below the outermost folder of packages
    (folders with an ``__init__.py``) above it."""
    packages: dict[Path, bool] = {}

    def is_package(folder: Path) -> bool:
        if folder not in packages:
            packages[folder] = (folder / "__init__.py").is_file()
        return packages[folder]

    names = {}
    for path in paths:
        if path.suffix != ".py":
            continue
        parts = [] if path.name == "__init__.py" else [path.stem]
        folder = path.resolve().parent
        while is_package(folder) and folder.parent != folder:
            parts.insert(0, folder.name)
            folder = folder.parent
        if parts:
            names[path] = ".".join(parts)
    return names


def _imports(data: bytes, name: str, package: bool, pattern: re.Pattern, bound: bool = False) -> set[str]:
    """The modules a module imports in the lines ``pattern`` matches (``from .x import y`` may
    import the module ``x.y``: both are kept, and only the project's own modules count later);
    with ``bound``, the top package ``import a.b`` binds as well."""
    here = name.split(".") if package else name.split(".")[:-1]
    found = set()
    for match in pattern.finditer(data):
        dots, base, names, plain = (group.decode("utf-8", "replace") if group else "" for group in match.groups())
        if plain:
            items = [item.strip() for item in plain.split(",")]
            found |= {item.split(" as ")[0].strip() for item in items}
            if bound:
                found |= {item.split(".")[0] for item in items if " as " not in item}
            continue
        if dots:
            up = here[: len(here) - len(dots) + 1] if len(dots) <= len(here) else None
            if up is None:
                continue
            base = ".".join([*up, base] if base else up)
        found.add(base)
        for item in names.strip("()").split(","):
            item = item.split(" as ")[0].strip()
            if item and item != "*":
                found.add(f"{base}.{item}")
    return {f for f in found if f}


def _expanded(targets: Iterable[str], modules: dict[str, _Module]) -> set[str]:
    """The project's modules that importing ``targets`` runs first-hand: each target and its
    packages (``a.b.c`` runs ``a`` and ``a.b``), where they are modules of the project."""
    return {c for target in targets for c in (*_packages(target), target) if c in modules}


def _leading_to(switching: set[str], modules: dict[str, _Module]) -> dict[str, set[str]]:
    """For each module of ``switching``: the modules whose import runs it, transitively (itself
    included).  A module runs after ``s`` when one of the modules its import starts (its
    packages, its imports) leads to ``s``: one walk back from each ``s``, not one walk forward
    from every module (a project has thousands of modules and a few that switch x64)."""
    callers: dict[str, set[str]] = {name: set() for name in modules}
    for name, module in modules.items():
        for successor in _expanded(module.imports, modules):
            callers[successor].add(name)
    leading = {}
    for target in switching:
        seen, stack = {target}, [target]
        while stack:
            for caller in callers[stack.pop()]:
                if caller not in seen:
                    seen.add(caller)
                    stack.append(caller)
        leading[target] = seen
    return leading


def _packages(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


# --- switches --------------------------------------------------------------------------------
@functools.lru_cache(maxsize=64)  # a run's index scans the files the facts were made from again
def _switches(data: bytes) -> tuple[bool | None, bool]:
    """(the x64 mode the module's top level sets on every path, or None; whether it may switch
    x64 on anywhere else: in a function, a loop, under another condition, from a variable or the
    environment)."""
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None, True  # a file that does not parse may say anything
    certain: list[bool] = []
    elsewhere = False
    lines = data.splitlines()  # as ``ast`` numbers them

    def may_switch(statement: ast.stmt) -> bool:
        """Whether its text names the option (walking a tree costs much more than reading it)."""
        return any(map(may_switch_x64, lines[statement.lineno - 1:statement.end_lineno]))

    def visit(statements: list[ast.stmt], sure: bool) -> None:
        nonlocal elsewhere
        for statement in statements:
            kind = type(statement)
            if kind is ast.If:
                said = _x64_test(statement.test)
                if said is not None and _only_sets(statement.body, not said):
                    # `if not <x64 on>: switch it on` leaves it on on every path (jaxns)
                    if sure:
                        certain.append(not said)
                    elif not said:  # it turns x64 on
                        elsewhere = True
                else:
                    visit(statement.body, False)
                visit(statement.orelse, False)
            elif kind in (ast.Try, ast.With):
                visit(statement.body, sure)
                for handler in getattr(statement, "handlers", ()):
                    visit(handler.body, False)
                visit(getattr(statement, "orelse", []), False)
                visit(getattr(statement, "finalbody", []), sure)
            elif may_switch(statement):  # a function, a class or a loop may not run at import, or run later
                plain = kind not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For, ast.AsyncFor,
                                     ast.While)  # fmt: skip
                for node in ast.walk(statement):
                    setting = _setting(node)
                    if setting is _NOT_A_SWITCH:
                        continue
                    if sure and plain and isinstance(setting, bool):
                        certain.append(setting)
                    elif setting is not False:  # it may turn x64 on
                        elsewhere = True

    visit(tree.body, True)
    return (certain[-1] if certain else None), elsewhere


_NOT_A_SWITCH = object()


def _setting(node: ast.AST) -> object:
    """For a call that switches x64 (``*.update("jax_enable_x64", value)``, a write to the
    ``JAX_ENABLE_X64`` environment variable): the literal bool set, or None when not literal;
    ``_NOT_A_SWITCH`` for anything else."""
    if type(node) is ast.Call and type(node.func) is ast.Attribute and len(node.args) == 2:
        key, value = node.args
        if node.func.attr == "update" and type(key) is ast.Constant and key.value == "jax_enable_x64":
            return value.value if type(value) is ast.Constant and type(value.value) is bool else None
        if node.func.attr == "setdefault" and type(key) is ast.Constant and key.value == "JAX_ENABLE_X64":
            return None
    if type(node) is ast.Assign and any(type(t) is ast.Subscript and type(t.slice) is ast.Constant
                                        and t.slice.value == "JAX_ENABLE_X64" for t in node.targets):  # fmt: skip
        return None
    return _NOT_A_SWITCH


def _only_sets(body: list[ast.stmt], on: bool) -> bool:
    """A branch whose switches all set x64 ``on``, and that has at least one at its top level."""
    tops = [_setting(s.value) for s in body if type(s) is ast.Expr]
    every = [_setting(node) for s in body for node in ast.walk(s)]
    return on in tops and all(setting is _NOT_A_SWITCH or setting is on for setting in every)


def _x64_test(test: ast.expr) -> bool | None:
    """True for a test that holds exactly when x64 is on (``jax.config.jax_enable_x64``,
    ``jax.config.read("jax_enable_x64")``), False for its negation, None otherwise."""
    if type(test) is ast.UnaryOp and type(test.op) is ast.Not:
        inner = _x64_test(test.operand)
        return None if inner is None else not inner
    if type(test) is ast.Attribute and test.attr in _QUERIES:
        return True
    if type(test) is ast.Call and type(test.func) is ast.Attribute and test.func.attr in ("read", "_read"):
        return True if len(test.args) == 1 and type(test.args[0]) is ast.Constant and \
            test.args[0].value == "jax_enable_x64" else None  # fmt: skip
    return None
