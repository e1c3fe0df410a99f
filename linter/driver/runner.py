"""Running `promolint check` over many files: cache, prefilter, workers.

Kept free of the engine and the rules, which load only in a worker that has a file to analyze, so
a run served from the cache starts and ends fast.
"""

from __future__ import annotations

import gc
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from promolint.driver.cache import ResultCache, content_key
from promolint.driver.config import PARSE_ERROR, UNUSED_NOQA, Config, facts_versions, project_root
from promolint.driver.discovery import NOTEBOOK_SUFFIX, file_names, unreadable_entry
from promolint.core.diagnostics import Diagnostic, FixSummary, RelatedLocation
from promolint.driver.prefilter import may_have_findings, may_switch_x64, parses
from promolint.driver.progress import Progress
from promolint.engine.project_facts import ProjectFacts

if TYPE_CHECKING:
    from promolint.engine.flow.modes import Settings
    from promolint.driver.project import ModuleNode

_PARALLEL_THRESHOLD = 4  # below this many files a process pool costs more than it saves
_BATCHES_PER_WORKER = 16  # enough that the last ones are short; few enough that sending them costs little


@dataclass
class CheckRun:
    """One `promolint check` over many files: the findings and how the files were handled."""

    diagnostics: list[Diagnostic]
    files: int = 0
    skipped: int = 0  # provably finding-free: only checked for syntax errors, not analyzed
    cached: int = 0

    @property
    def internal_errors(self) -> int:
        return sum(is_internal_error(d) for d in self.diagnostics)


_INTERNAL_ERROR = "promolint could not analyze this file: internal error"


def is_internal_error(diagnostic: Diagnostic) -> bool:
    """A bug of promolint's, not a finding: the run exits with status 2, as ruff's does."""
    return diagnostic.code == PARSE_ERROR and diagnostic.message.startswith(_INTERNAL_ERROR)


def internal_error(path: str, error: Exception) -> Diagnostic:
    return Diagnostic(path, 1, 1, PARSE_ERROR, f"{_INTERNAL_ERROR} {type(error).__name__}: {error} (please report it)")


@dataclass(frozen=True)
class LintJob:
    """One file's work: its bytes and what to lint them for."""

    path: str
    data: bytes
    settings: Settings  # with what the other files of the run decide for this one (its facts)
    codes: frozenset[str]
    external: tuple[str, ...] = ()


def lint_job(job: LintJob) -> tuple[list[Diagnostic], bool]:
    """Lint one file's bytes; True when it was skipped as finding-free."""
    data, codes = job.data, job.codes
    if (not may_have_findings(data) and (UNUSED_NOQA not in codes or b"noqa" not in data)
            and not job.path.endswith(NOTEBOOK_SUFFIX) and parses(data, job.settings.python)):  # fmt: skip
        return [], True
    from promolint.driver.lint import lint_file

    try:
        with _young_garbage_collected_after():
            return lint_file(data, job.path, job.settings, codes, job.external), False
    except Exception as error:  # one file's internal error must not end the run
        return [internal_error(job.path, error)], False


@contextmanager
def _young_garbage_collected_after() -> Iterator[None]:
    """Collect cyclic garbage once, after the file, instead of while it is analyzed.

    A syntax tree is hundreds of thousands of objects that live until the file is done: the
    collector, triggered by their allocations, would traverse them again and again (a quarter of
    the run).  Everything made meanwhile is still in the youngest generation, so collecting that
    one frees the file's cycles without traversing older objects."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(0)


def _cache_row(d: Diagnostic) -> list:
    fix = [d.fix.title, d.fix.safe] if d.fix else []
    related = [astuple(r) for r in d.related]
    position = [d.cell, d.file_line] if d.cell else []
    return [d.line, d.column, d.code, d.message, d.end_line, d.end_column, fix, related, *position]


def _from_cache_row(path: str, row: list) -> Diagnostic:
    line, column, code, message, end_line, end_column, fix, related, *position = row
    cell, file_line = position or (0, 0)
    return Diagnostic(path, line, column, code, message, end_line, end_column, FixSummary(*fix) if fix else None,
                      cell=cell, file_line=file_line, related=tuple(RelatedLocation(*r) for r in related))  # fmt: skip


def cache_directory(config: Config) -> Path:
    """The cache's folder: ``cache_dir`` in the project root, which is the [tool.promolint]
    table's folder, else as ruff finds it (``promolint.driver.config.project_root``): pre-commit's
    `promolint check src/a/x.py src/b/y.py` must not leave a cache in src/a."""
    return (config.root if config.source is not None else project_root(config.root)) / config.cache_dir


def open_cache(config: Config) -> ResultCache:
    # The facts' versions too: results found with JAX 0.10's facts are not 0.12's.
    key = (config.x64, config.promotion, config.target_version, *config.external, facts_versions(config))
    return ResultCache(cache_directory(config), "|".join(key))


def cache_key(data: bytes, codes: frozenset[str], facts: ProjectFacts | None = None) -> str:
    return content_key(data + b"\0" + ",".join(sorted(codes)).encode() + (b"\0" + facts.key().encode() if facts else b""))


def from_cache(store: ResultCache | None, path: str, key: str) -> list[Diagnostic] | None:
    rows = store.get(key) if store else None
    return None if rows is None else [_from_cache_row(path, row) for row in rows]


def to_cache(store: ResultCache | None, key: str, diagnostics: list[Diagnostic]) -> None:
    rows = cache_rows(diagnostics)
    if store and rows is not None:
        store.put(key, rows)


def cache_rows(diagnostics: list[Diagnostic]) -> list | None:
    """A file's diagnostics as the cache stores them; None when an internal error (which a
    fixed version may not have) means they must not be cached."""
    return None if any(is_internal_error(d) for d in diagnostics) else [_cache_row(d) for d in diagnostics]


def run_check(paths: list[Path], config: Config, jobs: int | None = None, cache: bool = True,
              stdin: tuple[str, bytes] | None = None) -> CheckRun:  # fmt: skip
    """Lint ``paths`` (or, with ``stdin``, one file's name and bytes read from standard input);
    unchanged files come from the content-hash cache unless ``cache`` is off, and files the
    cache's index finds as they were are not even read.  On a terminal, the files done show."""
    store = open_cache(config) if cache else None
    run = CheckRun([])
    found = [] if stdin else list(file_names(paths, config, run.diagnostics))
    run.files += len(run.diagnostics)  # the entries that could not be read
    with Progress(len(found)) as progress:
        _check(run, found, config, store, jobs, stdin, progress)
    run.diagnostics.sort()
    return run


def _check(run: CheckRun, found: list[str], config: Config, store: ResultCache | None, jobs: int | None,
           stdin: tuple[str, bytes] | None, progress: Progress) -> None:  # fmt: skip
    """``run_check`` over the files ``found``, or standard input's."""
    index, facts = None, None
    if stdin:
        files = [(Path(stdin[0]), stdin[1])]
    else:
        index = _RunIndex(store, found, config) if store else None
        read = dict(_read(index.changed if index else found, run))
        if index:
            facts = index.facts(read)
            # None: they may have changed, and with them the unchanged files' keys
            read.update(_read(index.take_unchanged() if facts is None else index.take_stale(), run))
        progress.advance(len(found) - len(read))  # from the index, or not readable
        files = [(Path(path), read[path]) for path in found if path in read]
    if facts is None:
        facts, graph = project_pass(files, config.x64 == "auto")
        if index:
            index.graph = graph
    work, keys = [], {}
    for path, key in index.unchanged() if index else ():
        run.files += 1
        run.cached += 1
        run.diagnostics += from_cache(store, path, key)
    for path, data in files:
        run.files += 1
        codes = config.enabled_codes(path)
        found_facts = facts.get(str(path))
        key, path = cache_key(data, codes, found_facts), str(path)
        if index:
            index.record(path, key, data, found_facts)
        cached = from_cache(store, path, key)
        if cached is not None:
            run.cached += 1
            run.diagnostics += cached
            progress.advance()
            continue
        keys[path] = key
        work.append(LintJob(path, data, config.settings(found_facts), codes, config.external))
    for job, (diagnostics, skipped) in zip(work, parallel_map(lint_job, work, jobs, cost=_file_size)):
        run.skipped += skipped
        run.diagnostics += diagnostics
        to_cache(store, keys[job.path], diagnostics)
        progress.advance()
    if store:
        if index:
            index.save()
        store.save()


# A file modified this close before a run may be modified again within one tick of the file
# system's clock and keep its time: it is not indexed (it is read again next time), as git does.
_RACY_NS = 2_000_000_000
# An index entry: the file's status when it was read, its entry's key, whether it may switch x64,
# the project's facts on it ([x64_at_import, x64_elsewhere], None for none), a hash of the text
# the project's scan reads (promolint.driver.project.scanned); its node in the graph of the run's modules
# (promolint.driver.project.ModuleNode: its module's name or None, the modules its imports name as their
# files' positions in the run's list of files, a digest of its text) and the digest of the
# modules its imports reach (ProjectFacts.dependencies, "" for none), and the modules whose names
# its imports bind (ModuleNode.binds), as positions too, the functions it defines, those of the
# run's modules it names, and whether it reads names by a computed name.
(_STATUS, _KEY, _SWITCHES, _FACTS, _SCANNED, _MODULE, _IMPORTS, _DIGEST, _DEPENDENCIES, _BINDS, _DEFINES, _MENTIONS,
 _DYNAMIC) = slice(0, 4), *range(4, 16)  # fmt: skip
_ENTRY_LENGTH = 16


class _RunIndex:
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
        self.previous = store.files if self.last else {}
        self.statuses = {path: _status(path) for path in found}
        self.entries: dict[str, list] = {}  # this run's
        self.changed: list[str] = []
        self.graph: dict[str, ModuleNode] | None = None  # the run's modules, once known
        self._scanned: dict[str, str] = {}
        self._packages_stand = False
        self._stale: list[str] = []
        self._read_all = False
        for path in found:
            entry = self.previous.get(path)
            if entry is not None and entry[_STATUS] == self.statuses[path] and entry[_KEY] in store \
                    and len(entry) == _ENTRY_LENGTH:  # fmt: skip
                self.entries[path] = entry
            else:
                self.changed.append(path)

    def unchanged(self) -> list[tuple[str, str]]:
        """The unchanged files and their entries' keys."""
        return [(path, entry[_KEY]) for path, entry in self.entries.items()]

    def facts(self, changed: dict[str, bytes]) -> dict[str, ProjectFacts] | None:
        """The project's facts on the ``changed`` files (their contents by path) and on the
        unchanged files whose facts changed (``take_stale``), when the other unchanged files'
        keys stand; None when the facts may have changed."""
        if not self.entries:
            return None  # every file is read: the facts come from all of them, as without an index
        same_paths = self.last.get("paths") == _digest(self.paths)
        reads = any(entry[_DEPENDENCIES] for entry in self.entries.values())
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
                and all(len(self.previous.get(path, ())) == _ENTRY_LENGTH for path in changed)):  # fmt: skip
            return None  # the last run left no graph of the modules, or a file is new or unreadable
        from promolint.driver.project import readers, with_module_reads  # here: a run that reads no file needs no scan

        graph = self.graph = self._module_graph(changed)
        defined = {name for path in self.paths for name in self.previous[path][_DEFINES]}
        if any(node.defines - defined for node in graph.values() if node.path in changed):
            return None  # a function new to the run: what the unchanged files name of it is not known
        affected = readers(graph, [name for name, node in graph.items() if node.path in changed])
        facts = with_module_reads({path: ProjectFacts(*facts) for path, facts in x64.items()}, graph, affected)
        for path in (node.path for name, node in graph.items() if name in affected):
            entry = self.entries.get(path)
            if entry is not None and entry[_DEPENDENCIES] != (facts[path].dependencies if path in facts else ""):
                self._stale.append(path)
                if entry[_FACTS] is not None and path not in x64:
                    facts[path] = replace(facts.get(path, ProjectFacts()), x64_at_import=entry[_FACTS][0],
                                          x64_elsewhere=entry[_FACTS][1])  # fmt: skip
        return facts

    def _x64_facts(self, changed: dict[str, bytes], same_paths: bool) -> dict[str, list] | None:
        """The x64 facts on the changed files, by path, when no unchanged file's can have
        changed; None otherwise."""
        if self.x64 != "auto":
            return {}
        if not any(entry[_SWITCHES] or entry[_FACTS] for entry in self.entries.values()) and \
                not any(may_switch_x64(data) for data in changed.values()):  # fmt: skip
            return {}
        if not same_paths or not self._check_packages():
            return None
        facts = {}
        for path, data in changed.items():
            entry = self.previous.get(path)
            if entry is None or entry[_SCANNED] != self.scanned(path, data):
                return None
            if entry[_FACTS] is not None:
                facts[path] = entry[_FACTS]
        return facts

    def _check_packages(self) -> bool:
        self._packages_stand = _packages_stand(self.last.get("packages"))
        return self._packages_stand

    def _module_graph(self, changed: dict[str, bytes]) -> dict[str, ModuleNode]:
        """The run's modules: the unchanged files' as the index keeps them, the changed files'
        from their contents (``facts`` made sure that every file was read and has a whole entry)."""
        from promolint.driver.project import ModuleNode, module_node

        names = {path: self.previous[path][_MODULE] for path in self.paths}
        modules = {names[path]: path for path in self.paths if names[path] is not None}
        defined = frozenset(name for path in modules.values() for name in self.previous[path][_DEFINES])
        graph = {}
        for name, path in modules.items():
            if path in changed:
                graph[name] = module_node(path, name, changed[path], modules, defined)
            else:
                entry = self.entries[path]
                graph[name] = ModuleNode(path, frozenset(names[self.paths[i]] for i in entry[_IMPORTS]), entry[_DIGEST],
                                         frozenset(names[self.paths[i]] for i in entry[_BINDS]),
                                         frozenset(entry[_DEFINES]), frozenset(entry[_MENTIONS]), entry[_DYNAMIC])  # fmt: skip
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
        self.entries[path] = [*status, key, may_switch_x64(data), x64, self.scanned(path, data), None, [], None,
                              dependencies, [], [], [], False]  # fmt: skip

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
                imports = sorted(position[self.graph[m].path] for m in node.imports)
                entry[_MODULE:_DIGEST + 1] = name, imports, node.digest
                entry[_BINDS] = sorted(position[self.graph[m].path] for m in node.binds)
                entry[_DEFINES:_DYNAMIC + 1] = sorted(node.defines), sorted(node.mentions), node.dynamic


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


def run_facts(files: list[tuple[Path, bytes]], x64: bool) -> dict[str, ProjectFacts]:
    """The project's facts on each of the run's files (``promolint.driver.project``); ``x64``: the
    mode follows the code."""
    return project_pass(files, x64)[0]


def project_pass(files: list[tuple[Path, bytes]], x64: bool) -> tuple[dict[str, ProjectFacts], dict | None]:
    """``run_facts``, and the graph of the run's modules (``promolint.driver.project.ModuleNode`` by
    name; None where it was not needed)."""
    if len(files) < 2 and not (x64 and any(may_switch_x64(data) for _, data in files)):
        return {}, None  # decided without loading the pre-scan (a run of one file has no project to read)
    from promolint.driver.project import project_pass

    return project_pass(files, x64)


def _read(paths: Iterable[str], run: CheckRun) -> Iterator[tuple[str, bytes]]:
    for path in paths:
        try:
            with open(path, "rb") as file:
                data = file.read()
        except OSError as error:
            run.files += 1
            run.diagnostics.append(unreadable_entry(path, f"cannot read file: {error.strerror}"))
            continue
        yield path, data


def _file_size(job: LintJob) -> int:
    return len(job.data)


def parallel_map(function: Callable, work: list, jobs: int | None, cost: Callable | None = None) -> Iterator:
    """``map(function, work)`` over worker processes, results in ``work``'s order as they come.

    With ``cost`` (an estimate per item), items go in batches of similar cost, each a run of
    neighbours in ``work`` (files of one package, in the order the tree is walked), sent in that
    order: a file's analysis reads the modules its package imports, which a worker keeps parsed
    (``promolint.engine.walker.top_level``), so a worker that goes through a package in order reads
    them once, where one handed files scattered over the tree, largest first, read them again
    and again (a third more time on the benchmark's corpus).

    Ctrl-C reaches the workers too (the terminal signals the whole process group): they ignore
    it from their start, and the caller, interrupted, ends them at once instead of waiting for
    their batches."""
    workers = jobs or os.cpu_count() or 1
    if workers == 1 or len(work) < _PARALLEL_THRESHOLD:
        yield from map(function, work)
        return
    import multiprocessing  # here: a run served from the cache, or of one file, starts no pool
    from concurrent.futures import ProcessPoolExecutor

    batches = _batches([cost(item) for item in work] if cost else [1] * len(work), workers * _BATCHES_PER_WORKER)
    # Workers start from a clean server process, never a fork of the caller: forking a process
    # that has imported JAX (the pytest plugin, the runtime shim) can deadlock.
    context = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                          else "spawn")  # fmt: skip
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_ignore_interrupts) as pool:
        # Futures, not pool.map: its results cancel the batches left when interrupted, and Python
        # 3.11's pool then fails on the cancelled ones as its workers end, and hangs the exit.
        tasks = [(function, [work[i] for i in batch]) for batch in batches]
        try:
            with _interrupts_held():  # the first submissions start the processes, which inherit it
                futures = [pool.submit(_apply, task) for task in tasks[:workers]]
            futures += [pool.submit(_apply, task) for task in tasks[workers:]]
            for future in futures:
                yield from future.result()
        except BaseException:  # an interrupt, or a caller that stops early: no batch is waited for
            _terminate(pool)
            raise


def _apply(batch: tuple[Callable, list]) -> list:
    function, items = batch
    return [function(item) for item in items]


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """SIGINT held back meanwhile, and delivered when it ends: processes started now inherit the
    block, so they never see a Ctrl-C, where the pool's initializer would leave them open to it
    while they import; the caller loses none."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: the initializer alone
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _terminate(pool) -> None:
    """End ``pool``'s workers now (``ProcessPoolExecutor.terminate_workers`` from Python 3.14),
    and wait for the pool's manager thread to see them gone: one still closing its pipe when the
    interpreter exits races the executor's exit hook, which then prints an OSError traceback."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False)  # not cancel_futures: see parallel_map
    for process in processes:
        process.terminate()
    if manager is not None:
        manager.join(timeout=_MANAGER_EXIT_S)


_MANAGER_EXIT_S = 10  # a backstop: the manager ends as soon as it sees its workers gone


def _batches(costs: list[float], count: int) -> list[list[int]]:
    """Indices of the items in about ``count`` batches of similar total cost, each a run of
    neighbours: an item that alone exceeds a batch's share ends its batch."""
    share = sum(costs) / count or 1  # all free (empty files): one batch
    batches, current, filled = [], [], 0.0
    for index, item_cost in enumerate(costs):
        current.append(index)
        filled += item_cost
        if filled >= share:
            batches.append(current)
            current, filled = [], 0.0
    return batches + [current] if current else batches
