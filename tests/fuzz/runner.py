"""The oracle's runner (``run_corpus.run_snippet``) with a faster rewriter, for the fuzzer.

``run_snippet`` instruments with libcst, which costs about twice what running and revealing a
small program cost together.  Here the same ``__promolint_check__(__promolint_enter__(ID),
EXPR)`` wrapping is done on Python's own ``ast`` and compiled from the tree.  Spans agree with
libcst's (both leave parentheses out, and generated programs are ASCII, so byte and character
columns agree); ``tests/fuzz/test_fuzz.py`` checks that both runners see the same sites and values.
Recording, error attribution and the output format are the oracle's (``Recorder``,
``describe_error``).
"""

from __future__ import annotations

import ast
import contextlib
import io
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "oracle"))

from promolint.runtime.instrument import CHECK, ENTER, Recorder  # noqa: E402
from run_corpus import failure, outcome  # noqa: E402

Span = tuple[int, int, int, int]


class _Wrapper(ast.NodeTransformer):
    """Wraps every expression in a value position, like ``instrument.instrument``: not
    assignment/``del``/loop/comprehension targets (Store and Del contexts), the function of a
    call, decorators, annotations, f-string parts, starred items, ``yield``/``await``."""

    def __init__(self):
        self.ids: dict[Span, int] = {}

    def _wrap(self, node: ast.expr) -> ast.expr:
        span = (node.lineno, node.col_offset + 1, node.end_lineno, node.end_col_offset + 1)
        site = self.ids.setdefault(span, len(self.ids))
        enter = ast.Call(ast.Name(ENTER, ast.Load()), [ast.Constant(site)], [])
        return ast.copy_location(ast.Call(ast.Name(CHECK, ast.Load()), [enter, node], []), node)

    def visit(self, node):
        if isinstance(node, (ast.JoinedStr, ast.Yield, ast.YieldFrom, ast.Await, ast.Starred, ast.Slice)) or (
            isinstance(node, ast.expr) and isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del))
        ):
            return self._inner(node)
        node = self._inner(node)
        return self._wrap(node) if isinstance(node, ast.expr) else node

    def _inner(self, node):
        if isinstance(node, ast.JoinedStr):
            return node
        if isinstance(node, ast.Call):
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(k) for k in node.keywords]
            node.func = self._inner(node.func)  # the callee's parts are values, the callee is not wrapped
            return node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            decorators, returns = node.decorator_list, getattr(node, "returns", None)
            node.decorator_list, node.returns = [], None
            node = self.generic_visit(node)
            node.decorator_list, node.returns = decorators, returns
            return node
        if isinstance(node, ast.arg):
            return node  # annotations
        if isinstance(node, ast.Subscript):  # a slice, or a tuple holding one, is no value of its own
            node.value = self.visit(node.value)
            items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for index, item in enumerate(items):
                item = self._inner(item) if isinstance(item, ast.Slice) else self.visit(item)
                if isinstance(node.slice, ast.Tuple):
                    node.slice.elts[index] = item
                else:
                    node.slice = item
            return node
        if isinstance(node, ast.AnnAssign):
            node.value = self.visit(node.value) if node.value else None
            node.target = self._inner(node.target) if not isinstance(node.target, ast.Name) else node.target
            return node
        return self.generic_visit(node)


def instrument_ast(source: str, filename: str) -> tuple[object, dict[int, Span]]:
    """``source`` compiled with every value position wrapped; the span of each site id."""
    tree = ast.parse(source, filename)
    wrapper = _Wrapper()
    tree = ast.fix_missing_locations(wrapper.visit(tree))
    return compile(tree, filename, "exec", dont_inherit=True), {site: span for span, site in wrapper.ids.items()}


def run_program(text: str, label: str) -> dict:
    """What ``run_corpus.run_snippet`` returns for a snippet without preamble, in the mode the
    process is in (its caller restores JAX's config; generated programs do not change it)."""
    code, ids = instrument_ast(text, label)
    recorder = Recorder()
    namespace = {"__name__": "__fuzz__", "__builtins__": __builtins__, **recorder.namespace()}
    started = time.perf_counter()
    error = None
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(code, namespace)
    except Exception as exc:  # noqa: BLE001 - every exception is an observation
        error = failure(recorder, ids, exc, label)
    return outcome(recorder, ids, error, started)
