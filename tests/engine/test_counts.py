"""What a function counts with is an integer: a parameter (or a field of one) that is
``arange``'s only bound, or its stop after an int start, directly or through integer arithmetic
(``promolint.engine.walker.counts``).  Linted uncalled, as a library's functions are, the
functions below that mix such a range with a Python float are reported under strict promotion;
run under real JAX, each of those raises for every integer a caller can pass, of every library,
and each of the others runs for some argument."""

from __future__ import annotations

import ast
import json
import textwrap

import jax_calls
import pytest
from cli_run import run

from promolint.engine.walker.counts import counted

SOURCE = textwrap.dedent("""\
    import dataclasses

    import jax.numpy as jnp


    def half_steps(n):
        return 0.5 * jnp.arange(n)


    def from_one(n):
        return jnp.arange(1, n + 1) / 2.0


    def through_local(d):
        dm1 = d - 1
        return 0.5 * jnp.arange(dm1)


    def annotated(n: int):
        return 0.5 * jnp.arange(n)


    def defaulted(n=10):
        return jnp.arange(n) * 0.5


    def stepper(n):
        def step(i):
            return 0.5 * jnp.arange(n) + i
        return step


    class Schedule:
        def __init__(self, size):
            self.size = size

        def weights(self):
            return -jnp.arange(self.size) / 2.0


    @dataclasses.dataclass
    class Grid:
        size: int

        def centres(self):
            return jnp.arange(self.size) + 0.5


    def float_annotation(n: float):
        return 0.5 * jnp.arange(n)


    def float_start(n):
        return 0.5 * jnp.arange(0.0, n)


    def with_step(n):
        return 0.5 * jnp.arange(0, n, 2)


    def reassigned(n):
        n = n / 2
        return 0.5 * jnp.arange(n)
""")
REPORTED = {"half_steps": "{n}", "from_one": "{n}", "through_local": "{n}", "annotated": "{n}", "defaulted": "{n}",
            "stepper": "{n})(1.0", "Schedule": "{n}).weights(", "Grid": "{n}).centres("}  # fmt: skip
RUNS_FOR = {"float_annotation": "2.5", "float_start": "3.5", "with_step": "3.5", "reassigned": "5"}
INTEGERS = ("5", "np.int64(5)", "np.uint8(5)", "jnp.int32(5)", "jnp.uint32(5)")


def _line_of(name: str) -> int:
    lines = SOURCE.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith((f"def {name}(", f"class {name}")))
    return next(i for i in range(start + 1, len(lines)) if lines[i].lstrip().startswith("return ")) + 1


def test_what_counts_is_reported_under_strict_promotion(capsys, tmp_path):
    path = tmp_path / "ranges.py"
    path.write_text(SOURCE)
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--promotion", "strict",
                    "--x64", "off", str(path))  # fmt: skip
    found = sorted((f["line"], f["code"]) for f in json.loads(out))
    assert found == sorted((_line_of(name), "PRM004") for name in REPORTED)


def _called(calls: dict[str, tuple[str, str]]) -> dict[str, str | None]:
    """Each function called with its template's argument (``{n}``), and what it raises."""
    return jax_calls.raised(SOURCE, [name + "(" + template.format(n=argument) + ")"
                                     for name, (template, argument) in calls.items()])  # fmt: skip


@pytest.mark.parametrize("argument", INTEGERS)
def test_what_is_reported_raises_for_every_integer(argument):
    raised = _called({name: (template, argument) for name, template in REPORTED.items()})
    assert set(raised.values()) == {"TypePromotionError"}, raised


def test_what_is_not_reported_runs():
    ran = _called({name: ("{n}", argument) for name, argument in RUNS_FOR.items()})
    assert set(ran.values()) == {None}, ran


@pytest.mark.parametrize(("body", "expected"), [
    ("return jnp.arange(n)", {"n"}),
    ("return np.arange(1, n + 1)", {"n"}),
    ("return jnp.arange(n // 2 - 1)", {"n"}),
    ("k = n - 1\n    return jnp.arange(k)", {"n"}),
    ("return jnp.arange(self.size), jnp.arange(m.depth * 2)", {"self.size", "m.depth"}),
    ("return jnp.arange(0.0, n)", set()),  # a float start: a float range
    ("return jnp.arange(n, dtype=jnp.float32)", set()),
    ("return jnp.arange(n / 2)", set()),
    ("return jnp.arange(len(n))", set()),
    ("n = n + 1\n    return jnp.arange(n)", set()),  # what the body assigns may be another value there
    ("self.size = 3\n    return jnp.arange(self.size)", set()),
    ("def inner(n):\n        return jnp.arange(n)\n    return inner", set()),  # the nested function's own
    ("def body(i):\n        return jnp.arange(n) + i\n    return body", {"n"}),  # its parent's
    ("return lambda i: jnp.arange(m.depth)", {"m.depth"}),
    ("def body(n):\n        return jnp.arange(m.depth)\n    return body", {"m.depth"}),
])
def test_what_a_body_counts_with(body, expected):
    node = ast.parse(f"def f(self, n, m):\n    {body}\n").body[0]
    assert counted(node, ["self", "n", "m"]) == expected
