"""PRM004 through the program's own functions: a call whose body raises under strict promotion
for the arguments it passes, with the casts that fix it at the call; and whether a cast written
inside a body suits every call that reaches it.

A body is recorded once, from what its calls pass joined; a call is evaluated again on its own
(``Operation.evaluate``) to see what its arguments do there.  A cast at the call is chosen among
the arguments it may widen to the dtype the refused operation meets at in standard mode, and
kept when the call then raises nowhere and gives standard promotion's result; it is safe when
every operation in the body keeps its dtype too (casting an argument early changes the dtype
of what is computed from it before it meets the other operand)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace
from itertools import combinations

from promolint.engine.context import X64_BY_USER
from promolint.engine.model import Evaluation, Module, Operation, OperationKind, collect, promote
from promolint.engine.values import UNKNOWN, Array, Items, Library, Refusal, Value
from promolint.rules.base import Edit, Finding, Fix, OtherMode, describe_operands, exact
from promolint.rules.shared.rewrites import JNP_IMPORT, following_x64, jax_cast, jax_dtype
from promolint.systems.base import Reason

_STRICT = Reason.STRICT.value
_MAX_CAST_SETS = 16  # sets of arguments tried per target dtype: the smallest first


def refused(operation: Operation) -> bool:
    """The operation raises TypePromotionError under strict promotion whatever its operands are
    (itself: a call of the program's function whose body does is not counted)."""
    return (isinstance(operation.result, Refusal) and operation.result.reason == _STRICT
            and operation.kind != OperationKind.INVOKE)


class Calls:
    """The calls of one module's own functions, each evaluated again when asked (once)."""

    def __init__(self, module: Module):
        self._module = module
        self._invocations = {id(i.node): i for i in module.invocations if i.evaluate is not None}
        self._reached: dict[int, list[tuple[Value, ...]]] | None = None

    def trial(self, invocation: Operation) -> Evaluation:
        return self._module.evaluated(invocation)

    def same_everywhere(self, operation: Operation, positions: Sequence[int]) -> bool:
        """Whether every evaluation of the module's calls that reaches ``operation`` (an operation
        or a call inside a function) gives the operands at ``positions`` the dtypes and weak
        flags it was recorded with: where a cast written there suits every call."""
        if self._reached is None:
            self._reached = {}
            for invocation in self._invocations.values():
                for seen in self.trial(invocation).operations:
                    self._reached.setdefault(id(seen.node), []).append(seen.operands)
        recorded = [_dtype(operation.operands[i]) for i in positions]
        return all(len(operands) == len(operation.operands) and [_dtype(operands[i]) for i in positions] == recorded
                   for operands in self._reached.get(id(operation.node), ()))  # fmt: skip

    def findings(self, rule, fixed_inside: set[int], reported_inside: set[int]) -> Iterator[Finding]:
        """A finding at each call whose body raises under strict promotion where no finding
        inside it has a fix that suits every call: with the casts that fix it at this call,
        or, where none does, only where nothing deeper reports the refusal either.

        ``fixed_inside``/``reported_inside``: the operations (by their node) that findings of
        their own report, with a fix / at all."""
        outcomes: dict[int, tuple[set[int], Fix | None, bool]] = {}
        for invocation in self._invocations.values():
            _, fix, reported = self._outcome(invocation, frozenset(), outcomes, fixed_inside, reported_inside)
            if reported:
                trial = self.trial(invocation)
                first = next(op for op in trial.operations if refused(op))
                syntax = invocation.syntax
                where = (f" in {first.module}" if first.module else
                         f" at line {syntax.line(first.node)} (`{_short(syntax.text(first.node))}`)" if syntax else "")
                described = describe_operands(first)
                yield Finding(rule.code, f"This call raises TypePromotionError under strict promotion{where}: "
                              f"{described} have no implicit promotion path. Cast the arguments explicitly, e.g. "
                              "`.astype(...)`.", invocation.node, fix)  # fmt: skip

    def _outcome(self, invocation: Operation, visiting: frozenset[int], outcomes: dict, fixed_inside: set[int],
                 reported_inside: set[int]) -> tuple[set[int], Fix | None, bool]:
        """The refusals the call reaches, its fix, whether it is reported (memoized in ``outcomes``;
        a method, not a closure, so that no cycle keeps the analysis alive)."""
        key = id(invocation.node)
        if key in outcomes:
            return outcomes[key]
        if key in visiting or not invocation.ctx.strict or not _castable(invocation):
            return set(), None, False
        trial = self.trial(invocation)
        raises = {id(op.node) for op in trial.operations if refused(op)}
        fixed_below, reported_below = fixed_inside & raises, reported_inside & raises
        for seen in trial.operations:
            inner = self._invocations.get(id(seen.node))
            if seen.kind != OperationKind.INVOKE or inner is None or inner is invocation:
                continue
            inner_raises, inner_fix, inner_reported = self._outcome(inner, visiting | {key}, outcomes, fixed_inside,
                                                                    reported_inside)  # fmt: skip
            if inner_reported:
                reported_below |= inner_raises & raises
                if inner_fix is not None:
                    fixed_below |= inner_raises & raises
        fix = None
        if raises - fixed_below:
            fix = _call_fix(invocation, trial)
            if fix is not None and invocation.in_function and not self.same_everywhere(
                    invocation, range(len(invocation.operands))):  # fmt: skip
                fix = None  # the call's body runs for other calls too, with other arguments
        reported = bool(raises - fixed_below) and (fix is not None or bool(raises - reported_below))
        outcomes[key] = raises, fix, reported
        return outcomes[key]


def _castable(invocation: Operation) -> bool:
    """Some positional argument is an array of one known dtype, not weak: one a cast may change."""
    return any(_cast_candidate(v) for v in invocation.operands)


def _cast_candidate(value: Value) -> bool:
    return (isinstance(value, Array) and value.exact and not value.weak
            and value.library in (Library.JAX, Library.NUMPY_ARRAY, Library.NUMPY_SCALAR))  # fmt: skip


def _call_fix(invocation: Operation, trial: Evaluation) -> Fix | None:
    """Casts of some arguments to the dtype a refused operation inside meets at in standard
    mode, the first set (smallest first) after which the call raises nowhere and gives
    standard promotion's result; safe when every operation inside keeps its dtype too."""
    nodes = invocation.syntax.operand_nodes(invocation) if invocation.syntax else ()
    if len(nodes) != len(invocation.operands):
        return None
    standard = invocation.evaluate(invocation.operands, replace(invocation.ctx, strict=False))
    for target in _targets(trial, invocation):
        widened = [i for i, v in enumerate(invocation.operands)
                   if _cast_candidate(v) and _widens(v, target, invocation)]  # fmt: skip
        sets = [s for size in range(1, len(widened) + 1) for s in combinations(widened, size)][:_MAX_CAST_SETS]
        for cast in sets:
            spelled, ref = jax_dtype(target, False, invocation.ctx)
            fix = _cast_fix(invocation, nodes, cast, spelled, ref, standard)
            if fix is None:
                continue
            following = following_x64(target, invocation.ctx)
            if fix.other_mode is not None and following is not None and following[0] != spelled:
                # `jnp.float32` may hold with x64 on only spelled `float`, which follows x64
                alternative = _cast_fix(invocation, nodes, cast, *following, standard)
                if alternative is not None and alternative.safe:
                    fix = replace(fix, other_mode=replace(fix.other_mode, alternative=alternative))
            return fix
    return None


def _cast_fix(invocation: Operation, nodes: Sequence[object], cast: Sequence[int], spelled: str, ref,
              standard: Evaluation) -> Fix | None:  # fmt: skip
    verdict = _verdict(invocation, cast, spelled, ref, standard)
    if verdict is None:
        return None
    codes = {i: jax_cast(invocation.operands[i], spelled, ref, invocation.ctx)[0] for i in cast}
    edits = tuple(Edit(nodes[i], code, (nodes[i],)) for i, code in sorted(codes.items()))
    title = f"Cast {'the argument' if len(cast) == 1 else 'arguments'} to {spelled} at the call, as standard " \
            "promotion does inside"  # fmt: skip
    safe = verdict == ""
    if not safe:
        title += f" (unsafe: {verdict})"
    other_mode = None
    if safe and invocation.ctx.x64_by != X64_BY_USER:
        other_mode = OtherMode(not invocation.ctx.x64, lambda other: _keeps(other, invocation, cast, spelled, ref))
    return Fix(title, edits, safe=safe, imports=(JNP_IMPORT,) if "jnp." in "".join(codes.values()) else (),
               other_mode=other_mode)  # fmt: skip


def _targets(trial: Evaluation, invocation: Operation) -> list[str]:
    """The dtypes the refused operations' operands meet at in standard mode, when strong."""
    targets = []
    standard_ctx = replace(invocation.ctx, strict=False)
    for op in trial.operations:
        values = [exact(v) for v in op.operands if isinstance(v, Array)]
        if not refused(op) or len(values) < 2 or None in values:
            continue
        meet = exact(collect(promote(values, Library.JAX, standard_ctx), Library.JAX))
        if meet is not None and not meet.weak and meet.dtype not in targets:
            targets.append(meet.dtype)
    return targets


def _widens(value: Array, target: str, invocation: Operation) -> bool:
    """``value``'s dtype promotes to ``target`` (a cast that loses nothing)."""
    if value.dtype == target:
        return False
    meet = collect(promote([value, Array(frozenset([target]), Library.JAX)], Library.JAX,
                                                 replace(invocation.ctx, strict=False)), Library.JAX)  # fmt: skip
    return isinstance(meet, Array) and meet.dtype == target


def _verdict(invocation: Operation, cast: Sequence[int], spelled: str, ref, standard: Evaluation) -> str | None:
    """None when casting the arguments at ``cast`` leaves the call raising or gives another
    result than standard promotion; else "" when every operation inside keeps its dtype too,
    or what changes."""
    values = list(invocation.operands)
    for i in cast:
        values[i] = jax_cast(values[i], spelled, ref, invocation.ctx)[1]
    fixed = invocation.evaluate(values, invocation.ctx)
    if any(refused(op) for op in fixed.operations) or not _same(fixed.result, standard.result):
        return None
    before, after = _results(standard), _results(fixed)
    changed = next((op for op in fixed.operations if op.kind != OperationKind.INVOKE and after.get(id(op.node))
                    != before.get(id(op.node))), None)  # fmt: skip
    if changed is None:
        return ""
    syntax = invocation.syntax
    was = " or ".join(sorted(before.get(id(changed.node), {"nothing"})))
    now = " or ".join(sorted(after[id(changed.node)]))
    text = (f"`{_short(syntax.text(changed.node))}` at line {syntax.line(changed.node)}" if syntax and not changed.module
            else f"a value in {changed.module}" if changed.module else "a value inside")  # fmt: skip
    return f"{text} becomes {now} instead of {was}"


def _keeps(other: Operation | None, invocation: Operation, cast: Sequence[int], spelled: str, ref) -> bool:
    """Whether the same casts fix the call, keeping every dtype, in ``other``: the call as the
    analysis in the other x64 mode sees it."""
    if other is None or other.evaluate is None or len(other.operands) != len(invocation.operands):
        return False
    if any(not _cast_candidate(other.operands[i]) or other.operands[i].library is not invocation.operands[i].library
           for i in cast):  # fmt: skip
        return False
    standard = other.evaluate(other.operands, replace(other.ctx, strict=False))
    return _verdict(other, cast, spelled, ref, standard) == ""


def _results(evaluation: Evaluation) -> dict[int, set[str]]:
    """Each operation's results (dtype and weak flag, as text) over the evaluation, by node."""
    out: dict[int, set[str]] = {}
    for op in evaluation.operations:
        if op.kind != OperationKind.INVOKE:
            out.setdefault(id(op.node), set()).add(_text(op.result))
    return out


def _text(value: Value) -> str:
    if isinstance(value, Array) and value.exact:
        return value.describe()
    return "an unknown value" if not isinstance(value, Refusal) else "an error"


def _same(a: Value, b: Value) -> bool:
    """Known alike: arrays of one dtype, weak flag and library; containers item by item."""
    if isinstance(a, Array) and isinstance(b, Array):
        return a.exact and b.exact and (a.dtype, a.weak, a.library) == (b.dtype, b.weak, b.library)
    if isinstance(a, Items) and isinstance(b, Items):
        return len(a.items) == len(b.items) and all(_same(x, y) for x, y in zip(a.items, b.items))
    return a == b and a is not UNKNOWN and not isinstance(a, (Array, Items, Refusal))


def _dtype(value: Value) -> tuple | None:
    return (value.dtype, value.weak, value.library) if isinstance(value, Array) and value.exact else None


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
