# Array creation in NumPy and JAX: defaults, explicit dtypes, literals (facts B*).
# B01
x = jnp.asarray(2)
# ---
# B02
x = jnp.array(2.0)
# ---
# B05
x = jnp.float32(1)
# ---
# B07
x = jnp.zeros(3)
# ---
# B09
x = jnp.arange(5)
# ---
# B12
x = jnp.linspace(0, 1, 5)
# ---
# B14
x = jnp.array([1, 2])
# ---
# B16
x = jnp.array(np.zeros(3))
# ---
# B23
x = jnp.array(1.0, dtype=float)
# ---
# B25
x = jnp.float64(1)
# ---
# B26
x = jnp.zeros(3, dtype=jnp.float64)
# ---
# B28
x = jnp.array(2**31)
# ---
# B31
x = jnp.asarray(2).astype(float)
# ---
# B32
x = i8.astype(float)
# ---
# B35
x = jnp.array(2, dtype=jnp.uint64)
# ---
# B44
x = jnp.asarray(2.0) + i8
# ---
x = jnp.array([1, 2**40])
# ---
x = jnp.ones((2, 3))
y = jnp.ones(3, dtype=jnp.int8)
z = jnp.ones(3, "float16")
w = jnp.ones(3, dtype="bfloat16")
# ---
x = jnp.empty(4)
y = jnp.empty(4, jnp.uint8)
# ---
x = jnp.eye(3)
y = jnp.eye(3, dtype=jnp.int32)
# ---
x = jnp.identity(2)
y = jnp.identity(2, dtype=bool)
# ---
x = jnp.full(3, 1.0)
# ---
x = jnp.full(3, 7)
# ---
x = jnp.full((2, 2), 0.5, dtype=jnp.float16)
# ---
x = jnp.full(3, np.float16(2))
# ---
x = jnp.zeros_like(i8)
y = jnp.ones_like(f16)
z = jnp.empty_like(bf16)
w = jnp.full_like(f32, 3)
# ---
x = jnp.zeros_like(i8, dtype=jnp.float32)
# ---
x = jnp.zeros_like(a64)
# ---
x = jnp.ones_like(jnp.asarray(2.0))
# ---
x = jnp.array([1.0, 2.0])
y = jnp.array([1, 2.0])
z = jnp.array([True, False])
w = jnp.array([1j, 2])
# ---
x = jnp.array([[1, 2], [3, 4]])
# ---
x = jnp.array([i8, i8])
# ---
x = jnp.array([np.float32(1), 2.0])
# ---
x = jnp.array(np.float32(1))
y = jnp.asarray(np.int64(3))
# ---
x = jnp.asarray(f16)
y = jnp.array(i8, dtype=jnp.int16)
# ---
x = jnp.asarray([1, 2, 3], dtype=jnp.float32)
# ---
x = jnp.asarray(True)
# ---
x = jnp.asarray(1j)
# ---
x = jnp.arange(5.0)
y = jnp.arange(0, 1, 0.25)
z = jnp.arange(3, dtype=jnp.uint8)
# ---
x = jnp.linspace(0, 1, 5, dtype=jnp.float16)
y = jnp.logspace(0, 2, 3)
# ---
x = jnp.int8(3)
y = jnp.bfloat16(1.5)
z = jnp.uint32(7)
w = jnp.bool_(True)
# ---
x = jnp.int32(2**40)
# ---
x = jnp.complex64(1)
# ---
x = np.zeros(3)
y = np.ones(3, np.int8)
z = np.empty(2, dtype="float32")
w = np.ones((2, 2), dtype=np.complex64)
# ---
x = np.eye(2)
y = np.identity(3, dtype=np.int16)
# ---
x = np.full(3, 1.0)
y = np.full(3, 7)
z = np.full(3, np.float16(2))
w = np.full(3, 2, dtype=np.uint8)
# ---
x = np.full(3, True)
# ---
x = np.zeros_like(a_i8)
y = np.ones_like(a_f16, dtype=np.float64)
z = np.empty_like(a_c64)
w = np.full_like(a_i32, 2.5)
# ---
x = np.array([1, 2, 3])
y = np.array([1.0, 2])
z = np.array([True, 1])
w = np.array([1, 2], dtype=np.float32)
# ---
x = np.array([[1.5, 2.5], [3.5, 4.5]])
# ---
x = np.array([np.float32(1), 2.0])
# ---
x = np.array([np.float32(1), np.float16(2)])
# ---
x = np.array([np.int8(1), 2])
# ---
x = np.array(1.0)
y = np.array(3)
z = np.asarray(2.5, dtype=np.float32)
# ---
x = np.asarray(a_i8)
y = np.asarray(f32)
z = np.array(i8)
# ---
x = np.arange(5)
y = np.arange(5.0)
z = np.arange(0, 1, 0.1)
w = np.arange(3, dtype=np.int8)
# ---
x = np.linspace(0, 1, 5)
y = np.linspace(0, 10, 3, dtype=np.float32)
z = np.logspace(0, 2, 3)
# ---
x = np.float32(1.5)
y = np.int8(2)
z = np.uint16(3)
w = np.complex128(1)
v = np.bool_(False)
# ---
x = np.float16("1.5")
y = np.int64(2**40)
# ---
x = np.ones(3, dtype=float)
y = np.ones(3, dtype=int)
z = np.ones(3, dtype=complex)
w = np.ones(3, dtype=bool)
# ---
x = jnp.ones(3, dtype=float)
y = jnp.ones(3, dtype=int)
z = jnp.ones(3, dtype=complex)
# ---
x = np.ones(3, dtype="f4")
y = np.zeros(3, dtype="i2")
z = np.zeros(3, dtype="u1")
w = np.zeros(3, dtype="c16")
# ---
x = np.zeros(3, dtype=ml_dtypes.bfloat16)
y = jnp.zeros(3, dtype=ml_dtypes.float8_e5m2)
# ---
x = np.array(1.5, dtype=np.float32)
y = x + 1
# ---
# Arrays read from bytes, text and iterables: the dtype asked for, else float64 (NumPy) or the
# default float (JAX); np.fromiter has no default.
x = np.frombuffer(b"\x00" * 8)
y = np.frombuffer(b"\x00" * 8, dtype="uint8")
z = np.fromstring("1 2", sep=" ")
w = np.fromiter(range(3), np.int16)
# ---
x = np.fromstring("1 2", dtype=np.int32, sep=" ")
y = np.frombuffer(b"\x00" * 8, np.int16)[3] * 2
# ---
x = jnp.frombuffer(b"\x00" * 8)
y = jnp.frombuffer(b"\x00" * 8, dtype=jnp.uint8)
z = jnp.fromstring("1 2", sep=" ")
# ---
import io
import os
import tempfile

path = tempfile.NamedTemporaryFile(suffix=".bin", delete=False).name
np.zeros(16, np.uint8).tofile(path)
x = np.fromfile(path, dtype="uint8")
y = np.fromfile(path)
z = np.memmap(path, mode="r")
w = np.memmap(path, dtype=np.int16, mode="r")[1] + 1
v = np.loadtxt(io.StringIO("1 2\n3 4"))
u = np.loadtxt(io.StringIO("1 2\n3 4"), dtype=np.int32)
os.remove(path)  # the snippet's own file, not left behind in each mode's run
# ---
# np.arange reads each bound as a Python number of its kind, whatever its width or library.
r1 = np.arange(np.int8(5))
r2 = np.arange(1, np.uint8(5))
r3 = np.arange(np.int32(1), np.int64(5))
r4 = np.arange(np.float32(3))
r5 = np.arange(0, np.float16(2.5), 0.5)
r6 = np.arange(np.uint64(4))
r7 = np.arange(np.array(3, np.int16))
r8 = np.arange(1, jnp.int32(4))
r9 = np.arange(jnp.float32(2))
r10 = np.arange(1.0, np.int8(4))
r11 = np.arange(np.complex64(3))
r12 = np.arange(2j)
r13 = np.arange(np.True_, 3)
r14 = np.arange(True, True)
# ---
r = np.arange(True, np.True_)
# ---
r = jnp.arange(2j)
# ---
r = jnp.arange(True)
# ---
r = jnp.arange(False, True)
# ---
# jnp.arange of NumPy scalars, 0-d arrays and JAX values: a strong array of the dtype JAX
# promotes its bounds to (strict promotion refuses what it refuses elsewhere).
j1 = jnp.arange(np.int64(3))
j2 = jnp.arange(1, np.int8(3))
j3 = jnp.arange(np.uint8(1), np.int8(3))
j4 = jnp.arange(np.float16(1), np.int64(3))
j5 = jnp.arange(jnp.int8(1), 5)
j6 = jnp.arange(np.array(4, np.uint64))
j7 = jnp.arange(np.int32(1), 5, np.int32(2))
j8 = jnp.arange(jnp.bfloat16(1), np.float16(3))
# ---
# oracle: modes=x64off,x64on
j1 = jnp.arange(1.0, np.int8(3))
j2 = jnp.arange(jnp.int8(1), 2.5)
j3 = jnp.arange(1, np.True_)
# ---
r = jnp.arange(np.array([3]))
# ---
r = jnp.arange(np.complex64(3))
# ---
r = jnp.arange(np.True_)
# ---
# np.full converts a Python int fill as np.asarray does: ml_dtypes' narrow ints take any int,
# wrapping it (int4 holds 4 for 100).
w = np.full(3, 100, ml_dtypes.int4)
w2 = np.full_like(np.zeros(2, ml_dtypes.uint4), 100)
# ---
# Dimensions are integers: a float or complex one raises TypeError, in NumPy and JAX alike.
x = jnp.zeros(3.0)
# ---
x = jnp.zeros((2, f32[0]))
# ---
x = jnp.eye(3, 2.0)
# ---
x = np.identity(3.0)
# ---
x = np.full((2.0,), 1)
# ---
x = jax.random.normal(jax.random.key(0), (2.5,))
# ---
x = jnp.reshape(jnp.zeros(6), (-1, 3.0))
# ---
x = jnp.zeros(i32[0])
# ---
# fftfreq's `n` is a count JAX takes as a float.
x = jnp.fft.fftfreq(4.0)
# ---
# A list whose element raised: the call it is given to never runs.
x = jnp.concatenate([f32, jnp.zeros(2.0)])
