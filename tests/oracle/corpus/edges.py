# Corners the engine must know: bool arithmetic, magnitudes, NumPy functions of JAX arrays,
# 0-d arrays and NumPy scalars, Python's own dispatch.
y = a_b - a_b
# ---
y = -a_b
# ---
y = b - b
# ---
y = -b
# ---
y = jnp.negative(b)
# ---
y = np.subtract(a_b, a_b)
# ---
y = a_b ** a_b
y2 = a_b // a_b
y3 = a_b % a_b
y4 = a_b << a_b
# ---
y = np.square(a_b)
y2 = np.power(a_b, a_b)
# ---
y = b ** b
y2 = b // b
y3 = b % b
y4 = b << b
# ---
y = jnp.square(b)
y2 = jnp.power(b, b)
# ---
y = a_b * a_b
y2 = a_b / a_b
y3 = a_b + a_b
# ---
y = b * b
y2 = b / b
y3 = b & b
# ---
y = a_b - 1
y2 = b - 1
# ---
y = abs(3 + 4j)
y2 = abs(-2)
y3 = abs(True)
# ---
y = abs(c64)
y2 = abs(a_c128)
y3 = abs(s_c64)
# ---
y = jnp.abs(c64)
y2 = jnp.absolute(c128)
y3 = np.abs(a_c64)
y4 = np.absolute(a_c128)
# ---
y = jax.lax.abs(c64)
# ---
y = jnp.abs(b)
y2 = np.abs(a_b)
# ---
y = np.rint(a_i8)
y2 = np.rint(a_b)
y3 = jnp.rint(i8)
y4 = jnp.rint(2)
# ---
y = np.copysign(a_i8, a_i8)
y2 = np.heaviside(a_i16, 0.5)
# ---
y = jnp.copysign(i8, i8)
y2 = jnp.heaviside(i16, 0.5)
# ---
y = np.hypot(a_i8, a_i8)
y2 = np.arctan2(a_i16, a_i16)
y3 = np.logaddexp(a_u8, a_u8)
# ---
y = np.sum(f32)
y2 = np.sum(i8)
y3 = np.prod(u8)
# ---
y = np.argmax(f32)
y2 = np.argmin(i8)
y3 = np.argsort(f32)
# ---
y = np.cumsum(i8)
y2 = np.cumprod(b)
# ---
y = np.searchsorted(f32, 0.5)
# ---
y = np.reshape(f32, (3, 1))
y2 = np.transpose(m_f32)
y3 = np.squeeze(f16)
y4 = np.repeat(i8, 2)
# ---
y = np.flip(f16)
y2 = np.roll(f16, 1)
y3 = np.sort(i8)
# ---
y = np.amax(f16)
y2 = np.amin(i8)
y3 = np.ptp(f32)
y4 = np.nanmax(f32)
# ---
y = np.any(b)
y2 = np.all(b)
y3 = np.mean(i8)
y4 = np.var(i8)
y5 = np.std(f16)
# ---
y = np.average(i8)
y2 = np.nanmean(f32)
y3 = np.nansum(i8)
# ---
y = np.clip(f32, 0, 1)
y2 = np.where(b, f32, 0)
y3 = np.sqrt(i8)
# ---
y = np.dot(f32, f32)
y2 = np.matmul(m_f16, m_f16)
y3 = np.outer(f32, f32)
# ---
z = np.array(1.0)
y = z + 1
y2 = -z
y3 = np.sqrt(z)
y4 = z * a_f32
# ---
y = np.sum(z_f64)
y2 = z_f64.sum()
y3 = z_i32.astype(np.float32)
y4 = z_f64.T
# ---
y = np.where(True, 1, 0)
y2 = np.where(z_f64 > 0, z_f64, 0)
# ---
y = np.asarray(1.0)
y2 = np.array(s_f32)
y3 = np.asarray(s_i8) + 1
# ---
y = a64[0]
y2 = a_m[0]
y3 = a_m[0][1]
y4 = a_m[:, 0]
# ---
y = a64[None]
y2 = a64[np.newaxis, :]
# ---
y = a64 @ a64
y2 = a_m @ a_m[0]
y3 = a_m[0] @ a_m
# ---
y = np.dot(a64, a64)
y2 = np.inner(a_m, a_m)
y3 = np.vdot(a_m, a_m)
y4 = np.matmul(a_m[0], a_m)
# ---
y = np.ones(3).sum(axis=0)
y2 = np.ones((2, 2)).sum(axis=0)
y3 = np.ones((2, 2)).sum(axis=(0, 1))
y4 = np.ones((2, 2)).max(axis=1, keepdims=True)
# ---
y = np.mean(a_m, axis=0)
y2 = np.argmax(a_m, axis=0)
y3 = np.count_nonzero(a_m, axis=0)
y4 = np.any(a_m > 0, axis=1)
# ---
y = np.cumsum(z_f64)
y2 = np.searchsorted(a64, [0.5])
# ---
y = 1j + s_f64
y2 = 1j * s_f64
y3 = 1j - s_f64
# ---
y = 1.0 + s_f64
y2 = 2 + s_f64
y3 = 1j + s_f32
# ---
y = s_f64 + 1j
y2 = 1j + z_f64
# ---
y = np.random.normal()
y2 = np.random.rand()
y3 = np.random.randint(0, 10)
# ---
y = np.random.randint(0, 10, dtype=np.int8)
y2 = np.random.choice(a_f32)
y3 = np.random.choice(a_f32, 2)
# ---
y = np.random.random()
y2 = np.random.uniform()
# ---
y = np.True_ + 1
y2 = np.False_ & True
# ---
y = jnp.int8(1000)
# ---
y = jnp.uint8(-1)
# ---
y = np.int8(1000)
# ---
y = np.uint8(-1)
# ---
y = np.int16(300)
y2 = jnp.int16(300)
# ---
y = jnp.less(i32, 2.5)
y2 = jnp.greater(2, 1.5)
y3 = jnp.equal(i8, 1.5)
# ---
y = np.less(1, 2)
y2 = np.equal(a_i8, 1.5)
y3 = np.greater(s_f32, 0)
# ---
y = jax.nn.relu(b)
# ---
y = jax.nn.hard_tanh(b)
y2 = jax.nn.relu(2)
# ---
y = jax.nn.sigmoid(i8)
# ---
y = jax.nn.silu(i32)
# ---
y = jax.nn.relu6(i8)
y2 = jax.nn.leaky_relu(i8)
y3 = jax.nn.elu(u8)
# ---
y = jax.nn.relu6(f16)
y2 = jax.nn.hard_tanh(i8)
y3 = jax.nn.gelu(i8)
# ---
y = jax.nn.glu(jnp.ones(4, jnp.int8))
# ---
y = f16.at[0].set(2.0)
y2 = jnp.asarray(2.0).at[()].set(3)
y3 = i8.at[0].add(1.5)
# ---
y = f32.at[0].set(f16[0])
# ---
y = b.at[0].set(1)
# ---
y = i8.at[0].min(2.5)
# ---
y = i8.at[0].get()
y2 = f32.at[1:].multiply(2)
# ---
x = jnp.cumsum(b)
y = jnp.cumprod(b)
# ---
y = jnp.sum(u16)
y2 = jnp.sum(i16)
y3 = jnp.prod(u32)
# ---
y = jnp.searchsorted(f32, 0.5)
y2 = jnp.argsort(f32)
y3 = jnp.count_nonzero(b)
# ---
x = jnp.finfo(jnp.float64).eps
y = jnp.iinfo(jnp.int64).max
# ---
x = jnp.array([1, 2**40])
# ---
x = jnp.asarray([1.0, 2**40])
# ---
x = jnp.array([2**31, 1])
# ---
x = jax.lax.complex(f32, f32)
y = jax.lax.complex(f64, f64)
# ---
# ml_dtypes' types in NumPy: ufuncs have their loops, clip and matmul do not.
y = np.sqrt(a_bf16)
y2 = np.maximum(a_bf16, 1.0)
y3 = np.add(a_bf16, 1)
y4 = a_bf16 * 2
# ---
y = np.clip(a_bf16, 0, 1)
y2 = np.clip(a_bf16, 0.0, 1.0)
# ---
m = np.ones((2, 2), ml_dtypes.bfloat16)
y = m @ m
y2 = np.matmul(m, m)
y3 = np.dot(m, m)
# ---
y = np.sum(a_bf16)
y2 = np.mean(a_bf16)
y3 = np.max(a_bf16)
# ---
y = a_bf16 < 1.0
y2 = np.isnan(a_bf16)
y3 = -a_bf16
# ---
y = np.where(a_b, a_bf16, 1.0)
y2 = np.stack([a_bf16, a_bf16])
y3 = np.concatenate([a_bf16, a_f32])
# ---
# Kinds a function has no implementation for (fuzzer F01-F03).
y = f32 & 3
# ---
y = a64 | a_i8
# ---
y = ~f16
# ---
y = jnp.bitwise_and(f32, i8)
# ---
y = a_u64 | a_i8
# ---
y = c64 // 2
# ---
y = a_c64 % 2
# ---
y = jnp.floor(c64)
# ---
y = np.arctan2(a_c64, 1.0)
# ---
y = jnp.argmax(c64)
# ---
y = np.argmax(a_c64)
# ---
y = ~b
y2 = ~a_b
y3 = ~i8
# ---
# NumPy methods on bools and 0-d arrays (fuzzer F05-F07).
y = np.array(1.5, np.float32).conjugate()
y2 = np.bool_(True).round()
y3 = a_b.conjugate()
y4 = a_b.round()
# ---
y = np.arange(3, dtype=np.bool_)
# ---
y = jnp.arange(3, dtype=bool)
# ---
# Python ints that do not fit (fuzzer F09, F10).
y = jnp.asarray(1000, dtype="int8")
# ---
y = np.asarray(300, dtype=np.uint8)
# ---
y = np.array([1, 300], dtype=np.uint8)
# ---
y = jnp.where(b, i8, 2**40)
# ---
y = jnp.sqrt(2**40)
# ---
y = jnp.full(3, 2**40)
y2 = jnp.full_like(i8, 2**40)
y3 = jnp.zeros_like(2**40)
# ---
y = jnp.asarray(2**40, dtype=jnp.float32)
# ---
# Weak predicates (fuzzer F13).
w = jnp.asarray(2.0)
y = jnp.isfinite(1.5)
y2 = jnp.isnan(w)
y3 = jnp.logical_not(1.5)
y4 = jnp.logical_and(w, 1.5)
y5 = jnp.logical_or(w, b)
# ---
wi = jnp.asarray(3)
y = jnp.isinf(wi)
y2 = jnp.signbit(jnp.asarray(2.0))
y3 = jnp.isclose(jnp.asarray(2.0), 1.5)
y4 = jnp.isneginf(jnp.asarray(2.0))
y5 = jnp.logical_xor(wi, 2)
# ---
wi = jnp.asarray(3)
y = jnp.isnan(wi)
y2 = jnp.isfinite(jnp.asarray(2))
y3 = jnp.isinf(jnp.asarray(2.0))
# ---
# In place with a JAX operand rebinds the name (fuzzer F14).
v = np.ones(3, np.float32)
v *= jnp.int16(2)
w = v
# ---
v = np.ones(3, np.int32)
v += f32
w = v
# ---
y = jnp.arctan2(c64, c64)
y2 = jnp.logaddexp(c64, 1.0)
# ---
y = jnp.hypot(c64, c64)
# ---
y = np.logaddexp(a_c64, 1.0)
# ---
y = np.fmax(a_c64, a_c64)
y2 = jnp.sign(c64)
# ---
y = +a_b
# ---
y = +b
# ---
y = 1j <= 2
# ---
y = 1j == 2
# ---
y = jnp.std(np.ones(3, np.complex128))
y2 = np.var(jnp.ones(3, jnp.complex64))
y3 = a_c64.std()
y4 = jnp.var(c64)
# ---
y = np.deg2rad(np.ones(3, ml_dtypes.int4))
y2 = np.exp(np.ones(3, ml_dtypes.int4))
# ---
y = jnp.zeros(3, jnp.bool_) < 2**40
# ---
# x.at[i].divide(v) divides x by ones of its dtype with v multiplied in: an integer x gives a float.
q = i32.at[0].divide(2)
q2 = i8.at[1].divide(i8[0])
q3 = bf16.at[0].divide(2.0)
q4 = u8.at[0].power(2)
q5 = i64.at[0].divide(jnp.int64(3))
