"""The engine keeps no state in modules: what one analysis remembers lives in objects the analysis
owns (``engine.symbolic.EvaluationState``, the flow's parts), so that analyses alive at once (lint's
of the other x64 mode, a language server's) never see each other's memos.

The scan reads the source (``ast``): a ``global`` statement; a module-level function memoized with
``functools.cache`` or ``lru_cache``; a module-level name bound to a mutable container or iterator
(a dict, list or set display or comprehension, ``dict()``, ``itertools.count()``, ...) that code in
``linter/`` writes to (``NAME[k] = v``, ``NAME.append(...)``, ``next(NAME)``, ...).  A table written
as a display that nothing writes to is a constant, as the scan proves; the allow-list names the
few process-wide caches that hold facts, never an analysis's values.
"""

from __future__ import annotations

import ast
from pathlib import Path

LINTER = Path(__file__).parents[2] / "linter"
ENGINE = LINTER / "engine"

# (module path under linter/engine, function name): process-wide caches allowed, and why.
ALLOWED_CACHES = {
    # The promotion systems and facts of the installed JAX and NumPy, built once per mode: the
    # same immutable tables for every analysis.
    ("context.py", "_jax"),
    ("context.py", "_jax_facts"),
    ("context.py", "_numpy"),
    # Other modules' top levels parsed (syntax, no values), keyed by path, time and size: a worker
    # reads the modules that many of its files import once.
    ("walker/top_level.py", "_parsed"),
}

_MUTABLE_CONSTRUCTORS = frozenset({"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "deque",
                                   "bytearray", "count", "WeakKeyDictionary", "WeakValueDictionary", "WeakSet"})
_MUTABLE_DISPLAYS = (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)
_MUTATING_METHODS = frozenset({"append", "extend", "insert", "remove", "pop", "popitem", "clear", "update",
                               "setdefault", "add", "discard", "sort", "reverse", "__setitem__", "appendleft"})
_CACHES = frozenset({"cache", "lru_cache", "cached_property"})


def _name_of(node: ast.expr) -> str | None:
    """The last name of ``NAME`` or ``module.NAME``."""
    if type(node) is ast.Name:
        return node.id
    if type(node) is ast.Attribute:
        return node.attr
    return None


def _is_mutable(value: ast.expr | None) -> bool:
    if isinstance(value, _MUTABLE_DISPLAYS):
        return True
    return type(value) is ast.Call and _name_of(value.func) in _MUTABLE_CONSTRUCTORS


def _written_names(tree: ast.AST) -> set[str]:
    """The names (or attributes) code writes into: item assignments and deletions, augmented
    assignments, mutating method calls, ``next()`` of an iterator."""
    written = set()
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if type(node) in (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Delete):
            targets = node.targets if type(node) in (ast.Assign, ast.Delete) else [node.target]
        for target in targets:
            if type(target) is ast.Subscript:
                written.add(_name_of(target.value))
            elif type(node) is ast.AugAssign:
                written.add(_name_of(target))
        if type(node) is ast.Call:
            func = node.func
            if type(func) is ast.Attribute and func.attr in _MUTATING_METHODS:
                written.add(_name_of(func.value))
            elif type(func) is ast.Name and func.id == "next" and node.args:
                written.add(_name_of(node.args[0]))
    written.discard(None)
    return written


def _decorator_name(decorator: ast.expr) -> str | None:
    return _name_of(decorator.func if type(decorator) is ast.Call else decorator)


def module_state(engine: Path = ENGINE, linter: Path = LINTER) -> list[str]:
    """Every piece of module-level mutable state in ``engine``, as ``path:line: what``."""
    written: set[str] = set()
    for path in linter.rglob("*.py"):
        written |= _written_names(ast.parse(path.read_text(encoding="utf-8")))
    found = []
    for path in sorted(engine.rglob("*.py")):
        where = path.relative_to(engine).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if type(node) is ast.Global:
                found.append(f"{where}:{node.lineno}: global {', '.join(node.names)}")
        for node in tree.body:
            if type(node) in (ast.FunctionDef, ast.AsyncFunctionDef):
                if any(_decorator_name(d) in _CACHES for d in node.decorator_list) and (where, node.name) not in \
                        ALLOWED_CACHES:  # fmt: skip
                    found.append(f"{where}:{node.lineno}: {node.name} memoized for the process")
            elif type(node) in (ast.Assign, ast.AnnAssign) and _is_mutable(node.value):
                targets = node.targets if type(node) is ast.Assign else [node.target]
                for name in {_name_of(t) for t in targets} & written:
                    found.append(f"{where}:{node.lineno}: {name} is a module-level table that code writes to")
    return found


def test_the_engine_keeps_no_state_in_its_modules() -> None:
    assert module_state() == []


def test_the_scan_finds_each_kind_of_module_state(tmp_path: Path) -> None:
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "memo.py").write_text(
        "import functools, itertools\n"
        "_MEMO = {}\n"
        "_NUMBERS = itertools.count()\n"
        "TABLE = {'a': 1}\n"  # read only: a constant
        "_last = None\n"
        "def remember(key, value):\n"
        "    global _last\n"
        "    _MEMO[key] = value\n"
        "    _last = next(_NUMBERS)\n"
        "    return TABLE['a']\n"
        "@functools.lru_cache(maxsize=None)\n"
        "def cached(x):\n"
        "    return x\n",
        encoding="utf-8",
    )
    assert module_state(engine, tmp_path) == [
        "memo.py:7: global _last",
        "memo.py:2: _MEMO is a module-level table that code writes to",
        "memo.py:3: _NUMBERS is a module-level table that code writes to",
        "memo.py:12: cached memoized for the process",
    ]
