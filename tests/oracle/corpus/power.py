# JAX's ** and jnp.power (operations.jax_power): a concrete integer exponent goes to
# lax.integer_pow, where the base alone decides; other integer exponents of an inexact base
# keep the base's dtype.
y = i32 ** np.uint32(2)
y2 = i8 ** 2**40
y3 = b ** 2
y4 = 1000 ** jnp.uint32(2)
y5 = jnp.asarray(3) ** jnp.asarray(True)
y6 = jnp.asarray(2.0) ** a_i64
y7 = s_f16 ** u8
y8 = f16 ** jnp.int32(2)
y9 = jnp.power(i8, s_u8)
y10 = i8 ** u8
y11 = b ** b
y12 = a_b ** jnp.int32(2)
y13 = 1.5 ** i32
# ---
y = i32 ** -2
# ---
y = jnp.power(u8, -1)
# ---
y = f32 ** -2
y2 = c64 ** True
# ---
# NumPy: ndarray ** 2 is np.square of the base (no bool loop: int8); other exponents promote.
y = a_b ** 2
y2 = np.array(True) ** 2
y3 = a_b ** 3
y4 = s_b ** 2
y5 = a_i8 ** 2
# ---
# ml_dtypes' sub-byte integers have no __index__: not concrete exponents, so they promote (and refuse).
y = i32 ** np.int8(1).astype(jnp.int4)
# ---
y = jnp.power(f32, np.array(1, jnp.uint4))
# ---
y = f32 ** np.int8(1).astype(jnp.int2)
