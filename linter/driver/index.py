"""The cache's index of the files runs have read, as git's index is: files whose status (times,
size, inode) is unchanged are not read again, and a run after a change reads only the changed
files and those whose project facts they change."""

from __future__ import annotations

import os
import time
from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

from promolint.driver.cache import ResultCache, content_key
from promolint.driver.config import Config
from promolint.driver.prefilter import may_switch_x64

if TYPE_CHECKING:
    from promolint.driver.project import ModuleNode
    from promolint.engine.project_facts import ProjectFacts


# A file modified this close before a run may be modified again within one tick of the file
# system's clock and keep its time: it is not indexed (it is read again next time), as git does.
_RACY_NS = 2_000_000_000
class IndexEntry(NamedTuple):
    """A file's entry in the index, as the cache file stores it (a list of these fields)."""

    status: list | None  # [mtime, size, inode, ctime] when it was read; [None] * 4 matches none
    key: str  # of its diagnostics' entry in the cache
    switches: bool  # it may switch x64
    facts: list | None  # the project's x64 facts on it: [x64_at_import, x64_elsewhere]; None for none
    scanned: str  # a hash of the text the project's scan reads (promolint.driver.project.scanned)
    # Its node in the graph of the run's modules (promolint.driver.project.ModuleNode), the
    # modules as their files' positions in the run's list of files:
    module: str | None = None  # its module's name
    imports: list[int] = []  # the modules its imports name
    digest: str | None = None  # of its text
    dependencies: str = ""  # the digest of the modules its imports reach (ProjectFacts.dependencies)
    binds: list[int] = []  # the modules whose names its imports bind (ModuleNode.binds)
    defines: list[str] = []  # the functions it defines
    mentions: list[str] = []  # the run's modules' functions it names
    dynamic: bool = False  # it reads names by a computed name


def _entries(stored: dict[str, list]) -> dict[str, IndexEntry]:
    """The index's entries as the cache file holds them; those of another shape are left out."""
    size = len(IndexEntry._fields)
    return {path: IndexEntry(*row) for path, row in stored.items() if isinstance(row, list) and len(row) == size}


class RunIndex:
    """The cache's index of the files runs have read (``promolint.driver.cache``), so that files whose
    status (times, size, inode) is unchanged need not be read again.

    A file's entry depends on its content, its settings, and the project's facts on it
    (``promolint.driver.project``), which depend on every file of the run.  The x64 facts of unchanged
    files stand while the settings leave them out; or no file of the run may switch x64 and no
    unchanged file's key has them; or the run has the files of the last one, in the same
    packages, and the text the scan reads is unchanged in every changed file.  The modules a file
    reads (and their digest) are rebuilt from the graph of the run's modules the index keeps, with
    the changed files' own imports and texts: an unchanged file whose dependencies changed is read
    and checked again, the others are not read.  Otherwise every file is read, as before there
    was an index."""

    def __init__(self, store: ResultCache, found: list[str], config: Config):
        self.store = store
        self.fingerprint = _settings_fingerprint(config)
        self.x64 = config.x64
        self.start = time.time_ns()
        self.paths = found
        self.last = store.run if store.run.get("settings") == self.fingerprint else {}
        self.previous = _entries(store.files) if self.last else {}
        self.statuses = {path: _status(path) for path in found}
        self.entries: dict[str, IndexEntry] = {}  # this run's
        self.changed: list[str] = []
        self.graph: dict[str, ModuleNode] | None = None  # the run's modules, once known
        self._scanned: dict[str, str] = {}
        self._packages_stand = False
        self._stale: list[str] = []
        self._read_all = False
        for path in found:
            entry = self.previous.get(path)
            if entry is not None and entry.status == self.statuses[path] and entry.key in store:
                self.entries[path] = entry
            else:
                self.changed.append(path)

    def unchanged(self) -> list[tuple[str, str]]:
        """The unchanged files and their entries' keys."""
        return [(path, entry.key) for path, entry in self.entries.items()]

    def facts(self, changed: dict[str, bytes]) -> dict[str, ProjectFacts] | None:
        """The project's facts on the ``changed`` files (their contents by path) and on the
        unchanged files whose facts changed (``take_stale``), when the other unchanged files'
        keys stand; None when the facts may have changed."""
        if not self.entries:
            return None  # every file is read: the facts come from all of them, as without an index
        same_paths = self.last.get("paths") == _digest(self.paths)
        reads = any(entry.dependencies for entry in self.entries.values())
        if not same_paths and (changed or reads):
            return None  # modules came or went, and with them what the others read
        x64 = self._x64_facts(changed, same_paths)
        if x64 is None:
            return None
        if not (self._packages_stand or self._check_packages()):
            return None  # the modules' names may have changed, and with them what they read
        if not changed:
            return {}
        if not (self.last.get("modules") and len(changed) == len(self.changed)
                and all(path in self.previous for path in changed)):  # fmt: skip
            return None  # the last run left no graph of the modules, or a file is new or unreadable
        from promolint.driver.project import readers, with_module_reads  # here: a run that reads no file needs no scan
        from promolint.engine.project_facts import ProjectFacts

        graph = self.graph = self._module_graph(changed)
        defined = {name for path in self.paths for name in self.previous[path].defines}
        if any(node.defines - defined for node in graph.values() if node.path in changed):
            return None  # a function new to the run: what the unchanged files name of it is not known
        affected = readers(graph, [name for name, node in graph.items() if node.path in changed])
        facts = with_module_reads({path: ProjectFacts(*facts) for path, facts in x64.items()}, graph, affected)
        for path in (node.path for name, node in graph.items() if name in affected):
            entry = self.entries.get(path)
            if entry is not None and entry.dependencies != (facts[path].dependencies if path in facts else ""):
                self._stale.append(path)
                if entry.facts is not None and path not in x64:
                    facts[path] = replace(facts.get(path, ProjectFacts()), x64_at_import=entry.facts[0],
                                          x64_elsewhere=entry.facts[1])  # fmt: skip
        return facts

    def _x64_facts(self, changed: dict[str, bytes], same_paths: bool) -> dict[str, list] | None:
        """The x64 facts on the changed files, by path, when no unchanged file's can have
        changed; None otherwise."""
        if self.x64 != "auto":
            return {}
        if not any(entry.switches or entry.facts for entry in self.entries.values()) and \
                not any(may_switch_x64(data) for data in changed.values()):  # fmt: skip
            return {}
        if not same_paths or not self._check_packages():
            return None
        facts = {}
        for path, data in changed.items():
            entry = self.previous.get(path)
            if entry is None or entry.scanned != self.scanned(path, data):
                return None
            if entry.facts is not None:
                facts[path] = entry.facts
        return facts

    def _check_packages(self) -> bool:
        self._packages_stand = _packages_stand(self.last.get("packages"))
        return self._packages_stand

    def _module_graph(self, changed: dict[str, bytes]) -> dict[str, ModuleNode]:
        """The run's modules: the unchanged files' as the index keeps them, the changed files'
        from their contents (``facts`` made sure that every file was read and has a whole entry)."""
        from promolint.driver.project import ModuleNode, module_node

        names = {path: self.previous[path].module for path in self.paths}
        modules = {names[path]: path for path in self.paths if names[path] is not None}
        defined = frozenset(name for path in modules.values() for name in self.previous[path].defines)
        graph = {}
        for name, path in modules.items():
            if path in changed:
                graph[name] = module_node(path, name, changed[path], modules, defined)
            else:
                entry = self.entries[path]
                graph[name] = ModuleNode(path, frozenset(names[self.paths[i]] for i in entry.imports), entry.digest,
                                         frozenset(names[self.paths[i]] for i in entry.binds),
                                         frozenset(entry.defines), frozenset(entry.mentions), entry.dynamic)  # fmt: skip
        return graph

    def take_stale(self) -> list[str]:
        """The unchanged files whose facts changed, to be read after all."""
        for path in self._stale:
            del self.entries[path]
        return self._stale

    def scanned(self, path: str, data: bytes) -> str:
        if path not in self._scanned:
            from promolint.driver.project import scanned  # here: a run that reads no file needs no scan

            self._scanned[path] = content_key(scanned(data))[:32]
        return self._scanned[path]

    def take_unchanged(self) -> list[str]:
        """The unchanged files, to be read after all: their keys may change."""
        taken, self.entries = list(self.entries), {}
        self._read_all = True
        return taken

    def record(self, path: str, key: str, data: bytes, facts: ProjectFacts | None) -> None:
        """``path`` was read (after its status was taken): its entry is ``key``."""
        status = self.statuses.get(path)
        if status is None or status[0] >= self.start - _RACY_NS:
            status = [None] * 4  # matches no status: read again next time, its facts known meanwhile
        x64 = None if facts is None or (facts.x64_at_import is None and not facts.x64_elsewhere) else \
            [facts.x64_at_import, facts.x64_elsewhere]  # fmt: skip
        dependencies = facts.dependencies if facts is not None else ""
        self.entries[path] = IndexEntry(status, key, may_switch_x64(data), x64, self.scanned(path, data),
                                        dependencies=dependencies)  # fmt: skip

    def save(self) -> None:
        """This run's entries merged into the index (a run of a few files keeps the others')."""
        entries = dict(self.previous)
        for path in self.paths:
            entries.pop(path, None)
        if self.graph is not None:
            self._enter_graph()
        entries.update(self.entries)
        read = bool(self.changed) or self._read_all
        # The names of the modules the entries hold, on which the facts depend, follow from the
        # folders of packages around the files: those the names were made with are kept.
        markers = self.last.get("packages") if self._packages_stand or not read else None
        run = {"settings": self.fingerprint, "paths": _digest(self.paths),
               "modules": self.graph is not None or (not read and self.last.get("modules", False)),
               "packages": markers if markers is not None else _package_markers(self.paths)}  # fmt: skip
        self.store.index(entries, run)

    def _enter_graph(self) -> None:
        """Each file's node of the graph into its entry."""
        position = {path: i for i, path in enumerate(self.paths)}
        for name, node in self.graph.items():
            entry = self.entries.get(node.path)
            if entry is not None and entry is not self.previous.get(node.path):
                self.entries[node.path] = entry._replace(
                    module=name, imports=sorted(position[self.graph[m].path] for m in node.imports), digest=node.digest,
                    binds=sorted(position[self.graph[m].path] for m in node.binds), defines=sorted(node.defines),
                    mentions=sorted(node.mentions), dynamic=node.dynamic)  # fmt: skip


def _status(path: str) -> list[int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None  # reading it reports why
    return [status.st_mtime_ns, status.st_size, status.st_ino, status.st_ctime_ns]


def _digest(paths: list[str]) -> str:
    return content_key("\0".join(paths).encode())


def _settings_fingerprint(config: Config) -> str:
    """The settings, which decide the codes enabled for each file (where they came from does
    not matter)."""
    return repr(replace(config, origins={}))


def _package_markers(paths: list[str]) -> list[list]:
    """Whether each folder above the run's Python files has an ``__init__.py``: the project's
    module names, on which its facts depend, follow from them."""
    folders = set()
    for path in paths:
        if path.endswith(".py"):
            folder = os.path.dirname(os.path.realpath(path))
            while folder not in folders:
                folders.add(folder)
                folder = os.path.dirname(folder)
    return [[folder, os.path.isfile(os.path.join(folder, "__init__.py"))] for folder in sorted(folders)]


def _packages_stand(markers: list[list] | None) -> bool:
    return markers is not None and all(os.path.isfile(os.path.join(folder, "__init__.py")) == marker
                                       for folder, marker in markers)  # fmt: skip
