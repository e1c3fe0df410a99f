"""Claims for every member: an operation on variables at each assignment of them.

A rule fires on an operation whose operands depend on variables only when its conclusion holds
for every member: ``instances`` gives the operands and the result at each assignment (folded
first where there are too many), ``uniform_instances`` at the members where every array is of one
dtype, ``with_arrays_of`` the value there, ``instances_with`` the operation at one member of one
variable and every member of the others, ``without_inputs`` the value whatever arrays it is
given; ``kept_dtype`` names the variable whose dtype a value keeps at every member.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence

from promolint.engine.symbolic.members import Partial, fold, folded, outcomes
from promolint.engine.symbolic.variables import (MAX_ASSIGNMENTS, Symbolic, Variable, substitute, variable_order,
                                                 variables_in)
from promolint.engine.values import UNKNOWN, Array, Library, Refusal, Value


def weighed(operands: Sequence[object], result: Value,
            uniform: Sequence[str] = ()) -> list[tuple[tuple[object, ...], Value]] | None:
    """``instances``; where there are too many, ``uniform_instances`` with the dtypes
    ``uniform`` (None when none are given)."""
    found = instances(operands, result)
    if found is None and uniform:
        found = uniform_instances(operands, result, uniform)
    return found


def instances(operands: Sequence[object], result: Value,
              limit: int = MAX_ASSIGNMENTS) -> list[tuple[tuple[object, ...], Value]] | None:
    """An operation on variables at each assignment of them: its operands and its result there
    (what a rule weighs "for every member"); None when there are more than ``limit``.  Where
    there are more, an operand that is the same at every member where the program goes on is
    that value (``members.folded``), so that only the variables that matter are weighed (and
    the members where such an operand raises are no longer told apart)."""
    operands = tuple(operands)
    variables, count = _variables_of(operands, result)
    if count > limit:
        operands = tuple(fold(o) for o in operands)
        result = folded(result) if type(result) is Symbolic else result
        variables, count = _variables_of(operands, result)
    if not variables:  # folded to one value: the same at every member
        return None if type(result) is Symbolic else [(operands, result)]
    if count > limit:
        return None
    return [_instance(operands, result, dict(zip(variables, members)))
            for members in itertools.product(*(v.domain for v in variables))]  # fmt: skip


def _variables_of(operands: tuple[object, ...], result: Value) -> tuple[list[Variable], int]:
    """The variables of an operation, in order, and the number of their assignments."""
    found = variables_in(result) | variables_in(operands)
    count = 1
    for var in found:
        count *= len(var.domain)
    return sorted(found, key=variable_order), count


def uniform_instances(operands: Sequence[object], result: Value,
                      dtypes: Sequence[str]) -> list[tuple[tuple[object, ...], Value]]:
    """An operation on variables where every array variable holds one strong JAX array of each
    of ``dtypes`` in turn (what a function called with float32 arrays computes), and every other
    variable a Python scalar of its domain: the question "with inputs all of one dtype" asks
    of an operation whose variables have too many combinations to weigh each."""
    operands = tuple(operands)  # not folded: one assignment each, where an operand may raise
    variables, _ = _variables_of(operands, result)
    out = []
    for dtype in dtypes:
        array = Array(frozenset([dtype]), Library.JAX, False)
        assignment = {var: _uniform_member(var, array) for var in variables}
        out.append(_instance(operands, result, assignment))
    return out


def instances_with(operands: Sequence[object], result: Value, variable: Variable, dtype: str,
                   limit: int = MAX_ASSIGNMENTS) -> list[tuple[tuple[object, ...], Value]] | None:
    """``instances`` at the assignments where ``variable`` holds a strong JAX array of ``dtype``,
    every other variable at each of its members (folded first where there are too many): what an
    operation gives that input whatever the others are.  None when ``variable`` has no such
    member or does not matter there, or there are too many."""
    member = jax_member(variable, dtype)
    if member is None:
        return None
    operands = tuple(operands)
    variables, count = _variables_of(operands, result)
    if variable not in variables:
        return None
    if count // len(variable.domain) > limit:
        operands = tuple(fold(o) for o in operands)
        result = folded(result) if type(result) is Symbolic else result
        variables, count = _variables_of(operands, result)
        if variable not in variables or count // len(variable.domain) > limit:
            return None
    domains = [(member,) if v is variable else v.domain for v in variables]
    return [_instance(operands, result, dict(zip(variables, members))) for members in itertools.product(*domains)]


def with_arrays_of(value: Value, variables: Iterable[Variable] | None, dtype: str) -> Value:
    """``value`` where ``variables`` (None: all it depends on) hold strong JAX arrays of
    ``dtype`` (each the member of its domain that is one) and every other variable is unknown:
    what an operation gives arrays of that dtype, whatever the rest is."""
    if variables is None:
        variables = variables_in(value)
    return with_arrays(value, {var: dtype for var in variables})


def with_arrays(value: Value, dtypes: Mapping[Variable, str]) -> Value:
    """``value`` where each variable of ``dtypes`` holds a strong JAX array of its dtype there,
    and every other variable is unknown (``with_arrays_of`` with a dtype for each)."""
    return substitute(value, Partial((var, jax_member(var, dtype) or UNKNOWN) for var, dtype in dtypes.items()))


def with_arrays_of_by_members(value: Value, variable: Variable, dtype: str, other: Variable) -> Iterator[Value]:
    """``value`` where ``variable`` holds a strong JAX array of ``dtype`` (``with_arrays_of``)
    and ``other`` each member of its domain in turn, every other variable unknown: what one more
    input decides where leaving it unknown decides nothing (``y + dt * random.normal(k, s)``),
    evaluated as asked: a question answered at the first member stops there."""
    member = jax_member(variable, dtype) or UNKNOWN
    return (substitute(value, Partial(((variable, member), (other, each)))) for each in other.domain)


def without_inputs(value: Value) -> Value:
    """``value`` with every array variable unknown and every variable annotated as a Python
    scalar at a Python float of its domain (its first Python member where it holds no float):
    what the value is whatever arrays the function is given (``boost * jnp.eye(n)`` is float64
    there)."""
    assignment = Partial()
    for var in variables_in(value):
        if var.scalar_annotated:
            python = [m for m in var.domain if m.library is Library.PYTHON]
            chosen = next((m for m in python if m.dtypes == {"float64"}), python[0] if python else None)
            if chosen is not None:
                assignment[var] = chosen
    return substitute(value, assignment)


def jax_member(var: Variable, dtype: str) -> Value | None:
    """The member of ``var``'s domain that is a strong JAX array of ``dtype`` (what a contract
    input is); None where it has none (``x is None``, a count)."""
    return _member_like(var, Array(frozenset([dtype]), Library.JAX, False))


def _member_like(var: Variable, array: Array) -> Value | None:
    """The member of ``var``'s domain equal to ``array`` (memo keys code the domain's objects)."""
    return next((m for m in var.domain if m == array), None)


def _uniform_member(var: Variable, array: Array) -> Value:
    chosen = _member_like(var, array)
    if chosen is None:  # not an array variable: the Python scalar it most likely holds
        python = [m for m in var.domain if m.library is Library.PYTHON]
        chosen = next((m for m in python if m.dtypes == {"int64"}), python[0] if python else UNKNOWN)
    return chosen


def _instance(operands: tuple[object, ...], result: Value,
              assignment: Mapping[Variable, Value]) -> tuple[tuple[object, ...], Value]:  # fmt: skip
    return tuple(substitute(o, assignment) for o in operands), substitute(result, assignment)


def kept_dtype(value: Value) -> tuple[Variable, bool | None, Library | None] | None:
    """The variable whose dtype ``value`` has at every member where the program goes on, with
    the weak flag and library ``value`` has there: None for each that is the variable's own
    (``x * 2`` for a float ``x``: both; ``np.asarray(x)``: strong NumPy arrays; a Python float
    member's dtype is float64, as NumPy makes it)."""
    if type(value) is not Symbolic:
        return None
    found = outcomes(value)
    assigned = set(found[0][0]) if found else ()  # every assignment names the same variables
    if len(assigned) != 1:  # the variables the value needs (folded, or left unknown), not all it reads
        return None
    (var,) = assigned
    alive = [(a[var], v) for a, v in found if not isinstance(v, Refusal)]
    if not alive or not all(isinstance(v, Array) and v.dtypes == m.dtypes for m, v in alive):
        return None
    weak = library = None
    if any(v.weak != m.weak for m, v in alive):
        weaks = {v.weak for _, v in alive}
        if len(weaks) != 1 or None in weaks:
            return None
        weak = weaks.pop()
    if any(v.library is not m.library for m, v in alive):
        libraries = {v.library for _, v in alive}
        if len(libraries) != 1:
            return None
        library = libraries.pop()
    return var, weak, library
