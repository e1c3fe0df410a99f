"""Whether a fixed file still has every dtype of the original: ``promolint reveal`` of every
expression before and after, matched through the syntax, in every mode the file may run in.

Shared by ``tests/test_safe_fixes.py`` (fixtures and rule examples, in CI) and
``tests/primer/fix_safety.py`` (the primer's projects).  A fix rewrites expressions and adds
imports; everything else keeps its syntax, so the two trees are walked side by side: where they
differ, the original expression was edited (its new value is what the fix is about, e.g. the cast
operand of a strict-mode fix) and the walk goes on inside the new code at the original expression
when the fix kept it (``b`` in ``b.astype(jnp.float32)``).  Every other expression, and every
assignment target, must keep its dtype, weak flag, library and error.
"""

from __future__ import annotations

import ast
import contextlib
from dataclasses import dataclass, field, replace
from unittest import mock

from promolint.frontend.analysis import Settings
from promolint.frontend.source import ParseFailure, Source, parse_bytes
from promolint import lint
from promolint.reveal import reveal_records_many

_COMPARED = ("dtype", "weak", "library", "error")


@dataclass(frozen=True)
class Change:
    """An expression whose value a fix changed: where it is (line, column in the original), its
    code, the mode, and the value before and after (dtype, weak, library, error)."""

    line: int
    column: int
    text: str
    mode: str
    before: tuple
    after: tuple | None  # None: the expression is gone

    def __str__(self) -> str:
        return f"{self.line}:{self.column} `{self.text}` ({self.mode}): {self.before} -> {self.after}"


@dataclass
class Outcome:
    fixed: bytes
    applied: int
    changes: list[Change] = field(default_factory=list)
    error: str | None = None  # the fixed file does not parse, or the syntax could not be matched


def reveal_modes(settings: Settings) -> list[str]:
    """The x64 modes a file fixed under ``settings`` may run in: the one they force, else both."""
    return [settings.x64] if settings.x64 != "auto" else ["off", "on"]


def check_safe_fixes(data: bytes, settings: Settings, codes: frozenset[str], net: bool = True) -> Outcome:
    """``data`` with every safe fix applied under ``settings`` (as ``promolint check --fix``),
    and every expression whose value changed in a mode the file may run in.

    ``net=False`` applies the fixes the rules call safe as they are: without the check of
    ``promolint check --fix`` that drops a fix changing an assigned name's dtype in the other
    x64 mode, which would hide a rule that calls such a fix safe (its finding would still show
    the fix as safe).

    Compared under standard promotion (what a strict-mode migration keeps) in each x64 mode;
    when the fixes were made under another promotion (strict, or the code's own), the fixed file
    under that promotion too, against the original under standard promotion: an expression may
    still raise there only where the original raised too (a finding without a safe fix)."""
    with contextlib.ExitStack() as stack:
        if not net:
            stack.enter_context(mock.patch.object(lint, "_keeping_dtypes", lambda data, source, fixes, settings: fixes))
        fixed, applied, _ = lint.fix_source(data, "fixed.py", settings, codes, unsafe=False)
    outcome = Outcome(fixed, applied)
    if not applied:
        return outcome
    before, after = parse_bytes(data), parse_bytes(fixed)
    if isinstance(before, ParseFailure) or isinstance(after, ParseFailure):
        outcome.error = f"the fixed file does not parse: {after}"
        return outcome
    try:
        matched, edited = correspondence(before, after)
        reads = parameter_reads(before)
    except _Mismatch as error:
        outcome.error = f"the fixed file's syntax does not follow the original's: {error}"
        return outcome
    modes = [replace(settings, x64=x64, promotion="standard") for x64 in reveal_modes(settings)]
    other = [] if settings.promotion == "standard" else [replace(m, promotion=settings.promotion) for m in modes]
    was = reveal_records_many(data, modes + other)
    now = reveal_records_many(fixed, modes + other)
    for index, mode in enumerate(modes + other):
        reference = _keyed(was[modes.index(replace(mode, promotion="standard"))])
        same_mode_before = _keyed(was[index]) if mode.promotion != "standard" else {}
        label = f"x64 {mode.x64}, {mode.promotion} promotion"
        outcome.changes += _compare(reference, same_mode_before, _keyed(now[index]), matched, edited, reads, label)
    return outcome


def _keyed(records: list[dict]) -> dict[tuple, dict]:
    return {(r["line"], r["column"], r["end_line"], r["end_column"], r["target"]): r for r in records}


def _compare(reference: dict, same_mode_before: dict, fixed: dict, matched: dict, edited: set,
             reads: dict[tuple, tuple], mode: str) -> list[Change]:  # fmt: skip
    def value_of(records: dict, span: tuple | None, target: bool) -> tuple | None:
        record = records.get((*span, target)) if span is not None else None
        return tuple(record[k] for k in _COMPARED) if record is not None else None

    changes = []
    for key, record in reference.items():
        span, target = key[:4], key[4]
        if span in edited:
            continue  # the fix's own edit: its value is what the fix changes
        moved = matched.get(span)
        if moved is None:
            continue  # inside an edited expression and not kept by the fix
        value, new = value_of(reference, span, target), value_of(fixed, moved, target)
        if new == value:
            continue
        parameter = reads.get(span)
        if parameter == span or parameter is not None and (value, new) == (
                value_of(reference, parameter, True), value_of(fixed, matched.get(parameter), True)):  # fmt: skip
            continue  # a parameter, and its reads: a cast at a call changes what the body receives
        unfixed = same_mode_before.get(key)
        if unfixed is not None and new == tuple(unfixed[k] for k in _COMPARED):
            continue  # as before under this promotion: a finding left without a safe fix, or what follows it
        if unfixed is not None and unfixed["dtype"] is None and new is not None and new[3] is not None:
            continue  # raised before too (an earlier refusal left it unknown), now here: unfixed, not new
        if same_mode_before and new is not None and _narrowed(value, new):
            continue  # strict promotion leaves out the candidates it rejects (they raise): no dtype changed
        changes.append(Change(span[0], span[1], record["text"], mode, value, new))
    return changes


def parameter_reads(source: Source) -> dict[tuple, tuple]:
    """The span of each parameter of the module's functions, and of each read of one by its
    name in the function's body, to the parameter's span (itself for the parameter): what a
    cast at a call changes by design.  A read counts only while it holds the parameter's value
    as it was and as it is (the caller compares), since the body may assign the name again."""
    out: dict[tuple, tuple] = {}

    def span(node: ast.AST) -> tuple:
        s = source.span(node)
        return s.line, s.column, s.end_line, s.end_column

    for function in ast.walk(source.tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        arguments = function.args
        parameters = {a.arg: span(a) for a in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)}
        out.update((p, p) for p in parameters.values())
        body = function.body if isinstance(function.body, list) else [function.body]
        for node in (n for statement in body for n in ast.walk(statement)):
            if type(node) is ast.Name and node.id in parameters and type(node.ctx) is ast.Load:
                out.setdefault(span(node), parameters[node.id])
    return out


def _narrowed(value: tuple, new: tuple) -> bool:
    """``new`` is ``value`` with fewer candidate dtypes (``float32`` of ``complex64|float32``)."""
    if value[0] is None or new[0] is None or new[2:] != value[2:] or value[1] not in (None, new[1]):
        return False
    return set(new[0].split("|")) < set(value[0].split("|"))


# --- matching the syntax ---------------------------------------------------------------------
class _Mismatch(Exception):
    pass


def correspondence(before: Source, after: Source) -> tuple[dict[tuple, tuple], set[tuple]]:
    """The span in ``after`` of each node of ``before`` that the fixes kept, and the spans (in
    ``before``) of the expressions they edited."""
    matched: dict[tuple, tuple] = {}
    edited: set[tuple] = set()

    def span(source: Source, node: ast.AST) -> tuple:
        s = source.span(node)
        return s.line, s.column, s.end_line, s.end_column

    def same(old: ast.AST, new: ast.AST) -> None:
        for x, y in zip(ast.walk(old), ast.walk(new)):  # one order for equal trees
            if hasattr(x, "lineno"):
                matched[span(before, x)] = span(after, y)

    def walk(old: ast.AST, new: ast.AST) -> None:
        wanted = ast.dump(old)
        if wanted == ast.dump(new):
            same(old, new)
            return
        # Kept inside new code (``b`` in ``b.astype(jnp.float32)``): an edit that wraps it.
        kept = next((node for node in ast.walk(new) if node is not new and type(node) is type(old)
                     and ast.dump(node) == wanted), None)  # fmt: skip
        if kept is not None or not _same_shape(old, new):
            if not isinstance(old, ast.expr):
                raise _Mismatch(f"line {getattr(old, 'lineno', '?')}: {type(old).__name__} became "
                                f"{type(new).__name__}")  # fmt: skip
            edited.add(span(before, old))
            if kept is not None:
                same(old, kept)
            return
        if hasattr(old, "lineno"):
            matched[span(before, old)] = span(after, new)
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
    for index, statement in enumerate(after):
        original = before[len(kept)] if len(kept) < len(before) else None
        if extra and isinstance(statement, (ast.Import, ast.ImportFrom)) and (
                original is None or ast.dump(original) != ast.dump(statement)):  # fmt: skip
            extra -= 1
            continue
        kept.append(statement)
    if len(kept) != len(before):
        raise _Mismatch(f"{len(before)} statements became {len(after)}")
    return kept
