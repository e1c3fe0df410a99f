# Values that read several parameters of unknown dtype, too many assignments to weigh each, but
# need only some of them: shapes, counts and keys' partners leave the dtype alone.
def shaped(n, m, k):
    return jnp.zeros((n, m)), np.ones((n, m, k)), jnp.full((n, m), 1.5), jax.random.normal(key, (n, m, k))

y = shaped(2, 3, 4)
y2 = shaped(np.int64(2), 3, jnp.int32(2))
y3 = shaped(np.int8(1), np.uint8(2), 1)
# ---
def split_keys(k, n, m):
    return jax.random.split(k, n), jax.random.uniform(k, (n, m))

y = split_keys(key, 2, 3)
y2 = split_keys(jax.random.split(key)[1], np.int32(3), jnp.int32(4))
y3 = split_keys(jax.random.PRNGKey(3), 1, np.int64(2))
# ---
def reshaped(x, n, m):
    flat = np.asarray(x).reshape(n, m)
    return flat, jnp.asarray(flat).reshape(m, n), np.asarray(x)[n:m]

y = reshaped(a_f32[:2], 2, 1)
y2 = reshaped(i8[:2], np.int32(1), jnp.int32(2))
y3 = reshaped(np.ones(6, np.uint16), 3, np.int64(2))
