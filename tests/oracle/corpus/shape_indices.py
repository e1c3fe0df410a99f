# A shape's elements are Python ints whatever integer indexes them (through __index__), and
# whatever the array's dtype is; a slice of a shape is a tuple of them.
def sizes(x, axis: int = 0):
    n = x.shape[axis]
    return n * 2, 1 / np.log10(n * 10)

y = sizes(f32, np.int64(0))
y2 = sizes(a_i8, 0)
y3 = sizes(m_f16, np.uint8(1))
# ---
n = m_f32.shape[np.int32(1)]
m = len(m_f32.shape[1:])
# ---
# oracle: modes=x64on
# The blackjax diagnostics pattern: a strong NumPy float64 scalar made from a shape makes a
# float32 parameter float64 with x64 on.
def tau(x):
    num_chains = x.shape[0]
    return jnp.maximum(x, 1 / np.log10(num_chains * 10))

y = tau(f32)
y2 = tau(bf16)
# ---
# An array indexed by a float raises (TypeError in JAX, IndexError in NumPy).
y = f32[np.float32(1)]
# ---
y = a_f32[1.0]
# ---
# A NumPy array indexed by a value the engine does not know (the loop's `i`: a Python int,
# then a NumPy scalar) gives a scalar or an array as the index's shape decides: unknown, never an array.
t = np.arange(4)
i = 0
while i < 3:
    k = t[i] + 1
    i = k
# ---
# A slice, None or `...` keeps a dimension whatever the index's value: an array.
t = np.arange(4)
n = len([1, 2])
w = t[n:]
w2 = t[None, n]
w3 = t[..., n]
