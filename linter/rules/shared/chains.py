"""Chains whose result depends on how they are parenthesized: what PRM002 and PRM003 share."""

from __future__ import annotations

import functools

from promolint.engine.model import OperationKind, binary
from promolint.engine.values import Array, Library, Value
from promolint.rules.base import Fix, Rule, exact

_ASSOCIATIVE = {"+", "*", "&", "|", "^"}
_MAX_LEAVES = 6


@functools.lru_cache(maxsize=256)  # PRM002 and PRM003 ask for the same chains
def bracketings(op: str, leaves: tuple[Value, ...], texts: tuple[str, ...], ctx) -> tuple[tuple[str, Value], ...]:
    """Every way to parenthesize ``leaves`` with ``op``, with the value each gives."""

    @functools.cache
    def build(lo: int, hi: int) -> tuple[tuple[str, Value], ...]:
        if hi - lo == 1:
            return ((texts[lo], leaves[lo]),)
        out = []
        for split in range(lo + 1, hi):
            for left_text, left in build(lo, split):
                for right_text, right in build(split, hi):
                    text = f"({left_text} {op} {right_text})"
                    out.append((text, binary(op, left, right, ctx)))
        return tuple(out)

    return tuple((text[1:-1], value) for text, value in build(0, len(leaves)))


class ChainRule(Rule, abstract=True):
    """A rule over left-associated chains of one operator; ``cause`` ends its message."""

    cause: str

    def applies(self, libraries: set[Library]) -> bool:
        raise NotImplementedError

    def check(self, operation):
        if operation.kind != OperationKind.BINOP or operation.op not in _ASSOCIATIVE or len(operation.chain) < 3:
            return
        leaves = operation.chain
        if len(leaves) > _MAX_LEAVES or not all(exact(v) for v in leaves) or not exact(operation.result):
            return
        if all(v == leaves[0] for v in leaves[1:]):  # one value throughout: every bracketing gives the same
            return
        if not self.applies({v.library for v in leaves if isinstance(v, Array)}):
            return
        written = operation.result
        others = [(t, v) for t, v in bracketings(operation.op, leaves, operation.chain_text, operation.ctx)
                  if isinstance(v, Array) and v.exact and (v.dtype, v.weak) != (written.dtype, written.weak)]  # fmt: skip
        if others:
            text, value = others[0]
            yield self.finding(operation, f"this chain gives {written.describe()} as written but `{text}` gives "
                               f"{value.describe()} ({operation.ctx.describe()}): {self.cause}",
                               self.fix(operation))  # fmt: skip

    def fix(self, operation) -> Fix | None:
        return None


def chain_nodes(operation) -> tuple[object, ...]:
    """The syntax of a chain's leaves, found as the front end built the chain: down the left
    operands while they are the same operator."""
    nodes = operation.syntax.operand_nodes(operation)
    inner = operation.syntax.operation_at(nodes[0]) if len(nodes) == 2 else None
    if inner is not None and inner.kind == OperationKind.BINOP and inner.op == operation.op:
        return chain_nodes(inner) + nodes[1:]
    return nodes
