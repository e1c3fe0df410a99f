# result_type / promote_types used where they matter: as the dtype of new arrays (facts K*).
# K04
x = jnp.zeros(3, jnp.result_type(jnp.int8, float))
# ---
# K09
x = jnp.ones(2, jnp.promote_types(int, float))
# ---
# K13
x = jnp.zeros(2, jnp.result_type(np.uint64, np.int64))
# ---
# K22
x = jnp.zeros(2, jnp.promote_types(np.uint64, np.int64))
# ---
# K23
x = jnp.zeros(2, dtype=jnp.promote_types(bool, int))
# ---
# K26
x = jnp.zeros(2, jnp.result_type(jnp.int8, None))
# ---
# K27
x = jnp.zeros(2, jnp.promote_types(np.uint32, np.int64))
# ---
# J43
x = jnp.zeros(2, jnp.promote_types(np.int64, jnp.float8_e5m2))
# ---
dt = jnp.result_type(i8, f16)
y = i8.astype(dt)
# ---
dt = jnp.result_type(i8, 1.0)
y = jnp.zeros(3, dt)
# ---
dt = jnp.result_type(f16, 1.0)
y = jnp.ones(3, dtype=dt)
# ---
out = jnp.empty(3, dtype=jnp.result_type(f32, c64))
# ---
x = np.zeros(3, np.result_type(np.int8, int))
y = np.zeros(3, np.result_type(np.int8, 1))
z = np.zeros(3, np.result_type(np.float16, float))
w = np.zeros(3, np.result_type(np.float16, 1.0))
# ---
x = np.zeros(2, np.result_type(1, 1.0))
y = np.zeros(2, np.result_type(np.float32, complex))
z = np.zeros(2, np.result_type(np.float32, 1j))
# ---
x = np.ones(2, np.promote_types(np.int8, int))
y = np.ones(2, np.promote_types("float16", float))
z = np.ones(2, np.promote_types(bool, int))
# ---
x = np.zeros(2, np.result_type(np.float32, None))
# ---
dt = np.result_type(a_i8, a_f16)
y = a_i8.astype(dt)
# ---
dt = np.promote_types(a_i32.dtype, a_f32.dtype)
y = np.zeros(3, dt) + a_f32
