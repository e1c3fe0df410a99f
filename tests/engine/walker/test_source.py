"""Parsing and positions: ``ast`` spans, counted as linters print them, are libcst's spans.

Fixes and the run-time shim rely on this: rules name ``ast`` nodes, and libcst, which rewrites
the file, finds them by span."""

from __future__ import annotations

import ast
from pathlib import Path

import libcst as cst
import pytest

from promolint.engine.records import Span
from promolint.fix.edits import _expressions_by_span
from promolint.engine.walker.source import ParseFailure, parse_bytes

FIXTURES = sorted((Path(__file__).parents[3] / "fixtures").rglob("*.py"))
SNIPPETS = [
    "x = (a + b) * ((c))\n",
    "y = f((d), e)[0:2, ::-1]\n",
    "z = 'é' + (1) - ñ.attr('ü', k=2.5)  # ß\n",
    "w = [\n    1,\n    'two' 'parts',\n]\nv = {k: v ** 2 for k, v in d.items() if v}\n",
    "if\ta:\r\n    b = -c @ d\r\n",
    "lambda q, *r, s=1: q if s else r\n",
    "async def g(p: 'jax.Array', /, *, o=None):\n    async with h() as (i, j):\n        return await i < j <= 3\n",
]


def unplaced(text: str) -> list[str]:
    """The ``ast`` expressions whose span is no libcst expression's, other than those the
    analysis never records: the parts of f-strings, slices and the tuple of a subscript's
    indices (libcst has no expression for either); and tuples and a generator that is a call's
    only argument, whose ``ast`` spans take their parentheses (the shim does not check these
    values, and no rule edits them)."""
    source = parse_bytes(text.encode())
    spans = _expressions_by_span(cst.parse_module(text))[0]  # where fixes look ast nodes up
    skipped = {id(n) for node in ast.walk(source.tree) if type(node) is ast.JoinedStr for n in ast.walk(node)}
    skipped |= {id(node.args[0]) for node in ast.walk(source.tree)
                if type(node) is ast.Call and len(node.args) == 1 and type(node.args[0]) is ast.GeneratorExp}  # fmt: skip
    skipped |= {id(node.slice) for node in ast.walk(source.tree) if type(node) is ast.Subscript}
    skipped |= {id(node) for node in ast.walk(source.tree) if type(node) in (ast.Slice, ast.Tuple)}
    return [f"{type(node).__name__} {source.span(node)} {source.code(node)!r}" for node in ast.walk(source.tree)
            if isinstance(node, (ast.expr, ast.AugAssign)) and id(node) not in skipped
            and source.span(node) not in spans]  # fmt: skip


@pytest.mark.parametrize("text", SNIPPETS)
def test_every_expression_has_the_span_libcst_gives_it(text) -> None:
    assert unplaced(text) == []


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.name)
def test_fixture_expressions_have_the_spans_libcst_gives_them(path) -> None:
    assert unplaced(path.read_text(encoding="utf-8")) == []


def test_code_is_the_text_between_the_parentheses() -> None:
    source = parse_bytes("x = ('é' +\n   (ñ))\n".encode())
    binary = source.tree.body[0].value
    assert (source.code(binary), source.code(binary.right)) == ("'é' +\n   (ñ)", "ñ")


def test_a_parameter_site_is_its_name() -> None:
    source = parse_bytes(b"def f(alpha: int = 1): pass\n")
    assert source.span(source.tree.body[0].args.args[0]) == Span(1, 7, 1, 12)


@pytest.mark.parametrize(("data", "message", "line"), [
    (b"def f(:\n    pass\n", "syntax error: invalid syntax", 1),
    (b"x = 1\nf(a=1, b)\n", "syntax error: positional argument follows keyword argument", 2),
    (b"x = 1\x00\n", "file contains NUL bytes; not Python source", 1),
    (b"# -*- coding: klingon -*-\nx = 1\n", "cannot decode the file: unknown encoding: klingon", 1),
    (b"x = '\xff'\n", "cannot decode the file: 'utf-8' codec can't decode byte 0xff in position 5: invalid start byte", 1),
])  # fmt: skip
def test_a_file_that_does_not_parse_is_one_message(data, message, line) -> None:
    failure = parse_bytes(data)
    assert isinstance(failure, ParseFailure) and (failure.message, failure.line) == (message, line)


def test_the_encoding_a_file_declares_is_read() -> None:
    source = parse_bytes("# coding: latin-1\nx = 'é' + y\n".encode("latin-1"))
    assert source.code(source.tree.body[0].value) == "'é' + y"
