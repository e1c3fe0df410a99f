"""The generic lattice on small hand-made DAGs, and its defining properties on random ones."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promolint.systems.lattice import CycleError, Lattice, NoJoin, check_operation

DIAMOND = Lattice({"bottom": ["left", "right"], "left": ["top"], "right": ["top"]})
# x and y have two minimal common upper bounds, p and q, so no least one.
BOWTIE = Lattice({"x": ["p", "q"], "y": ["p", "q"], "p": ["top"], "q": ["top"]})
TWO_CHAINS = Lattice({"a1": ["a2"], "b1": ["b2"]})


def test_targets_of_edges_become_nodes():
    assert set(DIAMOND.nodes) == {"bottom", "left", "right", "top"}
    assert DIAMOND.edges["top"] == ()


def test_order_is_reflexive_and_follows_edges_transitively():
    assert DIAMOND.leq("left", "left")
    assert DIAMOND.leq("bottom", "top")
    assert not DIAMOND.leq("top", "bottom")
    assert not DIAMOND.leq("left", "right")


@pytest.mark.parametrize(
    ("nodes", "joined"),
    [
        (("left", "right"), "top"),
        (("bottom", "left"), "left"),  # an input that bounds the others is the join
        (("left",), "left"),
        (("left", "left", "bottom"), "left"),
        (("bottom", "left", "right"), "top"),
    ],
)
def test_join_is_the_least_upper_bound(nodes, joined):
    assert DIAMOND.join(*nodes) == joined


def test_join_without_a_least_upper_bound_lists_the_candidates():
    result = BOWTIE.join("x", "y")
    assert result == NoJoin(("x", "y"), frozenset({"p", "q"}))
    assert result.ambiguous
    assert str(result) == "x ∨ y has no least upper bound (candidates: p, q)"


def test_join_without_any_upper_bound():
    result = TWO_CHAINS.join("a1", "b1")
    assert result == NoJoin(("a1", "b1"))
    assert not result.ambiguous
    assert str(result) == "a1 ∨ b1 has no common upper bound"


@pytest.mark.parametrize("edges", [{"a": ["b"], "b": ["c"], "c": ["a"]}, {"a": ["a"]}])
def test_cycles_are_rejected(edges):
    with pytest.raises(CycleError, match="cycle"):
        Lattice(edges)


def test_path_is_a_shortest_chain_of_edges():
    chain = Lattice({"a": ["b", "d"], "b": ["c"], "c": ["d"]})
    assert chain.path("a", "d") == ["a", "d"]
    assert chain.path("b", "d") == ["b", "c", "d"]
    assert chain.path("a", "a") == ["a"]
    assert chain.path("d", "a") == []


def test_explain_shows_one_path_per_input():
    assert DIAMOND.explain("left", "right") == "left ∨ right = top: left → top; right → top"
    assert DIAMOND.explain("bottom", "bottom") == "bottom ∨ bottom = bottom: bottom"
    assert BOWTIE.explain("x", "y") == str(BOWTIE.join("x", "y"))


def test_check_operation_accepts_a_lattice():
    assert check_operation(DIAMOND.nodes, DIAMOND.join).is_lattice


def test_check_operation_reports_ambiguous_and_missing_joins():
    report = check_operation(BOWTIE.nodes, BOWTIE.join)
    assert report.ambiguous == [("x", "y", frozenset({"p", "q"}))]
    assert report.no_result == []
    missing = check_operation(TWO_CHAINS.nodes, TWO_CHAINS.join).no_result
    assert {frozenset(pair) for pair in missing} == {frozenset({a, b}) for a in ("a1", "a2") for b in ("b1", "b2")}


def test_check_operation_reports_an_operation_that_is_no_join():
    left = check_operation([1, 2], lambda a, b: a)  # idempotent and associative, not commutative
    assert left.not_commutative == [(1, 2, 1, 2)]
    assert (left.not_idempotent, left.not_associative) == ([], [])

    table = {(0, 2): 1, (2, 0): 1}  # max, except 0 ∘ 2 = 1: (0∘2)∘2 = 2 but 0∘(2∘2) = 1
    odd = check_operation([0, 1, 2], lambda a, b: table.get((a, b), max(a, b)))
    assert (0, 2, 2, 2, 1) in odd.not_associative

    assert check_operation([0, 1], lambda a, b: a + b).not_idempotent == [(1, 2)]


def test_check_operation_counts_a_grouping_that_fails_alone_as_not_associative():
    # 0 ∘ 1 is undefined, so (0∘1)∘2 fails while 0∘(1∘2) = 0∘2 = 2, and the mirror images.
    op = lambda a, b: None if {a, b} == {0, 1} else max(a, b)  # noqa: E731
    assert set(check_operation([0, 1, 2], op).not_associative) == {
        (0, 1, 2, None, 2), (1, 0, 2, None, 2), (2, 0, 1, 2, None), (2, 1, 0, 2, None)
    }  # fmt: skip


# --- random DAGs: edges only go from a lower to a higher number, so there is no cycle -----------
@st.composite
def dags(draw) -> Lattice:
    size = draw(st.integers(1, 7))
    edges = {str(low): [str(high) for high in range(low + 1, size) if draw(st.booleans())] for low in range(size)}
    return Lattice(edges)


@settings(deadline=None)  # a loaded CI machine must not turn slowness into failure
@given(dags(), st.data())
def test_join_of_a_random_dag_is_its_least_common_upper_bound(lattice, data):
    nodes = data.draw(st.lists(st.sampled_from(lattice.nodes), min_size=1, max_size=4))
    common = frozenset.intersection(*(lattice.upper_bounds[n] for n in nodes))
    least = [c for c in common if all(lattice.leq(c, bound) for bound in common)]
    result = lattice.join(*nodes)
    if least:
        assert [result] == least
    else:
        assert isinstance(result, NoJoin)
        assert result.ambiguous == bool(common)


@settings(deadline=None)
@given(dags(), st.data())
def test_paths_of_a_random_dag_exist_exactly_above(lattice, data):
    low, high = data.draw(st.sampled_from(lattice.nodes)), data.draw(st.sampled_from(lattice.nodes))
    chain = lattice.path(low, high)
    assert bool(chain) == lattice.leq(low, high)
    assert all(up in lattice.edges[down] for down, up in zip(chain, chain[1:]))
