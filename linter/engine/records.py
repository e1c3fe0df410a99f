"""What one analysis of a file produces, for reveal and for the rules: front-end neutral."""

from __future__ import annotations

from dataclasses import dataclass

from linter.engine.calls import Call
from linter.engine.context import Context
from linter.engine.values import Value


@dataclass(frozen=True)
class Span:
    line: int
    column: int  # 1-based, as linters print it
    end_line: int
    end_column: int


@dataclass
class Operation:
    """One evaluated operation: an operator, a comparison, a call or an augmented assignment.

    ``chain`` holds the leaves of a left-associated chain of one operator (``a + b + c``) so
    rules can weigh other associations; ``node`` is the front end's handle on the syntax.
    """

    kind: str  # binop, compare, unary, call, augassign
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


@dataclass
class Site:
    """An expression or an assignment target with its inferred value (for ``reveal``)."""

    node: object
    value: Value
    text: str
    target: bool = False
