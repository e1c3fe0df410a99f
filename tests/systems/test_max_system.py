"""The max system against MAX's printed table (tests/data/max-table.csv, transcribed as printed)."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from promolint.systems.lattice import check_operation
from promolint.systems.lattice_io import check_table, implied_order, load
from promolint.systems import Operand, Promoted, Reason, Refused, get_system
from promolint.systems.max import LATTICE

SYSTEM = get_system("max")
TABLE = load(Path(__file__).parents[1] / "data" / "max-table.csv")
NODES = st.sampled_from(SYSTEM.table_nodes())

# (row, column) → (printed cell, what the prose gives): index and address "behave as uint64" and
# nothing promotes to them, yet the printed table has bool ∨ index = int64 and int8 ∨ index = index,
# while its own mirrored cells say index ∨ bool = uint64 and index ∨ int8 = float16.
INCONSISTENT_CELLS = {
    ("bool", "index"): ("int64", "uint64"),
    ("bool", "address"): ("int64", "uint64"),
    ("int8", "index"): ("index", "float16"),
    ("int8", "address"): ("address", "float16"),
}


def test_the_table_has_the_systems_dtypes_in_order():
    assert list(TABLE.labels) == SYSTEM.table_nodes()


def test_the_system_reproduces_the_table_except_the_inconsistent_cells():
    disagreements = {
        (a, b): (TABLE.cells[a, b], SYSTEM.table_cell(a, b))
        for a in TABLE.labels
        for b in TABLE.labels
        if TABLE.cells[a, b] != SYSTEM.table_cell(a, b)
    }
    assert disagreements == INCONSISTENT_CELLS


def test_the_checker_finds_exactly_the_inconsistent_cells():
    report = check_table(TABLE)
    assert {(a, b): (cell, least) for a, b, cell, least in report.not_least} == INCONSISTENT_CELLS
    # Each is half of a pair the table itself prints two ways.
    assert {(a, b) for a, b, _, _ in report.operation.not_commutative} == set(INCONSISTENT_CELLS)
    assert report.operation.not_associative and not report.ok


def test_the_order_the_table_implies_is_the_lattice_of_the_prose():
    assert implied_order(TABLE).upper_bounds == LATTICE.upper_bounds


def test_every_pair_has_a_join():
    assert check_operation(SYSTEM.table_nodes(), LATTICE.join).is_lattice


@given(NODES, NODES)
def test_join_is_commutative(a, b):
    assert LATTICE.join(a, b) == LATTICE.join(b, a)


@given(NODES, NODES, NODES)
def test_join_is_associative(a, b, c):
    assert LATTICE.join(LATTICE.join(a, b), c) == LATTICE.join(a, LATTICE.join(b, c)) == LATTICE.join(a, b, c)


@given(NODES)
def test_join_is_idempotent(a):
    assert LATTICE.join(a, a) == a


def test_the_promotions_max_documents_hold():
    assert SYSTEM.result_type(Operand("bfloat16"), Operand("float16")) == Promoted("bfloat16")
    assert SYSTEM.result_type(Operand("index"), Operand("address")) == Promoted("uint64")
    assert SYSTEM.result_type(Operand("int16"), Operand("index")) == Promoted("float16")
    assert SYSTEM.result_type(Operand("float32"), Operand("tensor_float32")) == Promoted("tensor_float32")
    assert SYSTEM.result_type(Operand("bool"), Operand("int8"), Operand("uint8")) == Promoted("int16")


def test_dtypes_max_lacks_and_python_scalars_are_unsupported():
    for operands in ([Operand("complex64"), Operand("float32")], [Operand("float32"), Operand("float64", weak=True)]):
        result = SYSTEM.result_type(*operands)
        assert isinstance(result, Refused) and result.reason is Reason.UNSUPPORTED
