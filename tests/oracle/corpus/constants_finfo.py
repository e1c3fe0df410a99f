# Constants of NumPy, JAX and math; finfo/iinfo; dtype objects.
y = np.pi
y2 = jnp.pi
y3 = math.pi
y4 = np.e
# ---
y = np.inf
y2 = jnp.nan
y3 = math.tau
y4 = np.euler_gamma
# ---
y = f32 * np.pi
y2 = a_f16 * np.pi
y3 = i8 * jnp.pi
# ---
angle = 2 * np.pi * jnp.arange(4) / 4
# ---
eps = np.finfo(np.float32).eps
y = a_f16 + eps
# ---
eps = jnp.finfo(jnp.float16).eps
y = f32 + eps
# ---
eps = jnp.finfo(f16.dtype).eps
y = f16 + eps
# ---
tiny = np.finfo(np.float64).tiny
big = np.finfo("float16").max
small = np.finfo(np.float32).min
# ---
res = np.finfo(np.float32).resolution
sn = np.finfo(np.float16).smallest_normal
en = np.finfo(np.float64).epsneg
# ---
eps = jnp.finfo(jnp.float64).eps
# ---
eps = jnp.finfo(jnp.bfloat16).eps
y = bf16 * eps
# ---
hi = np.iinfo(np.int8).max
lo = np.iinfo(np.int16).min
nb = np.iinfo(np.int32).bits
# ---
hi = jnp.iinfo(jnp.uint8).max
y = u8 + hi
# ---
hi = np.iinfo(np.int8).max
y = a_i8 + hi
# ---
fb = np.finfo(np.float32).bits
# ---
dt = np.dtype("float32")
x = np.zeros(3, dt)
# ---
dt = jnp.dtype(jnp.int8)
x = jnp.ones(2, dtype=dt)
# ---
x = np.ones(2, dtype=np.dtype(np.uint16))
# ---
big = np.finfo(np.float32).max
y = f32 + big
# ---
eps = np.finfo(a_f32.dtype).eps
step = a_f32 + 10 * eps
