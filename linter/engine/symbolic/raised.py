"""Exceptions passed on: an operand that raised stops the program there, so what follows is it.

An operation whose operand (or a call whose argument) is an exception never runs: its value is
that exception, marked as passed on, so that rules report it once, where it was raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from promolint.engine.values import Refusal

# The provenance of an exception an operand raised, passed on by the operations after it: rules
# report it where it is raised, not at each of those.
_RAISED_BEFORE = "raised by an operand"
_DECIDING = frozenset({"join", "join_going_on"})  # merges: what a branch raised is theirs to weigh
_FIRST_PASSED_ON = frozenset({"chosen", "short_circuit"})


def raised(name: str, arguments: tuple) -> Refusal | None:
    """An operand (or a call's argument) that raised: the program stops there, so what follows
    is that exception.  A join merges branches, one of which may have raised, and decides; a
    value chosen by a test (``promolint.engine.symbolic.choice``) is that of the branch the test
    takes, and ``a and b`` runs ``b`` only after ``a``, so only the first one's exception is
    passed on."""
    if name in _DECIDING:
        return None
    if name in _FIRST_PASSED_ON:
        arguments = arguments[:1]
    for argument in arguments:
        kind = type(argument)
        if kind is Refusal:
            return replace(argument, provenance=_RAISED_BEFORE)
        if kind is list or kind is tuple or kind is dict:
            for item in argument.values() if kind is dict else argument:
                if type(item) is Refusal:
                    return replace(item, provenance=_RAISED_BEFORE)
    return None


def raised_in(arguments: Sequence[object]) -> Refusal | None:
    """The exception one of a call's ``arguments`` (or the callee) raised, passed on: Python
    evaluates them before it calls anything, so the call never happens."""
    return raised("call", tuple(arguments))


def passed_on(value: object) -> bool:
    """Whether ``value`` is an exception an operand raised, passed on by an operation that
    never runs: rules report it where it was raised."""
    return isinstance(value, Refusal) and value.provenance == _RAISED_BEFORE
