"""What a symbolic value is at its members: its outcomes, and what holds at every member.

``outcomes`` gives the value at every assignment of its variables, cut down where there are too
many (folded operands, the variables it needs, outcome classes); ``summary`` and ``settled`` the
one exact value it has wherever the program goes on, if it has one; ``folded`` the value with
each such operand replaced by that value; ``lowered`` the value with every variable unknown.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Mapping

from promolint.engine import outcomes as outcome_classes
from promolint.engine.symbolic.raised import passed_on, raised
from promolint.engine.symbolic.variables import ITSELF, MAX_ASSIGNMENTS, Symbolic, Variable, is_symbolic, substitute
from promolint.engine.values import UNKNOWN, Array, Items, Refusal, Value, among, join as join_exact

Outcome = tuple[dict[Variable, Value], Value]  # an assignment of the variables, and the value there


def outcomes(value: Symbolic, limit: int = MAX_ASSIGNMENTS) -> list[tuple[dict[Variable, Value], Value]] | None:
    """The value at every assignment, or None when there are too many to weigh.  Too many
    assignments are first cut down by folding (``jnp.asarray(x, jnp.float32) +
    jnp.asarray(y, jnp.int32)`` weighs no member of x or y), then by leaving unknown the
    variables the value does not need (``_without_unneeded``); an assignment then names
    only the variables still weighed.  Else one assignment per distinct value, the operands
    that share no variable weighed apart (``outcomes.representatives``).  Memoized for the
    usual limit: reveal and rules ask again and again."""
    if limit == MAX_ASSIGNMENTS and value._outcomes is not ITSELF:
        return value._outcomes
    assignments = value.assignments(limit)
    if assignments is not None:
        found = [(a, value.at(a)) for a in assignments]
    else:
        reduced = folded(value)
        if type(reduced) is not Symbolic:
            found = [({}, reduced)]
        else:
            assignments = reduced.assignments(limit)
            found = [(a, reduced.at(a)) for a in assignments] if assignments is not None \
                else _without_unneeded(reduced, limit) or outcome_classes.outcomes(reduced, limit)  # fmt: skip
    if limit == MAX_ASSIGNMENTS:
        object.__setattr__(value, "_outcomes", found)
    return found


def each_outcome(value: Symbolic) -> Iterator[Outcome] | None:
    """``outcomes`` one at a time, where they are every assignment's (few enough to weigh): a
    question that the first few answer stops there; read to the end, they are memoized as
    ``outcomes``.  None where ``outcomes`` would cut the assignments down."""
    assignments = value.assignments()
    if assignments is None:
        return None
    return iter(value._outcomes) if value._outcomes is not ITSELF else _each(value, assignments)


def spread_outcomes(value: Symbolic) -> Iterator[Outcome] | None:
    """``each_outcome`` in an order that meets each variable's distinct members early (one of
    each dtype and library first): for a question that the set of outcomes answers, not their
    order (how many dtypes, which libraries), and that a few differing members settle.  Read
    to the end, they are memoized as ``outcomes``, in its order.  None where ``outcomes`` would
    cut the assignments down."""
    if value.assignments() is None:
        return None
    if value._outcomes is not ITSELF:
        return iter(value._outcomes)
    return _spread_each(value)


def _spread_each(value: Symbolic) -> Iterator[Outcome]:
    variables = value.ordered
    state = value.state
    found = {}
    for positions in itertools.product(*(state.spread(v.domain, _spread) for v in variables)):
        assignment = {v: v.domain[i] for v, i in zip(variables, positions)}
        outcome = found[positions] = value.at(assignment)
        yield assignment, outcome
    ordered = itertools.product(*(range(len(v.domain)) for v in variables))
    object.__setattr__(value, "_outcomes", [({v: v.domain[i] for v, i in zip(variables, positions)}, found[positions])
                                            for positions in ordered])  # fmt: skip


def _spread(domain: tuple[Value, ...]) -> list[int]:
    """The positions of ``domain``'s members, the first member of each kind (dtype, library)
    first, in their order."""
    seen: dict[tuple, int] = {}
    ranked = []
    for index, member in enumerate(domain):
        kind = _kind(member)
        ranked.append((seen.get(kind, 0), index))
        seen[kind] = seen.get(kind, 0) + 1
    return [index for _, index in sorted(ranked)]


def _each(value: Symbolic, assignments: Iterable[dict[Variable, Value]]) -> Iterator[Outcome]:
    found = []
    for assignment in assignments:
        outcome = value.at(assignment)
        found.append((assignment, outcome))
        yield assignment, outcome
    object.__setattr__(value, "_outcomes", found)


def folded(value: Symbolic) -> Value:
    """``value`` with each operand that has one value at every member of its variables (where
    the program goes on) replaced by that value; itself when none has."""
    found = value._folded
    if found is None:
        found = value
        if value.function is not None:
            arguments = tuple(fold(a) for a in value.arguments)
            if any(new is not old for new, old in zip(arguments, value.arguments)):
                if any(is_symbolic(a) for a in arguments):
                    found = _settled(Symbolic(value.name, value.function, arguments))
                else:
                    found = raised(value.name, arguments) or value.function(*arguments)
        object.__setattr__(value, "_folded", ITSELF if found is value else found)
    return value if found is ITSELF else found


def _without_unneeded(value: Symbolic, limit: int) -> list[tuple[dict[Variable, Value], Value]] | None:
    """``value``'s outcomes over the fewest variables it needs, the others left unknown: none,
    then one, then two (at most ``limit`` assignments), the first such that the value is known
    at each of their assignments (an array of known dtype, or an exception).  What the engine
    computes of unknown values holds whatever they are: ``jax.random.split(key, n)`` has the
    dtype of ``key`` whatever ``n`` is.  None when no such set is found."""
    variables = value.ordered
    if len(variables) > _MOST_TRIED:
        return None
    for size in range(min(len(variables), _MOST_NEEDED) + 1):
        for needed in itertools.combinations(variables, size):
            if math.prod(len(v.domain) for v in needed) > limit:
                continue
            found = []
            for members in itertools.product(*(v.domain for v in needed)):
                assignment = Partial(zip(needed, members))
                outcome = value.at(assignment)
                if not (isinstance(outcome, Refusal) or isinstance(outcome, Array) and outcome.dtypes):
                    break
                found.append((assignment, outcome))
            else:
                return found
    return None


_MOST_NEEDED = 2  # variables a value with too many assignments to weigh is tried with
# Variables beyond which no one or two are tried: a value computed from a hundred parameters
# (the callers' values a loop's state joins) is not known at one of them, and trying each costs
# a hundred evaluations of its whole tree (quadax's adaptive loops: 13x the analysis).
_MOST_TRIED = 12


def fold(value: object) -> object:
    """An operand folded (``folded``), containers item by item; unchanged values are
    returned as they are (the caller tells a change by identity)."""
    kind = type(value)
    if kind is Symbolic:
        exact = _settled(value)
        return exact if exact is not value else folded(value)
    if kind in (list, tuple):
        items = [fold(v) for v in value]
        return kind(items) if any(new is not old for new, old in zip(items, value)) else value
    if kind is dict:
        items = {k: fold(v) for k, v in value.items()}
        return items if any(items[k] is not value[k] for k in value) else value
    if kind is Items:
        items = tuple(fold(v) for v in value.items)
        return Items(items, value.is_tuple) if any(new is not old for new, old in zip(items, value.items)) else value
    return value


def settled(value: object) -> object:
    """What rules read of a value: the exact value a symbolic one has at every member where the
    program goes on (``np.float64(c)`` for an annotated ``c: float``), weighed over the fewest
    variables it needs where there are too many members (``_settled_over_needed``), else the
    value itself."""
    if type(value) is not Symbolic:
        return value
    exact = _settled(value)
    if exact is value:
        exact = _settled_over_needed(value)
    return value if passed_on(exact) else exact


def _settled_over_needed(value: Symbolic) -> Value:
    """Where a value has too many assignments to settle (``_settled``), what it is at each
    assignment of the fewest variables it needs (``outcomes``): the refusal at every one of
    them, else ``_alike``.  jaxmarl's SMAX observation raises whatever its three parameters
    are; folding, which reveal and the loops read, stays with ``_settled``."""
    if value.assignments() is not None or _members_differ(value):
        return value
    found = outcomes(value)
    if not found:
        return value
    values = [outcome for _, outcome in found]
    if all(isinstance(outcome, Refusal) for outcome in values):
        return values[0]
    return _alike(value, values)


def going_on_among(value: Symbolic) -> Value:
    """What ``value`` is to code that does not know its variables: one of the arrays it is at its
    members where the program goes on (``Among``); unknown where an outcome is no array of known
    dtype, or every one raises."""
    found = outcomes(value)
    going_on = [outcome for _, outcome in found or () if not isinstance(outcome, Refusal)]
    return among(going_on) if going_on and all(type(o) is Array for o in going_on) else UNKNOWN


def _members_differ(value: Symbolic, weak: bool = True) -> bool:
    """Whether two assignments of ``value``'s variables (``probes``) give it known arrays that
    differ (dtype, library or, with ``weak``, weak flag): then its outcomes, however they are cut
    down, hold both, so they neither all refuse nor are all one array.  Two evaluations where the
    outcomes would cost hundreds."""
    found = None
    for _, outcome in probes(value):
        if not (isinstance(outcome, Array) and outcome.dtypes):
            continue
        kind = (outcome.dtypes, outcome.library, outcome.weak if weak else None)
        if found is not None and kind != found:
            return True
        found = kind
    return False


def probes(value: Symbolic) -> Iterator[Outcome]:
    """``value`` at two assignments of its variables: each variable's first member, then its
    first member of another kind; most values over many variables differ there.  A known array
    at one of them is among ``outcomes`` however they are cut down: each outcome is the value at
    an assignment that the probe extends, and what is known with some variables unknown holds
    whatever they are.  An unknown shows nothing: the engine may know less with every variable
    given than with some left unknown (a merge of a branch that raises at that member with one
    that does not is unknown there)."""
    variables = value.ordered
    for assignment in ({v: v.domain[0] for v in variables}, {v: v.domain[_second_kind(v.domain)] for v in variables}):
        yield assignment, value.at(assignment)


def _second_kind(domain: tuple[Value, ...]) -> int:
    """The position of ``domain``'s first member of another kind (dtype, library) than its first,
    the second that ``_spread`` orders first (0 where there is none): domains take libraries in
    turn, so it is mostly the second."""
    first = _kind(domain[0])
    return next((index for index, member in enumerate(domain) if _kind(member) != first), 0)


def _kind(member: Value) -> tuple:
    return (member.dtypes, member.library) if isinstance(member, Array) else (type(member),)


def alike_but_weak(value: Symbolic) -> Value:
    """The array of one dtype and library ``value`` is at every member where the program goes
    on, weak or strong as the members make it (their weak flags joined): ``lax.select(p, action,
    c)`` of an int64 ``c`` is int64, weak as ``action`` is.  ``value`` where it has none."""
    if _members_differ(value, weak=False):
        return value
    found = outcomes(value)
    return _alike(value, (outcome for _, outcome in found), weak=False) if found else value


def _alike(value: Symbolic, outcomes: Iterable[Value], weak: bool = True) -> Value:
    """The array the ``outcomes`` where the program goes on all are (one dtype, library and,
    with ``weak``, weak flag; their ranks joined); ``value`` where one is no known array or two
    differ.  Stops at the first that tells so."""
    alive: list[Array] = []
    for outcome in outcomes:
        if isinstance(outcome, Refusal):
            continue
        if not (isinstance(outcome, Array) and outcome.dtypes):
            return value
        first = alive[0] if alive else outcome
        if (outcome.dtypes, outcome.library) != (first.dtypes, first.library) or weak and outcome.weak != first.weak:
            return value
        alive.append(outcome)
    return join_exact(alive) if alive else value


def _settled(value: Symbolic) -> Value:
    """``summary``, or where the members differ only in rank, the array of unknown rank they
    all are (the dtype, weak flag and library are what folding needs).  Stops at the first
    member that tells otherwise.  Memoized per value: folding settles the operands of every
    value it folds, and the values it builds, again and again."""
    exact = value._settled
    if exact is None:
        exact = _settle(value)
        object.__setattr__(value, "_settled", ITSELF if exact is value else exact)
    return value if exact is ITSELF else exact


def _settle(value: Symbolic) -> Value:
    known = value.at(_EVERY_VARIABLE_UNKNOWN)  # one evaluation: what holds whatever they are
    if isinstance(known, Array) and known.dtypes:
        return known
    exact = summary(value)
    if exact is not value:
        return exact
    assignments = value.assignments()
    if assignments is None:  # too many to weigh: those of the operands that matter, if fewer
        reduced = folded(value)
        return value if type(reduced) is Symbolic else reduced
    return _alike(value, (value.at(assignment) for assignment in assignments))


class _EveryVariableUnknown(Mapping):
    """The assignment that makes every variable unknown (it holds nothing: it stays as it is)."""

    def __getitem__(self, key: Variable) -> Value:
        return UNKNOWN

    def get(self, key: Variable, default: object = None) -> Value:
        return UNKNOWN

    def __iter__(self) -> Iterator[Variable]:
        return iter(())

    def __len__(self) -> int:
        return 0


_EVERY_VARIABLE_UNKNOWN = _EveryVariableUnknown()


class Partial(dict):
    """An assignment of some variables: the others are unknown."""

    def __missing__(self, key: Variable) -> Value:
        return UNKNOWN


def lowered(value: object) -> object:
    """``value`` computed with every variable unknown (one evaluation): what an operation on
    variables is as rules read it, which conclude only from what holds whatever the variables
    are (a dtype the code asks for, a literal that cannot fit)."""
    return substitute(value, _EVERY_VARIABLE_UNKNOWN) if is_symbolic(value) else value


# --- what is known of a symbolic value ----------------------------------------------------------
def summary(value: Value) -> Value:
    """The exact value a symbolic value has at every assignment (its variables do not matter),
    else the value itself.  Stops at the first member that differs, as most values do, or that
    is unknown: an unknown for every member is no more use than the symbolic value."""
    if type(value) is not Symbolic:
        return value
    if value.function is None:  # a variable itself: its members differ unless it has one
        domain = value.arguments[0].domain
        return domain[0] if len(domain) == 1 else value
    assignments = value.assignments()
    if assignments is None:
        return value
    first = None
    refusals: list[Refusal] = []
    for assignment in assignments:
        outcome = value.at(assignment)
        if isinstance(outcome, Refusal):
            refusals.append(outcome)
        elif outcome is UNKNOWN:
            return value
        elif first is None:
            first = outcome
        elif outcome != first:
            return value
    return first if first is not None else raised_where_reached(refusals) if refusals else value


def raised_where_reached(refusals: list[Refusal]) -> Refusal:
    """What a value that raises at every member raises: where it is reached (an operand raised
    first at the other members), its own exception, where that is one error for one reason;
    else the first one."""
    own = [r for r in refusals if not passed_on(r)]
    if own and all((r.error, r.reason) == (own[0].error, own[0].reason) for r in own):
        return own[0]
    return refusals[0]

