"""What the engine claims for a JAX comparison whose other operand's dtype it does not know.

It claims ``bool`` (comparisons almost always succeed), except beside a dtype that real JAX
refuses to compare with every one of NumPy's own numeric dtypes: there the comparison is likely
to raise, and the engine claims nothing.  Which dtypes those are is measured here with JAX (x64 off, standard promotion),
in a subprocess so that this process's JAX settings do not matter."""

from __future__ import annotations

import json
import subprocess
import sys

from promolint.core.dtypes import DTYPES, NUMPY_NATIVE
from promolint.engine import operations
from promolint.engine.context import Context
from promolint.engine.values import Array, Library
from tests.oracle.workers import worker_environment

_PROBE = """
import json, sys
import jax.numpy as jnp
import ml_dtypes
names = json.loads(sys.stdin.read())
arrays = {}
for name in names:
    try:
        array = jnp.ones(3, getattr(ml_dtypes, name, name))  # NumPy reads "int1" as int8
    except Exception:
        continue
    if str(array.dtype) == name:  # not narrowed (x64 off) nor otherwise canonicalized
        arrays[name] = array
refused = {}
for name, array in arrays.items():
    refused[name] = []
    for other_name, other in arrays.items():
        try:
            other < array
        except Exception:
            refused[name].append(other_name)
print(json.dumps(refused))
"""


def test_a_comparison_with_an_unknown_operand_claims_bool_unless_jax_mostly_refuses_its_partner() -> None:
    process = subprocess.run([sys.executable, "-c", _PROBE], input=json.dumps(sorted(DTYPES)), capture_output=True,
                             text=True, env=worker_environment(JAX_ENABLE_X64="0"), timeout=300, check=False)  # fmt: skip
    assert process.returncode == 0, process.stderr[-2000:]
    refused = json.loads(process.stdout)
    unknown = Array(frozenset(), Library.JAX, None)
    wrong = []
    for name, partners in sorted(refused.items()):
        numeric = {other for other in NUMPY_NATIVE if other in refused and other not in (name, "bool")}
        shy = numeric <= set(partners)
        claim = operations.compare("<", unknown, Array(frozenset([name]), Library.JAX, False), Context())
        claims_bool = isinstance(claim, Array) and claim.dtypes == {"bool"}
        if claims_bool == shy:
            wrong.append(f"{name}: JAX refuses it beside {sorted(partners)}; the engine claims {claim}")
    assert not wrong, "\n".join(wrong)
