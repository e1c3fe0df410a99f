"""Values chosen by a test, and whether a variable holds None as a variable of its own.

Code tests what it was given before it uses it: ``ticks = ticks if ticks is not None else
axis.ticks``, ``if dtype is None: dtype = x.dtype``, ``if isinstance(v, Coordinate): v = v.data``.
The join of both branches forgets which one runs; a value *chosen* by the test keeps it: at each
assignment of the variables, the branch the test takes there where it is a Python bool known
there, else the join.  Whether a variable is None is the variable ``ticks is None``
(``presence``), whose members are True and False, independent of the members the variable
ranges over: a claim "for every member" still weighs both branches, and a call that passes the
parameter (the run-time shim's arguments) settles which branch ran.
"""

from __future__ import annotations

from dataclasses import dataclass

from promolint.engine.symbolic.raised import raised
from promolint.engine.symbolic.state import EvaluationState
from promolint.engine.symbolic.variables import Symbolic, apply, extended_key, join, join_going_on, variable
from promolint.engine.values import UNKNOWN, Array, Library, OrNone, Refusal, Unknown, Value, is_none, python_scalar

IS_NONE = " is None"  # what a presence variable's key adds to its variable's
HOLDS, FAILS = python_scalar("bool", True), python_scalar("bool", False)


def presence(value: Value | None, state: EvaluationState) -> Symbolic | None:
    """The variable ``x is None`` where ``value`` is the variable ``x`` itself (a parameter, or
    an attribute of one, not yet assigned another value); else None."""
    if type(value) is not Symbolic or value.variable is None:
        return None
    var = value.variable
    return variable(f"{var.name}{IS_NONE}", extended_key(var.key, IS_NONE), (HOLDS, FAILS), state=state)


def tested_key(key: object) -> object | None:
    """The key of the variable whose presence variable is keyed ``key``; None for other keys."""
    if isinstance(key, tuple) and key and isinstance(key[-1], str) and key[-1].endswith(IS_NONE):
        return (*key[:-1], key[-1][: -len(IS_NONE)])
    return None


def decides(test: Value) -> bool:
    """Whether ``test`` can choose between branches: a known Python bool, or a value computed
    from variables (which may be one at each assignment)."""
    return type(test) is Symbolic or _truth(test) is not None


def chosen(test: Value, when_true: Value, when_false: Value) -> Value:
    """``when_true`` where ``test`` holds, ``when_false`` where it fails (a test that ``decides``
    nothing: their join).  Only values (arrays, what is computed from variables, unknowns and
    exceptions) are chosen at each assignment; containers and objects are joined as any merge
    joins them."""
    if when_true == when_false:
        return when_true
    if type(test) is not Symbolic:
        return _chosen(test, when_true, when_false)
    if not all(type(v) in _CHOSEN for v in (when_true, when_false)):
        return join_or_none([when_true, when_false])
    return apply("chosen", _chosen, (test, when_true, when_false))


_CHOSEN = (Array, Symbolic, Unknown, Refusal)  # values; not containers nor objects


def _truth(test: Value) -> bool | None:
    return test.literal if type(test) is Array and test.library is Library.PYTHON and type(test.literal) is bool \
        else None  # fmt: skip


def _chosen(test: Value, when_true: Value, when_false: Value) -> Value:
    truth = _truth(test)
    if truth is True:
        return when_true
    if truth is False:
        return when_false
    # Either branch may run: where one raised, the program goes on only from the other.
    going_on = [v for v in (when_true, when_false) if type(v) is not Refusal]
    return going_on[0] if len(going_on) == 1 else join([when_true, when_false])


@dataclass(frozen=True)
class Split:
    """Branches told apart by a test: branch ``i`` runs where ``test`` holds when
    ``runs_where_true[i]``, where it fails otherwise."""

    test: Value
    runs_where_true: tuple[bool, ...]

    @property
    def truth(self) -> bool | None:
        """What the test is where it is known without the variables: True, False, else None."""
        return None if type(self.test) is Symbolic else _truth(self.test)

    def merged(self, values: list[Value]) -> Value:
        """A name's value after the branches, given its value at the end of each."""
        when_true = [v for v, holds in zip(values, self.runs_where_true) if holds]
        when_false = [v for v, holds in zip(values, self.runs_where_true) if not holds]
        if not when_true or not when_false:
            return join_or_none(values)
        return chosen(self.test, join_or_none(when_true), join_or_none(when_false))


def join_or_none(values: list[Value]) -> Value:
    """The join of what branches leave in a name where the program goes on (``join_going_on``),
    where some leave None and the others one value (an array, or one computed from variables):
    that value or None (``OrNone``), which a test that it is not None narrows; else the join."""
    if not any(is_none(v) or type(v) is OrNone for v in values):
        return join_going_on(values)
    given = [v.value if type(v) is OrNone else v for v in values if not is_none(v)]
    inner = join_going_on(given) if given else UNKNOWN
    return OrNone(value=inner) if type(inner) in (Array, Symbolic) else join_going_on(values)


def short_circuit(first: Value, second: Value) -> Value:
    """``first and second``, ``first or second``: either operand where the program goes on.
    Where the first raises, so does the expression (the second never runs); where only the
    second raises, the program goes on only with the first."""
    if type(first) is not Refusal and (type(first) is Symbolic or type(second) is Symbolic):
        return first if first == second else apply("short_circuit", _short_circuit, (first, second))
    return _short_circuit(first, second)


def _short_circuit(first: Value, second: Value) -> Value:
    if type(first) is Refusal:
        return raised("short_circuit", (first, second))
    return first if type(second) is Refusal else join([first, second])
