"""Measure JAX's type promotion in one mode and print it as JSON.

The mode comes from the environment (JAX_ENABLE_X64, JAX_NUMPY_DTYPE_PROMOTION,
JAX_EXPLICIT_X64_DTYPES), which JAX reads once at import: that is why each mode needs its own
process. Every answer is recorded as JAX gives it, an exception included; nothing is interpreted.
"""

from __future__ import annotations

import itertools
import json
import sys
import warnings

import jax
import jax.numpy as jnp
import numpy as np
from jax._src import dtypes as jax_dtypes

from promolint.systems.jax_versions import facts_for

PYTHON_TYPES = {"int": int, "float": float, "complex": complex}
# Arrays that cannot take part in real expressions on CPU (facts §1, "CPU quirks"): float6 arrays
# cannot be created, uint1 ones fail to lower, and once an int1 array exists in a process a later
# bool array can come back as int1. These dtypes meet the others through promote_types only.
NOT_CREATABLE = {"float6_e2m3fn", "float6_e3m2fn", "uint1", "int1"}
PYTHON_SCALARS = {"int": 1, "float": 1.0, "complex": 1j, "bool": True}


def outcome(compute) -> dict:
    try:
        value = compute()
    except Exception as error:  # every exception is data: the test decides which are refusals
        return {"error": type(error).__name__, "message": str(error)}
    if isinstance(value, tuple):  # result_type(..., return_weak_type_flag=True)
        return {"dtype": value[0].name, "weak": bool(value[1])}
    if isinstance(value, np.dtype):  # promote_types
        return {"dtype": value.name}
    return {"dtype": value.dtype.name, "weak": jax.typeof(value).weak_type}  # a traced expression


def jax_only(value):
    # NumPy defers to JAX arrays (__array_priority__); if it ever computed the sum itself, the
    # answer would be NumPy's, not JAX's.
    if not isinstance(value, jax.Array):
        raise TypeError(f"not computed by JAX: {type(value).__name__}")
    return value


def traced_sums(pairs) -> list[dict]:
    """``x + y`` for each pair, all inside one trace.

    Tracing runs the real operator (dispatch, jnp.add, promotion) and fixes dtype and weak_type,
    without compiling an XLA kernel per dtype pair, which would take minutes.
    """
    outcomes = []

    def sums():
        outcomes.extend(outcome(lambda: jax_only(x + y)) for x, y in pairs)

    jax.eval_shape(sums)
    return outcomes


def main() -> None:
    # the dtypes promolint models: a newer JAX's others are facts of their own (JaxFacts.unmodelled_dtypes)
    unmodelled = facts_for(jax.__version__).unmodelled_dtypes
    names = [str(t) for t in jax_dtypes._jax_types if str(t) not in unmodelled]
    specs = {name: np.dtype(name) for name in names} | PYTHON_TYPES
    numpy_native = [name for name in names if np.dtype(name).type.__module__ == "numpy"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # explicit-x64 truncation warnings: not promotion results
        # Arrays of every dtype, strong and weak. JAX never narrows an existing array, so 64-bit
        # arrays from jax.enable_x64 code (or explicit x64 'allow') meet x64-off code, and 32-bit
        # weak ones x64 code: make them with x64 both on and off. (device_put, not jnp.ones, which
        # compiles a kernel per dtype.)
        with jax.enable_x64(True):
            arrays = {("array", n): jax.device_put(np.ones(3, n)) for n in names if n not in NOT_CREATABLE}
        for x64 in (True, False):
            with jax.enable_x64(x64):
                weak = [jnp.asarray(value) for value in (1, 1.0, 1j)] + [jnp.asarray(1) < 2]
            arrays |= {("weak_array", array.dtype.name): array for array in weak}
        # Operands beside the arrays, each keyed by how the test describes it: [origin, type].
        others = {("python", kind): value for kind, value in PYTHON_SCALARS.items()}
        others |= {("numpy_scalar", name): np.dtype(name).type(1) for name in numpy_native}
        others |= {("numpy_array", name): np.array(1, name) for name in numpy_native}
        operands = list(arrays.items())
        expressions = list(itertools.product(operands, repeat=2))
        for array, other in itertools.product(operands, others.items()):
            expressions += [(array, other), (other, array)]

        report = {
            "config": {
                "x64": jax.config.jax_enable_x64,
                "promotion": jax.config.jax_numpy_dtype_promotion,
                "explicit_x64": jax.config.jax_explicit_x64_dtypes.name.lower(),
            },
            "nodes": list(specs),
            "defaults": {kind: make().name for kind, make in jax_dtypes.default_types.items()},
            "promote_types": [
                [a, b, outcome(lambda: jnp.promote_types(specs[a], specs[b]))]
                for a, b in itertools.product(specs, repeat=2)
            ],
            # All ordered pairs, and every multiset of three for the n-ary rules (all weak, all equal).
            "result_type": [
                [list(args), outcome(lambda: jax.dtypes.result_type(*map(specs.get, args), return_weak_type_flag=True))]
                for args in itertools.chain(
                    itertools.product(specs, repeat=2), itertools.combinations_with_replacement(specs, 3)
                )
            ],
            "expressions": [
                [left, right, result]
                for ((left, _), (right, _)), result in zip(
                    expressions, traced_sums([(x, y) for (_, x), (_, y) in expressions])
                )
            ],
        }
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
