# Reductions and linalg of Python scalars: JAX reads the scalar in the mode's default dtype and
# the result is strong (float32/int32 with x64 off), unlike elementwise functions (weak).
y = jnp.mean(6.0)
y2 = jnp.sum(2 * 3.0)
y3 = jnp.min(3)
y4 = jnp.max(2.5)
# ---
y = jnp.prod(2.0)
y2 = jnp.abs(2.0)
y3 = jnp.sqrt(2)
y4 = jnp.sum(True)
# ---
y = jnp.cumsum(2.0)
y2 = jnp.var(3)
y3 = jnp.std(2.0)
y4 = jnp.argmax(2.0)
# ---
y = jnp.nansum(2.0)
y2 = jnp.ptp(2)
y3 = jnp.sum(1j)
y4 = jnp.amax(2)
# ---
y = jnp.mean(3)
y2 = jnp.linalg.norm(3.0)
y3 = jnp.cumprod(2)
# ---
w = jnp.asarray(2.0)
y = jnp.sum(w)
y2 = jnp.max(w)
# ---
y = np.mean(6.0)
y2 = np.sum(3)
y3 = np.max(2.5)
# ---
y = jnp.mean(6.0) + np.float32(1)
y2 = jnp.sum(2) * jnp.ones(3, jnp.int8)
