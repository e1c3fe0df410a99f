"""Valid Python of every shape, as large and as deeply nested as CPython compiles, is analyzed
without an internal error and keeps its findings; what still cannot be analyzed is one PRM000
at its statement, and the rest of the file keeps its findings."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

from promolint.engine.walker.analysis import Analysis, Settings
from promolint.driver.lint import lint_source
from promolint.driver.reveal import reveal_records
from tests.stress.corpus import SHAPES, program, syntax_showcase

CODES = frozenset({"PRM000", "PRM001", "PRM002", "PRM003", "PRM004", "PRM005", "PRM006", "PRM007", "PRM008",
                   "PRM009"})  # fmt: skip
# CI-sized: near the depth CPython 3.11 compiles (about 3,000 levels) where it allows that much,
# smaller where its parser stops earlier (nested blocks: 100) or compiling alone is slow.
SIZES = {"chain": 2900, "power": 2900, "elif": 1000, "unary": 2900, "attributes": 2900, "subscripts": 2900,
         "methods": 1400, "boolean": 3000, "comparisons": 3000, "nested_blocks": 99, "nested_functions": 99,
         "nested_loops": 20, "nested_lambdas": 400, "huge_literal": 3000, "huge_dict": 2000,
         "long_function": 1000}  # fmt: skip


def _sentinel_line(text: str) -> int:
    return text.count("\n")  # the sentinel is the last line


def _python_compiles(text: str, tmp_path) -> None:
    """CPython itself accepts the program: compiled by a fresh interpreter, at the top of its
    stack (under pytest the stack is already deep, and compile() sees less of its limit)."""
    path = tmp_path / "program.py"
    path.write_text(text)
    subprocess.run([sys.executable, "-c", f"compile(open({str(path)!r}).read(), 'p', 'exec')"], check=True)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_shape_at_the_depth_python_compiles(shape, tmp_path) -> None:
    assert set(SIZES) == set(SHAPES)
    text = program(shape, SIZES[shape])
    _python_compiles(text, tmp_path)
    found = lint_source(text.encode(), "stress.py", Settings(), CODES)
    assert [d for d in found if d.code == "PRM000"] == []
    assert ("PRM006", _sentinel_line(text)) in {(d.code, d.line) for d in found}


def test_every_syntax_of_the_grammar(tmp_path) -> None:
    text = syntax_showcase()
    _python_compiles(text, tmp_path)
    found = lint_source(text.encode(), "showcase.py", Settings(), CODES)
    assert [d for d in found if d.code == "PRM000"] == []
    assert ("PRM006", _sentinel_line(text)) in {(d.code, d.line) for d in found}
    assert not isinstance(reveal_records(text.encode(), Settings()), Exception)


def test_a_statement_that_cannot_be_analyzed_is_one_finding_and_the_rest_stand(monkeypatch) -> None:
    text = "import jax.numpy as jnp\nx = jnp.ones(3, jnp.int8)\na = x + 1000\nprint(\n  x)\nb = x + 1000\n"
    original = Analysis._statement_handlers[ast.Expr]

    def deep(self, node, frame):
        if node.lineno == 4:
            raise RecursionError("maximum recursion depth exceeded")
        return original(self, node, frame)

    # The walker dispatches statements through its table of handlers, built once for the class.
    monkeypatch.setitem(Analysis._statement_handlers, ast.Expr, deep)
    found = sorted(lint_source(text.encode(), "partial.py", Settings(), CODES))
    assert [(d.code, d.line, d.column, d.end_line, d.end_column) for d in found] == [
        ("PRM006", 3, 5, 3, 13),
        ("PRM000", 4, 1, 5, 5),
        ("PRM006", 6, 5, 6, 13),
    ]
    assert "nested too deeply" in found[1].message and "internal error" not in found[1].message


def test_deep_input_is_parsed_as_deep_as_python_compiles(tmp_path) -> None:
    text = "y = " + "-" * 2900 + "1\n"
    _python_compiles(text, tmp_path)
    with pytest.raises(RecursionError):  # here, deep in pytest's stack, the default limit is too low
        ast.parse(text)
    records = reveal_records(text.encode(), Settings())
    assert any(r["text"] == "-" * 2900 + "1" for r in records)
