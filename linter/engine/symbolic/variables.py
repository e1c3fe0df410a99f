"""Variables and the symbolic values computed from them.

A parameter nothing types is a *variable* over a domain of exact values (``variable``); an
operation on a variable becomes a *symbolic* value (``lifted``, ``apply``): the same operation
applied to whatever member the variable turns out to be, evaluated on demand for each member
(``Symbolic.at``) and memoized in the analysis's ``EvaluationState``, which every symbolic value
reaches through the variables it is computed from.  Symbolic values are keyed by their
structure (``key``), so that a loop's values settle and equal expressions share their
evaluations.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from promolint.engine.context import Context
from promolint.engine.symbolic.domains import COUNTS, NUMERIC
from promolint.engine.symbolic.raised import raised
from promolint.engine.symbolic.state import MEMO_LIMIT, EvaluationState
from promolint.engine.values import (UNKNOWN, Array, Bound, Elements, Instance, Items, Library, Refusal, Value,
                                     join as join_exact)

# Assignments a claim "for every member" weighs at most: beyond, the value is symbolic but no
# claim is made about all of its members (a run-time check still evaluates it at one member).
MAX_ASSIGNMENTS = 512
# What a value's memoized ``folded`` or settled value is when it is the value itself: a
# reference to itself would make every such value a cycle for the collector to find.
ITSELF = object()

@dataclass(frozen=True, eq=False)
class Variable:
    """An unknown value: its name for messages, its identity, and the exact values it may be.
    Equal by name and identity (not domain); hashed once, as every evaluation looks it up."""

    name: str
    key: object  # what identifies it: a function's def line and parameter name
    domain: tuple[Array, ...] = field(repr=False)
    # Annotated with a Python scalar type (`x: float`), given a Python number as default
    # (`y=0.0`), or counted with (`jnp.arange(n)`, as if annotated `int`): the domain admits
    # arrays too (tracers under jit), but the author said what is meant, which rules that guess
    # may take at its word.
    scalar_annotated: bool = False
    # Annotated as a mapping (``indexers: dict[str, Any]``): what it holds at a key is a variable
    # of its own (``item_variable``), as a pytree's leaves are.
    mapping: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.name, self.key)))

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is Variable and self.name == other.name and self.key == other.key)

    def __hash__(self) -> int:
        return self._hash

    def describe(self) -> str:
        return f"the dtype of `{self.name}`"



class Symbolic(Value):
    """What an expression computes from variables: ``function(*arguments)`` at each assignment of
    its variables (``function`` None: the variable ``arguments[0]`` itself).  Equal when built
    alike: its ``key`` (the operation and its arguments' keys), computed when first needed, as
    are its variables; most symbolic values are never compared nor evaluated."""

    __slots__ = ("name", "function", "arguments", "_key", "_hash", "_variables", "_ordered", "_folded", "_settled",
                 "_evaluated", "_number", "_outcomes", "_operands", "classes", "_state")

    def __init__(self, name: str, function: Callable | None, arguments: tuple, state: EvaluationState | None = None):
        object.__setattr__(self, "provenance", "")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "function", function)
        object.__setattr__(self, "arguments", arguments)
        object.__setattr__(self, "_key", None)
        object.__setattr__(self, "_hash", None)
        object.__setattr__(self, "_variables", None)
        object.__setattr__(self, "_ordered", None)
        object.__setattr__(self, "_folded", None)
        object.__setattr__(self, "_settled", None)
        object.__setattr__(self, "_evaluated", None)
        object.__setattr__(self, "_number", 0)
        object.__setattr__(self, "_outcomes", ITSELF)  # members.outcomes' memo
        object.__setattr__(self, "_operands", None)
        object.__setattr__(self, "classes", None)  # outcomes.representatives' memo: (limit, found)
        object.__setattr__(self, "_state", state)  # a variable's from the flow; an operation's, its first operand's

    def __repr__(self) -> str:
        return f"Symbolic({self.name}, {len(self.variables)} variable(s))"

    @property
    def key(self) -> tuple:
        key = self._key
        if key is None:
            if self.function is None:
                key = ("var", self.arguments[0].key)
            else:
                key = (self.name, *(_key(a) for a in self.arguments))
            object.__setattr__(self, "_key", key)
        return key

    @property
    def variables(self) -> frozenset[Variable]:
        variables = self._variables
        if variables is None:
            if self.function is None:
                variables = frozenset(self.arguments)
            else:
                found: set[Variable] = set()
                for argument in self.arguments:
                    _collect(argument, found)
                variables = frozenset(found)
            object.__setattr__(self, "_variables", variables)
        return variables

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if type(other) is not Symbolic or hash(self) != hash(other) or self.key != other.key:
            return False
        # Equal values built apart (each pass of a loop builds its own) share their key from now
        # on: comparing them again, or values built on them, is an identity check, not a walk
        # of every path through shared operands (exponential in a loop's long chains).
        object.__setattr__(other, "_key", self._key)
        return True

    def __hash__(self) -> int:
        value = self._hash
        if value is None:
            value = hash(self.key)
            object.__setattr__(self, "_hash", value)
        return value

    @property
    def ordered(self) -> tuple[Variable, ...]:
        """The variables in a fixed order (assignments and memo keys list their members so)."""
        ordered = self._ordered
        if ordered is None:
            ordered = tuple(sorted(self.variables, key=variable_order))
            # One tuple for the same variables (the very objects): ``at`` looks up their members
            # in an assignment once for every value over them.
            ordered = self.state.orderings.setdefault(tuple(map(id, ordered)), ordered)
            object.__setattr__(self, "_ordered", ordered)
        return ordered

    @property
    def variable(self) -> Variable | None:
        """The variable this value is, if it is one (not an expression of it)."""
        return self.arguments[0] if self.function is None else None

    def at(self, assignment: Mapping[Variable, Value]) -> Value:
        """The value for one member of each variable."""
        if self.function is None:
            return assignment.get(self.arguments[0], UNKNOWN)
        state = self._state or self.state
        ordered = self._ordered or self.ordered
        if assignment is not state.assigned:  # a walk down the values evaluates them all at one assignment
            state.assigned, state.assigned_codes = assignment, {}
        assigned_codes = state.assigned_codes
        found = assigned_codes.get(id(ordered))
        if found is None or found[0] is not ordered:  # (held, so that no other tuple takes its id)
            codes = state.codes
            found = assigned_codes[id(ordered)] = (
                ordered, tuple([codes.get(id(m)) or state.code(m) for m in [assignment[v] for v in ordered]]))
        memo_key = (self._number or self._numbered(state), found[1])
        memo = state.memo
        value = memo.get(memo_key)
        if value is None:
            if len(memo) > MEMO_LIMIT:
                memo.clear()
            value = memo[memo_key] = self._evaluate(assignment, state)
        return value

    def _numbered(self, state: EvaluationState) -> int:
        """This value's number in the memo, shared by the values equal to it."""
        number = state.number(self)
        object.__setattr__(self, "_number", number)
        return number

    @property
    def state(self) -> EvaluationState:
        """The evaluations of the analysis that built this value: its variables' (reached through
        first operands, down to a variable); a value of no variable has its own."""
        state = self._state
        if state is None:
            chain = []
            value = self
            while state is None:
                chain.append(value)
                operands = value._operands or value.operands
                if not operands:
                    state = EvaluationState()
                    break
                value = operands[0]
                state = value._state
            for built in chain:
                object.__setattr__(built, "_state", state)
        return state

    @property
    def operands(self) -> tuple[Symbolic, ...]:
        """The symbolic values the operation is applied to, in the order ``_evaluate`` substitutes
        them (in containers, a bound method's receiver)."""
        operands = self._operands
        if operands is None:
            found: list[Symbolic] = []
            for argument in self.arguments:
                _symbolic_operands(argument, found)
            operands = tuple(found)
            object.__setattr__(self, "_operands", operands)
        return operands

    def _evaluate(self, assignment: Mapping[Variable, Value], state: EvaluationState) -> Value:
        """The operation applied to its operands at ``assignment``.  Many assignments give the
        operands the same values (``range(len(x))``: ``len(x)`` is a Python int for every
        member): the operation runs once per distinct operands, told apart by the identity of
        their values, which are canonical (``EvaluationState.canonical_of``): the arguments are built only for
        operands not met before."""
        inputs = [operand.at(assignment) for operand in self._operands or self.operands]
        evaluated = self._evaluated
        if evaluated is None:
            evaluated = {}
            object.__setattr__(self, "_evaluated", evaluated)
        key = tuple(map(id, inputs))
        found = evaluated.get(key)
        if found is not None:
            return found[1]
        supply = iter(inputs)
        arguments = tuple([_substituted(a, supply) if type(a) in _SUBSTITUTED else a for a in self.arguments])
        value = state.canonical_of(raised(self.name, arguments) or self.function(*arguments))
        evaluated[key] = (inputs, value)  # the inputs kept alive: their identities are the key
        return value

    def assignments(self, limit: int = MAX_ASSIGNMENTS) -> Iterator[dict[Variable, Value]] | None:
        """Every assignment of the variables, or None when there are more than ``limit``."""
        variables = self.ordered
        count = 1
        for variable in variables:
            count *= len(variable.domain)
        if count > limit:
            return None
        return (dict(zip(variables, members)) for members in itertools.product(*(v.domain for v in variables)))

    def shape(self) -> tuple[int, tuple[Variable, ...]] | None:
        """This value's structure with each variable read as its domain and its place in the
        order first met, coded by the analysis (``EvaluationState.shapes``), and the variables in
        that order: values of one shape (copies of one function body, over their own parameters)
        evaluate alike at corresponding members.  None for a value too large to walk."""
        order: dict[Variable, int] = {}
        try:
            code = _shaped(self, self.state, order, {}, _MOST_SHAPED_DEPTH)
        except _TooLarge:
            return None
        return code, tuple(order)

    def describe(self) -> str:
        names = ", ".join(f"`{v.name}`" for v in sorted(self.variables, key=variable_order))
        return f"depends on the dtype of {names}"


# How far ``Symbolic.shape`` walks: the operations of a loop's long chains are not worth coding.
_MOST_SHAPED = 2_000
_MOST_SHAPED_DEPTH = 100


class _TooLarge(Exception):
    """A value's shape would take more than ``_MOST_SHAPED`` operations to code."""


def _shaped(value: object, state: EvaluationState, order: dict[Variable, int], done: dict[int, int],
            depth: int) -> object:  # fmt: skip
    """``Symbolic.shape`` of ``value``: a symbolic value's code, a container's shapes, and an
    exact value itself (an array with where it was made, which evaluations carry)."""
    kind = type(value)
    if kind is Symbolic:
        code = done.get(id(value))
        if code is None:
            if len(done) == _MOST_SHAPED or depth == 0:
                raise _TooLarge
            if value.function is None:
                variable = value.arguments[0]
                key = ("var", order.setdefault(variable, len(order)), variable.domain, variable.scalar_annotated,
                       variable.mapping)  # fmt: skip
            else:
                key = (value.name, *[_shaped(a, state, order, done, depth - 1) for a in value.arguments])
            code = done[id(value)] = state.shape_code(key)
        return code
    if kind is list or kind is tuple:
        return (kind.__name__, *[_shaped(v, state, order, done, depth) for v in value])
    if kind is dict:
        return ("dict", *[(k, _shaped(v, state, order, done, depth)) for k, v in value.items()])
    if kind is Items:
        return ("items", value.is_tuple, *[_shaped(v, state, order, done, depth) for v in value.items])
    if kind is Bound:
        return ("bound", _shaped(value.receiver, state, order, done, depth), value.method)
    if kind is Elements:
        return ("elements", _shaped(value.element, state, order, done, depth))
    if kind is Array:
        return (value, value.source, value.provenance)
    return value



def variable_order(variable: Variable) -> str:
    return repr(variable.key)


def variable(name: str, key: object, domain: Sequence[Array], scalar_annotated: bool = False, *,
             state: EvaluationState, mapping: bool = False) -> Symbolic:  # fmt: skip
    """The value of an unknown: a variable over ``domain``, evaluated in the analysis's ``state``."""
    return Symbolic("var", None, (Variable(name, key, tuple(domain), scalar_annotated, mapping),), state)


def item_variable(mapping: Variable, index: object, ctx: Context, *, state: EvaluationState) -> Symbolic:
    """``m[index]`` where ``m`` is a variable annotated as a mapping: what it holds there, a
    variable over every numeric value named ``m['a']`` at a literal index, ``m[*]`` at any other
    (any of its items: a call settles it where they all have one type)."""
    key = extended_key(mapping.key, f"[{index!r}]" if type(index) in (str, int) else "[*]")
    return variable(key[-1], key, state.domain(NUMERIC, ctx), state=state)


def attribute_variable(owner: object, name: str, ctx: Context, library: Library | None = None, *,
                       state: EvaluationState, annotation: Array | None = None,
                       members: tuple[Array, ...] = ()) -> Symbolic:  # fmt: skip
    """``x.name`` where ``x`` is the variable keyed ``owner`` and ``name`` no attribute of a
    number, or the parameter ``owner`` holds an object of one of the program's classes whose
    field ``name`` nothing else types: ``x`` holds an object (optax's ``state``, mctx's
    ``tree``), and what it holds there is a variable of its own, over every numeric value (or
    every dtype of ``library``; what a parameter annotated ``annotation`` ranges over where
    that is narrower: ``d_model: int``, the ints of every library, never float data; the
    ``members`` the program's code gives the field where it says), named ``x.name`` (its key:
    ``x``'s, the name extended)."""
    key = extended_key(owner, f".{name}")
    counted = key in state.counted  # `jnp.arange(self.size)`: an integer, as if annotated `int`
    if members:
        return variable(key[-1], key, state.counting(key, members), counted, state=state)
    annotated = state.annotated_domain(annotation, ctx) if annotation is not None else None
    if annotated:
        return variable(key[-1], key, state.counting(key, annotated), annotation.library is Library.PYTHON,
                        state=state)  # fmt: skip
    libraries = NUMERIC if library is None else (library,)
    return variable(key[-1], key, state.domain(libraries, ctx, COUNTS if counted else None), counted, state=state)


def extended_key(owner: object, suffix: str) -> tuple:
    """The key of what ``owner``'s variable holds at ``suffix`` (``.name``, ``[1]``): its key
    with the name extended, so that variables of the same parameter are told apart."""
    *where, last = owner if isinstance(owner, tuple) else (owner,)
    return (*where, f"{last}{suffix}")


def rekeyed(value: object, owners: Mapping[tuple, tuple], state: EvaluationState) -> object:
    """``value`` with what the parameter keyed ``old`` holds (``self._data``, ``box.items[*]``)
    read as what the one keyed ``owners[old]`` holds there, and the objects it gives back (the
    parameter's own, ``return self``, or one it holds: ``Instance.receiver``) likewise: a
    memoized call given another method's ``self``, for this one's."""
    if not owners:
        return value

    def key_here(key: object) -> object:
        if not isinstance(key, tuple) or not key or not isinstance(key[-1], str):
            return key
        for old, new in owners.items():
            rest = key[-1][len(old[-1]):]
            if key[:-1] == old[:-1] and key[-1].startswith(old[-1]) and rest[:1] in ("", ".", "[", " "):
                return (*new[:-1], f"{new[-1]}{rest}")
        return key

    found = {var: key_here(var.key) for var in variables_in(value)}
    renamed = {var: variable(str(key[-1]), key, var.domain, var.scalar_annotated, state=state, mapping=var.mapping)
               for var, key in found.items() if key != var.key}  # fmt: skip
    return _renamed(value, renamed, key_here, {})


def _renamed(value: object, renamed: Mapping[Variable, Symbolic], receiver_here: Callable[[object], object],
             done: dict[int, tuple]) -> object:  # fmt: skip
    """``value`` built again over the variables ``renamed`` gives for its own (the same
    operations: an evaluation at symbolic members would not rebuild them), each object in it
    with its receiver as ``receiver_here`` gives it; what does not change is kept as it is, and
    a value shared by several is built once (``done``)."""
    kind = type(value)
    if kind is Symbolic:
        found = done.get(id(value))
        if found is None:
            if value.function is None:
                built = renamed.get(value.arguments[0], value)
            elif value.variables.isdisjoint(renamed):
                built = value
            else:
                built = Symbolic(value.name, value.function,
                                 tuple([_renamed(a, renamed, receiver_here, done) for a in value.arguments]))
            found = done[id(value)] = (value, built)  # (the value held: no other takes its id)
        return found[1]
    if kind is Instance and value.receiver is not None:
        here = receiver_here(value.receiver)
        return value if here == value.receiver else replace(value, receiver=here)
    if kind is list or kind is tuple:
        return kind(_renamed(v, renamed, receiver_here, done) for v in value)
    if kind is dict:
        return {k: _renamed(v, renamed, receiver_here, done) for k, v in value.items()}
    if kind is Items:
        return Items(tuple(_renamed(v, renamed, receiver_here, done) for v in value.items), value.is_tuple)
    if kind is Bound:
        return Bound(_renamed(value.receiver, renamed, receiver_here, done), value.method)
    if kind is Elements:
        return Elements(_renamed(value.element, renamed, receiver_here, done))
    return value


def is_attribute_of(key: object, owner: object) -> bool:
    """Whether the variable keyed ``key`` is an attribute of the one keyed ``owner``
    (``attribute_variable``), or of one of its attributes."""
    prefix = extended_key(owner, ".")
    return (isinstance(key, tuple) and len(key) == len(prefix) and key[:-1] == prefix[:-1]
            and str(key[-1]).startswith(prefix[-1]))


# --- lifting ---------------------------------------------------------------------------------
_CONTAINERS = frozenset({Items, Bound, Elements, list, tuple, dict})


def is_symbolic(value: object) -> bool:
    """Whether ``value`` (or an item of a sequence, a keyword, a bound method's receiver) is."""
    kind = type(value)
    if kind is Symbolic:
        return True
    if kind not in _CONTAINERS:
        return False
    if kind is Items:
        return any(type(item) is Symbolic or type(item) in _CONTAINERS and is_symbolic(item) for item in value.items)
    if kind is Bound:
        return is_symbolic(value.receiver)
    if kind is Elements:
        return is_symbolic(value.element)
    if kind is dict:
        return any(is_symbolic(item) for item in value.values())
    return any(is_symbolic(item) for item in value)


def lifted(name: str) -> Callable[[Callable], Callable]:
    """A decorator: the function computes exactly on exact values and symbolically on symbolic
    ones (the result is the function applied at each assignment)."""

    def decorate(function: Callable) -> Callable:
        @functools.wraps(function)
        def wrapper(*args):
            for arg in args:
                kind = type(arg)
                if kind is Symbolic or kind in _CONTAINERS and is_symbolic(arg):
                    return Symbolic(name, function, args)
            return function(*args)

        wrapper.exact = function  # type: ignore[attr-defined]
        return wrapper

    return decorate


def apply(name: str, function: Callable, args: Sequence[object]) -> Symbolic:
    """``function(*args)`` as a symbolic value of the variables in ``args``."""
    return Symbolic(name, function, tuple(args))


def _collect(value: object, into: set[Variable]) -> None:
    found: list[Symbolic] = []
    _symbolic_operands(value, found)
    for symbolic in found:
        into |= symbolic.variables


def variables_in(value: object) -> frozenset[Variable]:
    """The variables a value (a container's items too) depends on."""
    found: set[Variable] = set()
    _collect(value, found)
    return frozenset(found)


def _key(value: object) -> object:
    kind = type(value)
    if kind is list:
        return ("list", *(_key(v) for v in value))
    if kind is dict:
        return ("dict", *sorted((k, _key(v)) for k, v in value.items()))
    if kind is tuple:
        return ("tuple", *(_key(v) for v in value))
    return value


def substitute(value: object, assignment: Mapping[Variable, Value]) -> object:
    """``value`` with each symbolic value in it evaluated at ``assignment``."""
    kind = type(value)
    if kind is Symbolic:
        return value.at(assignment)
    if kind is Items:
        return Items(tuple(substitute(v, assignment) for v in value.items), value.is_tuple)
    if kind is Bound:
        return Bound(substitute(value.receiver, assignment), value.method)
    if kind is Elements:
        return Elements(substitute(value.element, assignment))
    if kind is list:
        return [substitute(v, assignment) for v in value]
    if kind is tuple:
        return tuple(substitute(v, assignment) for v in value)
    if kind is dict:
        return {k: substitute(v, assignment) for k, v in value.items()}
    return value


def _symbolic_operands(value: object, into: list[Symbolic]) -> None:
    """The symbolic values in ``value`` an evaluation substitutes (in containers, a bound method's
    receiver), in order: where the values of the operation's operands are looked up."""
    kind = type(value)
    if kind is Symbolic:
        into.append(value)
    elif kind is list or kind is tuple:
        for item in value:
            if type(item) in _SUBSTITUTED:
                _symbolic_operands(item, into)
    elif kind is dict:
        for item in value.values():
            if type(item) in _SUBSTITUTED:
                _symbolic_operands(item, into)
    elif kind is Items:
        for item in value.items:
            _symbolic_operands(item, into)
    elif kind is Bound:
        _symbolic_operands(value.receiver, into)
    elif kind is Elements:
        _symbolic_operands(value.element, into)


def _substituted(value: object, supply: Iterator[Value]) -> object:
    """``value`` with each symbolic value in it (as ``_symbolic_operands`` lists them) replaced by
    the next of ``supply``."""
    kind = type(value)
    if kind is Symbolic:
        return next(supply)
    if kind is list or kind is tuple:
        items = [_substituted(v, supply) if type(v) in _SUBSTITUTED else v for v in value]
        return items if kind is list else tuple(items)
    if kind is dict:
        return {k: _substituted(v, supply) if type(v) in _SUBSTITUTED else v for k, v in value.items()}
    if kind is Items:
        return Items(tuple([_substituted(v, supply) for v in value.items]), value.is_tuple)
    if kind is Bound:
        return Bound(_substituted(value.receiver, supply), value.method)
    if kind is Elements:
        return Elements(_substituted(value.element, supply))
    return value


_SUBSTITUTED = _CONTAINERS | frozenset({Symbolic})  # what evaluating an operation substitutes in: the rest is as it is



def join(values: Iterable[Value]) -> Value:
    """The value after control flow merges (``values.join``), symbolic when one of them is."""
    values = list(values)
    first = values[0] if values else None
    if (type(first) is Items and any(is_symbolic(v) for v in values)
            and all(type(v) is Items and (v.is_tuple, len(v.items)) == (first.is_tuple, len(first.items))
                    for v in values)):  # fmt: skip
        # Tuples of symbolic values (the carries a loop's body gets on each trace): item by item.
        return Items(tuple(join([v.items[i] for v in values]) for i in range(len(first.items))), first.is_tuple)
    if any(type(v) is Symbolic for v in values):
        if all(v == first for v in values[1:]):
            return first
        return apply("join", _join_all, values)
    return join_exact(values)


def _join_all(*values: Value) -> Value:
    return join_exact(values)


def join_going_on(values: Iterable[Value]) -> Value:
    """``join`` of what the program goes on with after branches: a value that raised (a refusal,
    at each assignment of the variables) is left out, unless every one raised.  A merge keeps
    what the branches that did not raise leave; their join with a refusal would be unknown."""
    values = list(values)
    if any(type(v) is Symbolic for v in values):
        if all(v == values[0] for v in values[1:]):
            return values[0]
        return apply("join_going_on", _join_going_on, values)
    return _join_going_on(*values)


def _join_going_on(*values: Value) -> Value:
    going_on = [v for v in values if type(v) is not Refusal]
    return join(going_on if going_on else values)

