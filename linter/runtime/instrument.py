"""Instrumenting source, free of any dependency on the engine: :func:`instrument` rewrites it so
that chosen expressions report their values while the program runs, without changing what it
computes (what a value is, is :mod:`promolint.runtime.observe`'s).

``EXPR`` becomes ``__promolint_check__(__promolint_enter__(ID), EXPR)``.  Python evaluates the
arguments left to right, so ``enter`` runs before ``EXPR`` and ``check`` after it; a site that was
entered and never checked is one whose evaluation raised.  A :class:`Recorder` provides both
functions and keeps what they saw (the oracle's and the fuzzer's runner).  A function whose
arguments are wanted as they were at the call (its body assigns to a parameter) runs
``__promolint_arguments__(LINE)`` first, on a line it had already (``_starting_with``): an
expression, so it adds no local and ``locals()`` stays what it was.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from promolint.runtime.observe import describe_error, observe

CHECK = "__promolint_check__"
ENTER = "__promolint_enter__"
ARGUMENTS = "__promolint_arguments__"

Span = tuple[int, int, int, int]  # line, column (1-based), end_line, end_column: as reveal prints them


# --- recording while the program runs -----------------------------------------------------
@dataclass
class Recorder:
    """The ``enter``/``check`` pair instrumented code calls, and what they saw.

    ``observations[site]`` lists the distinct observations of a site (a loop or a function
    called twice may see several).  ``open`` is the stack of sites entered and not yet checked,
    each with the frame evaluating it; when an exception escapes, :meth:`failed` turns it into
    per-site errors.  An exception caught by the program leaves the sites it unwound open; they
    are recognised as ``abandoned`` when evaluation goes on elsewhere: a site still open in the
    current frame must enclose the site entered next (``spans`` tells), and one still open in
    another frame must belong to a caller of the current one.
    """

    spans: dict[int, Span] | None = None
    max_per_site: int = 8
    observations: dict[int, list[dict]] = field(default_factory=dict)
    errors: dict[int, dict] = field(default_factory=dict)
    open: list[tuple[int, object]] = field(default_factory=list)
    abandoned: set[int] = field(default_factory=set)

    def enter(self, site: int) -> int:
        frame = sys._getframe(1)
        span = self.spans.get(site) if self.spans else None
        while self.open:
            top, top_frame = self.open[-1]
            if top_frame is frame:
                outer = self.spans.get(top) if self.spans else None
                if span is None or outer is None or _encloses(outer, span):
                    break
            elif _calls(top_frame, frame):
                break
            self.open.pop()
            self.abandoned.add(top)
        self.open.append((site, frame))
        return site

    def check(self, site: int, value):
        # Sites above this one on the stack were left by an exception caught inside this
        # expression (a try/except in a called function): their value was never produced.
        while self.open:
            top, _ = self.open.pop()
            if top == site:
                break
            self.abandoned.add(top)
        seen = self.observations.setdefault(site, [])
        observed = observe(value)
        if observed not in seen and len(seen) < self.max_per_site:
            seen.append(observed)
        return value

    def failed(self, error: BaseException) -> int | None:
        """An exception escaped the program: every open site of a frame it unwound raised it;
        the innermost (the last entered) is where it surfaced.  Returns that site, None when no
        site was open."""
        unwound = set()
        traceback = error.__traceback__
        while traceback is not None:
            unwound.add(id(traceback.tb_frame))
            traceback = traceback.tb_next
        still_open = [site for site, frame in self.open if id(frame) in unwound]
        self.abandoned |= {site for site, frame in self.open if id(frame) not in unwound}
        raising = still_open[-1] if still_open else None
        for depth, site in enumerate(reversed(still_open)):
            self.errors[site] = {**describe_error(error), "innermost": depth == 0}
        self.open.clear()
        return raising

    def namespace(self) -> dict[str, object]:
        """The names instrumented code needs, to put in its globals."""
        return {CHECK: self.check, ENTER: self.enter}


def _encloses(outer: Span, inner: Span) -> bool:
    return (outer[0], outer[1]) <= (inner[0], inner[1]) and (inner[2], inner[3]) <= (outer[2], outer[3])


def _calls(caller: object, frame: object) -> bool:
    """Whether ``caller`` is on ``frame``'s stack of callers."""
    frame = frame.f_back
    while frame is not None:
        if frame is caller:
            return True
        frame = frame.f_back
    return False


# --- rewriting source ---------------------------------------------------------------------
def instrument(
    source: str, sites: Iterable[Sequence[int]] | Callable[[Span], bool] | None = None,
    entries: Collection[int] = (),
) -> tuple[str, dict[int, Span]]:
    """``source`` with every expression at one of ``sites`` (1-based ``(line, column,
    end_line, end_column)`` spans, as ``promolint reveal`` prints them) wrapped to report its
    value; returns the new source and the id given to each span that was wrapped.  ``sites``
    may also be a predicate on spans, or None for every expression in a value position.  The
    functions whose ``def`` is on one of the lines ``entries`` start with
    ``__promolint_arguments__(LINE)``.

    Positions that are not values are left alone: assignment, ``del``, ``for``, ``with ... as``
    and comprehension targets, the function of a call, decorators, annotations, keyword and
    parameter names, patterns, and anything inside an f-string.
    """
    if sites is None:
        wanted: Callable[[Span], bool] = lambda span: True
    elif callable(sites):
        wanted = sites
    else:
        spans = {tuple(s) for s in sites}
        wanted = spans.__contains__
    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    transformer = _Instrumenter(wanted, frozenset(entries))
    rewritten = wrapper.visit(transformer)
    return rewritten.code, {site: span for span, site in transformer.ids.items()}


class _Instrumenter(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, wanted: Callable[[Span], bool], entries: frozenset[int] = frozenset()):
        super().__init__()
        self.wanted = wanted
        self.entries = entries
        self.ids: dict[Span, int] = {}
        self.skip: set[int] = set()  # ids of nodes in non-value positions
        self.frozen = 0  # > 0 inside subtrees that are left untouched entirely

    # Subtrees left alone as a whole.
    def _freeze(self, node: cst.CSTNode) -> bool:
        self.frozen += 1
        return True

    def _thaw(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
        self.frozen -= 1
        return updated

    visit_FormattedString = _freeze
    leave_FormattedString = _thaw
    visit_Decorator = _freeze
    leave_Decorator = _thaw
    visit_Annotation = _freeze
    leave_Annotation = _thaw
    visit_Global = _freeze
    leave_Global = _thaw
    visit_Nonlocal = _freeze
    leave_Nonlocal = _thaw
    visit_Import = _freeze
    leave_Import = _thaw
    visit_ImportFrom = _freeze
    leave_ImportFrom = _thaw

    def visit_MatchCase(self, node: cst.MatchCase) -> None:
        self._mark_tree(node.pattern)  # patterns match, they are not evaluated; the guard is

    # Single nodes (and target structures) in non-value positions.
    def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
        self._mark_target(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._mark_target(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._mark_target(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._mark_target(node.target)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._mark_target(node.target)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._mark_target(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._mark_target(node.target)

    def visit_AsName(self, node: cst.AsName) -> None:
        self._mark_target(node.name)

    def visit_Call(self, node: cst.Call) -> None:
        self.skip.add(id(node.func))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.skip.add(id(node.keyword))

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.skip.add(id(node.attr))

    def visit_Param(self, node: cst.Param) -> None:
        self.skip.add(id(node.name))

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.skip.add(id(node.name))

    def leave_FunctionDef(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        position = self.get_metadata(PositionProvider, original.name, None)
        if position is None or position.start.line not in self.entries:
            return updated
        return updated.with_changes(body=_starting_with(updated.body, _call(ARGUMENTS, position.start.line)))

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self.skip.add(id(node.name))

    def visit_StarredElement(self, node: cst.StarredElement) -> None:
        self.skip.add(id(node))

    def _mark_target(self, node: cst.BaseExpression) -> None:
        """Names, tuples, lists and stars of a target bind; the object and index of an
        attribute or subscript target are values and stay wrappable."""
        self.skip.add(id(node))
        if isinstance(node, (cst.Tuple, cst.List)):
            for element in node.elements:
                self._mark_target(element.value)
        elif isinstance(node, cst.StarredElement):
            self._mark_target(node.value)

    def _mark_tree(self, node: cst.CSTNode) -> None:
        self.skip.add(id(node))
        for child in node.children:
            self._mark_tree(child)

    def on_leave(self, original: cst.CSTNode, updated: cst.CSTNode):
        updated = super().on_leave(original, updated)
        if self.frozen or not isinstance(original, cst.BaseExpression) or id(original) in self.skip:
            return updated
        if isinstance(original, (cst.Yield, cst.Await)) or not isinstance(updated, cst.BaseExpression):
            return updated  # wrapping these would change what the generator or coroutine does
        position = self.get_metadata(PositionProvider, original, None)
        if position is None:
            return updated
        span = (position.start.line, position.start.column + 1, position.end.line, position.end.column + 1)
        if not self.wanted(span):
            return updated
        site = self.ids.setdefault(span, len(self.ids))
        return _wrap(site, updated)


def _call(name: str, number: int) -> cst.Call:
    return cst.Call(func=cst.Name(name), args=[cst.Arg(cst.Integer(str(number)))])


def _starting_with(body: cst.BaseSuite, call: cst.Call) -> cst.BaseSuite:
    """A function's ``body`` running ``call`` first, on a line it has already (the compiled code
    keeps the source's line numbers): after the docstring, on its line (it must stay the first
    statement to stay the docstring), else before the first statement, on its line, or inside
    it where it is compound (``_first_evaluating``); unchanged where it cannot be."""
    statement = cst.Expr(call)
    if isinstance(body, cst.SimpleStatementSuite):  # def f(x): return x
        return body.with_changes(body=[statement, *body.body])
    statements = list(body.body)
    first = statements[0] if statements else None
    if not isinstance(first, cst.SimpleStatementLine):
        started = _first_evaluating(first, call)
        return body if started is None else body.with_changes(body=[started, *statements[1:]])
    if isinstance(first.body[0], cst.Expr) and isinstance(first.body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        line = first.with_changes(body=[first.body[0].with_changes(semicolon=cst.Semicolon(whitespace_after=cst.SimpleWhitespace(" "))),
                                        statement, *first.body[1:]])  # fmt: skip
    else:
        line = first.with_changes(body=[statement, *first.body])
    return body.with_changes(body=[line, *statements[1:]])


def _first_evaluating(statement: cst.BaseStatement | None, call: cst.Call) -> cst.BaseStatement | None:
    """A compound ``statement`` that evaluates ``call`` before anything else, on its first line:
    ``if call() or (test):``, ``for x in call() or (items):``, ``with call() or (manager):``
    (``call`` returns None, so each is what it was), or its body's first statement for ``try``;
    None for the others (``while`` evaluates its test again on every pass)."""

    def first(expression: cst.BaseExpression) -> cst.BaseExpression:
        return cst.BooleanOperation(call, cst.Or(), expression.with_changes(
            lpar=[cst.LeftParen(), *expression.lpar], rpar=[*expression.rpar, cst.RightParen()]))  # fmt: skip

    if isinstance(statement, cst.If):
        return statement.with_changes(test=first(statement.test))
    if isinstance(statement, cst.For):
        return statement.with_changes(iter=first(statement.iter))
    if isinstance(statement, cst.With) and statement.items:
        item = statement.items[0]
        return statement.with_changes(items=[item.with_changes(item=first(item.item)), *statement.items[1:]])
    if isinstance(statement, (cst.Try, cst.TryStar)):
        return statement.with_changes(body=_starting_with(statement.body, call))
    return None


def _wrap(site: int, node: cst.BaseExpression) -> cst.Call:
    if isinstance(node, (cst.Tuple, cst.GeneratorExp)) and not node.lpar:
        node = node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])
    enter = _call(ENTER, site)
    return cst.Call(
        func=cst.Name(CHECK),
        args=[cst.Arg(enter, comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))), cst.Arg(node)],
    )
