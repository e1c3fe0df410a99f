# jax.random.split and fold_in keep their key's dtype: uint32 for a raw key (a JAX or NumPy
# array), key<fry> for a typed key; anything else raises a TypeError.  Of a parameter they give
# "the dtype of" it, as a JAX array.
def keys(k):
    a, b = jax.random.split(k)
    return a, b, jax.random.split(k, 3), jax.random.fold_in(k, 7)

y = keys(key)
y2 = keys(np.zeros(2, np.uint32))
y3 = keys(jax.random.key(0))
# ---
y = jax.random.split(np.zeros(2, np.uint32))
y2 = jax.random.fold_in(np.zeros(2, np.uint32), 1)
# ---
y = jax.random.split(jnp.zeros(2, jnp.float32))
# ---
y = jax.random.fold_in(jnp.zeros(2, jnp.int32), 1)
# ---
y = jax.random.split(np.uint32(0))
# ---
y = jax.random.split(0)
