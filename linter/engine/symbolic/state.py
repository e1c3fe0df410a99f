"""What one analysis remembers of its symbolic values: their evaluations and the variables' members.

Evaluating an operation at a member is memoized for the analysis that built the value: equal
values (built apart, as each pass of a loop builds its own) share one number and so their
evaluations, and equal members share one code.  The flow creates one ``EvaluationState`` per
analysis; every symbolic value reaches it through the variables it is computed from, and it is
dropped with the analysis: two analyses alive at once (``lint`` analyses a file again in the
other x64 mode) keep their evaluations apart.  It holds no symbolic value strongly but by number
(a value refers to its state: the two would make a cycle only the collector frees).
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable, Hashable
from dataclasses import fields

from promolint.engine.context import Context
from promolint.engine.symbolic import domains
from promolint.engine.values import Array, Library, Unknown, Value

# Entries a table may hold before it starts again: a long analysis must not exhaust memory.
MEMO_LIMIT = 400_000


class EvaluationState:
    """The memo tables of one analysis's symbolic values.

    ``memo``: evaluations by (the value's number, the codes of its variables' members).
    ``numbers``: the number of each value, shared by the values equal to it.  ``codes`` (by
    identity) and ``coded`` (by equality): each member's code, equal members sharing one;
    ``kept`` holds the coded members alive, so that no other object takes their identities.
    ``orderings``: one tuple per set of variables (``Symbolic.ordered``).  ``assigned``: the
    assignment evaluated last (a walk down the values evaluates them all at one assignment), and
    ``assigned_codes`` the codes of its members by the tuple of variables they are assigned to.
    ``canonical``: one object per distinct evaluation result (``canonical``).  ``shapes``: the
    codes of values' shapes (``Symbolic.shape``); ``classes``: the outcome classes found for a
    shape (``outcomes.representatives``), as members in the order of its variables, and
    ``outcome_values`` the values there; ``costly``: what the values whose classes took long to
    find look like at a glance (``outcomes._glance``), with the walks left to values alike;
    ``spreads``: each domain's positions in the order ``spread`` gives, by the domain's identity.
    ``counted``: the keys of the variables the code counts with (``domains.COUNTS``)."""

    def __init__(self) -> None:
        self.memo: dict[tuple, Value] = {}
        self.numbers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._counter = itertools.count(1)
        self.codes: dict[int, int] = {}
        self.coded: dict[Value, int] = {}
        self.kept: list[Value] = []
        self.orderings: dict[tuple[int, ...], tuple] = {}
        self.assigned: object = None
        self.assigned_codes: dict[int, tuple[tuple, tuple[int, ...]]] = {}
        self.canonical: dict[object, Value] = {}
        self._field_names: dict[type, tuple[str, ...]] = {}
        self._domains: dict[Hashable, tuple[Array, ...]] = {}
        self.shapes: dict[Hashable, int] = {}
        self.classes: dict[tuple[int, int], list[tuple[Value, ...]] | None] = {}
        self.outcome_values: dict[tuple[int, int], list[Value]] = {}
        self.costly: dict[tuple, int] = {}
        self.counted: set[Hashable] = set()
        self.spreads: dict[int, tuple[tuple[Value, ...], list[int]]] = {}

    def shape_code(self, key: Hashable) -> int:
        """The code of one operation's shape (``Symbolic.shape``): equal shapes have one."""
        shapes = self.shapes
        code = shapes.get(key)
        if code is None:
            if len(shapes) > MEMO_LIMIT:
                shapes.clear()
                self.classes.clear()
                self.outcome_values.clear()
            code = shapes[key] = next(self._counter)  # never reused: a walk may hold codes across a clear
        return code

    def number(self, value: Hashable) -> int:
        """``value``'s number in the memo, shared by the values equal to it (never reused)."""
        number = self.numbers.get(value)
        if number is None:
            number = self.numbers[value] = next(self._counter)
        return number

    def code(self, member: Value) -> int:
        """``member``'s code in memo keys: equal members (``==``) have one."""
        code = self.coded.get(member)
        if code is None:
            code = self.coded[member] = next(self._counter)
        self.codes[id(member)] = code
        self.kept.append(member)
        return code

    def canonical_of(self, value: Value) -> Value:
        """The one object of the analysis equal to ``value`` in every respect (``==`` ignores
        provenance and sources, and takes ``True`` for ``1``): equal operands are then the same
        object, and the operations applied to them run once (``Symbolic._evaluate``)."""
        key = self._whole(value)
        found = self.canonical.get(key)
        if found is None:
            if len(self.canonical) > MEMO_LIMIT:
                self.canonical.clear()
            found = self.canonical[key] = value  # holds what the key's identities name
        return found

    def _whole(self, value: object) -> object:
        """A key that tells ``value`` from every value that differs from it in any field."""
        kind = type(value)
        if kind is Array:
            literal = value.literal
            if type(literal) is float or type(literal) is complex:
                literal = repr(literal)  # -0.0 == 0.0, and nan is not equal to itself
            return (kind, value.dtypes, id(value.library), value.weak, type(value.literal), literal, value.intended64,
                    value.ndim, value.provenance, value.source, value.named64)  # fmt: skip
        if kind is str or kind is int or kind is bool or value is None:
            return (kind, value)
        if kind is Unknown:
            return (kind, id(value))  # code asks whether a value is UNKNOWN itself
        if kind is tuple or kind is list:
            return (kind, *[self._whole(item) for item in value])
        if isinstance(value, Value):
            names = self._field_names.get(kind)
            if names is None:
                names = self._field_names[kind] = tuple(f.name for f in fields(value))
            return (kind, *[self._whole(getattr(value, name)) for name in names])
        return (kind, id(value))  # anything else: itself (kept alive by the value that holds it)

    def spread(self, domain: tuple[Value, ...], order: Callable[[tuple[Value, ...]], list[int]]) -> list[int]:
        """``order(domain)``, computed once per domain: every value over a variable asks it."""
        found = self.spreads.get(id(domain))
        if found is None or found[0] is not domain:
            found = self.spreads[id(domain)] = (domain, order(domain))  # the domain held: no other takes its id
        return found[1]

    def domain(self, libraries: tuple[Library, ...], ctx: Context,
               dtypes: frozenset[str] | None = None) -> tuple[Array, ...]:  # fmt: skip
        """``domains.members``, one tuple for the analysis (memo keys code their objects)."""
        key = (libraries, ctx, dtypes)
        found = self._domains.get(key)
        if found is None:
            found = self._domains[key] = domains.members(libraries, ctx, dtypes)
        return found

    def counting(self, key: Hashable, members: tuple[Array, ...]) -> tuple[Array, ...]:
        """An annotated variable's ``members``, narrowed to counts where the code counts with it
        (``domains.counting``)."""
        return domains.counting(members) if key in self.counted else members

    def annotated_domain(self, annotation: Array, ctx: Context) -> tuple[Array, ...] | None:
        """The members a parameter annotated as ``annotation`` ranges over (``domains.annotated``);
        None when the annotation is exact already."""
        found = domains.annotated(annotation)
        return None if found is None else self.domain(found[0], ctx, found[1])
