"""Whether a fixed file still has every dtype of the original: ``promolint reveal`` of every
expression before and after, matched through the syntax, in every mode the file may run in.

Shared by ``tests/fix/test_safe_fixes.py`` (fixtures and rule examples, in CI) and
``tests/primer/fix_safety.py`` (the primer's projects).  A fix rewrites expressions and adds
imports; everything else keeps its syntax, so the two trees are matched side by side
(``promolint.fix.edits.correspondence``): the new value of an edited expression is what the
fix is about (e.g. the cast operand of a strict-mode fix).  Every other expression, and every
assignment target, must keep its dtype, weak flag, library and error, in the modes of
``promolint.driver.verify.fix_modes`` (the modes the code sets itself included).
"""

from __future__ import annotations

import ast
import contextlib
from dataclasses import dataclass, field, replace
from unittest import mock

from promolint.engine.walker.analysis import Settings
from promolint.fix.edits import SyntaxMismatch, correspondence
from promolint.engine.walker.source import ParseFailure, Source, parse_bytes
from promolint.driver import lint
from promolint.driver.reveal import reveal_records_many
from promolint.driver.verify import fix_modes

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
            stack.enter_context(mock.patch.object(lint, "keeping_dtypes", lambda data, source, fixes, settings: fixes))
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
    except SyntaxMismatch as error:
        outcome.error = f"the fixed file's syntax does not follow the original's: {error}"
        return outcome
    modes = fix_modes(settings, data)  # the forced x64 mode or both, and the modes the code sets
    other = [] if settings.promotion == "standard" else [replace(m, promotion=settings.promotion) for m in modes]
    was = reveal_records_many(data, modes + other)
    now = reveal_records_many(fixed, modes + other)
    for index, mode in enumerate(modes + other):
        reference = _keyed(was[modes.index(replace(mode, promotion="standard"))])
        same_mode_before = _keyed(was[index]) if mode.promotion != "standard" else {}
        label = f"x64 {mode.x64 if mode.x64 != 'auto' else 'as the code sets it'}, {mode.promotion} promotion"
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
