# Calls that give several arrays: split, meshgrid, broadcast_arrays, lax.top_k, tril_indices.
wk = jnp.asarray([2.0, 1.0, 0.5])
p1, p2, p3 = jnp.split(f32, 3)
q1, q2 = jnp.array_split(i32, 2)
r1, r2, r3 = jnp.split(b, 3)
s1 = jnp.split(wk, 3)[0]
t1, t2 = jnp.split(m_f32, 2, axis=1)
u = jnp.split(f64, 3)[1]
# ---
p1, p2, p3 = np.split(a_f32, 3)
q1, q2 = np.array_split(a_i32, 2)
r = np.split(a_b, 3)[0]
# ---
x1, x2 = jnp.meshgrid(f32, i8)
y1, y2 = jnp.meshgrid(b, f64)
z1, z2 = jnp.meshgrid(jnp.asarray([1.0, 2.0]), f16)
w1, w2 = np.meshgrid(a_f32, a_i8)
v1, v2 = np.meshgrid(a_b, a64, indexing="ij")
# ---
x1, x2 = jnp.broadcast_arrays(m_f32, jnp.ones(2, jnp.int8))
y1, y2 = jnp.broadcast_arrays(2.0, f16)
z1, z2 = jnp.broadcast_arrays(jnp.asarray(2.0), b)
# ---
v1, i1 = jax.lax.top_k(f32, 2)
v2, i2 = jax.lax.top_k(i8, 1)
v3, i3 = jax.lax.top_k(b, 1)
v4, i4 = jax.lax.top_k(f64, 2)
shift = i1 + 1
# ---
x = jax.lax.top_k(c64, 1)
# ---
rows, cols = jnp.tril_indices(3)
r2, c2 = jnp.triu_indices(4, 1)
r3, c3 = np.tril_indices(3)
r4, c4 = np.triu_indices(3, k=1)
picked = m_f32[rows, cols]
