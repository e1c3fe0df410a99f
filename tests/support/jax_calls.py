"""Calls of a source's functions run under real JAX, in a fresh process: what each raises."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterable

_RUNNER = """
import json, sys
import jax.numpy as jnp
import numpy as np
namespace = {"jnp": jnp, "np": np}
exec(sys.argv[1], namespace)
out = {}
for call in json.loads(sys.argv[2]):
    try:
        eval(call, namespace)
        out[call] = None
    except Exception as error:
        out[call] = type(error).__name__
print(json.dumps(out))
"""


def raised(source: str, calls: Iterable[str], promotion: str = "strict") -> dict[str, str | None]:
    """Each call (an expression over ``source``'s names, ``jnp`` and ``np``) and the name of the
    exception it raises (None where it runs), with ``jax_numpy_dtype_promotion=promotion``."""
    environment = {**os.environ, "JAX_PLATFORMS": "cpu", "JAX_NUMPY_DTYPE_PROMOTION": promotion}
    done = subprocess.run([sys.executable, "-c", _RUNNER, source, json.dumps(list(calls))], capture_output=True,
                          text=True, check=True, timeout=300, env=environment)  # fmt: skip
    return json.loads(done.stdout)
