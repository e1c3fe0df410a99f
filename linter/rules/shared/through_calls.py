"""Calls of the program's own functions whose body raises for the arguments they pass: a rule
that reports an operation raising (a lax dtype mismatch, a loop carry that changes dtype) reports
the call too, where the operation raises only for what that call gives it.

Each call is evaluated again with its own arguments (``Module.evaluated``) and reported at the
innermost call that shows the refusal, with the raising operation as a related location where it
is in the same file; an operation the rule reports itself is not reported again at its calls."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from promolint.engine.model import Module, Operation, OperationKind, Symbolic, passed_on, summary
from promolint.engine.values import Refusal, Value
from promolint.rules.base import Finding, Related

_TEXT = 40  # longest code quoted in a message


def settled(value: Value) -> Value:
    """What an operation evaluated at a call gives whatever the caller's own variables are (a
    refusal at every member: the call raises there for every value of them)."""
    return summary(value) if type(value) is Symbolic else value


def reported_with_calls(rule, module: Module, raises: Callable[[Operation], bool],
                        told: Callable[[Operation], tuple[str, str]]) -> Iterator[Finding]:  # fmt: skip
    """The rule's ``check`` of each operation, then a finding at each call whose body raises at
    an operation ``raises`` says raises, one the rule does not report itself: ``told`` gives the
    error it raises and what explains it."""
    reported = set()
    for operation in module.operations:
        for finding in rule.check(operation):
            reported.add(id(operation.node))
            yield finding
    for invocation, first in _raising_calls(module, raises, reported):
        yield _through_call(rule, invocation, first, *told(first))


def _raising_calls(module: Module, raises: Callable[[Operation], bool],
                   reported: set[int]) -> Iterator[tuple[Operation, Operation]]:  # fmt: skip
    """Each call of the module's own functions, with the first operation its evaluation raises
    at (``raises``), where that operation is not among ``reported`` (nodes the rule reports)
    and no other call that the evaluation reaches shows the same refusal itself."""
    # Only a call whose value is the refusal raises; evaluating the others again finds nothing.
    invocations = {id(i.node): i for i in module.invocations
                   if i.evaluate is not None and isinstance(settled(i.result), Refusal) and not passed_on(i.result)}
    first_raise: dict[int, Operation] = {}
    for key, invocation in invocations.items():
        first = next((op for op in module.evaluated(invocation).operations if raises(op)), None)
        if first is not None and id(first.node) not in reported:
            first_raise[key] = first
    for key, first in first_raise.items():
        reached = {id(op.node) for op in module.evaluated(invocations[key]).operations
                   if op.kind == OperationKind.INVOKE}
        inner = [k for k, other in first_raise.items() if k != key and k in reached and other.node is first.node]
        if not inner:
            yield invocations[key], first


def _through_call(rule, invocation: Operation, first: Operation, error: str, explained: str) -> Finding:
    """The finding at a call whose body raises ``error`` at ``first``: ``explained`` says why."""
    syntax = invocation.syntax
    related: tuple[Related, ...] = ()
    if first.module:
        where = f" in {first.module}"
    elif syntax is not None:
        text = " ".join(syntax.text(first.node).split())
        text = text if len(text) <= _TEXT else text[: _TEXT - 3] + "..."
        where = f" at line {syntax.line(first.node)} (`{text}`)"
        related = (Related(first.node, f"raises here for the arguments of the call at line "
                                       f"{syntax.line(invocation.node)}"),)  # fmt: skip
    else:
        where = ""
    return Finding(rule.code, f"This call raises {error}{where}: {explained}", invocation.node, related=related)
