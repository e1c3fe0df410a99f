"""PRM026 (jit-retrace) against JAX itself: its documented examples and its fixture run under
jax 0.10.2 on CPU, x64 off and on, with ``jax_log_compiles``; a call that makes one of the
example's jitted functions compile more than once (its line read from the stack while JAX logs
each compilation) is a retrace.  The rule must fire at exactly those lines."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
import textwrap

import pytest
from test_fixtures import FIXTURES, expected

from promolint.engine.walker.analysis import Settings
from promolint.driver.lint import lint_source
from promolint.rules.jit_retrace import JitRetrace

CODE = JitRetrace.code
FIXTURE = FIXTURES / "PRM026_jit_retrace.py"

# Runs each case (name, file name, code) in a fresh namespace and prints, per case, the lines of
# the calls that compiled one of the case's own jitted functions more than once (a loop's call
# compiling again on a later pass).  A function is known by the name JAX logs ("Compiling
# jit(step) ..."): the names the case defines, and `<lambda>`.
_RUNNER = r"""
import ast, json, logging, re, sys, warnings

import jax

warnings.simplefilter("ignore")
jax.config.update("jax_log_compiles", True)
COMPILING = re.compile(r"Compiling jit\((?P<name>[^)]*)\)")


class Retraces(logging.Handler):
    def start(self, filename, names):
        self.filename, self.names, self.seen, self.lines = filename, names, set(), set()

    def emit(self, record):
        match = COMPILING.match(record.getMessage())
        if not match or match.group("name") not in self.names:
            return
        frame = sys._getframe()
        while frame is not None and frame.f_code.co_filename != self.filename:
            frame = frame.f_back
        if frame is None:
            return
        call = (match.group("name"), frame.f_lineno)
        if call in self.seen:
            self.lines.add(frame.f_lineno)
        self.seen.add(call)


retraces = Retraces()
logging.getLogger("jax").addHandler(retraces)
logging.getLogger("jax").setLevel(logging.WARNING)
out = {}
for name, filename, code in json.load(sys.stdin):
    tree = ast.parse(code)
    names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)} | {"<lambda>"}
    retraces.start(filename, names)
    exec(compile(tree, filename, "exec"), {"__name__": "__case__"})
    out[name] = sorted(retraces.lines)
print(json.dumps(out))
"""


def _retraced(cases: list[tuple[str, str, str]], x64: bool) -> dict[str, list[int]]:
    environment = {**os.environ, "JAX_ENABLE_X64": "1" if x64 else "0", "JAX_PLATFORMS": "cpu"}
    done = subprocess.run([sys.executable, "-c", _RUNNER], input=json.dumps(cases), capture_output=True, text=True,
                          env=environment, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _flagged(code: str, x64: str) -> list[int]:
    found = lint_source(code.encode(), "example.py", Settings(x64=x64), frozenset({CODE}))
    return sorted({d.line for d in found if d.code == CODE})


EXAMPLES = [(f"{kind}-{index}", example) for kind in ("invalid", "valid")
            for index, example in enumerate(getattr(JitRetrace, kind))]  # fmt: skip
# Each example in each x64 mode it may run in: both, unless it names one.
RUNS = [(name, example, x64) for name, example in EXAMPLES for x64 in (False, True)
        if example.x64 == "auto" or (example.x64 == "on") == x64]  # fmt: skip


@functools.cache
def _run(x64: bool) -> dict[str, list[int]]:
    """The lines each example and the fixture compile a function again at, run once per mode."""
    cases = [(name, f"<{name}>", textwrap.dedent(example.code)) for name, example, on in RUNS if on == x64]
    cases.append(("fixture", str(FIXTURE), FIXTURE.read_text()))
    return _retraced(cases, x64)


@pytest.mark.parametrize(("name", "example", "x64"), RUNS,
                         ids=[f"{name}-x64-{'on' if x64 else 'off'}" for name, _, x64 in RUNS])  # fmt: skip
def test_example_fires_exactly_where_jax_compiles_again(name, example, x64) -> None:
    retraced = _run(x64)[name]
    code = textwrap.dedent(example.code)
    assert _flagged(code, "on" if x64 else "off") == retraced, code
    mode = f"x64 {'on' if x64 else 'off'}"
    if name.startswith("invalid"):
        assert retraced, f"the invalid example compiles once only with {mode}:\n{code}"
    else:
        assert not retraced, f"the valid example compiles again with {mode}:\n{code}"
    if example.x64 == "auto" and not x64:  # the mode the documentation's example is linted in
        assert _flagged(code, "auto") == retraced


@pytest.mark.parametrize("mode", ["default", "x64"])
def test_fixture_expects_exactly_the_lines_jax_compiles_again(mode) -> None:
    retraced = _run(mode == "x64")["fixture"]
    lines = sorted(line for name, line, code in expected(mode) if name == FIXTURE.name and code == CODE)
    assert lines == retraced
    assert len(lines) >= 5
