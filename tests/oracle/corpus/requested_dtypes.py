# A requested dtype is the result's whatever the data: data of unknown dtype (an attribute, the
# result of a function outside the catalog) or of a variable does not make it unknown.
class Holder:
    def __init__(self, data):
        self.data = data

h = Holder(np.ones(3, np.float16))
y = jnp.asarray(h.data, dtype=jnp.int32)
y2 = np.asarray(h.data, dtype=np.int8)
y3 = jnp.array(h.data, jnp.float16)
y4 = jnp.zeros_like(h.data, dtype=jnp.bfloat16)
y5 = np.ones_like(h.data, dtype=np.uint8)
y6 = jnp.full_like(h.data, 2, dtype=jnp.int16)
y7 = jnp.full((2,), h.data[0], dtype=jnp.float32)
y8 = np.array([h.data[0], 1], dtype=np.float32)
y9 = jnp.asarray(jax.device_get(f16), dtype=jnp.int8)
z = jnp.asarray(Holder(7).data, dtype=jnp.float32)
z2 = jnp.zeros_like(Holder(2.5).data, dtype=jnp.int8)
# ---
def int_of(v):
    return jnp.asarray(v, dtype=jnp.int32), np.asarray(v, np.float32), jnp.zeros_like(v, dtype=jnp.uint8)

y = int_of(2.5)
y2 = int_of(a_f16)
y3 = int_of(c64)
y4 = int_of(np.float64(3.0))
