"""The ``numpy1`` system against NumPy 1.26.4, case by case.

NumPy 1 cannot run beside NumPy 2, so the expected values come from the table
``tests/data/numpy1/numpy-1.26.4.json``, measured by running NumPy 1.26.4 with
``tests/oracle/numpy1_probe.py`` (its docstring says how to measure it again).
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
from pathlib import Path

import pytest

from promolint.cli.main import main
from promolint.systems import Operand, Promoted, get_system
from promolint.systems.numpy1 import Input, python_input, resolve

TABLE = Path(__file__).resolve().parents[1] / "data" / "numpy1" / "numpy-1.26.4.json"
SYSTEM = get_system("numpy1")


@pytest.fixture(scope="module")
def measured() -> dict:
    return json.loads(TABLE.read_text())


def _number(text: str):
    return float(text) if text.lstrip("-") in ("inf", "nan") else ast.literal_eval(text)


def _input(text: str) -> Input | None:
    kind, _, rest = text.partition(":")
    if kind == "a":
        return Input(rest)
    if kind == "p":
        return python_input(_number(rest))
    dtype, _, value = rest.partition(":")
    return Input(dtype, scalar=True, value=_number(value))


def _system_says(left: str, right: str) -> str:
    inputs = [_input(left), _input(right)]
    if None in inputs:
        return "object"  # a Python int beyond uint64: NumPy 1 makes an object array
    result = resolve(inputs)
    if not isinstance(result, Promoted):
        return "refused"
    if result.weak:  # Python scalars alone: Python computes, NumPy reports its 64-bit dtype
        return {"b": "bool", "i": "int64", "f": "float64", "c": "complex128"}[result.dtype[0]]
    return result.dtype


def test_table_is_numpy_1_26(measured):
    assert measured["numpy"] == "1.26.4" and measured["measured_by"] == "tests/oracle/numpy1_probe.py"
    assert len(measured["cases"]) > 6000


def test_every_measured_case(measured):
    wrong = []
    for left, right, real in measured["cases"]:
        said = _system_says(left, right)
        if said != real:
            wrong.append(f"{left} + {right}: NumPy 1.26 {real}, numpy1 system {said}")
    assert not wrong, f"{len(wrong)} of {len(measured['cases'])} cases differ:\n" + "\n".join(wrong[:40])


def test_nep50_examples(measured):
    """The examples of NEP 50's table of changes, in the system's own terms."""
    cases = {
        ("s:float32:3.0", "p:3.0"): "float64",
        ("s:uint8:1", "p:2"): "int64",
        ("a:uint8", "s:int64:1"): "uint8",
        ("a:float32", "s:float64:1.0"): "float32",
        ("a:float32", "z:float64:1.0"): "float32",
        ("a:uint8", "p:300"): "uint16",
        ("s:uint8:100", "p:200"): "int64",
        ("a:int8", "p:200"): "int16",
    }
    measured_cases = {(left, right): real for left, right, real in measured["cases"]}
    for (left, right), expected in cases.items():
        assert _system_says(left, right) == expected
        if (left, right) in measured_cases:
            assert measured_cases[left, right] == expected


def test_value_based_needs_the_value():
    with pytest.raises(ValueError, match="by its value"):
        resolve([Input("float32"), Input("float64", scalar=True)])
    # among scalars only the dtypes count
    assert resolve([Input("float32", scalar=True), python_input(3.0)]) == Promoted("float64")


def test_operands_with_values():
    assert SYSTEM.result_type(Operand("uint8"), Operand.parse("300")) == Promoted("uint16")
    assert SYSTEM.result_type(Operand.parse("float32(3)"), Operand.parse("3.0")) == Promoted("float64")
    assert SYSTEM.result_type(Operand("float32"), Operand.parse("float64(1e300)")) == Promoted("float64")
    assert SYSTEM.result_type(Operand("float32"), Operand.parse("float64(1)")) == Promoted("float32")
    assert SYSTEM.result_type(Operand("bfloat16"), Operand("float32")).reason.value == "unsupported dtype"


def _run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(list(argv))
    return status, out.getvalue()


def test_join_and_table_commands(measured):
    assert _run("join", "--system", "numpy1", "uint8", "300") == (0, "uint16\n")
    assert _run("join", "--system", "numpy1", "float32(3)", "3.0") == (0, "float64\n")
    assert _run("join", "--system", "numpy", "float32(3)", "3.0") == (0, "float32\n")
    status, table = _run("table", "--system", "numpy1")
    rows = {line.split()[0]: line.split()[1:] for line in table.splitlines()[1:]}
    header = table.splitlines()[0].split()
    # an int8 array with the Python int 1 stays int8; with 1.0 it is float64; float32 with 1j complex64
    assert rows["i1"][header.index("i*")] == "i1"
    assert rows["i1"][header.index("f*")] == "f8"
    assert rows["f4"][header.index("c*")] == "c8"
    measured_cases = {(left, right): real for left, right, real in measured["cases"]}
    assert measured_cases["a:float32", "p:1j"] == "complex64"
