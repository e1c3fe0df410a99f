"""Which assignment a variable's value comes from, over mypy's syntax tree.

mypy's binder is not a dtype analysis: at ``if``/``else`` and loop merges it may keep the type a
variable had before the branch (tags included), or join types and drop tags.  A tag read from a
variable's current type can therefore be stale.  The plugin never trusts it: a variable's value
is the value of the one assignment that reaches the use, found here structurally; when more
than one may reach it (a definition inside a branch or a loop before the use, a loop-carried
definition, a closure over a variable that is reassigned) the dtype is unknown and rules stay
silent.  ``ScopeIndex`` indexes one scope (a function body or a module's top level);
``reaching`` answers a query for one use.
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy.nodes import (
    AssignmentExpr,
    AssignmentStmt,
    Block,
    ClassDef,
    Decorator,
    DelStmt,
    Expression,
    ForStmt,
    FuncDef,
    FuncItem,
    GlobalDecl,
    IfStmt,
    ListExpr,
    MatchStmt,
    MypyFile,
    NameExpr,
    NonlocalDecl,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    Var,
    WhileStmt,
    WithStmt,
)


@dataclass(frozen=True)
class Definition:
    """One binding of a variable.

    kind: ``assign`` (``x = rvalue``), ``unpack`` (``x`` is at ``path`` inside a tuple target),
    ``augassign`` (``x += ...``, the statement holds the result), ``param``, or ``other`` (loop
    targets, ``with ... as``, ``del``, walrus, function and class names, patterns).
    """

    kind: str
    statement: Statement | None
    rvalue: Expression | None = None
    path: tuple[int, ...] = ()


AMBIGUOUS = Definition("ambiguous", None)
_COMPOUND = (IfStmt, ForStmt, WhileStmt, TryStmt, WithStmt, MatchStmt)


def _blocks(statement: Statement) -> list[Block]:
    """The blocks nested directly in a compound statement, in source order."""
    if isinstance(statement, IfStmt):
        return [*statement.body, *([statement.else_body] if statement.else_body else [])]
    if isinstance(statement, (ForStmt, WhileStmt)):
        return [statement.body, *([statement.else_body] if statement.else_body else [])]
    if isinstance(statement, TryStmt):
        extra = [b for b in (statement.else_body, statement.finally_body) if b is not None]
        return [statement.body, *statement.handlers, *extra]
    if isinstance(statement, WithStmt):
        return [statement.body]
    if isinstance(statement, MatchStmt):
        return list(statement.bodies)
    return []


def _contains(node, line: int, column: int) -> bool:
    """Whether a statement's source span holds the position (columns are 0-based)."""
    end_line = node.end_line if node.end_line is not None else node.line
    if (line, column) < (node.line, node.column) or line > end_line:
        return False
    return not (line == end_line and node.end_column is not None and column >= node.end_column)


# mypy's compiled visitors cannot be subclassed from Python: small walkers instead.
_EXPRESSION_CHILDREN = {
    "OpExpr": ("left", "right"), "CallExpr": ("callee", "args"), "MemberExpr": ("expr",),
    "IndexExpr": ("base", "index"), "UnaryExpr": ("expr",), "ComparisonExpr": ("operands",),
    "TupleExpr": ("items",), "ListExpr": ("items",), "SetExpr": ("items",), "StarExpr": ("expr",),
    "ConditionalExpr": ("cond", "if_expr", "else_expr"), "AssignmentExpr": ("value",),
    "SliceExpr": ("begin_index", "end_index", "stride"), "AwaitExpr": ("expr",), "CastExpr": ("expr",),
    "YieldExpr": ("expr",), "YieldFromExpr": ("expr",), "ListComprehension": ("generator",),
    "SetComprehension": ("generator",), "GeneratorExpr": ("left_expr", "sequences", "condlists"),
    "DictionaryComprehension": ("key", "value", "sequences", "condlists"), "DictExpr": ("items",),
    "AssertTypeExpr": ("expr",), "RevealExpr": ("expr",),
}  # fmt: skip


def walrus_targets(expression) -> list[NameExpr]:
    """Names bound by ``:=`` inside an expression (not inside lambdas)."""
    found: list[NameExpr] = []
    stack = [expression]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if isinstance(node, (list, tuple)):
            stack.extend(node)
            continue
        if isinstance(node, AssignmentExpr):
            found.append(node.target)
        for attribute in _EXPRESSION_CHILDREN.get(type(node).__name__, ()):
            stack.append(getattr(node, attribute, None))
    return found


def walk_statements(statements, nested: bool = True):
    """Every statement inside ``statements``, depth first; ``nested`` enters functions and classes."""
    stack = list(reversed(statements))
    while stack:
        statement = stack.pop()
        yield statement
        inner: list = []
        for block in _blocks(statement):
            inner += block.body
        if nested:
            if isinstance(statement, FuncDef):
                inner += statement.body.body
            elif isinstance(statement, Decorator):
                inner += statement.func.body.body
            elif isinstance(statement, ClassDef):
                inner += statement.defs.body
        stack.extend(reversed(inner))


def pattern_names(pattern) -> list[NameExpr]:
    found: list[NameExpr] = []
    stack = [pattern]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        if isinstance(node, (list, tuple)):
            stack.extend(node)
        elif isinstance(node, NameExpr):
            found.append(node)
        else:
            for attribute in ("pattern", "name", "patterns", "capture", "values", "rest", "positionals",
                              "keyword_values"):  # fmt: skip
                stack.append(getattr(node, attribute, None))
    return found


class ScopeIndex:
    """Every binding of every variable of one scope, and which statements contain them."""

    def __init__(self, owner: FuncItem | MypyFile):
        self.owner = owner
        self.body: list[Statement] = owner.defs if isinstance(owner, MypyFile) else owner.body.body
        self.params: set[Var] = set() if isinstance(owner, MypyFile) else {a.variable for a in owner.arguments}
        self.definitions: dict[Var, list[Definition]] = {}
        self.names: dict[str, int] = {}  # bindings by name (for module variables read from elsewhere)
        self._inside: dict[int, set[Var]] = {}  # id(statement) -> variables bound anywhere inside it
        self.escaping: set[str] = set()  # rebound by nested functions through nonlocal/global
        self._walk(self.body, ())

    # --- indexing -----------------------------------------------------------------------
    def _walk(self, statements: list[Statement], ancestors: tuple[Statement, ...]) -> None:
        for statement in statements:
            self._statement(statement, (*ancestors, statement))

    def _add(self, var, definition: Definition, ancestors: tuple[Statement, ...], name: str | None = None) -> None:
        if name is not None:
            self.names[name] = self.names.get(name, 0) + 1
        if not isinstance(var, Var):
            return
        self.definitions.setdefault(var, []).append(definition)
        for ancestor in ancestors:
            self._inside.setdefault(id(ancestor), set()).add(var)

    def _targets(self, target: Expression, statement, ancestors, rvalue, path=(), kind="assign") -> None:
        if isinstance(target, NameExpr):
            definition = Definition(kind if not path else "unpack", statement, rvalue, path) if kind != "other" \
                else Definition("other", statement)  # fmt: skip
            self._add(target.node, definition, ancestors, target.name)
        elif isinstance(target, (TupleExpr, ListExpr)):
            starred = any(isinstance(item, StarExpr) for item in target.items)
            for index, item in enumerate(target.items):
                self._targets(item, statement, ancestors, rvalue, (*path, index), "other" if starred else kind)
        elif isinstance(target, StarExpr):
            self._targets(target.expr, statement, ancestors, rvalue, path, "other")
        else:
            self._expressions([target], statement, ancestors)

    def _expressions(self, expressions, statement, ancestors) -> None:
        for target in walrus_targets(list(expressions)):
            self._add(target.node, Definition("other", statement), ancestors, target.name)

    def _nested(self, node) -> None:
        for statement in walk_statements([node]):
            if isinstance(statement, (NonlocalDecl, GlobalDecl)):
                self.escaping.update(statement.names)

    def _statement(self, statement: Statement, ancestors: tuple[Statement, ...]) -> None:
        if isinstance(statement, AssignmentStmt):
            for lvalue in statement.lvalues:
                self._targets(lvalue, statement, ancestors, statement.rvalue)
            self._expressions([statement.rvalue], statement, ancestors)
        elif isinstance(statement, OperatorAssignmentStmt):
            if isinstance(statement.lvalue, NameExpr):
                self._add(statement.lvalue.node, Definition("augassign", statement), ancestors, statement.lvalue.name)
            self._expressions([statement.rvalue], statement, ancestors)
        elif isinstance(statement, ForStmt):
            self._targets(statement.index, statement, ancestors, None, kind="other")
            self._expressions([statement.expr], statement, ancestors)
        elif isinstance(statement, WithStmt):
            for target in statement.target:
                if target is not None:
                    self._targets(target, statement, ancestors, None, kind="other")
            self._expressions(statement.expr, statement, ancestors)
        elif isinstance(statement, TryStmt):
            for var in statement.vars:
                if var is not None:
                    self._add(var.node, Definition("other", statement), ancestors, var.name)
        elif isinstance(statement, MatchStmt):
            for name in pattern_names(list(statement.patterns)):
                self._add(name.node, Definition("other", statement), ancestors, name.name)
        elif isinstance(statement, (IfStmt, WhileStmt)):
            self._expressions(statement.expr if isinstance(statement.expr, list) else [statement.expr],
                              statement, ancestors)  # fmt: skip
        elif isinstance(statement, DelStmt):
            self._targets(statement.expr, statement, ancestors, None, kind="other")
        elif isinstance(statement, (FuncDef, Decorator, OverloadedFuncDef)):
            func = statement.func if isinstance(statement, Decorator) else statement
            name_var = statement.var if isinstance(statement, Decorator) else None
            self._add(name_var, Definition("other", statement), ancestors, func.name)
            self._nested(statement)
        elif isinstance(statement, ClassDef):
            self._add(None, Definition("other", statement), ancestors, statement.name)
            self._nested(statement)
        else:
            expression = getattr(statement, "expr", None)
            if isinstance(expression, Expression):
                self._expressions([expression], statement, ancestors)
        for block in _blocks(statement):
            self._walk(block.body, ancestors)

    # --- queries ------------------------------------------------------------------------
    def current(self, owner) -> bool:
        """Whether this index still describes ``owner`` (the daemon replaces bodies in place)."""
        body = owner.defs if isinstance(owner, MypyFile) else owner.body.body
        return owner is self.owner and body is self.body

    def owns(self, var: Var) -> bool:
        return var in self.definitions or var in self.params

    def single(self, var: Var) -> Definition | None:
        """The only binding of ``var`` in this scope, wherever it is, or None."""
        if var.name in self.escaping:
            return None
        found = self.definitions.get(var, [])
        if len(found) == 1 and var not in self.params:
            return found[0]
        if not found and var in self.params:
            return Definition("param", None)
        return None

    def _locate(self, line: int, column: int) -> list[tuple[list[Statement], int]]:
        """The chain of (block, index) from the scope's body down to the innermost statement
        that contains the position."""
        path: list[tuple[list[Statement], int]] = []
        statements = self.body
        while True:
            index = next((i for i, s in enumerate(statements) if _contains(s, line, column)), None)
            if index is None:
                return path
            path.append((statements, index))
            statement = statements[index]
            inner = next((b for b in _blocks(statement) if b.body and _contains_block(b, line, column)), None)
            if inner is None:
                return path
            statements = inner.body

    def _last(self, statements: list[Statement], var: Var) -> Definition | None:
        """The binding of ``var`` that the end of ``statements`` sees, AMBIGUOUS, or None."""
        for previous in reversed(statements):
            if var not in self._inside.get(id(previous), ()):
                continue
            if isinstance(previous, WithStmt):
                # A with block runs straight through; its own ``as`` targets are not arrays.
                found = self._last(previous.body.body, var)
                return found if found is not None else AMBIGUOUS
            if isinstance(previous, _COMPOUND):
                return AMBIGUOUS  # bound in a branch or a loop: more than one binding may reach
            found = [d for d in self.definitions.get(var, []) if d.statement is previous]
            if len(found) == 1 and found[0].kind in ("assign", "unpack", "augassign"):
                return found[0]
            return AMBIGUOUS
        return None

    def reaching(self, var: Var, line: int, column: int) -> Definition | None:
        """The one binding of ``var`` that reaches the position, ``AMBIGUOUS``, or None (none
        in this scope)."""
        if var.name in self.escaping:
            return AMBIGUOUS
        path = self._locate(line, column)
        if not path:
            return None
        statements, index = path[-1]
        innermost = statements[index]
        in_condition = not any(b.body and _contains_block(b, line, column) for b in _blocks(innermost))
        if isinstance(innermost, WhileStmt) and var in self._inside.get(id(innermost), ()) and in_condition:
            return AMBIGUOUS  # the loop condition: the body's bindings reach it
        for level in range(len(path) - 1, -1, -1):
            statements, index = path[level]
            found = self._last(statements[:index], var)
            if found is not None:
                return found
            if level > 0:
                parent_statements, parent_index = path[level - 1]
                parent = parent_statements[parent_index]
                if isinstance(parent, (ForStmt, WhileStmt, TryStmt)) and var in self._inside.get(id(parent), ()):
                    return AMBIGUOUS  # loop-carried bindings, or a try body's seen from a handler
        if var in self.params:
            return Definition("param", None)
        return None


def _contains_block(block: Block, line: int, column: int) -> bool:
    return any(_contains(s, line, column) for s in block.body)


def strip_rebound(tree: MypyFile) -> None:
    """Drop the dtype tags of module variables bound more than once.  mypy's declared type of
    such a variable is its first binding's, so other modules and mypy's cache must never read a
    tag from it.  Called before mypy serializes a module, and when a module is done."""
    if not tree.defs:
        return
    from promolint_mypy.tags import strip_type

    index = ScopeIndex(tree)
    for name, symbol in tree.names.items():
        var = symbol.node
        if isinstance(var, Var) and var.type is not None and var.is_inferred and \
                (index.names.get(name, 0) > 1 or name in index.escaping):  # fmt: skip
            var.type = strip_type(var.type)
