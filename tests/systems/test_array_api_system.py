"""The array-api system against array-api-strict: every expectation is computed from it at test time."""

from __future__ import annotations

import itertools

import array_api_strict as xp
import pytest

from promolint.core.dtypes import DTYPES
from promolint.systems.lattice import check_operation
from promolint.systems import Operand, Reason, Refused, get_system

SYSTEM = get_system("array-api")
INFO = xp.__array_namespace_info__()
STRICT_DTYPES: dict[str, object] = INFO.dtypes()
NUMERIC = list(INFO.dtypes(kind="numeric"))
NAMES = {dtype: name for name, dtype in STRICT_DTYPES.items()}
SCALARS = (1, 1.0, 1j, True)
CONDITION = xp.asarray([True, False])


def observed(compute) -> str:
    """The dtype array-api-strict gives, or the name of the exception it raises."""
    try:
        result = compute()
    except Exception as error:  # every exception is recorded: a ValueError would be a mismatch too
        return type(error).__name__
    return NAMES[getattr(result, "dtype", result)]


def predicted(*operands: Operand) -> str:
    """The system's answer in the same terms: an undefined promotion is array-api-strict's TypeError."""
    result = SYSTEM.result_type(*operands)
    if isinstance(result, Refused):
        return "TypeError" if result.reason is Reason.UNDEFINED else str(result)
    return result.dtype


def array(name: str):
    return xp.ones(2, dtype=STRICT_DTYPES[name])


def scalar_operand(value: complex) -> Operand:
    return Operand.parse(type(value).__name__)  # bool is strong, int/float/complex weak


def test_the_system_has_exactly_array_api_strict_dtypes():
    nodes = {n for n in SYSTEM.table_nodes() if n not in ("i*", "f*", "c*")}
    assert nodes == set(STRICT_DTYPES)


def test_result_type_of_every_pair():
    mismatches = [
        (a, b, expected, got)
        for a, b in itertools.product(STRICT_DTYPES, repeat=2)
        if (expected := observed(lambda: xp.result_type(STRICT_DTYPES[a], STRICT_DTYPES[b])))
        != (got := predicted(Operand(a), Operand(b)))
    ]
    assert mismatches == []


def test_result_type_of_every_triple():
    # array-api-strict folds left to right; the system joins all at once: the same when associative.
    mismatches = [
        (names, expected, got)
        for names in itertools.product(STRICT_DTYPES, repeat=3)
        if (expected := observed(lambda: xp.result_type(*(STRICT_DTYPES[n] for n in names))))
        != (got := predicted(*map(Operand, names)))
    ]
    assert mismatches == []


def test_operations_on_every_pair_of_arrays():
    # where() promotes any two dtypes; + also rejects bool operands, so it runs on numeric ones.
    cases = [(a, b, lambda a, b: xp.where(CONDITION, array(a), array(b))) for a in STRICT_DTYPES for b in STRICT_DTYPES]
    cases += [(a, b, lambda a, b: array(a) + array(b)) for a in NUMERIC for b in NUMERIC]
    mismatches = [
        (a, b, expected, got)
        for a, b, operation in cases
        if (expected := observed(lambda: operation(a, b))) != (got := predicted(Operand(a), Operand(b)))
    ]
    assert mismatches == []


@pytest.mark.parametrize("value", SCALARS, ids=repr)
def test_python_scalars_with_every_dtype(value):
    operations = {
        "result_type": lambda a: xp.result_type(STRICT_DTYPES[a], value),
        "where": lambda a: xp.where(CONDITION, array(a), value),
        "array + scalar": lambda a: array(a) + value,
        "scalar + array": lambda a: value + array(a),
    }
    mismatches = [
        (name, a, expected, got)
        for name, operation in operations.items()
        for a in (NUMERIC if "+" in name else STRICT_DTYPES)
        if (expected := observed(lambda: operation(a))) != (got := predicted(Operand(a), scalar_operand(value)))
    ]
    assert mismatches == []


def test_arithmetic_refuses_bool_arrays_although_promotion_allows_bool():
    # Not a promotion rule: + accepts only numeric dtypes, while result_type(bool, bool) is bool.
    assert observed(lambda: array("bool") + array("bool")) == "TypeError"
    assert observed(lambda: array("bool") + True) == "TypeError"
    assert observed(lambda: xp.result_type(xp.bool, True)) == predicted(Operand("bool"), Operand("bool")) == "bool"


def test_dtypes_outside_the_standard_are_unsupported():
    foreign = [name for name in DTYPES if name not in STRICT_DTYPES]
    assert "float16" in foreign and "bfloat16" in foreign
    for name in foreign:
        assert not hasattr(xp, name)
        result = SYSTEM.result_type(Operand(name), Operand("float32"))
        assert isinstance(result, Refused) and result.reason is Reason.UNSUPPORTED, name
        assert name in result.message


def test_undefined_promotions_say_so():
    result = SYSTEM.result_type(Operand("int64"), Operand("uint64"))
    assert isinstance(result, Refused) and result.reason is Reason.UNDEFINED
    assert "leaves the promotion of int64 and uint64 undefined" in result.message
    assert "Python float" in SYSTEM.result_type(Operand("int8"), Operand.parse("float")).message


def test_scalars_alone_promote_weakly():
    # array-api-strict raises ValueError here (it needs an array or dtype); Python computes 1 + 2.0.
    result = SYSTEM.result_type(Operand.parse("int"), Operand.parse("float"))
    assert (result.dtype, result.weak) == ("float64", True)


def test_the_rules_are_a_join_where_defined():
    report = check_operation(SYSTEM.table_nodes(), SYSTEM.lattice.join)
    assert not (report.ambiguous or report.not_commutative or report.not_associative or report.not_idempotent)


def test_table_cells_give_the_join_or_a_dash_where_none_exists():
    assert SYSTEM.table_cell("f*", "float32") == "float32"
    assert SYSTEM.table_cell("c*", "float32") == "complex64"
    assert SYSTEM.table_cell("i*", "f*") == "f*"
    assert SYSTEM.table_cell("uint64", "int8") == "-"
