"""A promotion lattice built from a DAG of edges, as JAX's ``dtypes.py`` does.

Each node maps to the nodes immediately above it.  The join of a set of nodes is computed from
upper-bound sets: the common upper bounds, then the one among them below all the others.
A failed join is a value (``NoJoin``), never an exception, so callers can report it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Generic, TypeVar, cast
from dataclasses import dataclass, field


@dataclass(frozen=True)
class NoJoin:
    """Why a set of nodes has no join: no common upper bound, or no least one."""

    nodes: tuple[str, ...]
    candidates: frozenset[str] = frozenset()  # the minimal common upper bounds when ambiguous

    @property
    def ambiguous(self) -> bool:
        return bool(self.candidates)

    def __str__(self) -> str:
        joined = " ∨ ".join(self.nodes)
        if self.ambiguous:
            return f"{joined} has no least upper bound (candidates: {', '.join(sorted(self.candidates))})"
        return f"{joined} has no common upper bound"


class CycleError(ValueError):
    pass


class Lattice:
    """A partial order given by ``edges`` (node → nodes immediately above it)."""

    def __init__(self, edges: Mapping[str, Iterable[str]]):
        self.edges: dict[str, tuple[str, ...]] = {n: tuple(up) for n, up in edges.items()}
        for up in list(self.edges.values()):
            for node in up:
                self.edges.setdefault(node, ())
        self.upper_bounds: dict[str, frozenset[str]] = self._close()

    def _close(self) -> dict[str, frozenset[str]]:
        bounds: dict[str, frozenset[str]] = {}
        visiting: set[str] = set()

        def visit(node: str) -> frozenset[str]:
            if node in bounds:
                return bounds[node]
            if node in visiting:
                raise CycleError(f"cycle in the promotion graph through {node!r}")
            visiting.add(node)
            above = frozenset({node}).union(*(visit(up) for up in self.edges[node]))
            visiting.discard(node)
            bounds[node] = above
            return above

        for node in self.edges:
            visit(node)
        return bounds

    @property
    def nodes(self) -> tuple[str, ...]:
        return tuple(self.edges)

    def leq(self, a: str, b: str) -> bool:
        return b in self.upper_bounds[a]

    def join(self, *nodes: str) -> str | NoJoin:
        distinct = set(nodes)
        common = frozenset.intersection(*(self.upper_bounds[n] for n in distinct))
        least = (common & distinct) or {c for c in common if common <= self.upper_bounds[c]}
        if len(least) == 1:
            return next(iter(least))
        minimal = frozenset(c for c in common if not any(d != c and self.leq(d, c) for d in common))
        return NoJoin(tuple(nodes), minimal)

    def path(self, low: str, high: str) -> list[str]:
        """A shortest chain of edges from ``low`` up to ``high`` (empty if ``high`` is not above)."""
        frontier: list[list[str]] = [[low]]
        seen = {low}
        while frontier:
            chain = frontier.pop(0)
            if chain[-1] == high:
                return chain
            for up in self.edges[chain[-1]]:
                if up not in seen:
                    seen.add(up)
                    frontier.append(chain + [up])
        return []

    def explain(self, *nodes: str) -> str:
        """How the join of ``nodes`` is reached, one upward path per input."""
        result = self.join(*nodes)
        if isinstance(result, NoJoin):
            return str(result)
        paths = [" → ".join(self.path(n, result)) for n in dict.fromkeys(nodes)]
        return f"{' ∨ '.join(nodes)} = {result}: " + "; ".join(paths)


Node = TypeVar("Node", bound=Hashable)


@dataclass
class OperationReport(Generic[Node]):
    """Where a binary operation fails to behave as a lattice join."""

    no_result: list[tuple[Node, Node]] = field(default_factory=list)
    ambiguous: list[tuple[Node, Node, frozenset]] = field(default_factory=list)
    not_commutative: list[tuple[Node, Node, object, object]] = field(default_factory=list)
    not_associative: list[tuple[Node, Node, Node, object, object]] = field(default_factory=list)
    not_idempotent: list[tuple[Node, object]] = field(default_factory=list)

    @property
    def is_lattice(self) -> bool:
        return not (
            self.no_result or self.ambiguous or self.not_commutative or self.not_associative or self.not_idempotent
        )


def check_operation(
    nodes: Sequence[Node],
    op: Callable[[Node, Node], object],
    *,
    is_failure: Callable[[object], bool] = lambda r: r is None or isinstance(r, NoJoin),
) -> OperationReport[Node]:
    """Check a binary operation (a lattice's join, a printed table, NumPy's promotion) for the
    properties of a join: defined, unique, commutative, associative, idempotent.

    Every failing pair or triple is listed; a triple counts as non-associative only when both
    groupings are defined and differ, or exactly one of them fails.
    """
    report: OperationReport[Node] = OperationReport()
    table = {(a, b): op(a, b) for a in nodes for b in nodes}
    for a in nodes:
        if table[a, a] != a:
            report.not_idempotent.append((a, table[a, a]))
    for a, b in itertools.combinations(nodes, 2):
        ab, ba = table[a, b], table[b, a]
        if isinstance(ab, NoJoin) and ab.ambiguous:
            report.ambiguous.append((a, b, ab.candidates))
        elif is_failure(ab):
            report.no_result.append((a, b))
        if ab != ba and not (is_failure(ab) and is_failure(ba)):
            report.not_commutative.append((a, b, ab, ba))

    def apply(x: object, y: object) -> object:
        if is_failure(x) or is_failure(y):
            return None
        pair = cast(tuple[Node, Node], (x, y))  # a result that is no failure is a node
        return table[pair] if pair in table else op(*pair)

    for a, b, c in itertools.product(nodes, repeat=3):
        left, right = apply(table[a, b], c), apply(a, table[b, c])
        if is_failure(left) and is_failure(right):
            continue
        if left != right:
            report.not_associative.append((a, b, c, left, right))
    return report
