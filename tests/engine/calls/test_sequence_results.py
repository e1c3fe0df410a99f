"""A function that gives a tuple or list of arrays, called with an operand the engine knows
nothing of (an attribute of an unknown object), is no array of its library: reveal names no
library there.  What each call gives is measured with JAX on a float32 operand."""

from __future__ import annotations

import json
import subprocess
import sys

from promolint.driver.reveal import reveal_records
from promolint.engine.walker.analysis import Settings
from tests.oracle.workers import worker_environment

CALLS = [
    "jnp.linalg.eigh(m)",
    "jnp.linalg.slogdet(m)",
    "jnp.linalg.qr(m)",
    "jnp.linalg.svd(m)",
    "jnp.split(x, 2)",
    "jnp.unique(x, return_counts=True)",
    "jax.lax.top_k(x, 2)",
    "jnp.nonzero(x)",
    "jnp.meshgrid(x, x)",
    "jnp.atleast_1d(x, x)",
    "jax.nn.logsumexp(x, return_sign=True)",
]

_PROBE = """
import json, sys
import jax, jax.numpy as jnp
m = jnp.eye(3, dtype=jnp.float32) * 2
x = jnp.arange(4, dtype=jnp.float32)
print(json.dumps({call: type(eval(call)).__name__ for call in json.loads(sys.stdin.read())}))
"""


def test_calls_giving_sequences_are_no_array_of_their_library() -> None:
    process = subprocess.run([sys.executable, "-c", _PROBE], input=json.dumps(CALLS), capture_output=True, text=True,
                             env=worker_environment(JAX_ENABLE_X64="0"), timeout=300, check=False)  # fmt: skip
    assert process.returncode == 0, process.stderr[-2000:]
    kinds = json.loads(process.stdout)
    assert all(kinds[call] not in ("Array", "ArrayImpl") for call in CALLS), kinds

    lines = ["import jax", "import jax.numpy as jnp", "", "", "def f(obj):", "    m = obj.matrix", "    x = obj.values"]
    lines += [f"    r{i} = {call}" for i, call in enumerate(CALLS)]
    records = reveal_records("\n".join(lines).encode() + b"\n", Settings(x64="off"))
    results = {r["text"]: r for r in records if not r["target"] and r["text"] in CALLS}
    assert sorted(results) == sorted(CALLS)
    claimed = {call: record["library"] for call, record in results.items() if record["library"] is not None}
    assert not claimed, claimed
