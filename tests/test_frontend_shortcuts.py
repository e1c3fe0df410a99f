"""The front end's shortcuts past libcst's slow paths give exactly what those paths give."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst
import pytest

from linter.frontend.cst import _number_value, _string_value
from linter.frontend.source import ParseFailure, parse_bytes

NUMBERS = ["0", "00", "0_0", "1_000", "0x_1F", "0XfF", "0o1_7", "0b1_0", "1.", ".5", "1E-5", "1_0.0_1e1_0", "00.5",
           "1j", "1_0J", "1.5e3j", ".5j", "00j", "1" * 4400]  # fmt: skip
STRINGS = ['""', "''", '""""""', "''''''", "\"a'b\"", '"""a"b"""', "'\\n'", "r'\\n'", "b'x'", "rb'x'", "u'x'", "'é'",
           '"""line\ntwo"""', '"""line\r\ntwo"""', "'float32'"]  # fmt: skip


def outcome(evaluate: Callable[[], object]) -> tuple[type, object]:
    try:
        value = evaluate()
    except Exception as error:  # noqa: BLE001 - the error is the outcome to compare
        return type(error), None
    return type(value), value


@pytest.mark.parametrize("text", NUMBERS, ids=lambda text: text[:12])
def test_numbers_evaluate_as_libcst_evaluates_them(text) -> None:
    node = cst.parse_expression(text)
    assert outcome(lambda: _number_value(node)) == outcome(lambda: node.evaluated_value)


@pytest.mark.parametrize("text", STRINGS)
def test_strings_evaluate_as_libcst_evaluates_them(text) -> None:
    node = cst.parse_module(f"x = {text}\n".encode()).body[0].body[0].value
    assert outcome(lambda: _string_value(node)) == outcome(lambda: node.evaluated_value)


@pytest.mark.parametrize("source", [b"x = 1\n", b"def f(:\n    pass\n"])
def test_nodes_built_by_hand_are_still_validated_after_a_parse(source) -> None:
    parse_bytes(source)
    with pytest.raises(cst.CSTValidationError):
        cst.Name("1x")


def test_parse_without_validation_still_rejects_what_python_rejects() -> None:
    for source in (b"f(a=1, b)\n", b"def f(*): pass\n", b"lambda a=1, b: 0\n", b"x = 0b12\n", b"del f()\n"):
        assert isinstance(parse_bytes(source), ParseFailure), source
