"""The ``numpy`` system against real NumPy 2 and ml_dtypes: every expected value is computed by NumPy.

The system's facts are measured on the installed versions (``promolint.systems.numpy_facts``), so
this suite holds for whichever NumPy and ml_dtypes run it: the pinned ones in ``.ci/run``, the
newest in ``tests/newest_versions.py``."""

from __future__ import annotations

import contextlib
import csv
import io
import itertools

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from promolint.cli.main import main
from promolint.core.dtypes import DTYPES, NUMPY_NATIVE
from promolint.systems.lattice import check_operation
from promolint.systems import Operand, Promoted, Reason, Refused, get_system
from promolint.systems.numpy import NumpySystem, shipped_facts
from promolint.systems.numpy_facts import CACHED, MEASURED, installed_facts

SYSTEM = get_system("numpy")
SAFE_CASTS, LOOPS = SYSTEM.facts.safe_casts, SYSTEM.facts.loops
NAMES = [node for node in SYSTEM.table_nodes() if node in DTYPES]
NATIVE = [name for name in NAMES if name in NUMPY_NATIVE]
NP_DTYPES = {name: np.dtype(name if name in NUMPY_NATIVE else getattr(ml_dtypes, name)) for name in NAMES}
PYTHON_VALUES = {"i*": 1, "f*": 1.0, "c*": 1j}
SCALARS = [*PYTHON_VALUES.values(), True]  # a Python bool is strong: the system sees it as bool


def python_operand(value: object) -> Operand:
    return Operand.parse(type(value).__name__)  # int, float, complex: weak; bool: strong


def node_operand(node: str) -> Operand:
    return python_operand(PYTHON_VALUES[node]) if node in PYTHON_VALUES else Operand(node)


def node_value(node: str) -> object:
    """A NumPy value standing for a table node: an array of the dtype, or the Python scalar."""
    return PYTHON_VALUES[node] if node in PYTHON_VALUES else np.ones(2, NP_DTYPES[node])


def numpy_says(compute) -> str:
    """The dtype NumPy gives ``compute()``, or ``-`` where NumPy refuses."""
    try:
        result = compute()
    except TypeError:  # DTypePromotionError and UFuncTypeError are TypeErrors
        return "-"
    return result.name if isinstance(result, np.dtype) else np.asarray(result).dtype.name


def system_says(*operands: Operand) -> str:
    result = SYSTEM.result_type(*operands)
    return "-" if isinstance(result, Refused) else result.dtype


def chain(left: Operand, right: Operand) -> Operand:
    """One binary operation of a chain: the result becomes the next operand."""
    result = SYSTEM.result_type(left, right)
    assert isinstance(result, Promoted), result
    return Operand(result.dtype, result.weak)


def assert_agree(cases: list[tuple[str, object, object]]) -> None:
    """Every (label, numpy's answer, the system's answer) agrees; all disagreements in one message."""
    wrong = [f"{label}: numpy {expected}, system {got}" for label, expected, got in cases if expected != got]
    assert not wrong, f"{len(wrong)} of {len(cases)} disagree:\n" + "\n".join(wrong[:60])


# --- the data ------------------------------------------------------------------------------
def test_supports_exactly_the_catalog_dtypes_numpy_has():
    has = {name for name in DTYPES if name in NUMPY_NATIVE or hasattr(ml_dtypes, name)}
    assert set(SAFE_CASTS) == has


def test_safe_casts_are_numpys():
    cases = [
        (f"can_cast({a}, {b})", np.can_cast(NP_DTYPES[a], NP_DTYPES[b], "safe"), b in SAFE_CASTS[a])
        for a, b in itertools.product(NAMES, NAMES)
    ]
    assert_agree(cases)


def test_loops_are_np_add_loops_in_order():
    homogeneous = [np.dtype(t[0]).name for t in np.add.types if len(set(t.replace("->", ""))) == 1]
    assert tuple(dict.fromkeys(n for n in homogeneous if n in DTYPES)) == LOOPS


def test_facts_are_the_installed_versions():
    assert (SYSTEM.facts.numpy_version, SYSTEM.facts.ml_dtypes_version) == (np.__version__, ml_dtypes.__version__)


def test_cli_table_is_the_installed_numpys_cell_by_cell():
    """``promolint table --system numpy``: each cell is ``a + b`` as the installed NumPy and
    ml_dtypes compute it (arrays, or Python scalars for the weak nodes), all 1,225 of them."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["table", "--system", "numpy", "--format", "csv"]) == 0
    header, *rows = csv.reader(io.StringIO(out.getvalue()))
    cases = []
    for row in rows:
        for column, cell in zip(header[1:], row[1:]):
            x, y = node_value(row[0]), node_value(column)
            if row[0] in PYTHON_VALUES and column in PYTHON_VALUES:
                expected = {int: "i*", float: "f*", complex: "c*"}[type(x + y)]
            else:
                expected = numpy_says(lambda: x + y)
            cases.append((f"{row[0]} + {column}", expected, cell))
    assert len(cases) == len(NAMES + list(PYTHON_VALUES)) ** 2
    assert_agree(cases)


def test_facts_are_measured_once_then_read_from_the_cache(tmp_path):
    measured = installed_facts(shipped_facts, tmp_path)
    assert measured.source == MEASURED and len(list(tmp_path.iterdir())) == 1
    cached = installed_facts(shipped_facts, tmp_path)
    assert cached.source == CACHED and cached == measured


def test_a_damaged_cache_is_measured_again(tmp_path):
    installed_facts(shipped_facts, tmp_path)
    (path,) = tmp_path.iterdir()
    path.write_text("{not json", encoding="utf-8")
    assert installed_facts(shipped_facts, tmp_path).source == MEASURED


def test_shipped_facts_stand_in_where_numpy_cannot_be_measured(tmp_path, monkeypatch):
    import promolint.systems.numpy_facts as numpy_facts

    def broken():
        raise ImportError("numpy is broken")

    monkeypatch.setattr(numpy_facts, "measure", broken)
    facts = installed_facts(shipped_facts, tmp_path)
    assert facts == shipped_facts() and (facts.numpy_version, facts.ml_dtypes_version) == ("2.4.6", "0.6.0")
    assert not list(tmp_path.iterdir())
    assert NumpySystem(facts).table_cell("bfloat16", "f*") == "float32"  # measured on ml_dtypes 0.6.0


def test_unknown_dtype_is_unsupported():
    result = SYSTEM.result_type(Operand("float7_e3m3"), Operand("float32"))
    assert isinstance(result, Refused) and result.reason is Reason.UNSUPPORTED


# --- pairs of values -----------------------------------------------------------------------
def test_every_pair_of_arrays():
    cases = [
        (f"{a} + {b}", numpy_says(lambda: np.ones(2, NP_DTYPES[a]) + np.ones(2, NP_DTYPES[b])),
         system_says(Operand(a), Operand(b)))
        for a, b in itertools.product(NAMES, NAMES)
    ]  # fmt: skip
    assert_agree(cases)


def test_numpy_scalars_and_0d_arrays_are_strong():
    cases = []
    for a, b in itertools.product(NAMES, NAMES):
        expected = system_says(Operand(a), Operand(b))
        scalar_a, scalar_b = NP_DTYPES[a].type(1), NP_DTYPES[b].type(1)
        array_a, array_b = np.ones(2, NP_DTYPES[a]), np.ones(2, NP_DTYPES[b])
        zero_d_a, zero_d_b = np.ones((), NP_DTYPES[a]), np.ones((), NP_DTYPES[b])
        for form, compute in {
            "scalar + array": lambda: scalar_a + array_b,
            "array + scalar": lambda: array_a + scalar_b,
            "scalar + scalar": lambda: scalar_a + scalar_b,
            "0-d + array": lambda: zero_d_a + array_b,
            "0-d + 0-d": lambda: zero_d_a + zero_d_b,
        }.items():
            cases.append((f"{a} + {b} as {form}", numpy_says(compute), expected))
    assert_agree(cases)


def test_every_dtype_with_python_scalars_on_both_sides():
    cases = []
    for name, value in itertools.product(NAMES, SCALARS):
        dtype, scalar = Operand(name), python_operand(value)
        for form, array in {
            "array": np.ones(2, NP_DTYPES[name]),
            "scalar": NP_DTYPES[name].type(1),
            "0-d": np.ones((), NP_DTYPES[name]),
        }.items():
            cases.append((f"{name} {form} + {value!r}", numpy_says(lambda: array + value), system_says(dtype, scalar)))
            cases.append((f"{value!r} + {name} {form}", numpy_says(lambda: value + array), system_says(scalar, dtype)))
    assert_agree(cases)


def test_python_scalars_alone_stay_python_scalars():
    for x, y in itertools.product(PYTHON_VALUES.values(), repeat=2):
        result = SYSTEM.result_type(python_operand(x), python_operand(y))
        assert result == Promoted(np.asarray(x + y).dtype.name, weak=not isinstance(x + y, np.generic))


def test_np_result_type_on_numpy_dtypes_and_python_values():
    """Up to three operands, NumPy's own dtypes and Python values in every position."""
    nodes = [*NATIVE, *PYTHON_VALUES]
    values = {n: NP_DTYPES[n] if n in NP_DTYPES else PYTHON_VALUES[n] for n in nodes}
    cases = [
        (" ∨ ".join(combo), numpy_says(lambda: np.result_type(*(values[n] for n in combo))),
         system_says(*map(node_operand, combo)))
        for size in (1, 2, 3)
        for combo in itertools.product(nodes, repeat=size)
    ]  # fmt: skip
    assert_agree(cases)


# --- order dependence: the JEP -------------------------------------------------------------
def test_promote_types_is_numpys_for_every_pair():
    """np.promote_types, ml_dtypes' table included: the system answers every pair of the dtypes
    NumPy has, as NumPy does (Refused where NumPy raises DTypePromotionError)."""
    cases = []
    for a, b in itertools.product(NAMES, NAMES):
        said = SYSTEM.promote_types(a, b)
        cases.append((f"{a} ∨ {b}", numpy_says(lambda: np.promote_types(NP_DTYPES[a], NP_DTYPES[b])),
                      "-" if isinstance(said, Refused) else said))  # fmt: skip
    assert_agree(cases)


def test_ml_dtypes_with_python_values_are_numpys():
    """np.result_type of an ml_dtypes type and a Python bool, int, float or complex, with values
    of every size (the measured table claims the answer does not depend on the value)."""
    ml_names = [name for name in NAMES if name not in NUMPY_NATIVE]
    values = {"bool": (True, False), "int64": (0, -1, 7, 300, 2**40), "float64": (0.5, 1e300), "complex128": (1j,)}
    cases = [
        (f"{name} ∨ {value!r}", numpy_says(lambda: np.result_type(NP_DTYPES[name], value)),
         SYSTEM.ml_result_type_with_python(name, python))
        for name in ml_names
        for python, examples in values.items()
        for value in examples
    ]  # fmt: skip
    assert_agree(cases)


def test_jep_order_dependence():
    i8, u8, f16 = np.int8(1), np.uint8(1), np.float16(1)
    left, right = (i8 + u8 + f16).dtype.name, (i8 + (u8 + f16)).dtype.name
    assert left != right
    a, b, c = Operand("int8"), Operand("uint8"), Operand("float16")
    assert chain(chain(a, b), c).dtype == left
    assert chain(a, chain(b, c)).dtype == right


def test_check_operation_finds_numpys_non_associative_triples():
    labels = SYSTEM.table_nodes()
    report = check_operation(labels, SYSTEM.table_cell, is_failure=lambda cell: cell in (None, "-"))
    assert not report.not_idempotent and not report.no_result
    triples = {(a, b, c): (left, right) for a, b, c, left, right in report.not_associative}
    assert ("int8", "uint8", "float16") in triples
    # Every triple found is one NumPy really evaluates differently in the two groupings.
    cases = []
    for (a, b, c), (left, right) in triples.items():
        x, y, z = map(node_value, (a, b, c))
        cases.append((f"({a} + {b}) + {c}", numpy_says(lambda: (x + y) + z), left))
        cases.append((f"{a} + ({b} + {c})", numpy_says(lambda: x + (y + z)), right))
    assert_agree(cases)
    # And the operation is commutative exactly where NumPy's `+` is.
    found = {(a, b) for a, b, _, _ in report.not_commutative}
    numpy_found = {
        (a, b)
        for a, b in itertools.combinations(labels, 2)
        if numpy_says(lambda: node_value(a) + node_value(b)) != numpy_says(lambda: node_value(b) + node_value(a))
    }
    assert found == numpy_found


def test_cli_join_matches_np_result_type():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["join", "int8", "uint8", "float16", "--system", "numpy"]) == 0
    assert out.getvalue().strip() == np.result_type(np.int8, np.uint8, np.float16).name


# --- properties ----------------------------------------------------------------------------
any_node = st.sampled_from([*NAMES, *PYTHON_VALUES])


@settings(max_examples=300, deadline=None)
@given(any_node, any_node)
def test_commutative_where_numpy_is(a, b):
    x, y = node_value(a), node_value(b)
    ab, ba = SYSTEM.table_cell(a, b), SYSTEM.table_cell(b, a)
    assert (ab == ba) == (numpy_says(lambda: x + y) == numpy_says(lambda: y + x))
    if a in NUMPY_NATIVE | set(PYTHON_VALUES) and b in NUMPY_NATIVE | set(PYTHON_VALUES):
        assert ab == ba


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(NAMES), st.sampled_from(NAMES), st.sampled_from(SCALARS), st.permutations(range(3)))
def test_chains_with_a_python_scalar(a, b, value, order):
    """``x + y + z`` and ``x + (y + z)`` for two arrays and a Python scalar in any order."""
    values = [np.ones(2, NP_DTYPES[a]), np.ones(2, NP_DTYPES[b]), value]
    operands = [Operand(a), Operand(b), python_operand(value)]
    x, y, z = (values[i] for i in order)
    ox, oy, oz = (operands[i] for i in order)
    assert numpy_says(lambda: (x + y) + z) == chain(chain(ox, oy), oz).dtype
    assert numpy_says(lambda: x + (y + z)) == chain(ox, chain(oy, oz)).dtype
    if a in NUMPY_NATIVE and b in NUMPY_NATIVE:
        assert numpy_says(lambda: np.result_type(x, y, z)) == system_says(ox, oy, oz)


@pytest.mark.parametrize("expression", [
    "np.where(True, 1000, np.ones(3, np.int8))",  # NumPy 2.5 raises OverflowError, 2.4 wrapped 1000
    "np.var(np.ones(3, ml_dtypes.uint2))",  # ml_dtypes 0.7 raises UFuncTypeError, 0.6 gave uint2
    "np.std(np.ones(3, ml_dtypes.uint4))",
    "np.var(np.ones(3, ml_dtypes.int4))",
    "np.ones(3, ml_dtypes.int4).conjugate()",  # int4 with ml_dtypes 0.7, int8 with 0.6
    "np.ones(3, ml_dtypes.uint2).round()",
])
def test_reveal_says_what_the_installed_numpy_does(tmp_path, capsys, expression):
    """Where the facts of the installed versions decide more than promotion: ``reveal`` gives the
    dtype NumPy computes, or the class of the exception it raises (UFuncTypeError: TypeError)."""
    source = tmp_path / "snippet.py"
    source.write_text(f"import ml_dtypes\nimport numpy as np\nw = {expression}\n")
    try:
        expected = np.asarray(eval(expression)).dtype.name
    except (OverflowError, TypeError) as error:
        expected = "OverflowError" if isinstance(error, OverflowError) else "TypeError"
    main(["reveal", str(source)])
    line = next(line for line in capsys.readouterr().out.splitlines() if ":3:1: w: " in line)
    assert line.split(":3:1: w: ")[1].split(":")[0].split(" [")[0] == expected
