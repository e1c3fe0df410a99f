"""A field assigned from a parameter holds what that parameter may be, also where the program
makes the object with its own caller's value (``promolint.engine.values.Among``): numpyro's
``LKJ.__init__`` makes ``LKJCholesky(dimension, ...)``, whose ``__init__`` assigns
``self.dimension = dimension`` of an ``int`` and counts with ``self.dimension - 1``.  Before, the
caller's value made the field unknown to the class's own methods, and so a variable over every
numeric value.  Linted uncalled, the class below that mixes such a range with a Python float is
reported under strict promotion; run under real JAX, it raises for every integer a caller can pass,
and the one that is not reported runs for a float."""

from __future__ import annotations

import json
import textwrap

import jax_calls
import pytest
from cli_run import run

SOURCE = textwrap.dedent("""\
    import jax.numpy as jnp


    class Onion:
        def __init__(self, dimension: int):
            self.dimension = dimension
            self.offset = 0.5 * jnp.arange(self.dimension - 1)


    class Correlation:
        def __init__(self, dimension: int):
            self.base = Onion(dimension)


    class Ramp:
        def __init__(self, width):
            self.width = width
            self.steps = 0.5 * jnp.arange(self.width)


    class Ramps:
        def __init__(self, width):
            self.ramp = Ramp(width)
""")
INTEGERS = ("5", "np.int64(5)", "np.uint8(5)", "jnp.int32(5)", "jnp.uint32(5)")


def _line(text: str) -> int:
    return next(number for number, line in enumerate(SOURCE.splitlines(), 1) if text in line)


def test_a_field_from_an_int_parameter_counts_where_a_caller_makes_the_object(capsys, tmp_path):
    path = tmp_path / "onion.py"
    path.write_text(SOURCE)
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--promotion", "strict",
                    "--x64", "off", str(path))  # fmt: skip
    found = [(f["line"], f["code"]) for f in json.loads(out)]
    assert found == [(_line("jnp.arange(self.dimension - 1)"), "PRM004")]
    assert "follows `self.dimension`" in json.loads(out)[0]["message"]


@pytest.mark.parametrize("argument", INTEGERS)
def test_what_is_reported_raises_for_every_integer(argument):
    raised = jax_calls.raised(SOURCE, [f"Correlation({argument})", f"Onion({argument})"])
    assert set(raised.values()) == {"TypePromotionError"}, raised


def test_what_is_not_reported_runs_for_a_float():
    assert jax_calls.raised(SOURCE, ["Ramps(2.5)"]) == {"Ramps(2.5)": None}
