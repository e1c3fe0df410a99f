"""What one analysis of a file produces, for reveal and for the rules: front-end neutral."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
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

    def arrays(self) -> list[Array]:
        out: list[Array] = []
        for param in self.fn.arrays:
            value = self.bound.get(param)
            items = value.items if isinstance(value, Items) else (value,)
            out += [v for v in items if isinstance(v, Array)]
        return out

    def requested_dtype(self) -> DTypeRef | None:
        for param in ("dtype", "new_dtype", "preferred_element_type"):
            value = self.bound.get(param)
            if isinstance(value, DTypeRef):
                return value
        return None


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

    kind: str  # binop, compare, unary, call, augassign, store
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
    syntax: Syntax | None = field(default=None, repr=False, compare=False)


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

    def text(self, node: object) -> str:
        """The source code of ``node``."""


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
