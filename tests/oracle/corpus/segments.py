# jax.ops.segment_sum keeps the data's dtype (strong); bools are refused.
ids = jnp.array([0, 1, 1])
x = jax.ops.segment_sum(f32, ids, 2)
y = jax.ops.segment_sum(i32, ids, num_segments=2)
z = jax.ops.segment_sum(f64, ids, 2)
w = jax.ops.segment_sum(jnp.asarray([1.0, 2.0, 3.0]), ids, 2)
v = jax.ops.segment_sum(i8, ids, 2)
# ---
x = jax.ops.segment_sum(b, jnp.array([0, 1, 1]), 2)
