"""What one analysis of a file produces, for reveal and for the rules (which read it through
``promolint.engine.model``): front-end neutral."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

from promolint.engine.catalog import Fn
from promolint.engine.context import Context
from promolint.engine.values import Array, DTypeRef, Items, Value


@dataclass
class Call:
    """A call bound to its catalog entry: what rules read (``dtype=`` requests, operands)."""

    name: str
    fn: Fn
    bound: dict[str, Value] = field(default_factory=dict)
    ctx: Context = field(default_factory=Context)

    @property
    def short(self) -> str:
        """The function's own name: ``power`` for ``numpy.power``, ``sum`` for a method."""
        return self.name.rsplit(".", 1)[-1]

    def first(self) -> Value | None:
        """The first parameter's value: the array a reduction or a method works on."""
        return self.bound.get(self.fn.params[0]) if self.fn.params else None

    def array_arguments(self) -> list[Value]:
        """The values bound to the function's array parameters (a sequence's items one by one)."""
        out: list[Value] = []
        for param in self.fn.arrays:
            value = self.bound.get(param)
            out += value.items if isinstance(value, Items) else (value,)
        return out

    def arrays(self) -> list[Array]:
        return [v for v in self.array_arguments() if isinstance(v, Array)]

    def requested_dtype(self) -> DTypeRef | None:
        for param in ("dtype", "new_dtype", "preferred_element_type"):
            value = self.bound.get(param)
            if isinstance(value, DTypeRef):
                return value
        return None


class OperationKind(str, Enum):
    """What an operation is, as the front ends record it.  A ``str`` enum (``enum.StrEnum`` from
    Python 3.11): every member equals, hashes and prints as its value, the string the engine and
    the mypy plugin have always recorded."""

    BINOP = "binop"  # an arithmetic or bitwise operator
    COMPARE = "compare"  # a comparison operator
    UNARY = "unary"  # -x, +x, ~x, not x
    CALL = "call"  # a catalogued function or method
    AUGASSIGN = "augassign"  # x += y
    STORE = "store"  # x[i] = y: its operands the element assigned to and the value
    CONTROL = "control"  # a lax loop or conditional given bodies (carry and branches checked)
    INVOKE = "invoke"  # a call of the program's own function, its operands the positional arguments

    __str__ = str.__str__
    __format__ = str.__format__


@dataclass(frozen=True)
class Span:
    line: int
    column: int  # 1-based, as linters print it
    end_line: int
    end_column: int


@dataclass
class Operation:
    """One evaluated operation: an operator, a comparison, a call, an augmented assignment or an
    item assignment (``store``: its operands the element assigned to and the value).

    ``chain`` holds the leaves of a left-associated chain of one operator (``a + b + c``) so
    rules can weigh other associations; ``node`` is the front end's handle on the syntax, and
    ``syntax`` (when the front end offers it) answers questions about it for fixes.
    """

    kind: OperationKind
    op: str  # '+', '<', a qualified function name or a method name
    operands: tuple[Value, ...]
    result: Value
    ctx: Context
    node: object
    text: str = ""
    call: Call | None = None
    chain: tuple[Value, ...] = ()
    chain_text: tuple[str, ...] = ()
    in_function: bool = False
    module: str = ""  # the program's other module whose code it is (a call evaluated again runs there too); "" here
    syntax: Syntax | None = field(default=None, repr=False, compare=False)
    # For a call of the program's own function (kind ``invoke``, its operands the positional
    # arguments): the call again with other positional arguments and modes, as the flow
    # evaluates it; what fixes that cast arguments check themselves with.
    evaluate: Callable[[Sequence[Value], Context], Evaluation] | None = field(default=None, repr=False,
                                                                              compare=False)  # fmt: skip
    # For an operation on variables (parameters of unknown dtype): its operands and result at
    # each member of them; where there are too many to weigh, at each dtype of ``uniform``
    # given to every array variable alike (None without it): what a rule that concludes "for
    # every member" reads, where ``operands`` and ``result`` hold what is true at all members.
    members: Callable[..., list[tuple[tuple[Value, ...], Value]] | None] | None = field(
        default=None, repr=False, compare=False)
    # The operands as computed, symbolic where they depend on variables (``operands`` holds what
    # is true at all members): which parameters an operand comes from.
    symbolic_operands: tuple[Value, ...] = field(default=(), repr=False, compare=False)
    # The result as computed, symbolic where it depends on variables (None: the operation depends
    # on none): what it gives where some hold arrays of one dtype (``symbolic.with_arrays_of``).
    symbolic_result: Value | None = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class Evaluation:
    """A call of the program's own function evaluated again (``Operation.evaluate``): its result,
    and every operation evaluated meanwhile, in its body and in the bodies it calls (calls of the
    program's functions as ``invoke`` operations), in order."""

    result: Value
    operations: tuple[Operation, ...]


class Syntax(Protocol):
    """What a front end tells rules about the syntax behind operations, so that they can build
    fixes without knowing the syntax tree: every node is the front end's opaque handle."""

    def operand_nodes(self, operation: Operation) -> tuple[object, ...]:
        """One node per operand, in order; () when the front end cannot say."""

    def argument_node(self, operation: Operation, param: str) -> object | None:
        """The syntax a call binds to ``param``; for a scalar type called (``jnp.float64(1)``),
        ``dtype`` is the type itself."""

    def operation_at(self, node: object) -> Operation | None:
        """The operation evaluated at ``node``: how an operand was computed."""

    def call_at(self, node: object) -> Operation | None:
        """The call of the program's own function made at ``node`` (kind ``invoke``)."""

    def value_at(self, node: object) -> Value | None:
        """The value the expression at ``node`` has, symbolic where it depends on variables;
        None where none is recorded."""

    def text(self, node: object) -> str:
        """The source code of ``node``."""

    def line(self, node: object) -> int:
        """The line ``node`` starts on, for messages that point from one place to another."""

    def function_of(self, node: object) -> object | None:
        """The innermost function (``def`` or ``lambda``) whose body holds ``node``; None at a
        module's or class's top level."""

    def functions_given(self, operation: Operation) -> tuple[object, ...]:
        """The functions a call is given as arguments: lambdas, the ``def`` a name refers to in
        the scope that holds the call, each of those in a list or tuple (``lax.switch``'s
        branches)."""

    def guards(self, node: object) -> tuple[tuple[object, bool | None], ...]:
        """What its function evaluates on the way to ``node``: each enclosing ``if``, ``while``
        or conditional expression's test with the branch ``node`` is in (True: the body), and
        (None: it must run for ``node`` to) each enclosing ``for`` loop's iterable and the value
        of each statement before it in its blocks; the test of each ``assert`` before it (True)
        and of each ``if`` before it that raises (False)."""

    def public(self, node: object) -> bool:
        """Whether ``node`` is in a function a module's users call: a ``def`` (or a function
        nested in one) at the module's top level or in a class there, no name on the way
        private (``_helper``, ``_Impl.run``); dunder methods are public."""

    def nested(self, place: object) -> bool:
        """Whether the function at ``place`` (what its parameters' variables are keyed by: a
        ``def``'s line, a lambda's line and column) is defined inside another function, which
        gives it its arguments: no user of the module calls it."""

    def assigns(self, node: object, target: str) -> bool:
        """Whether the function holding ``node`` assigns ``target`` (a name, or a field such as
        ``self.x``) somewhere in its body: what it holds there the function computes itself."""

    def reads_fields_of(self, node: object, parameter: str) -> bool:
        """Whether the expression ``node`` reads a field of its function's ``parameter`` (not a
        ``shape``, ``ndim``, ``size`` or ``dtype``), itself or through the names it reads that
        the function assigns."""


@dataclass
class Returned:
    """A value a function of the program returns (``node``: the returned expression) in its own
    analysis, with the values of its parameters there (``inputs``, by name)."""

    node: object
    value: Value
    inputs: tuple[tuple[str, Value], ...]
    ctx: Context


@dataclass(frozen=True)
class Carried:
    """A variable a loop carries from one pass to the next into an argument of a call: its name,
    and the front end's handle on where it was bound before the loop (None where unknown)."""

    name: str
    bound_at: object | None


@dataclass
class LoopCall:
    """A call of one of the program's jitted functions in the body of a loop: the arguments it
    gets on the loop's first pass (``first``) and on its second (``second``: from what the first
    pass left), as the trace sees them, by parameter (static ones left out).  JAX's trace cache
    is keyed by every leaf's dtype and weak type: where the two differ, the function traces and
    compiles again.  Pytrees are tuples, lists, dicts and NamedTuples (``Instance``, by field);
    an object JAX may not flatten so is unknown.  ``carried``: the parameters whose argument is
    a variable the loop changes, with that variable."""

    node: object  # the front end's handle on the call
    first: tuple[tuple[str, Value], ...]
    second: tuple[tuple[str, Value], ...]
    carried: tuple[tuple[str, Carried], ...]
    ctx: Context
    syntax: Syntax | None = field(default=None, repr=False, compare=False)


@dataclass
class Module:
    """What one analysis of a module hands the rules: its operations, the calls of its own
    functions (``invocations``: kind ``invoke``, which ``Operation.evaluate`` can run again with
    other arguments), what its functions return and the calls of its jitted functions in loops."""

    operations: Sequence[Operation]
    invocations: Sequence[Operation] = ()
    returns: Sequence[Returned] = ()
    uses_jax: bool = True  # the module imports JAX (or a library on it): its unknowns may be JAX arrays
    loop_calls: Sequence[LoopCall] = ()
    _evaluations: dict[int, Evaluation] = field(default_factory=dict, repr=False, compare=False)

    def evaluated(self, invocation: Operation) -> Evaluation:
        """A call of the module's own function evaluated again with its own arguments and modes
        (once, for every rule that asks)."""
        found = self._evaluations.get(id(invocation))
        if found is None:
            found = self._evaluations[id(invocation)] = invocation.evaluate(invocation.operands, invocation.ctx)
        return found


@dataclass
class Site:
    """An expression or an assignment target with its inferred value (for ``reveal``)."""

    node: object
    value: Value
    text: str
    target: bool = False


@dataclass(frozen=True)
class Seeds:
    """What a caller knows that the code of one module does not, handed to its analysis.

    ``parameters``: values for the parameters of functions, keyed by the line of their ``def``,
    which replace what the analysis would infer (annotation, call sites, default): the run-time
    shim's argument types of the call in progress.  ``declared``: the same from a type
    checker's declarations, used only where the annotation alone says nothing (an alias the
    module imports from elsewhere).  ``names``: values of other modules' names, by qualified
    name (``pkg.helpers.WEIGHTS``), for the module's imports.  ``module``: the module's own
    qualified name, against which relative imports resolve."""

    parameters: Mapping[int, Mapping[str, Value]] = field(default_factory=dict)
    declared: Mapping[int, Mapping[str, Value]] = field(default_factory=dict)
    names: Mapping[str, Value] = field(default_factory=dict)
    module: str = ""
