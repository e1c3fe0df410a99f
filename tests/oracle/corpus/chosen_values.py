# Values chosen by a test: an isinstance test a number's library settles, and a parameter that
# may be None given a fallback.  getattr hides the dtypes from the engine: each function is
# analysed with its parameter of any dtype, and the branch the test takes is what it gives.
def to_float(x):
    if isinstance(x, np.ndarray):
        y = x.astype(np.float32)
    else:
        y = jnp.asarray(x, jnp.float16)
    return y

for name in ("int8", "float64"):
    y = to_float(np.ones(3, getattr(np, name)))
    y2 = to_float(jnp.ones(3, getattr(jnp, name)))
# ---
def halved(x):
    h = x if isinstance(x, (slice, tuple)) else x / 2
    return h

for name in ("int16", "bfloat16"):
    y = halved(jnp.ones(3, getattr(jnp, name)))
    y2 = halved(np.ones(3, getattr(np, name if name != "bfloat16" else "float16")))
# ---
def scaled(x, scale=None):
    factor = scale if scale is not None else 2.0
    return x * factor

for name in ("float32", "int8"):
    y = scaled(jnp.ones(3, getattr(jnp, name)))
    y2 = scaled(jnp.ones(3, getattr(jnp, name)), jnp.ones(3, getattr(jnp, name)))
# ---
def offset(x, shift: jax.Array | None = None):
    if shift is None:
        shift = jnp.zeros((), x.dtype)
    return x - shift

for name in ("bfloat16", "uint8"):
    y = offset(jnp.ones(3, getattr(jnp, name)))
    y2 = offset(jnp.ones(3, getattr(jnp, name)), jnp.ones((), getattr(jnp, name)))
# ---
a = isinstance(np.ones(3), np.ndarray)
a2 = isinstance(jnp.ones(3), jax.Array)
a3 = isinstance(np.float32(1), float)
a4 = isinstance(1, float)
y = np.ones(3, np.int8) if isinstance(np.ones(3), jax.Array) else np.ones(3, np.float16)
y2 = f16 if isinstance(2.0, float) else i8
# ---
# A name bound to None on one path and to an array on another: a test that it is not None
# narrows it to the array; `argsort` keeps its input's dimensions.
s = np.ones((2, 3), np.float32)
order = None if s[0, 0] > 2 else np.argsort(s)
if order is not None:
    y = np.take_along_axis(s, order, axis=-1)
y2 = np.argsort(s)
y3 = s[0][np.argsort(s[0])]
y4 = s[0][np.argsort(s[0])[None]]
