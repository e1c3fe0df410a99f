"""PRM006 on the conversions of a Python int that does not fit its integer dtype, judged by running
each line under the installed NumPy and JAX: where it raises OverflowError, PRM006 says so; where
it runs and stores another value (it wrapped), PRM006 says it wraps and to what; where it stores
the int itself, nothing is reported.  NumPy's ``where`` wraps before NumPy 2.5 (the NumPy issue
27006 reports it) and its ``full`` raises; JAX's ``full`` wraps; ``np.iinfo(...).min`` is a Python
int whose value the conversions meet (ascat's issue 65)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from cli_run import run

SETUP = """\
import jax.numpy as jnp
import numpy as np
mask = np.array([True, False])
"""

# name: (the statement, the int it converts, the expression whose first element holds it)
CASES = {
    "numpy_where_wraps": ("out = np.where(mask, -1, np.zeros(2, np.uint8))", -1, "out"),
    "numpy_where_wraps_high": ("out = np.where(mask, np.zeros(2, np.uint8), 300)", 300, "out[1:]"),
    "numpy_where_fits": ("out = np.where(mask, 7, np.zeros(2, np.uint8))", 7, "out"),
    "numpy_full_raises": ("out = np.full(3, 300, np.uint8)", 300, "out"),
    "numpy_full_like_raises": ("out = np.full_like(np.zeros(2, np.uint8), -1)", -1, "out"),
    "numpy_full_fits": ("out = np.full(3, 255, np.uint8)", 255, "out"),
    "jax_full_wraps": ("out = jnp.full(3, 300, jnp.uint8)", 300, "out"),
    "jax_full_like_wraps": ("out = jnp.full_like(jnp.zeros(2, jnp.uint8), -1)", -1, "out"),
    "jax_full_wide_shape": ("out = jnp.full((1000,), 1, jnp.uint8)", 1, "out"),
    "iinfo_into_uint8": ("out = np.zeros(2, np.uint8); out[0] = np.iinfo(np.int8).min", -128, "out"),
    "iinfo_into_int8": ("out = np.zeros(2, np.int8); out[0] = np.iinfo(np.int8).min", -128, "out"),
}

RUNNER = """
import json, sys, warnings
warnings.simplefilter("ignore")
setup, cases = sys.argv[1], json.loads(sys.argv[2])
found = {}
for name, (statement, literal, held) in cases.items():
    namespace = {}
    exec(setup, namespace)
    try:
        exec(statement, namespace)
        found[name] = int(eval(held, namespace).ravel()[0])
    except Exception as error:
        found[name] = type(error).__name__
print(json.dumps(found))
"""


@pytest.fixture(scope="module")
def outcomes() -> dict:
    done = subprocess.run([sys.executable, "-c", RUNNER, SETUP, json.dumps(CASES)], capture_output=True, text=True,
                          check=True, timeout=300, env={**os.environ, "JAX_PLATFORMS": "cpu"})  # fmt: skip
    return json.loads(done.stdout)


@pytest.mark.parametrize("name", CASES)
def test_prm006_says_what_the_conversion_does(capsys, tmp_path, outcomes, name) -> None:
    statement, literal, _ = CASES[name]
    path = tmp_path / "snippet.py"
    path.write_text(SETUP + statement.replace("; ", "\n") + "\n")
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--select", "PRM006", str(path))
    messages = [f["message"] for f in json.loads(out)]
    outcome = outcomes[name]
    if outcome == "OverflowError":
        assert len(messages) == 1 and messages[0].startswith("OverflowError at run time"), (outcome, messages)
    elif outcome != literal:  # it ran and stored another value: it wrapped, to that value
        assert len(messages) == 1 and re.search(rf"wraps silently to {outcome}\.", messages[0]), (outcome, messages)
    else:
        assert messages == [], (outcome, messages)
