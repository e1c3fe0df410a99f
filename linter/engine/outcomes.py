"""The distinct values of a symbolic value over many variables, without their product.

A value over two parameters of unknown dtype has thousands of assignments (every numeric value
of one times every numeric value of the other), too many to weigh one by one.  Yet most values
do not depend on every member: ``x.astype(jnp.float32)`` is a JAX or a NumPy float32 (or raises)
whatever ``x`` is, and ``x.astype(jnp.float32) + w.astype(jnp.float32)`` has the few values its
operands' few values give.  ``representatives`` finds, for such a value, one assignment of its
variables per distinct value it takes (its *outcome classes*): the operands whose variables do
not overlap are weighed apart, each by its own classes, and only the product of those few
classes is evaluated.  Every assignment of the variables gives the value one of the classes
does, so a claim about every member reads the classes alone; each representative is a real
assignment of every variable, which rules may name as a witness.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from promolint.engine.values import Array, Refusal

if TYPE_CHECKING:  # symbolic imports this module: its types only
    from promolint.engine.symbolic import Symbolic, Variable
    from promolint.engine.values import Value

    Assignment = dict[Variable, Value]
    Shape = tuple[int, tuple[Variable, ...]]  # Symbolic.shape

# Evaluations one question may make before it gives up: operands that each take many values
# must not cost more than the claim is worth (folding asks about every value it meets).
_MOST_EVALUATIONS = 20_000
# Variables beyond which a value is not split: one computed from many parameters (a loop's state
# joined over its callers) rarely has one outcome, and grouping its operands costs the most.
_MOST_VARIABLES = 8
# Evaluations from which finding a value's classes costs more than walking its shape: only then
# are they kept for the values of that shape (``_classes``).
_COSTLY = 200
# Values alike at a glance walked in a row, finding no shape met before, after which the others
# alike at that glance are searched without a walk (most of a large module's calls look alike).
_MOST_MISSES = 8
# Operands of operands one question looks into, nested.
_MOST_DEPTH = 150
# Times operands that share variables are replaced by their own operands, looking for a split.
_MOST_EXPANSIONS = 4


class _Exhausted(Exception):
    """The evaluations allowed for one question are spent."""


class _Budget:
    """The evaluations one question may still make, and how deep it may still look into
    operands of operands (a loop's long chains would exceed Python's recursion limit)."""

    def __init__(self, evaluations: int, depth: int) -> None:
        self.left = evaluations
        self.depth = depth

    def spend(self, evaluations: int) -> None:
        self.left -= evaluations
        if self.left < 0:
            raise _Exhausted


def outcomes(value: Symbolic, limit: int) -> list[tuple[Assignment, Value]] | None:
    """One (assignment, value) per distinct value ``value`` takes over all assignments of its
    variables, or None where it cannot tell within ``limit`` classes per step.  A value of a
    costly shape met before (``_classes``) takes that one's values where they name no place in
    the code (``_anywhere``)."""
    found, shape = _classes(value, limit)
    if found is None:
        return None
    known = value.state.outcome_values
    values = known.get((shape[0], limit)) if shape is not None else None
    if values is None:
        values = [value.at(assignment) for assignment in found]
        if shape is not None and all(map(_anywhere, values)):
            known[shape[0], limit] = values
    return list(zip(found, values))


def _anywhere(value: Value) -> bool:
    """Whether ``value`` is the same wherever in the code it was computed: a refusal, or an array
    that names no source of its 64 bits."""
    return type(value) is Refusal or type(value) is Array and value.source is None


def representatives(value: Symbolic, limit: int) -> list[Assignment] | None:
    """One assignment of every variable of ``value`` per distinct value it takes (told apart by
    identity: evaluations are canonical), or None where no step stays within ``limit``
    assignments.  Memoized per value and limit, and per shape where finding them was costly."""
    return _classes(value, limit)[0]


def _classes(value: Symbolic, limit: int) -> tuple[list[Assignment] | None, Shape | None]:
    """``representatives``, and the value's shape (``Symbolic.shape``) where it is known: a body
    copied over other parameters has the same classes, at its own variables.  Only values whose
    classes cost ``_COSTLY`` evaluations are shaped (most cost less than walking them would), and
    a value is shaped before its search only where one alike at a glance (``_glance``) was, until
    ``_MOST_MISSES`` such walks in a row found no shape met before."""
    memo = value.classes
    if memo is not None and memo[0] == limit:
        return memo[1], None
    state = value.state
    glance = _glance(value)
    shape = value.shape() if state.costly.get(glance, 0) else None
    if shape is not None:
        if (shape[0], limit) in state.classes:
            state.costly[glance] = _MOST_MISSES
            members = state.classes[shape[0], limit]
            found = None if members is None else [dict(zip(shape[1], each)) for each in members]
            object.__setattr__(value, "classes", (limit, found))
            return found, shape
        state.costly[glance] -= 1
    budget = _Budget(_MOST_EVALUATIONS, _MOST_DEPTH)
    try:
        found = _nested(value, limit, budget)
    except _Exhausted:
        found = None
        object.__setattr__(value, "classes", (limit, None))  # asked again and again: fails alike
    if _MOST_EVALUATIONS - budget.left < _COSTLY:
        return found, shape
    state.costly.setdefault(glance, _MOST_MISSES)
    shape = shape or value.shape()
    if shape is not None and (found is None or all(len(a) == len(shape[1]) for a in found)):
        state.classes[shape[0], limit] = None if found is None else [tuple(a[v] for v in shape[1]) for a in found]
    return found, shape


def _glance(value: Symbolic) -> tuple:
    """What two values of one shape share, read without walking them: the operation, and how
    many members each of its variables has."""
    return value.name, len(value.operands), tuple(len(v.domain) for v in value.ordered)


def _representatives(value: Symbolic, limit: int, budget: _Budget) -> list[Assignment] | None:
    if value.function is None:  # a variable: each member is its own class
        (var,) = value.arguments
        return [{var: member} for member in var.domain]
    variables = value.ordered
    if math.prod(len(v.domain) for v in variables) <= limit:
        return _distinct([value], _every(variables), budget)
    found = _joint(value.operands, limit, budget, 0)
    return None if found is None else _distinct([value], found, budget)


def _joint(operands: Sequence[Symbolic], limit: int, budget: _Budget, expansions: int) -> list[Assignment] | None:
    """Assignments of every variable of ``operands`` giving each distinct tuple of their values
    once: the operands that share no variable are weighed apart and their classes combined."""
    per_component = []
    count = 1
    for component in _components(operands):
        found = _component(component, limit, budget, expansions)
        if found is None:
            return None
        count *= len(found)
        if count > limit:  # before the components left are weighed
            return None
        per_component.append(found)
    combined = []
    for parts in itertools.product(*per_component):
        assignment: Assignment = {}
        for part in parts:
            assignment.update(part)
        combined.append(assignment)
    return combined


def _component(operands: list[Symbolic], limit: int, budget: _Budget, expansions: int) -> list[Assignment] | None:
    """``_joint`` of operands that share variables: one operand by its own classes (memoized:
    operands are shared by the values built on them); several by every assignment of their
    variables where there are few, else by the classes of their own operands."""
    if len(operands) == 1:
        return _nested(operands[0], limit, budget)
    variables = frozenset().union(*(operand.variables for operand in operands))
    if math.prod(len(v.domain) for v in variables) <= limit:
        return _distinct(operands, _every(sorted(variables, key=lambda v: repr(v.key))), budget)
    if expansions == _MOST_EXPANSIONS:
        return None
    inner = _unique(o for operand in operands for o in (operand.operands if operand.function else (operand,)))
    if len(inner) == len(operands) and all(a is b for a, b in zip(inner, operands)):
        return None  # variables only: nothing left to split
    found = _joint(inner, limit, budget, expansions + 1)
    return None if found is None else _distinct(operands, found, budget)


def _nested(value: Symbolic, limit: int, budget: _Budget) -> list[Assignment] | None:
    """``representatives`` within a question's budget, memoized (an exhausted budget is not: a
    question about less may still find them)."""
    memo = value.classes
    if memo is not None and memo[0] == limit:
        return memo[1]
    if len(value.variables) > _MOST_VARIABLES:
        return None
    if budget.depth == 0:
        raise _Exhausted
    budget.depth -= 1
    found = _representatives(value, limit, budget)
    budget.depth += 1
    object.__setattr__(value, "classes", (limit, found))
    return found


def _every(variables: Sequence[Variable]) -> Iterable[Assignment]:
    return (dict(zip(variables, members)) for members in itertools.product(*(v.domain for v in variables)))


def _distinct(values: Sequence[Symbolic], assignments: Iterable[Assignment], budget: _Budget) -> list[Assignment]:
    """The first of ``assignments`` giving each distinct tuple of ``values`` (by identity)."""
    seen: dict[tuple[int, ...], Assignment] = {}
    held = []  # the values whose identities are the keys, alive while compared
    for assignment in assignments:
        budget.spend(len(values))
        found = [value.at(assignment) for value in values]
        key = tuple(map(id, found))
        if key not in seen:
            seen[key] = assignment
            held.append(found)
    return list(seen.values())


def _components(operands: Sequence[Symbolic]) -> list[list[Symbolic]]:
    """``operands`` grouped so that two groups share no variable."""
    groups: list[tuple[set[Variable], list[Symbolic]]] = []
    for operand in _unique(operands):
        variables = set(operand.variables)
        members = [operand]
        for group in [g for g in groups if g[0] & variables]:
            groups.remove(group)
            variables |= group[0]
            members = group[1] + members
        groups.append((variables, members))
    return [members for _, members in groups]


def _unique(operands: Iterable[Symbolic]) -> list[Symbolic]:
    """``operands`` without repeats (equal values are evaluated alike)."""
    return list(dict.fromkeys(operands))
