"""The import hook: modules of chosen packages are instrumented as they are imported, and scripts
run instrumented (``promolint run``, the pytest plugin, ``verifying(include=...)``)."""

from __future__ import annotations

import builtins
import importlib.abc
import importlib.machinery
import importlib.util
import io
import sys
import tokenize
import types
from collections.abc import Iterable

from promolint.runtime.session import active_session
from promolint.runtime.units import ModuleUnit


class InstrumentingFinder(importlib.abc.MetaPathFinder):
    """Finds modules of ``packages`` (a name and everything under it) through the other
    finders, and hands source files to :class:`InstrumentingLoader`, composed with the loader
    another import hook gave them (jaxtyping's, which rewrites the source too).  It keeps
    itself first on ``sys.meta_path``: such a hook, installed after it at the front, would
    otherwise take the package's modules and the shim would check nothing.  ``instrumented``
    names the modules it instrumented."""

    def __init__(self, packages: Iterable[str]):
        self.packages = tuple(packages)
        self.instrumented: list[str] = []

    def wants(self, fullname: str) -> bool:
        return any(fullname == p or fullname.startswith(p + ".") for p in self.packages)

    def find_spec(self, fullname, path, target=None):
        self.keep_first()
        if not self.wants(fullname):
            return None
        for finder in list(sys.meta_path):  # editable installs bring their own finders: ask them all
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is None:
                continue
            if isinstance(spec.loader, importlib.machinery.SourceFileLoader):
                spec.loader = InstrumentingLoader(fullname, spec.origin, self, spec.loader)
            return spec
        return None

    def keep_first(self) -> None:
        """Move this finder back to the front of ``sys.meta_path`` where a hook was put before
        it.  (Called while the import system walks the list: moving an entry to the front
        leaves the ones after it where they were.)"""
        meta_path = sys.meta_path
        if meta_path and meta_path[0] is not self and self in meta_path:
            meta_path.remove(self)
            meta_path.insert(0, self)

    def remove(self) -> None:
        if self in sys.meta_path:
            sys.meta_path.remove(self)


class InstrumentingLoader(importlib.machinery.SourceFileLoader):
    """Compiles the instrumented source (never the bytecode cache) and runs it.  Where another
    hook's loader rewrites sources (its own ``source_to_code``), the instrumented source goes
    through it.  A module the shim cannot instrument is reported and runs as that loader runs it."""

    def __init__(self, fullname: str, path: str, finder: InstrumentingFinder | None = None,
                 inner: importlib.machinery.SourceFileLoader | None = None):  # fmt: skip
        super().__init__(fullname, path)
        self.finder = finder
        self.inner = inner

    def exec_module(self, module: types.ModuleType) -> None:
        path = self.get_filename(self.name)
        data = self.get_data(path)
        source = importlib.util.decode_source(data)
        unit = instrumented_unit(path, source, self.name, self._compiler(data))
        if unit is None:
            if self.inner is not None:
                self.inner.exec_module(module)
            else:
                exec(compile(source, path, "exec", dont_inherit=True), module.__dict__)
            return
        if self.finder is not None:
            self.finder.instrumented.append(self.name)
        run_unit(unit, module.__dict__)

    def _compiler(self, data: bytes):
        """The other hook's compilation of a source, where its loader has one of its own; it
        reads bytes, in the encoding the file declares."""
        inner = self.inner
        if inner is None or type(inner).source_to_code is importlib.machinery.SourceFileLoader.source_to_code:
            return None
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return lambda code, path: inner.source_to_code(code.encode(encoding), path)


def instrumented_unit(path: str, source: str, name: str, compiler=None) -> ModuleUnit | None:
    try:
        return ModuleUnit.register(ModuleUnit(path, source, name, compiler))
    except Exception as error:  # noqa: BLE001 - the module still runs, uninstrumented
        active_session().shim_error(f"instrumenting {path}", error)
        return None


def run_unit(unit: ModuleUnit, namespace: dict) -> None:
    unit.install(namespace)
    try:
        exec(unit.code, namespace)
    except BaseException as error:
        unit.escaped(error)
        raise


def install(packages: Iterable[str]) -> InstrumentingFinder:
    """Instrument the modules of ``packages`` imported from now on.  Those already imported
    stay as they are (a warning says which)."""
    finder = InstrumentingFinder(packages)
    early = sorted(name for name in sys.modules if finder.wants(name))
    if early:
        import warnings

        warnings.warn(f"promolint: already imported, not instrumented: {', '.join(early)}", RuntimeWarning,
                      stacklevel=2)  # fmt: skip
    sys.meta_path.insert(0, finder)
    return finder


def run_path(path: str, argv: list[str]) -> None:
    """Run a script as ``__main__``, instrumented, the way ``python script.py`` would: its
    directory first on ``sys.path``, ``sys.argv`` its own.  Exceptions propagate."""
    import os

    with open(path, "rb") as handle:
        source = importlib.util.decode_source(handle.read())
    main = types.ModuleType("__main__")
    main.__dict__.update(__file__=path, __builtins__=builtins, __loader__=None, __spec__=None)
    saved_main, saved_argv = sys.modules.get("__main__"), sys.argv
    sys.modules["__main__"] = main
    sys.argv = [path, *argv]
    sys.path.insert(0, os.path.dirname(os.path.abspath(path)))
    try:
        unit = instrumented_unit(os.path.abspath(path), source, "__main__")
        if unit is None:
            exec(compile(source, path, "exec", dont_inherit=True), main.__dict__)
        else:
            run_unit(unit, main.__dict__)
    finally:
        sys.path.pop(0)
        sys.argv = saved_argv
        if saved_main is not None:
            sys.modules["__main__"] = saved_main
