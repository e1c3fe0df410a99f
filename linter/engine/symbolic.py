"""Values of unknown dtype as variables, and what the program computes from them.

A parameter nothing types (no annotation, no call site) is not a wall: it is a *variable* over a
domain of exact values (every numeric value there is, or every dtype of one library, or the
dtypes an annotation allows).  An operation on a variable does not guess: it becomes a
*symbolic* value, the same operation applied to whatever member the variable turns out to be,
evaluated on demand for each member (``at``) with the engine's exact semantics.  So
``x / np.sqrt(n)`` is float64 for every member under x64, ``x * 2`` keeps the dtype of every
numeric ``x`` but bool, and a rule fires only when its conclusion holds for every member.

Symbolic values are keyed by their structure (``key``), so that a loop's values settle and
equal expressions share their evaluations; evaluation of each operation at each member is
memoized for the analysis of one file.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace

from promolint.core.dtypes import DTYPES, is_64bit
from promolint.engine import outcomes as outcome_classes
from promolint.engine.context import Context
from promolint.engine.values import (
    UNKNOWN,
    Array,
    Bound,
    Elements,
    Items,
    Library,
    Refusal,
    Unknown,
    Value,
    join as join_exact,
)

# Assignments a claim "for every member" weighs at most: beyond, the value is symbolic but no
# claim is made about all of its members (a run-time check still evaluates it at one member).
MAX_ASSIGNMENTS = 512
_MEMO_LIMIT = 400_000
_PYTHON_KINDS = {"bool": "bool", "int64": "int", "float64": "float", "complex128": "complex"}


@dataclass(frozen=True, eq=False)
class Variable:
    """An unknown value: its name for messages, its identity, and the exact values it may be.
    Equal by name and identity (not domain); hashed once, as every evaluation looks it up."""

    name: str
    key: object  # what identifies it: a function's def line and parameter name
    domain: tuple[Array, ...] = field(repr=False)
    # Annotated with a Python scalar type (`x: float`), or given a Python number as default
    # (`y=0.0`): the domain admits arrays too (tracers under jit), but the author said what is
    # meant, which rules that guess may take at its word.
    scalar_annotated: bool = False

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
                 "_evaluated", "_number", "_outcomes", "_operands", "classes")

    def __init__(self, name: str, function: Callable | None, arguments: tuple):
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
        object.__setattr__(self, "_outcomes", _ITSELF)
        object.__setattr__(self, "_operands", None)
        object.__setattr__(self, "classes", None)  # outcomes.representatives' memo: (limit, found)

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
            ordered = tuple(sorted(self.variables, key=_order))
            # One tuple for the same variables (the very objects): ``at`` looks up their members
            # in an assignment once for every value over them.
            ordered = _ORDERINGS.setdefault(tuple(map(id, ordered)), ordered)
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
        ordered = self._ordered or self.ordered
        global _assigned, _assigned_codes
        if assignment is not _assigned:  # a walk down the values evaluates them all at one assignment
            _assigned, _assigned_codes = assignment, {}
        found = _assigned_codes.get(id(ordered))
        if found is None or found[0] is not ordered:  # (held, so that no other tuple takes its id)
            codes = _CODES
            found = _assigned_codes[id(ordered)] = (
                ordered, tuple([codes.get(id(m)) or _code(m) for m in [assignment[v] for v in ordered]]))
        memo_key = (self._number or self._numbered(), found[1])
        value = _MEMO.get(memo_key)
        if value is None:
            if len(_MEMO) > _MEMO_LIMIT:
                _MEMO.clear()
            value = _MEMO[memo_key] = self._evaluate(assignment)
        return value

    def _numbered(self) -> int:
        """This value's number in the memo, shared by the values equal to it."""
        number = _NUMBERS.get(self)
        if number is None:
            number = _NUMBERS[self] = next(_NUMBER)  # never reused: a value kept from an analysis before keeps its own
        object.__setattr__(self, "_number", number)
        return number

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

    def _evaluate(self, assignment: Mapping[Variable, Value]) -> Value:
        """The operation applied to its operands at ``assignment``.  Many assignments give the
        operands the same values (``range(len(x))``: ``len(x)`` is a Python int for every
        member): the operation runs once per distinct operands, told apart by the identity of
        their values, which are canonical (``_canonical``): the arguments are built only for
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
        value = _canonical(_raised(self.name, arguments) or self.function(*arguments))
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

    def outcomes(self, limit: int = MAX_ASSIGNMENTS) -> list[tuple[dict[Variable, Value], Value]] | None:
        """The value at every assignment, or None when there are too many to weigh.  Too many
        assignments are first cut down by folding (``jnp.asarray(x, jnp.float32) +
        jnp.asarray(y, jnp.int32)`` weighs no member of x or y), then by leaving unknown the
        variables the value does not need (``_without_unneeded``); an assignment then names
        only the variables still weighed.  Else one assignment per distinct value, the operands
        that share no variable weighed apart (``outcomes.representatives``).  Memoized for the
        usual limit: reveal and rules ask again and again."""
        if limit == MAX_ASSIGNMENTS and self._outcomes is not _ITSELF:
            return self._outcomes
        assignments = self.assignments(limit)
        if assignments is not None:
            found = [(a, self.at(a)) for a in assignments]
        else:
            folded = self.folded()
            if type(folded) is not Symbolic:
                found = [({}, folded)]
            else:
                assignments = folded.assignments(limit)
                found = [(a, folded.at(a)) for a in assignments] if assignments is not None \
                    else _without_unneeded(folded, limit) or outcome_classes.outcomes(folded, limit)  # fmt: skip
        if limit == MAX_ASSIGNMENTS:
            object.__setattr__(self, "_outcomes", found)
        return found

    def folded(self) -> Value:
        """This value with each operand that has one value at every member of its variables
        (where the program goes on) replaced by that value; itself when none has."""
        folded = self._folded
        if folded is None:
            folded = self
            if self.function is not None:
                arguments = tuple(_fold(a) for a in self.arguments)
                if any(new is not old for new, old in zip(arguments, self.arguments)):
                    if any(is_symbolic(a) for a in arguments):
                        folded = _settled(Symbolic(self.name, self.function, arguments))
                    else:
                        folded = _raised(self.name, arguments) or self.function(*arguments)
            object.__setattr__(self, "_folded", _ITSELF if folded is self else folded)
        return self if folded is _ITSELF else folded

    def describe(self) -> str:
        names = ", ".join(f"`{v.name}`" for v in sorted(self.variables, key=_order))
        return f"depends on the dtype of {names}"


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
            outcomes = []
            for members in itertools.product(*(v.domain for v in needed)):
                assignment = _Partial(zip(needed, members))
                outcome = value.at(assignment)
                if not (isinstance(outcome, Refusal) or isinstance(outcome, Array) and outcome.dtypes):
                    break
                outcomes.append((assignment, outcome))
            else:
                return outcomes
    return None


_MOST_NEEDED = 2  # variables a value with too many assignments to weigh is tried with
# Variables beyond which no one or two are tried: a value computed from a hundred parameters
# (the callers' values a loop's state joins) is not known at one of them, and trying each costs
# a hundred evaluations of its whole tree (quadax's adaptive loops: 13x the analysis).
_MOST_TRIED = 12


# Evaluations by the number of the value (equal values share one) and the code of each member.
_MEMO: dict[tuple, Value] = {}
_NUMBERS: dict[Symbolic, int] = {}
_NUMBER = itertools.count(1)
# Members by code: equal members share one, as equal values share their evaluations; a member is
# coded once by identity (kept alive here while coded, so that no other object takes its id).
_CODES: dict[int, int] = {}
_CODED: dict[Value, int] = {}
_KEPT: list[Value] = []
# The variables of values, one tuple per set of them (``Symbolic.ordered``), by their identities.
_ORDERINGS: dict[tuple[int, ...], tuple[Variable, ...]] = {}
# The assignment ``at`` was given last (held: compared by identity), and the codes of its members
# by the tuple of variables they are assigned to (with that tuple, held too).
_assigned: object = None
_assigned_codes: dict[int, tuple[tuple[Variable, ...], tuple[int, ...]]] = {}
# What a value's memoized ``folded`` or settled value is when it is the value itself: a
# reference to itself would make every such value a cycle for the collector to find.
_ITSELF = object()


def forget() -> None:
    """Drop the evaluations of the analysis before: another file's values are rarely asked
    again, and a worker's memory would grow with the files it lints."""
    _MEMO.clear()
    _CANONICAL.clear()
    _NUMBERS.clear()
    _CODES.clear()
    _CODED.clear()
    _KEPT.clear()
    _ORDERINGS.clear()
    global _assigned, _assigned_codes
    _assigned, _assigned_codes = None, {}


def _code(member: Value) -> int:
    """``member``'s code in memo keys: equal members (``==``) have one."""
    code = _CODED.get(member)
    if code is None:
        code = _CODED[member] = next(_NUMBER)
    _CODES[id(member)] = code
    _KEPT.append(member)
    return code


def _order(variable: Variable) -> str:
    return repr(variable.key)


def variable(name: str, key: object, domain: Sequence[Array], scalar_annotated: bool = False) -> Symbolic:
    """The value of an unknown: a variable over ``domain``."""
    return Symbolic("var", None, (Variable(name, key, tuple(domain), scalar_annotated),))


def attribute_variable(owner: object, name: str, ctx: Context, library: Library | None = None) -> Symbolic:
    """``x.name`` where ``x`` is the variable keyed ``owner`` and ``name`` no attribute of a
    number, or the parameter ``owner`` holds an object of one of the program's classes whose
    field ``name`` nothing else types: ``x`` holds an object (optax's ``state``, mctx's
    ``tree``), and what it holds there is a variable of its own, over every numeric value (or
    every dtype of ``library``), named ``x.name`` (its key: ``x``'s, the name extended)."""
    key = extended_key(owner, f".{name}")
    libraries = NUMERIC if library is None else (library,)
    return variable(key[-1], key, domain(libraries, ctx))


def extended_key(owner: object, suffix: str) -> tuple:
    """The key of what ``owner``'s variable holds at ``suffix`` (``.name``, ``[1]``): its key
    with the name extended, so that variables of the same parameter are told apart."""
    *where, last = owner if isinstance(owner, tuple) else (owner,)
    return (*where, f"{last}{suffix}")


def is_attribute_of(key: object, owner: object) -> bool:
    """Whether the variable keyed ``key`` is an attribute of the one keyed ``owner``
    (``attribute_variable``), or of one of its attributes."""
    prefix = extended_key(owner, ".")
    return (isinstance(key, tuple) and len(key) == len(prefix) and key[:-1] == prefix[:-1]
            and str(key[-1]).startswith(prefix[-1]))


# --- domains ---------------------------------------------------------------------------------
@functools.cache
def domain(libraries: tuple[Library, ...], ctx: Context, dtypes: frozenset[str] | None = None) -> tuple[Array, ...]:
    """Every exact value of ``libraries`` (with ``dtypes`` only, when given), in the modes
    ``ctx``: JAX has no 64-bit arrays with x64 off, and its weak values have the default width."""
    names = sorted(dtypes if dtypes is not None else DTYPES)
    by_library: list[list[Array]] = []
    for library in libraries:
        members: list[Array] = []
        if library is Library.PYTHON:
            members += [Array(frozenset([d]), library, d != "bool") for d in names if d in _PYTHON_KINDS]
        elif library is Library.JAX:
            for d in names:
                if is_64bit(d) and not ctx.x64:
                    continue
                members.append(Array(frozenset([d]), library, False))
                if DTYPES[d].kind in "ifc" and d == ctx.jax.default_dtype(DTYPES[d].kind):
                    members.append(Array(frozenset([d]), library, True))
        else:
            members += [Array(frozenset([d]), library, False, ndim=0 if library is Library.NUMPY_SCALAR else None)
                        for d in names]  # fmt: skip
        by_library.append(members)
    # Libraries taken in turn: a value that differs between members shows it within the first
    # few, where the questions "is it the same at every member?" stop.
    return tuple(m for turn in itertools.zip_longest(*by_library) for m in turn if m is not None)


NUMERIC = (Library.PYTHON, Library.NUMPY_SCALAR, Library.NUMPY_ARRAY, Library.JAX)
# What a Python scalar annotation admits (PEP 484's numeric tower: an int is a float), by kind;
# callers pass NumPy scalars and JAX arrays (tracers, under jit) of those kinds as well.
_TOWER = {"b": "b", "i": "biu", "f": "biuf", "c": "biufc"}


def annotated_domain(annotated: Array, ctx: Context) -> tuple[Array, ...] | None:
    """The members a parameter annotated as ``annotated`` says may come: an annotation of a
    Python scalar type (``x: float``) any numeric value of its kind and below, of any library;
    one of several dtypes of a library (jaxtyping's ``Float[Array, "n"]``) those dtypes of
    that library.  None when the annotation is exact already."""
    if annotated.library is Library.PYTHON and len(annotated.dtypes) == 1 and annotated.literal is None:
        kinds = _TOWER[DTYPES[next(iter(annotated.dtypes))].kind]
        return domain(NUMERIC, ctx, frozenset(d for d in DTYPES if DTYPES[d].kind in kinds))
    if len(annotated.dtypes) > 1:
        return domain((annotated.library,), ctx, annotated.dtypes)
    return None


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


def _raised(name: str, arguments: tuple) -> Refusal | None:
    """An operand (or a call's argument) that raised: the program stops there, so what follows
    is that exception.  A join merges branches, one of which may have raised, and decides."""
    if name == "join":
        return None
    for argument in arguments:
        kind = type(argument)
        if kind is Refusal:
            return replace(argument, provenance=_RAISED_BEFORE)
        if kind is list or kind is tuple or kind is dict:
            for item in argument.values() if kind is dict else argument:
                if type(item) is Refusal:
                    return replace(item, provenance=_RAISED_BEFORE)
    return None


# The provenance of an exception an operand raised, passed on by the operations after it: rules
# report it where it is raised, not at each of those.
_RAISED_BEFORE = "raised by an operand"


def raised_in(arguments: Sequence[object]) -> Refusal | None:
    """The exception one of a call's ``arguments`` (or the callee) raised, passed on: Python
    evaluates them before it calls anything, so the call never happens."""
    return _raised("call", tuple(arguments))


def _fold(value: object) -> object:
    """An operand folded (``Symbolic.folded``), containers item by item; unchanged values are
    returned as they are (the caller tells a change by identity)."""
    kind = type(value)
    if kind is Symbolic:
        exact = _settled(value)
        return exact if exact is not value else value.folded()
    if kind in (list, tuple):
        items = [_fold(v) for v in value]
        return kind(items) if any(new is not old for new, old in zip(items, value)) else value
    if kind is dict:
        items = {k: _fold(v) for k, v in value.items()}
        return items if any(items[k] is not value[k] for k in value) else value
    if kind is Items:
        items = tuple(_fold(v) for v in value.items)
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
    if value.assignments() is not None:
        return value
    found = value.outcomes()
    if not found:
        return value
    outcomes = [outcome for _, outcome in found]
    if all(isinstance(outcome, Refusal) for outcome in outcomes):
        return outcomes[0]
    return _alike(value, outcomes)


def _alike(value: Symbolic, outcomes: Iterable[Value]) -> Value:
    """The array the ``outcomes`` where the program goes on all are (one dtype, weak flag and
    library; their ranks joined); ``value`` where one is no known array or two differ.  Stops
    at the first that tells so."""
    alive: list[Array] = []
    for outcome in outcomes:
        if isinstance(outcome, Refusal):
            continue
        if not (isinstance(outcome, Array) and outcome.dtypes):
            return value
        if alive and (outcome.dtypes, outcome.weak, outcome.library) != (alive[0].dtypes, alive[0].weak, alive[0].library):
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
        object.__setattr__(value, "_settled", _ITSELF if exact is value else exact)
    return value if exact is _ITSELF else exact


def _settle(value: Symbolic) -> Value:
    known = value.at(_EVERY_VARIABLE_UNKNOWN)  # one evaluation: what holds whatever they are
    if isinstance(known, Array) and known.dtypes:
        return known
    exact = summary(value)
    if exact is not value:
        return exact
    assignments = value.assignments()
    if assignments is None:  # too many to weigh: those of the operands that matter, if fewer
        folded = value.folded()
        return value if type(folded) is Symbolic else folded
    return _alike(value, (value.at(assignment) for assignment in assignments))


def _key(value: object) -> object:
    kind = type(value)
    if kind is list:
        return ("list", *(_key(v) for v in value))
    if kind is dict:
        return ("dict", *sorted((k, _key(v)) for k, v in value.items()))
    if kind is tuple:
        return ("tuple", *(_key(v) for v in value))
    return value


def _substitute(value: object, assignment: Mapping[Variable, Value]) -> object:
    kind = type(value)
    if kind is Symbolic:
        return value.at(assignment)
    if kind is Items:
        return Items(tuple(_substitute(v, assignment) for v in value.items), value.is_tuple)
    if kind is Bound:
        return Bound(_substitute(value.receiver, assignment), value.method)
    if kind is Elements:
        return Elements(_substitute(value.element, assignment))
    if kind is list:
        return [_substitute(v, assignment) for v in value]
    if kind is tuple:
        return tuple(_substitute(v, assignment) for v in value)
    if kind is dict:
        return {k: _substitute(v, assignment) for k, v in value.items()}
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


_SUBSTITUTED = _CONTAINERS | {Symbolic}  # what evaluating an operation substitutes in: the rest is as it is


# --- canonical values: one object per value, so that identity tells values apart -------------
_CANONICAL: dict[object, Value] = {}
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _canonical(value: Value) -> Value:
    """The one object of the analysis equal to ``value`` in every respect (``==`` ignores
    provenance and sources, and takes ``True`` for ``1``): equal operands are then the same
    object, and the operations applied to them run once (``Symbolic._evaluate``)."""
    key = _whole(value)
    found = _CANONICAL.get(key)
    if found is None:
        if len(_CANONICAL) > _MEMO_LIMIT:
            _CANONICAL.clear()
        found = _CANONICAL[key] = value  # holds what the key's identities name
    return found


def _whole(value: object) -> object:
    """A key that tells ``value`` from every value that differs from it in any field."""
    kind = type(value)
    if kind is Array:
        literal = value.literal
        if type(literal) is float or type(literal) is complex:
            literal = repr(literal)  # -0.0 == 0.0, and nan is not equal to itself
        return (kind, value.dtypes, id(value.library), value.weak, type(value.literal), literal, value.intended64,
                value.ndim, value.provenance, value.source)  # fmt: skip
    if kind is str or kind is int or kind is bool or value is None:
        return (kind, value)
    if kind is Unknown:
        return (kind, id(value))  # code asks whether a value is UNKNOWN itself
    if kind is tuple or kind is list:
        return (kind, *[_whole(item) for item in value])
    if isinstance(value, Value):
        names = _FIELD_NAMES.get(kind)
        if names is None:
            names = _FIELD_NAMES[kind] = tuple(f.name for f in fields(value))
        return (kind, *[_whole(getattr(value, name)) for name in names])
    return (kind, id(value))  # anything else: itself (kept alive by the value that holds it)


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


class _EveryVariableUnknown(dict):
    """The assignment that makes every variable unknown."""

    def __missing__(self, key: Variable) -> Value:
        return UNKNOWN

    def get(self, key: Variable, default: object = None) -> Value:
        return UNKNOWN


_EVERY_VARIABLE_UNKNOWN = _EveryVariableUnknown()


class _Partial(dict):
    """An assignment of some variables: the others are unknown."""

    def __missing__(self, key: Variable) -> Value:
        return UNKNOWN


def passed_on(value: object) -> bool:
    """Whether ``value`` is an exception an operand raised, passed on by an operation that
    never runs: rules report it where it was raised."""
    return isinstance(value, Refusal) and value.provenance == _RAISED_BEFORE


def lowered(value: object) -> object:
    """``value`` computed with every variable unknown (one evaluation): what an operation on
    variables is as rules read it, which conclude only from what holds whatever the variables
    are (a dtype the code asks for, a literal that cannot fit)."""
    return _substitute(value, _EVERY_VARIABLE_UNKNOWN) if is_symbolic(value) else value


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
    first = refused = None
    for assignment in assignments:
        outcome = value.at(assignment)
        if isinstance(outcome, Refusal):
            refused = refused or outcome
        elif outcome is UNKNOWN:
            return value
        elif first is None:
            first = outcome
        elif outcome != first:
            return value
    return first if first is not None else refused if refused is not None else value


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
    that value (``Symbolic.folded``), so that only the variables that matter are weighed (and
    the members where such an operand raises are no longer told apart)."""
    operands = tuple(operands)
    variables, count = _variables_of(operands, result)
    if count > limit:
        operands = tuple(_fold(o) for o in operands)
        result = result.folded() if type(result) is Symbolic else result
        variables, count = _variables_of(operands, result)
    if not variables:  # folded to one value: the same at every member
        return None if type(result) is Symbolic else [(operands, result)]
    if count > limit:
        return None
    return [_instance(operands, result, dict(zip(variables, members)))
            for members in itertools.product(*(v.domain for v in variables))]  # fmt: skip


def _variables_of(operands: tuple[object, ...], result: Value) -> tuple[list[Variable], int]:
    """The variables of an operation, in order, and the number of their assignments."""
    found: set[Variable] = set()
    _collect(result, found)
    _collect(operands, found)
    count = 1
    for var in found:
        count *= len(var.domain)
    return sorted(found, key=_order), count


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


def with_arrays_of(value: Value, variables: Iterable[Variable] | None, dtype: str) -> Value:
    """``value`` where ``variables`` (None: all it depends on) hold strong JAX arrays of
    ``dtype`` (each the member of its domain that is one) and every other variable is unknown:
    what an operation gives arrays of that dtype, whatever the rest is."""
    array = Array(frozenset([dtype]), Library.JAX, False)
    if variables is None:
        variables = variables_in(value)
    return _substitute(value, _Partial((var, _member_like(var, array) or UNKNOWN) for var in variables))


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
    return tuple(_substitute(o, assignment) for o in operands), _substitute(result, assignment)


def kept_dtype(value: Value) -> tuple[Variable, bool | None, Library | None] | None:
    """The variable whose dtype ``value`` has at every member where the program goes on, with
    the weak flag and library ``value`` has there: None for each that is the variable's own
    (``x * 2`` for a float ``x``: both; ``np.asarray(x)``: strong NumPy arrays; a Python float
    member's dtype is float64, as NumPy makes it)."""
    if type(value) is not Symbolic:
        return None
    outcomes = value.outcomes()
    assigned = set(outcomes[0][0]) if outcomes else ()  # every assignment names the same variables
    if len(assigned) != 1:  # the variables the value needs (folded, or left unknown), not all it reads
        return None
    (var,) = assigned
    alive = [(a[var], v) for a, v in outcomes if not isinstance(v, Refusal)]
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
