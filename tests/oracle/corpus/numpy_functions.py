# NumPy functions whose result widens: polyval makes an array of x (a Python float is float64).
a = np.polyval(a_f32, 2.0)
b = np.polyval(a_f32, 2)
c = np.polyval(a_f32, s_f32)
d = np.polyval(a_i8, 2.0)
e = np.polyval([1.0, 2.0], s_f32)
f = np.polyval(a_f32, a_f16)
# ---
# polyval and interp make arrays of lists first (issue 17): Python floats are float64, ints int64.
a = np.polyval([0.5, 1.0], a_f32)
b = np.polyval([1, 2], a_f32)
c = np.polyval([1, 2], a_i8)
d = np.polyval(a_f32, [1.0, 2.0])
e = np.polyval([s_f32, s_f32], a_f16)
f = np.interp(a_f32, [0.0, 1.0], [0, 1])
g = np.interp([0.5, 1.5], a_f32, a_f32)
h = np.interp(0.5, [0.0, 1.0], [1j, 2j])
k = np.polyval([1.0, 2.0], 2)
# ---
# np.interp computes in float64 (complex128 for complex fp); np.where with a 0-d int64 array.
a = np.interp(1.0, a_f32, a_f32)
b = np.interp(a_f32, a_f32, a_c64)
c = np.interp(s_f16, a_f32, a_i8)
d = np.where(a_b, a_i32, np.array(0))
e = np.where(a_b, a_f32, np.array(0))
f = np.where(a_b, a_f32, z_f64)
# ---
# linalg: integers in the default float (NumPy's float64), other floats kept, norms real.
a = np.linalg.norm(np.ones((2, 3), np.int8), axis=1)
b = np.linalg.norm(a_f32)
c = np.linalg.norm(a_c64)
d = np.linalg.norm(3)
e = np.linalg.norm(np.ones((3, 3), np.int8), ord=2)
f = np.linalg.norm(a_f16)
g = np.linalg.inv(np.eye(2, dtype=np.int32))
h = np.linalg.inv(np.eye(2, dtype=np.float32))
k = np.linalg.det(np.eye(2, dtype=np.float32))
m = np.linalg.det(np.ones((2, 2, 2), np.float32))
n = np.linalg.det(np.eye(2, dtype=np.int8))
# ---
x = np.linalg.inv(np.eye(2, dtype=np.float16))
# ---
a = jnp.linalg.norm(jnp.asarray(2.0))
b = jnp.linalg.norm(i8)
c = jnp.linalg.norm(jnp.ones((2, 3)), axis=1)
d = jnp.linalg.norm(c64)
e = jnp.linalg.inv(jnp.eye(2, dtype=jnp.int32))
f = jnp.linalg.inv(jnp.asarray([[2.0]]))
# ---
x = jnp.linalg.inv(jnp.eye(2, dtype=jnp.float16))
# ---
# Functions that keep the dtype, in an array.
a = np.diff(a_i8)
b = np.diff(a_b)
c = np.moveaxis(a_m, 0, 1)
d = np.swapaxes(a_m, 0, 1)
e = np.take_along_axis(a_f32, np.array([0]), axis=0)
f = np.fliplr(np.ones((2, 2), np.int8))
g = np.flipud(a_f16)
h = np.diff(a_i8, prepend=0)
k = jnp.diff(b)
m = jnp.diff(jnp.asarray(2.0)[None])
n = jnp.moveaxis(m_bf16, 0, 1)
o = jnp.swapaxes(m_f16, 0, 1)
p = jnp.take_along_axis(jnp.asarray(2.0)[None], jnp.array([0]), axis=0)
q = jnp.fliplr(m_i8)
r = jnp.flipud(f32)
# ---
a = np.atleast_1d(s_f32)
b = np.atleast_2d(1.0)
c = np.atleast_1d(a_f32, a_i8)
d = jnp.atleast_1d(jnp.asarray(2.0))
e = jnp.atleast_1d(2.0)
f = jnp.atleast_2d(i8)
g = np.atleast_2d(a_m)
# ---
a = np.real(s_c64)
b = np.real(1j)
c = np.imag(a_c128)
d = np.real(a_f32)
e = jnp.real(jnp.asarray(1j))
f = jnp.imag(jnp.asarray(2.0))
g = jnp.real(c64)
# ---
# Indices: the default int.
a = np.flatnonzero(a_f32)
b = np.argwhere(a_f32)
c = np.nonzero(a_i8)[0]
d = jnp.flatnonzero(f32)
e = jnp.argwhere(f32)
f = jnp.nonzero(f32)[0]
# ---
# np.nonzero of a JAX array is its own nonzero (JAX indices in the default int); np.argwhere
# stacks them into a NumPy array of that int, but converts a 0-d JAX array first (int64).
a = np.nonzero(f32)[0]
b = np.nonzero(m_i8)[1]
c = np.argwhere(f32)
d = np.argwhere(m_i8)
e = np.argwhere(jnp.float32(1))
for k in np.nonzero(b):
    g = k + 1
h = np.nonzero(a_f32)[0]
# ---
# Joining: NumPy makes arrays of Python scalars first (np.append(f32, 1.0) is float64).
a = np.column_stack([a_f32, a_i8])
b = jnp.column_stack([f32, i8])
c = np.append(a_f32, 1.0)
d = np.append(a_i8, 1000)
e = np.append(a_f32, s_f64)
f = jnp.append(f32, 1.0)
g = jnp.append(i8, 1.0)
h = np.append(a_m, a_m, axis=0)
k = np.asanyarray([1, 2])
m = np.asanyarray(2.0)
n = np.asanyarray(a_f16, dtype=np.float32)
o = np.median(np.ones((2, 3), np.int8), axis=0)
p = np.median(a_f16)
# ---
# Answers that are Python values.
a = np.ndim(a_f32)
b = np.size(a_f32) * 2.0
c = np.shape(a_f32)[0] + 1
d = np.isscalar(a_f32)
e = np.issubdtype(a_f32.dtype, np.floating)
f = np.allclose(a_f32, a_f32)
g = np.array_equal(a_f32, a_f32)
h = jnp.ndim(f32) + 1
k = jnp.size(f32) * 1.5
m = jnp.shape(f32)[0]
n = jnp.isscalar(f32)
o = jnp.issubdtype(f32.dtype, jnp.floating)
