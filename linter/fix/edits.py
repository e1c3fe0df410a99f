"""Fixes through libcst: rules describe edits on opaque nodes; here those nodes are found, new code
is parsed and put in their place, and everything else (formatting, comments) stays as written.
And what a fix changes: the original and the fixed file's syntax matched side by side, and the
values ``reveal`` records on both compared."""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from promolint.engine.model import Span
from promolint.engine.walker.source import Source
from promolint.rules.base import Edit, Fix

_PLACEHOLDER = "__promolint_{}__"
# Syntax that needs no parentheses before `.attr`, `[i]` or `(args)` (`0.5.real` parses; `2.real` does not).
_ATOMS = (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.SimpleString, cst.FormattedString, cst.List,
          cst.Dict, cst.Set, cst.ListComp, cst.SetComp, cst.DictComp, cst.Float, cst.Imaginary)  # fmt: skip


def apply_fixes(data: bytes, source: Source, fixes: Iterable[Fix]) -> tuple[bytes, int]:
    """``data`` (parsed as ``source``) with ``fixes`` applied, and how many were.

    Rules name ``ast`` nodes; each is found in libcst's tree by its span, so that the edit keeps
    every comment and all formatting around it.  A fix whose edits overlap those of a fix taken
    before is left for the next pass (the caller analyzes the result again).  A fix whose import
    would clash with a name the module already uses is dropped, and so is one whose syntax libcst
    does not place."""
    try:
        module = cst.parse_module(data)
    except (cst.ParserSyntaxError, SyntaxError, RecursionError, MemoryError):
        return data, 0  # ast accepts what libcst does not: nothing can be rewritten
    at_span, line_ends = _expressions_by_span(module)

    def translated(node: object) -> cst.CSTNode | None:
        return at_span.get(source.span(node))

    bindings, used = _module_bindings(module), _names_used(module)
    taken: set[int] = set()
    replacements: dict[int, cst.CSTNode] = {}
    noted: list[tuple[cst.CSTNode, int, str]] = []  # the node a note is about, the line it ends on, the note
    imports: dict[str, cst.SimpleStatementLine] = {}
    applied = 0
    for fix in fixes:
        edits = [Edit(translated(e.node), e.code, tuple(translated(a) for a in e.args)) for e in fix.edits]
        if any(e.node is None or None in e.args for e in edits):
            continue
        needed = _imports_needed(fix.imports, bindings, used)
        covered = set().union(*(_subtree(edit.node) for edit in edits))
        if needed is None or covered & taken:
            continue
        taken |= covered
        imports.update(needed)
        replacements.update((id(edit.node), _render(edit)) for edit in edits)
        if fix.note:
            noted.append((edits[0].node, source.span(fix.edits[0].node).end_line, fix.note))
        applied += 1
    if not applied:
        return data, 0
    notes: dict[int, list[str]] = {}
    owners = _line_owners(module, {id(node) for node, _, _ in noted})
    for node, line, note in noted:
        # On the line the edit changes (where the edited expression ends), which has a line end
        # of its own there (inside brackets too); else after the whole statement.
        end = line_ends.get(line)
        notes.setdefault(id(end if end is not None else owners[id(node)]), []).append(note)
    fixed = module.visit(_Apply(replacements, notes))
    return _with_imports(fixed, list(imports.values())).bytes, applied


def _expressions_by_span(module: cst.Module) -> tuple[dict[Span, cst.CSTNode], dict[int, cst.TrailingWhitespace]]:
    """The expressions (and augmented assignments, which rules also edit) of ``module`` by
    their spans, which exclude parentheses as ``ast``'s do; where several share one, the
    outermost.  And the line ends (where a comment goes) by the line they end."""
    at_span: dict[Span, cst.CSTNode] = {}
    line_ends: dict[int, cst.TrailingWhitespace] = {}
    for node, r in MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider).items():
        if isinstance(node, (cst.BaseExpression, cst.AugAssign)):
            span = Span(r.start.line, r.start.column + 1, r.end.line, r.end.column + 1)
            at_span.setdefault(span, node)
        elif isinstance(node, cst.TrailingWhitespace):
            line_ends[r.start.line] = node
    return at_span, line_ends


class _WithParents(cst.CSTTransformer):
    """A transformer that knows, when it leaves a node, the node's parent (``parent``)."""

    def __init__(self):
        super().__init__()
        self._parents: list[cst.CSTNode] = []

    def on_visit(self, node) -> bool:
        self._parents.append(node)
        return True

    def on_leave(self, original_node, updated_node):
        self._parents.pop()
        return self.leave(original_node, updated_node, self._parents[-1] if self._parents else None)

    def leave(self, original_node, updated_node, parent):
        return updated_node


class _Apply(_WithParents):
    def __init__(self, replacements: dict[int, cst.CSTNode], notes: dict[int, list[str]]):
        super().__init__()
        self._replacements = replacements
        self._notes = notes

    def leave(self, original_node, updated_node, parent):
        if id(original_node) in self._replacements:
            replacement = self._replacements[id(original_node)]
            if isinstance(replacement, cst.Integer) and isinstance(parent, cst.Attribute) and parent.value is original_node:
                return replacement.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])  # `(3).real`
            return replacement
        notes = self._notes.get(id(original_node))
        if notes and isinstance(updated_node, cst.TrailingWhitespace):
            return _commented(updated_node, notes)
        return _with_notes(updated_node, notes) if notes else updated_node


def _render(edit: Edit) -> cst.BaseExpression:
    """The edit's code as syntax, the nodes of ``args`` in place of its placeholders; in
    parentheses unless it is an atom, since the place it goes may bind tighter."""
    args = {_PLACEHOLDER.format(i): node for i, node in enumerate(edit.args)}
    return _atom(cst.parse_expression(edit.code.format(*args)).visit(_Substitute(args)))


def _atom(node: cst.BaseExpression) -> cst.BaseExpression:
    if node.lpar or isinstance(node, (*_ATOMS, cst.Integer)):  # an int before `.attr`: see _Apply
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])


class _Substitute(_WithParents):
    def __init__(self, args: dict[str, cst.CSTNode]):
        super().__init__()
        self._args = args

    def leave(self, original_node, updated_node, parent):
        if not (isinstance(original_node, cst.Name) and original_node.value in self._args):
            return updated_node
        node = self._args[original_node.value]
        return _atom(node) if _binds_tighter(parent, original_node) else node


def _binds_tighter(parent: cst.CSTNode | None, child: cst.CSTNode) -> bool:
    """Whether ``child`` sits where anything but an atom needs parentheses."""
    if isinstance(parent, (cst.Attribute, cst.Subscript)):
        return parent.value is child
    if isinstance(parent, cst.Call):
        return parent.func is child
    return isinstance(parent, (cst.BinaryOperation, cst.UnaryOperation))


def _subtree(node: cst.CSTNode) -> set[int]:
    ids, stack = set(), [node]
    while stack:
        current = stack.pop()
        ids.add(id(current))
        stack.extend(current.children)
    return ids


# --- imports ---------------------------------------------------------------------------------
def _module_bindings(module: cst.Module) -> dict[str, str]:
    """Names the module's top-level imports bind, to the module or object they mean."""
    bindings = {}
    for statement in module.body:
        for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Import):
                for alias in small.names:
                    dotted = _dotted(alias.name)
                    if alias.asname is not None:
                        bindings[alias.asname.name.value] = dotted
                    else:
                        bindings[dotted.split(".")[0]] = dotted.split(".")[0]
            elif isinstance(small, cst.ImportFrom) and small.module is not None and not small.relative:
                for alias in () if isinstance(small.names, cst.ImportStar) else small.names:
                    name = _dotted(alias.name)
                    bound = alias.asname.name.value if alias.asname is not None else name
                    bindings[bound] = f"{_dotted(small.module)}.{name}"
    return bindings


def _names_used(module: cst.Module) -> set[str]:
    """Every name the module mentions (not attribute names): where an import would clash."""

    class Names(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.names: set[str] = set()

        def visit_Name(self, node: cst.Name) -> None:
            self.names.add(node.value)

        def visit_Attribute(self, node: cst.Attribute) -> bool:
            node.value.visit(self)
            return False

    names = Names()
    module.visit(names)
    return names.names


def _imports_needed(statements: Sequence[str], bindings: dict[str, str],
                    used: set[str]) -> dict[str, cst.SimpleStatementLine] | None:  # fmt: skip
    """The import statements to add for a fix, by the name each binds; None when a name is
    taken by something else."""
    needed = {}
    for text in statements:
        line = cst.parse_statement(text)
        (alias,) = line.body[0].names
        name = alias.asname.name.value if alias.asname is not None else _dotted(alias.name)
        if bindings.get(name) == _dotted(alias.name):
            continue
        if name in bindings or name in used:
            return None
        needed[name] = line
    return needed


def _with_imports(module: cst.Module, imports: list[cst.SimpleStatementLine]) -> cst.Module:
    """``imports`` added after the module's docstring and leading imports."""
    if not imports:
        return module
    body = list(module.body)
    position = 0
    for statement in body:
        smalls = statement.body if isinstance(statement, cst.SimpleStatementLine) else ()
        is_docstring = position == 0 and len(smalls) == 1 and isinstance(smalls[0], cst.Expr) and isinstance(
            smalls[0].value, (cst.SimpleString, cst.ConcatenatedString))  # fmt: skip
        if not (is_docstring or (smalls and all(isinstance(s, (cst.Import, cst.ImportFrom)) for s in smalls))):
            break
        position += 1
    return module.with_changes(body=body[:position] + imports + body[position:])


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return node.value if isinstance(node, cst.Name) else ""


# --- notes -----------------------------------------------------------------------------------
def _line_owners(module: cst.Module, wanted: set[int]) -> dict[int, cst.CSTNode]:
    """For each wanted node, the statement whose line ends with the comment about it: the simple
    statement holding it, or the compound statement whose header does."""

    class Owners(cst.CSTVisitor):
        def __init__(self):
            super().__init__()
            self.stack: list[cst.CSTNode] = []
            self.found: dict[int, cst.CSTNode] = {}

        def on_visit(self, node) -> bool:
            if isinstance(node, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
                self.stack.append(node)
            if id(node) in wanted and self.stack:
                self.found[id(node)] = self.stack[-1]
            return True

        def on_leave(self, original_node) -> None:
            if self.stack and self.stack[-1] is original_node:
                self.stack.pop()

    owners = Owners()
    module.visit(owners)
    return owners.found


def _with_notes(owner: cst.CSTNode, notes: list[str]) -> cst.CSTNode:
    if isinstance(owner, cst.SimpleStatementLine):
        return owner.with_changes(trailing_whitespace=_commented(owner.trailing_whitespace, notes))
    body = owner.body
    if isinstance(body, cst.IndentedBlock):
        return owner.with_changes(body=body.with_changes(header=_commented(body.header, notes)))
    return owner.with_changes(body=body.with_changes(trailing_whitespace=_commented(body.trailing_whitespace, notes)))


def _commented(trailing: cst.TrailingWhitespace, notes: list[str]) -> cst.TrailingWhitespace:
    existing = trailing.comment.value if trailing.comment else ""
    added = "  ".join(f"# {note}" for note in dict.fromkeys(notes) if note not in existing)
    if not added:
        return trailing
    if existing:
        return trailing.with_changes(comment=cst.Comment(f"{existing}  {added}"))
    return trailing.with_changes(whitespace=cst.SimpleWhitespace("  "), comment=cst.Comment(added))


# --- what a fix changes ----------------------------------------------------------------------
Spot = tuple[int, int, int, int]  # line, column, end line, end column
_COMPARED = ("dtype", "weak", "library", "error")


@dataclass(frozen=True)
class Change:
    """An expression or an assigned name whose value a fix changes in one of the modes compared
    (``mode``: its index): its code, its span in the original, and its value before and after
    as ``reveal`` records it (dtype, weak, library, error; ``after`` None: the fix removed it)."""

    text: str
    span: Spot
    target: bool
    mode: int
    before: tuple
    after: tuple | None


def changes(before: Source, after: Source, was: Sequence[list[dict]],
            now: Sequence[list[dict]]) -> list[Change] | None:  # fmt: skip
    """What changed between ``was`` and ``now`` (``reveal``'s records of ``before`` and of
    ``after``, its fixed version, mode by mode), but the edited expressions themselves (their new
    value is what the fix is about) and the parameters of functions (a cast at a call changes
    what a function receives by design); None where the fixed syntax does not follow the
    original's."""
    try:
        matched, edited = correspondence(before, after)
    except SyntaxMismatch:
        return None
    parameters = {_spot(before, node) for node in ast.walk(before.tree) if type(node) is ast.arg}
    found = []
    for mode, (old, new) in enumerate(zip(was, now)):
        fixed = {(*_spot_of(r), r["target"]): r for r in new}
        for record in old:
            span = _spot_of(record)
            if span in edited or span in parameters or (moved := matched.get(span)) is None:
                continue
            value = tuple(record[k] for k in _COMPARED)
            other = fixed.get((*moved, record["target"]))
            value_after = tuple(other[k] for k in _COMPARED) if other is not None else None
            if value_after != value:
                found.append(Change(record["text"], span, record["target"], mode, value, value_after))
    return found


class SyntaxMismatch(Exception):
    """The fixed file's statements do not follow the original's one for one."""


def correspondence(before: Source, after: Source) -> tuple[dict[Spot, Spot], set[Spot]]:
    """The span in ``after`` of each node of ``before`` that the fixes kept, and the spans (in
    ``before``) of the expressions they edited.  A fix rewrites expressions and adds imports;
    everything else keeps its syntax, so the two trees are walked side by side: where they
    differ, the original expression was edited, and the walk goes on inside the new code at the
    original expression when the fix kept it (``b`` in ``b.astype(jnp.float32)``)."""
    matched: dict[Spot, Spot] = {}
    edited: set[Spot] = set()

    def same(old: ast.AST, new: ast.AST) -> None:
        for x, y in zip(ast.walk(old), ast.walk(new)):  # one order for equal trees
            if hasattr(x, "lineno"):
                matched[_spot(before, x)] = _spot(after, y)

    def walk(old: ast.AST, new: ast.AST) -> None:
        wanted = ast.dump(old)
        if wanted == ast.dump(new):
            same(old, new)
            return
        kept = next((node for node in ast.walk(new) if node is not new and type(node) is type(old)
                     and ast.dump(node) == wanted), None)  # fmt: skip
        if kept is not None or not _same_shape(old, new):
            if not isinstance(old, ast.expr):
                raise SyntaxMismatch(f"line {getattr(old, 'lineno', '?')}: {type(old).__name__} became "
                                     f"{type(new).__name__}")  # fmt: skip
            edited.add(_spot(before, old))
            if kept is not None:
                same(old, kept)
            return
        if hasattr(old, "lineno"):
            matched[_spot(before, old)] = _spot(after, new)
        for name, value in ast.iter_fields(old):
            other = getattr(new, name)
            if isinstance(value, list):
                for x, y in zip(value, other):
                    if isinstance(x, ast.AST):
                        walk(x, y)
            elif isinstance(value, ast.AST):
                walk(value, other)

    for old, new in zip(before.tree.body, _without_added_imports(before.tree.body, after.tree.body)):
        walk(old, new)
    return matched, edited


def _spot(source: Source, node: ast.AST) -> Spot:
    s = source.span(node)
    return s.line, s.column, s.end_line, s.end_column


def _spot_of(record: dict) -> Spot:
    return record["line"], record["column"], record["end_line"], record["end_column"]


def _same_shape(a: ast.AST, b: ast.AST) -> bool:
    """Same node type, same plain fields (names, operators, constants), same list lengths."""
    if type(a) is not type(b):
        return False
    for name, value in ast.iter_fields(a):
        other = getattr(b, name)
        if isinstance(value, list):
            if len(value) != len(other) or any(not isinstance(x, ast.AST) and x != y for x, y in zip(value, other)):
                return False
        elif isinstance(value, ast.AST):
            if type(value) is not type(other) and not isinstance(value, ast.expr):
                return False
        elif value != other or type(value) is not type(other):
            return False
    return True


def _without_added_imports(before: list[ast.stmt], after: list[ast.stmt]) -> list[ast.stmt]:
    """``after``'s statements less the imports a fix added (a module's top level only)."""
    extra = len(after) - len(before)
    kept = []
    for statement in after:
        original = before[len(kept)] if len(kept) < len(before) else None
        if extra and isinstance(statement, (ast.Import, ast.ImportFrom)) and (
                original is None or ast.dump(original) != ast.dump(statement)):  # fmt: skip
            extra -= 1
            continue
        kept.append(statement)
    if len(kept) != len(before):
        raise SyntaxMismatch(f"{len(before)} statements became {len(after)}")
    return kept
