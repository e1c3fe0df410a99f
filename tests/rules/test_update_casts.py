"""PRM009 on JAX's functional updates (``x.at[i].set(v)`` and its kin), judged by running each line
under the installed JAX in both x64 modes: a line is reported exactly where JAX warns "scatter
inputs have incompatible types" (a FutureWarning now, an error in future releases), the value
narrowed to the array's dtype.  jax-gcm issue 770 (a float64 default set into a float32 array
under x64) and apax issue 66 (an int64 index into an int32 array) are two of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from cli_run import run

SETUP = """\
import jax.numpy as jnp
import numpy as np
idx = jnp.arange(3)
"""

CASES = {
    "float64_default_into_float32": "out = jnp.ones(4, jnp.float32).at[0].set(jnp.zeros(3).sum() + 1e-3)",
    "int64_index_into_int32": "out = jnp.zeros(10, dtype=jnp.int32).at[idx].set(idx + 5)",
    "python_float_added_to_int32": "out = jnp.zeros(3, jnp.int32).at[0].add(0.5)",
    "python_int_added_to_int32": "out = jnp.zeros(3, jnp.int32).at[0].add(1)",
    "float32_into_bfloat16": "out = jnp.zeros(3, jnp.bfloat16).at[0].set(jnp.float32(1))",
    "int32_into_float32": "out = jnp.zeros(3, jnp.float32).at[0].set(jnp.int32(2))",
    "float32_into_complex64": "out = jnp.zeros(3, jnp.complex64).at[1].multiply(jnp.float32(2))",
    "numpy_float64_scalar_into_float32": "out = jnp.zeros(3, jnp.float32).at[0].max(np.float64(1.5))",
    "weak_value_into_float32": "out = jnp.zeros(3, jnp.float32).at[0].set(jnp.asarray(1.0))",
}
FLAGS = {"x64": ["--x64", "on"], "x32": ["--x64", "off"]}

RUNNER = """
import json, sys, warnings
setup, cases = sys.argv[1], json.loads(sys.argv[2])
warned = {}
for name, statement in cases.items():
    namespace = {}
    exec(setup, namespace)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(statement, namespace)
    warned[name] = any("scatter inputs have incompatible types" in str(w.message) for w in caught)
print(json.dumps(warned))
"""


@pytest.fixture(scope="module", params=list(FLAGS))
def mode_and_warned(request) -> tuple[str, dict]:
    mode = request.param
    environment = {**os.environ, "JAX_PLATFORMS": "cpu", "JAX_ENABLE_X64": "1" if mode == "x64" else "0"}
    done = subprocess.run([sys.executable, "-c", RUNNER, SETUP, json.dumps(CASES)], capture_output=True, text=True,
                          check=True, timeout=300, env=environment)  # fmt: skip
    return mode, json.loads(done.stdout)


def test_reported_exactly_where_jax_warns_that_it_narrows(capsys, tmp_path, mode_and_warned) -> None:
    mode, warned = mode_and_warned
    lines = SETUP.splitlines()
    path = tmp_path / "updates.py"
    path.write_text("\n".join([*lines, *CASES.values()]) + "\n")
    _, out, _ = run(capsys, "check", "--no-cache", "--output-format", "json", "--select", "PRM009", *FLAGS[mode],
                    str(path))  # fmt: skip
    reported = {f["line"] for f in json.loads(out)}
    expected = {len(lines) + 1 + i for i, name in enumerate(CASES) if warned[name]}
    assert reported == expected, (mode, warned)
    assert warned["float64_default_into_float32"] == (mode == "x64")  # the cases tell the modes apart
