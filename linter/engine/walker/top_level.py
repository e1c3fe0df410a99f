"""Another module's top level, run only as far as the names read of it need.

The project pass (``promolint.engine.flow.modules``) reads one name of a module, say
``jax.numpy``'s ``float32``, and the module's whole top level used to run for it: JAX's own modules
define hundreds of functions and classes, and read others that do the same, for every file that
reads one name of them.  Here the statements of a top level are grouped so that a name's value
needs only its group and the groups those read (``TopLevel.needed``), and running just them, in
the source's order, binds what running everything binds:

- every statement that binds or changes a name (assigns it, an attribute or an item of it,
  deletes it, calls ``update``/``append``/... on it, imports, defines it) is in the name's group;
- so is every statement that reads the name before its last such statement (it reads an earlier
  value, or none), which the group's order keeps.

A statement that reads a name after all of the name's statements reads its final value, from a
group that ran before it.  Names are read in the statement's own code, not in function bodies
(the functions of another module do not run at its top level; their bodies read the module's
names when they are called).  A module whose top level may switch JAX's modes
(``jax.config.update("jax_enable_x64", ...)``, ``if jax.config.x64_enabled:``) runs whole, in
order: its later statements run in the modes set before them.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass

# Methods that change the container they are called on (dicts the engine follows, lists).
_MUTATING_METHODS = frozenset({"update", "pop", "popitem", "setdefault", "clear", "append", "extend", "insert",
                               "remove", "add", "discard", "__setitem__", "__setattr__"})  # fmt: skip
_MUTATING_FUNCTIONS = frozenset({"setattr", "delattr", "vars"})  # the object is the first argument
# What a top level that switches modes names (promolint.engine.flow.modes): options it sets, and
# the attributes and options tests of the x64 mode read.
_MODE_OPTIONS = frozenset({"jax_enable_x64", "jax_numpy_dtype_promotion", "jax_explicit_x64_dtypes"})
_X64_TESTS = frozenset({"jax_enable_x64", "x64_enabled"})
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


class TopLevel:
    """The statements of a module's top level and, for each name, which of them bind its
    final value (computed as names are asked for).

    A module read for a few names runs a few of its statements, and its tree takes about 35
    times its text: the text is kept, and a statement is parsed again from its own lines when it
    first runs (``statement``), with the positions it has in the module."""

    def __init__(self, data: bytes):
        tree = ast.parse(data)
        body = tree.body
        self.size = len(body)
        self.whole = _switches_modes(body)  # every name needs every statement
        self._source = data
        self._lines = _line_starts(data)
        self._spans = [(min((d.lineno for d in getattr(s, "decorator_list", ())), default=s.lineno), s.end_lineno)
                       for s in body]  # fmt: skip
        # Statements sharing a line (``a = 1; b = 2``), a whole top level, a text not in UTF-8:
        # the tree is kept.
        shares_lines = any(after[0] <= before[1] for before, after in zip(self._spans, self._spans[1:]))
        self._statements: dict[int, ast.stmt] = dict(enumerate(body)) if (
            self.whole or shares_lines or not _is_utf8(data)) else {}  # fmt: skip
        uses = [_uses(statement) for statement in body]
        binders: dict[str, list[int]] = {}  # the statements that bind each name, in order
        for index, (_, binds) in enumerate(uses):
            for name in binds:
                binders.setdefault(name, []).append(index)
        self._binder = {name: indices[0] for name, indices in binders.items()}  # one of its group
        self._group_of = _groups(uses, binders)
        self._members: dict[int, list[int]] = {}
        self._reads_of: dict[int, set[str]] = {}
        for index, group in enumerate(self._group_of):
            self._members.setdefault(group, []).append(index)
            self._reads_of.setdefault(group, set()).update(uses[index][0])
        self._closures: dict[int, tuple[int, ...]] = {}
        self._values: Uses | None = None

    def exported(self) -> tuple[str, ...]:
        """The names ``from module import *`` binds: ``__all__`` where one statement binds it to
        a literal list or tuple of strings, else every name the top level binds that does not
        start with an underscore (imported modules too: ``jnp``).  A star import in the module
        itself is not followed."""
        binder = self._binder.get("__all__")
        if binder is not None:
            statement = self.statement(binder)
            value = statement.value if type(statement) in (ast.Assign, ast.AnnAssign) else None
            if type(value) in (ast.List, ast.Tuple) and all(
                    type(e) is ast.Constant and type(e.value) is str for e in value.elts):  # fmt: skip
                return tuple(e.value for e in value.elts)
            return ()  # built otherwise: not guessed
        return tuple(name for name in self._binder if not name.startswith("_"))

    def needed(self, name: str) -> tuple[int, ...]:
        """The statements (indices, in order) that bind ``name``'s final value and what they
        read; none when no statement binds it."""
        if self.whole:
            return tuple(range(self.size))
        binder = self._binder.get(name)
        return () if binder is None else self._closure(self._group_of[binder])

    def statement(self, index: int) -> ast.stmt:
        """Top-level statement ``index``, parsed when first asked for."""
        found = self._statements.get(index)
        if found is None:
            first, last = self._spans[index]
            try:  # blank lines before it give its nodes their line numbers (no walk to shift them)
                found = ast.parse(b"\n" * (first - 1) + self._source[self._lines[first - 1]:self._lines[last]]).body[0]
            except (SyntaxError, ValueError, IndexError):  # lines that do not parse alone
                found = ast.parse(self._source).body[index]
            self._statements[index] = found
        return found

    def values(self) -> Uses:
        """How its code may reach functions other than by calling them by name (parsed once)."""
        if self._values is None:
            self._values = values_used(ast.parse(self._source))
        return self._values

    def _closure(self, group: int) -> tuple[int, ...]:
        found = self._closures.get(group)
        if found is None:
            groups, stack = {group}, [group]
            while stack:
                for name in self._reads_of[stack.pop()]:
                    binder = self._binder.get(name)
                    if binder is not None and (other := self._group_of[binder]) not in groups:
                        groups.add(other)
                        stack.append(other)
            found = self._closures[group] = tuple(sorted(i for g in groups for i in self._members[g]))
        return found


@dataclass(frozen=True)
class Uses:
    """How a module's code may reach functions other than by calling them by name: the names
    (identifiers and attributes) it reads as values, anywhere but as the function a call calls
    (an argument, an element, an alias, a default); those an import binds under another name; the
    names whose attributes a ``getattr`` with a computed name, ``vars`` or ``__dict__`` reads; and
    whether it reads its own names so (``globals()``, ``vars()``)."""

    values: frozenset[str]
    dynamic: frozenset[str]
    own: bool


def values_used(tree: ast.Module) -> Uses:
    callees: set[int] = set()
    values: set[str] = set()
    dynamic: set[str] = set()
    own = False
    # One walk: ``ast.walk`` visits a call before its children, so its callee is known as one
    # by the time the walk reaches it.
    for node in ast.walk(tree):
        kind = type(node)
        if kind is ast.Name:
            if type(node.ctx) is ast.Load and id(node) not in callees:
                values.add(node.id)
        elif kind is ast.Attribute:
            if type(node.ctx) is ast.Load and id(node) not in callees:
                values.add(node.attr)
            if node.attr == "__dict__":
                dynamic.update(_dotted_names(node.value))
        elif kind is ast.Call:
            callees.add(id(node.func))
            function = node.func
            name = function.id if type(function) is ast.Name else None
            if name == "getattr" and len(node.args) >= 2 and not (
                    type(node.args[1]) is ast.Constant and type(node.args[1].value) is str):  # fmt: skip
                dynamic.update(_dotted_names(node.args[0]))
            elif name in ("globals", "locals") or (name == "vars" and not node.args):
                own = True
            elif name == "vars" and node.args:
                dynamic.update(_dotted_names(node.args[0]))
        elif kind is ast.alias and node.asname and node.asname != node.name.rpartition(".")[2]:
            values.add(node.name.rpartition(".")[2])
    return Uses(frozenset(values), frozenset(dynamic), own)


def _dotted_names(node: ast.expr) -> tuple[str, ...]:
    """The names a ``getattr``'s object may be: ``mctx`` of ``mctx``, ``b`` of ``a.b``; none for
    anything else (an object made by a call: its attributes were assigned as values)."""
    if type(node) is ast.Name:
        return (node.id,)
    if type(node) is ast.Attribute:
        return (node.attr,)
    return ()


def _groups(uses: list[tuple[set[str], set[str]]], binders: dict[str, list[int]]) -> list[int]:
    """Each statement's group (a statement of it): a name's statements are in one group, with
    those that read it before its last."""
    groups = _Groups(len(uses))
    for indices in binders.values():
        for index in indices:
            groups.union(indices[0], index)
    for index, (reads, _) in enumerate(uses):
        for name in reads:
            indices = binders.get(name)
            if indices is not None and index < indices[-1]:
                groups.union(indices[0], index)
    return [groups.find(index) for index in range(len(uses))]


class _Groups:
    """Union-find over statement indices."""

    def __init__(self, size: int):
        self._parent = list(range(size))

    def find(self, index: int) -> int:
        parent = self._parent
        while parent[index] != index:
            parent[index] = parent[parent[index]]
            index = parent[index]
        return index

    def union(self, first: int, second: int) -> None:
        self._parent[self.find(second)] = self.find(first)


def _uses(statement: ast.stmt) -> tuple[set[str], set[str]]:
    """The module names a top-level statement may read and those it may bind or change, as it
    runs at the top level (function bodies do not run; decorators, defaults and class bodies
    do).  Both may say more than the statement does, never less."""
    reads: set[str] = set()
    binds: set[str] = set()
    stack: list[tuple[ast.AST, bool]] = [(statement, True)]  # (node, whether its names are the module's)
    while stack:
        node, module_level = stack.pop()
        kind = type(node)
        if kind in _FUNCTIONS or kind is ast.Lambda:
            arguments = node.args
            stack.extend((d, module_level) for d in (*arguments.defaults, *arguments.kw_defaults) if d is not None)
            if kind is not ast.Lambda:
                stack.extend((d, module_level) for d in node.decorator_list)
                if module_level:
                    binds.add(node.name)
            continue
        if kind is ast.ClassDef:
            if module_level:
                binds.add(node.name)
            stack.extend((child, module_level) for child in (*node.bases, *node.keywords, *node.decorator_list))
            stack.extend((child, False) for child in node.body)  # its names are the class's
            continue
        if kind is ast.Name:
            if type(node.ctx) is ast.Load:
                reads.add(node.id)
            elif module_level:
                binds.add(node.id)
            continue
        if kind in (ast.Attribute, ast.Subscript) and type(node.ctx) is not ast.Load:
            binds.update(_root(node.value))
        elif kind is ast.Call:
            function = node.func
            if type(function) is ast.Attribute and function.attr in _MUTATING_METHODS:
                binds.update(_root(function.value))
            elif type(function) is ast.Name and function.id in _MUTATING_FUNCTIONS and node.args:
                binds.update(_root(node.args[0]))
        elif kind is ast.Import or kind is ast.ImportFrom:
            if module_level:
                binds.update((alias.asname or alias.name).split(".")[0] for alias in node.names if alias.name != "*")
            continue
        elif kind is ast.ExceptHandler and node.name and module_level:
            binds.add(node.name)
        elif kind in (ast.MatchAs, ast.MatchStar) and node.name and module_level:
            binds.add(node.name)
        elif kind is ast.MatchMapping and node.rest and module_level:
            binds.add(node.rest)
        elif kind in _COMPREHENSIONS:
            stack.extend((child, False) for child in ast.iter_child_nodes(node))  # its names stay inside
            continue
        stack.extend((child, module_level) for child in ast.iter_child_nodes(node))
    return reads, binds


def _root(node: ast.expr) -> Iterable[str]:
    """The name an attribute or item chain starts from: ``a`` of ``a.b[c].d``."""
    while type(node) in (ast.Attribute, ast.Subscript, ast.Call, ast.Starred):
        node = node.func if type(node) is ast.Call else node.value
    return (node.id,) if type(node) is ast.Name else ()


def _switches_modes(statements: list[ast.stmt]) -> bool:
    """Whether a statement of the top level (not a function body) may set a mode (a call with an
    option's name) or test the x64 mode (an ``if`` whose branches then run in their modes)."""
    stack: list[ast.AST] = list(statements)
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind in _FUNCTIONS or kind is ast.Lambda:
            continue
        if kind is ast.Call:
            if any(type(a) is ast.Constant and a.value in _MODE_OPTIONS
                   for a in (*node.args, *(k.value for k in node.keywords))):  # fmt: skip
                return True
        elif kind is ast.If:
            if any((type(n) is ast.Attribute and n.attr in _X64_TESTS) or (type(n) is ast.Name and n.id in _X64_TESTS)
                   or (type(n) is ast.Constant and n.value in _MODE_OPTIONS) for n in ast.walk(node.test)):  # fmt: skip
                return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _line_starts(data: bytes) -> list[int]:
    """Where each line starts in ``data``, and its end after the last line."""
    starts = [0]
    position = data.find(b"\n")
    while position != -1:
        starts.append(position + 1)
        position = data.find(b"\n", position + 1)
    starts.append(len(data))
    return starts


def _is_utf8(data: bytes) -> bool:
    """Whether the text parses as UTF-8 line by line: no coding declaration names another
    encoding (one in the first two lines), no carriage return alone ends a line."""
    head = b"\n".join(data.split(b"\n", 2)[:2])
    return b"\r" not in data.replace(b"\r\n", b"") and not (b"coding" in head and not _UTF8_DECLARED.search(head))


_UTF8_DECLARED = re.compile(rb"coding[:=][ \t]*(utf-?8|UTF-?8)\b")


@functools.lru_cache(maxsize=256)  # their text and the statements that ran: small
def _parsed(path: str, status: tuple[int, int]) -> TopLevel | None:
    try:
        with open(path, "rb") as file:
            return TopLevel(file.read())
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def top_level(path: str) -> TopLevel | None:
    """The top level of another module of the program, parsed once per process while the file's
    size and time are unchanged (a worker reads the modules that many of its files import)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return _parsed(path, (status.st_mtime_ns, status.st_size))
