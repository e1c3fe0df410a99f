"""A value that raises at every member of its variables raises what it raises where the program
reaches it: at the members where an operand raised first (a Python scalar has no ``shape``),
the operation never runs (``promolint.engine.symbolic.members.raised_where_reached``).  So
``-1j * jnp.pi * jnp.arange(y.shape[0])`` is reported under strict promotion, a default rule's
finding, and ``reveal`` names its TypePromotionError, not the AttributeError of an input it
cannot take.  ``1 - (action == target)`` runs for Python scalars and is not reported.  Each
outcome is the one running the function under real JAX gives."""

from __future__ import annotations

import json
import textwrap

import jax_calls
from cli_run import run

SOURCE = textwrap.dedent("""\
    import jax.numpy as jnp


    def spectrum(y):
        ks = jnp.arange(y.shape[0])
        return jnp.exp(-1j * jnp.pi * ks / 2)


    def missed(action, target):
        correct = action == target
        return 1 - correct
""")
# What each call raises under strict promotion (None: it runs).
CALLS = {"spectrum(jnp.ones(3))": "TypePromotionError", "spectrum(jnp.ones(3, jnp.int32))": "TypePromotionError",
         "spectrum(jnp.ones(3, bool))": "TypePromotionError", "spectrum(2.0)": "AttributeError",
         "missed(1, 1)": None, "missed(jnp.int32(1), jnp.int32(1))": "TypePromotionError"}  # fmt: skip


def test_reported_where_every_input_that_reaches_it_raises(capsys, tmp_path):
    path = tmp_path / "signals.py"
    path.write_text(SOURCE)
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--promotion", "strict",
                    "--x64", "off", str(path))  # fmt: skip
    assert [(f["code"], f["line"]) for f in json.loads(out)] == [("PRM004", 6)]
    _, out, _ = run(capsys, "reveal", "--promotion", "strict", "--x64", "off", str(path))
    (product,) = [line for line in out.splitlines() if ":6:20: -1j * jnp.pi * ks:" in line]
    assert "TypePromotionError" in product and "(whatever y is)" in product


def test_the_calls_raise_as_claimed():
    assert jax_calls.raised(SOURCE, CALLS) == CALLS
