# promolint mypy plugin golden output -- mypy 2.4.1, config x64-on: {"extend-select": ["PRM001"], "x64": "on"}
# ruff: noqa: F821
"""Calls: creation with dtypes, methods, jax.lax, NumPy functions of JAX arrays."""
import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.numpy import float64 as F64
from jax.numpy import zeros

z = jnp.zeros(3, dtype=jnp.float64)
s = jnp.float64(1)
c = jnp.ones(3).astype("float64")
ok = jnp.zeros(3, dtype=jnp.float32)
builtin = jnp.array(1.0, dtype=float)
aliased = zeros(3, F64)
host = np.zeros(3, dtype=np.float64)

x = jnp.ones(3, jnp.int8)
bad = jax.lax.add(x, 1)
# MYPY: error: lax.add requires arguments to have the same dtypes, got int8, int64. Use jnp.add, which promotes, or cast the operands to one dtype.  [promolint-lax-dtype-mismatch]
good = jax.lax.add(x, jnp.int8(1))
also = jax.lax.mul(jnp.ones(3, jnp.float32), 2.0)
# MYPY: error: lax.mul requires arguments to have the same dtypes, got float32, float64. Use jnp.multiply, which promotes, or cast the operands to one dtype.  [promolint-lax-dtype-mismatch]

h = jnp.ones(3, jnp.float16)
eps = h * jnp.finfo(jnp.float32).eps
own_eps = h * jnp.finfo(h.dtype).eps
mean = jnp.mean(np.ones(30)) + jnp.ones(3, jnp.float32)
# MYPY: error: `np.ones(30)` is float64 (np.ones defaults to float64), which no operand asked for: from here it widens float32 `jnp.ones(3, jnp.float32)` to float64 at line 27. Give it the narrower dtype (`np.zeros(n, np.float32)`), or cast it.  [promolint-implicit-x64]
root = x / math.sqrt(10)
widened = x.astype(jnp.int32) + 1000
row = x[0] + 1000
# MYPY: error: 1000 does not fit int8 [-128, 127]; JAX converts it anyway: it wraps silently to -24. Cast the array to a wider dtype first.  [promolint-literal-overflow]
reveal_type(jnp.float32)
# MYPY: note: Revealed type is "def (Any =) -> jax._src.basearray.Array"
reveal_type(jnp.float32(1))
# MYPY: note: Revealed type is "jax._src.basearray.Array"
