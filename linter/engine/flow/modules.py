"""The program's other modules, as far as the code uses them.

``from .utils import scale`` binds an ``Imported`` placeholder; the first read of ``scale`` runs
the statements of ``utils``'s top level that bind it (its imports, constants, functions and
classes, as the front end groups them: ``promolint.engine.walker.top_level``), recording nothing, and
takes the name from there; a later read of another name runs the statements that one needs.  A
function of another module runs its body among that module's names, and a name it reads runs its
statements then.  So a value from another module of the project is as known as a local one, and a
module costs only as much of the project as it uses.  Calls of the program's functions at another
module's top level give unknown rather than run: registrations and tables built by calls (JAX's
own modules are full of them) would otherwise run for every module that reads one name there.

Only the modules the project's facts name load (the run's own files that this module's imports
reach: ``promolint.driver.project``); third-party code stays unknown.  Each loads once per analysis, at
most ``MAX_DEPTH`` imports away from the module analysed and at most ``_MAX_MODULES`` of them.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

from promolint.engine.values import UNKNOWN, Function, Imported, Reference, Value
from promolint.engine.project_facts import MODULE_DEPTH as MAX_DEPTH
_MAX_MODULES = 12


@dataclass(eq=False)
class Scope:
    """One module's names as its code reads them: its qualified name and how many imports away
    from the module analysed it is (0 for that module)."""

    names: dict[str, Value]
    module: str
    depth: int
    package: str  # what relative imports start from: the module's package, or itself for an __init__
    top_level: TopLevel | None = None  # another module's: the statements its names need
    ran: set[int] = field(default_factory=set)  # those of its statements that have run
    running: bool = False


class TopLevel(Protocol):
    """A module's top level as the front end reads it."""

    size: int  # how many statements it has

    def values(self) -> Uses:
        """How its code may reach functions other than by calling them by name."""

    def needed(self, name: str) -> Sequence[int]:
        """The statements (in order) that bind ``name`` as running them all would, with those
        their code reads; none when none binds it."""

    def exported(self) -> Sequence[str]:
        """The names ``from module import *`` binds."""


class Uses(Protocol):
    """A module's uses of names as values (``promolint.engine.walker.top_level.Uses``)."""

    values: frozenset[str]  # names read other than as the function a call calls, or imported as another name
    dynamic: frozenset[str]  # names whose attributes a computed ``getattr`` (``vars``, ``__dict__``) reads
    own: bool  # it reads its own names so (``globals()``)


class Loader(Protocol):
    """What the front end does for modules: read one's top level, run statements of it."""

    def top_level(self, path: str) -> TopLevel | None:
        """The top level of the file at ``path``; None when it cannot be read or parsed."""

    def run_top_level(self, top_level: TopLevel, statements: Sequence[int], names: dict[str, Value]) -> None:
        """Run ``statements`` of ``top_level``, in order, binding ``names``."""


class _Names(dict):
    """Another module's names: reading one its top level has not bound yet runs the statements
    that bind it (those read with ``get``, as the front end and the flow read module names)."""

    __slots__ = ("_modules", "_module")

    def __init__(self, modules: Modules, module: str):
        super().__init__()
        self._modules = modules  # weakly: the modules hold these names
        self._module = module

    def get(self, name: str, default: Value | None = None) -> Value | None:
        value = dict.get(self, name, _UNBOUND)
        if value is _UNBOUND:
            try:
                self._modules.run_for(self._module, name)
            except ReferenceError:  # the analysis is gone: nothing runs any more
                pass
            value = dict.get(self, name, default)
        return value


_UNBOUND = object()


class Host(Protocol):
    """What the modules need of the flow (``promolint.engine.flow.flow.Flow``)."""

    module_names: dict[str, Value]
    recording: bool


class Modules:
    def __init__(self, flow: Host, loader: Loader, module: str, paths: dict[str, str]):
        self._flow = flow
        self._loader = loader
        self._paths = paths
        self.current = Scope(flow.module_names, module, 0, self._package(module))  # the module analysed, at first
        self._loaded: dict[str, Scope | None] = {module: self.current}
        self._analysed = module
        self.loading = 0  # top levels of other modules running: their calls of functions give unknown
        # How far from the module analysed other modules load: farther while its callers run, whose
        # code reaches it through the modules they import.
        self._max_depth, self._max_modules = MAX_DEPTH, _MAX_MODULES
        self._for_callers = 0  # the modules loaded while the callers ran

    @property
    def here(self) -> str:
        """The module whose code runs, as sources and operations name it: "" for the module
        analysed."""
        return self.current.module if self.current.depth else ""

    def is_module(self, qualname: str) -> bool:
        return qualname in self._paths

    def bind(self, module: str, name: str) -> Value | None:
        """What ``from module import name`` binds where ``module`` is the program's: the
        submodule itself, or the name, read when used; None for other modules."""
        if f"{module}.{name}" in self._paths:
            return Reference(f"{module}.{name}")
        if module in self._paths:
            return Imported(module, name)
        return None

    def exported(self, module: str) -> Sequence[str]:
        """The names ``from module import *`` binds where ``module`` is the program's (each
        read when used, as ``bind``'s); none for other modules, or one that cannot be loaded."""
        scope = self._load(module) if module in self._paths else None
        return scope.top_level.exported() if scope is not None and scope.top_level is not None else ()

    def resolve(self, value: Imported, hops: int = 0) -> Value:
        """The value an ``Imported`` placeholder stands for: the name in its module's top level
        (a re-export followed to where it is defined), unknown where it cannot be loaded."""
        scope = self._load(value.module)
        found = scope.names.get(value.name) if scope is not None else None
        if type(found) is Imported and hops < MAX_DEPTH:
            with self.entered(scope):  # a re-export: its module's imports resolve from there
                return self.resolve(found, hops + 1)
        return found if found is not None and type(found) is not Imported else UNKNOWN

    def attribute(self, module: str, name: str) -> Value:
        """``module.name`` for a module of the program (``is_module``)."""
        value = self.bind(module, name)
        return self.resolve(value) if type(value) is Imported else value or UNKNOWN

    def _load(self, module: str) -> Scope | None:
        """The names of ``module``'s top level, each bound as it is read (``run_for``), once.
        One its callers loaded first counts as near as the module analysed reads it, and not
        towards the modules the module analysed may load."""
        path, depth = self._paths.get(module), self.current.depth + 1
        if module in self._loaded:
            found = self._loaded[module]
            if found is not None and found.depth > depth:
                found.depth = depth
            return found
        callers = self._max_depth > MAX_DEPTH  # they are running
        loaded = self._for_callers if callers else len(self._loaded) - self._for_callers
        if path is None or depth > self._max_depth or loaded > self._max_modules:
            return None
        self._for_callers += callers
        top_level = self._loader.top_level(path)
        if top_level is None:
            self._loaded[module] = None
            return None
        scope = self._loaded[module] = Scope(_Names(weakref.proxy(self), module), module, depth, self._package(module),
                                             top_level)  # fmt: skip
        return scope

    def run_for(self, module: str, name: str) -> None:
        """Run the statements of loaded ``module``'s top level that bind ``name`` and have not
        run."""
        scope = self._loaded[module]
        self._run_statements(scope, scope.top_level.needed(name))

    @contextmanager
    def callers_running(self) -> Iterator[None]:
        """The modules that import the module analysed run their code (``callers``): the modules
        they read load as far from them as the module's own do from it."""
        saved = self._max_depth, self._max_modules
        self._max_depth, self._max_modules = 2 * MAX_DEPTH, 2 * _MAX_MODULES
        try:
            yield
        finally:
            self._max_depth, self._max_modules = saved

    def load_whole(self, module: str) -> Scope | None:
        """``module`` loaded with every statement of its top level run, as importing it runs
        them (its functions and classes defined); None where it cannot be loaded."""
        scope = self._load(module)
        if scope is not None and scope.depth and scope.top_level is not None:
            self._run_statements(scope, range(scope.top_level.size))
        return scope

    def escaping(self, scopes: Sequence[Scope], functions: dict[str, object]) -> tuple[set[object], set[object]]:
        """Of the module analysed's ``functions`` (keys by name), those code may call other than
        by name, out of the engine's sight: read as a value (passed on, stored, aliased), or
        reachable by a computed ``getattr`` of a module that binds them; those the module's own
        code may so call (all where it cannot be read), and those the code of ``scopes`` may."""
        everything = set(functions.values())
        own_path = self._paths.get(self._analysed)
        own = self._loader.top_level(own_path) if own_path is not None else None
        if own is None:
            return everything, everything
        found = []
        for scope, uses in ((self.current, own.values()), *((s, s.top_level.values()) for s in scopes)):
            if uses.own:
                found.append(everything)
                continue
            escaped = {functions[name] for name in uses.values if name in functions}
            with self.entered(scope):
                for name in uses.dynamic:
                    value = scope.names.get(name)
                    if type(value) is Reference and self.is_module(value.qualname):
                        escaped |= self._bound_by(value.qualname, everything)
            found.append(escaped)
        return found[0], set().union(*found[1:])

    def _bound_by(self, module: str, keys: set[object], seen: set[str] | None = None) -> set[object]:
        """Those of ``keys`` that ``module``'s names hold, or the names of the program's modules
        it holds (any, where one is the module analysed or cannot be loaded)."""
        seen = seen if seen is not None else set()
        if module == self._analysed:
            return keys
        if module in seen:
            return set()
        seen.add(module)
        scope = self.load_whole(module)
        if scope is None:
            return keys
        found = set()
        with self.entered(scope):
            for value in list(scope.names.values()):
                if type(value) is Imported:
                    value = self.resolve(value)
                if type(value) is Reference and self.is_module(value.qualname):
                    found |= self._bound_by(value.qualname, keys, seen)
                elif isinstance(value, Function) and value.key in keys:
                    found.add(value.key)
        return found

    def _run_statements(self, scope: Scope, wanted: Iterable[int]) -> None:
        """Run those of the ``wanted`` statements of ``scope``'s top level that have not run.
        While its statements run, a read of a name not bound yet runs nothing (a module imported
        in a cycle is seen half-initialized, as in Python)."""
        if scope.running:
            return
        statements = [index for index in wanted if index not in scope.ran]
        if not statements:
            return
        scope.ran.update(statements)
        recording = self._flow.recording
        self._flow.recording, self.loading, scope.running = False, self.loading + 1, True
        try:
            with self.entered(scope):
                self._loader.run_top_level(scope.top_level, statements, scope.names)
        except RecursionError:
            pass  # nested too deeply for the stack: the names bound so far stay
        finally:
            self._flow.recording, self.loading, scope.running = recording, self.loading - 1, False

    def _package(self, module: str) -> str:
        path = self._paths.get(module, "")
        return module if path.endswith(("__init__.py", "__init__.pyi")) else module.rpartition(".")[0]

    @contextmanager
    def entered(self, scope: Scope) -> Iterator[None]:
        """Code of ``scope``'s module runs: its names are the module names the code reads."""
        flow, saved = self._flow, self.current
        if scope is saved:
            yield
            return
        self.current, flow.module_names = scope, scope.names
        try:
            yield
        finally:
            self.current, flow.module_names = saved, saved.names
