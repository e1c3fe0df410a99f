"""``jnp.vectorize`` as interpax, dynamiqs, flowjax and neural-tangents call it: the function's
result for its positional arguments converted with ``jnp.asarray`` (a library function such as
``jnp.matmul``, a lambda, a decorated function with ``excluded`` positions passed as they are).

The program is run for real in each mode, and reveal must claim what running gives at every
name (the error's class where it raises); without the change every name is unknown."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from promolint.driver.reveal import reveal_records_many
from promolint.engine.walker.analysis import Settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

from workers import worker_environment  # noqa: E402

PROGRAM = """
from functools import partial
import numpy as np
import jax.numpy as jnp

A_CUBIC = np.array([[1, 0], [0, 1]])
F = jnp.ones((3, 2), jnp.float32)
coef = jnp.vectorize(jnp.matmul, signature="(n,n),(n)->(n)")(A_CUBIC, F)
scaled = jnp.vectorize(lambda x, y: x * y)(F, 2.0)
weak = jnp.vectorize(lambda x: x)(2.0)


@partial(jnp.vectorize, signature="(n)->(n,n)", excluded={1})
def diag(v, offset):
    return jnp.diag(v, offset) * 1.5


diagonal = diag(F, 0)
"""
NAMES = ("coef", "scaled", "weak", "diagonal")
MODES = {"x64 off": ({}, Settings(x64="off")), "x64 on": ({"JAX_ENABLE_X64": "1"}, Settings(x64="on")),
         "strict": ({"JAX_NUMPY_DTYPE_PROMOTION": "strict"}, Settings(promotion="strict"))}  # fmt: skip

_RUN = """
import json, sys
names = {}
try:
    exec(sys.stdin.read(), names)
except Exception as error:
    print(json.dumps({"raised": type(error).__name__}))
else:
    print(json.dumps({n: [str(names[n].dtype), bool(names[n].weak_type)] for n in %r}))
""" % (NAMES,)


def _ran(environment: dict[str, str]) -> dict:
    process = subprocess.run([sys.executable, "-c", _RUN], input=PROGRAM, capture_output=True, text=True, timeout=300,
                             env=worker_environment(**environment))  # fmt: skip
    assert process.returncode == 0, process.stderr[-3000:]
    return json.loads(process.stdout)


@pytest.mark.parametrize("mode", list(MODES))
def test_reveal_gives_what_running_gives(mode: str) -> None:
    environment, settings = MODES[mode]
    ran = _ran(environment)
    records = reveal_records_many(PROGRAM.encode(), [settings])[0]
    claims = {r["text"]: r for r in records if r["target"] and r["text"] in NAMES}
    if "raised" in ran:  # strict: jnp.matmul of int and float32 raises at the first name
        assert claims["coef"]["error"] is not None and ran["raised"] in claims["coef"]["error"]
        return
    for name, (dtype, weak) in ran.items():
        claim = claims[name]
        assert (claim["dtype"], claim["weak"], claim["library"]) == (dtype, weak, "jax"), (mode, name)
