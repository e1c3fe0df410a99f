# result_type / promote_types used where they matter: as the dtype of new arrays (facts K*).
# K04
x = jnp.zeros(3, jnp.result_type(jnp.int8, float))
# ---
# K09
x = jnp.ones(2, jnp.promote_types(int, float))
# ---
# K13
x = jnp.zeros(2, jnp.result_type(np.uint64, np.int64))
# ---
# K22
x = jnp.zeros(2, jnp.promote_types(np.uint64, np.int64))
# ---
# K23
x = jnp.zeros(2, dtype=jnp.promote_types(bool, int))
# ---
# K26
x = jnp.zeros(2, jnp.result_type(jnp.int8, None))
# ---
# K27
x = jnp.zeros(2, jnp.promote_types(np.uint32, np.int64))
# ---
# J43
x = jnp.zeros(2, jnp.promote_types(np.int64, jnp.float8_e5m2))
# ---
dt = jnp.result_type(i8, f16)
y = i8.astype(dt)
# ---
dt = jnp.result_type(i8, 1.0)
y = jnp.zeros(3, dt)
# ---
dt = jnp.result_type(f16, 1.0)
y = jnp.ones(3, dtype=dt)
# ---
out = jnp.empty(3, dtype=jnp.result_type(f32, c64))
# ---
x = np.zeros(3, np.result_type(np.int8, int))
y = np.zeros(3, np.result_type(np.int8, 1))
z = np.zeros(3, np.result_type(np.float16, float))
w = np.zeros(3, np.result_type(np.float16, 1.0))
# ---
x = np.zeros(2, np.result_type(1, 1.0))
y = np.zeros(2, np.result_type(np.float32, complex))
z = np.zeros(2, np.result_type(np.float32, 1j))
# ---
x = np.ones(2, np.promote_types(np.int8, int))
y = np.ones(2, np.promote_types("float16", float))
z = np.ones(2, np.promote_types(bool, int))
# ---
x = np.zeros(2, np.result_type(np.float32, None))
# ---
dt = np.result_type(a_i8, a_f16)
y = a_i8.astype(dt)
# ---
dt = np.promote_types(a_i32.dtype, a_f32.dtype)
y = np.zeros(3, dt) + a_f32
# ---
# Python types are JAX's weak nodes in promote_types, which does not canonicalize: float64 with x64 off.
a = jnp.zeros(2, jnp.promote_types(float, float))
b = jnp.zeros(2, jnp.promote_types(int, int))
c = jnp.zeros(2, jnp.promote_types(complex, complex))
d = jnp.zeros(2, jnp.promote_types(bool, bool))
e = jnp.zeros(2, jnp.promote_types(float, jnp.bfloat16))
f = jnp.zeros(2, jnp.promote_types(int, jnp.int8))
g = jnp.zeros(2, jnp.promote_types(complex, jnp.float16))
h = jnp.zeros(2, jnp.promote_types(ml_dtypes.bfloat16, np.float16))
k = jnp.zeros(2, jnp.promote_types("bfloat16", float))
# ---
# jnp.result_type with Python types: a weak result becomes its kind's default (canonical) dtype.
a = jnp.zeros(2, jnp.result_type(float, float))
b = jnp.zeros(2, jnp.result_type(float, jnp.bfloat16))
c = jnp.zeros(2, jnp.result_type(int))
d = jnp.zeros(2, jnp.result_type(float))
e = jnp.zeros(2, jnp.result_type(complex))
f = jnp.zeros(2, jnp.result_type(bool))
g = jnp.zeros(2, jnp.result_type(jnp.bfloat16, np.float16))
h = jnp.zeros(2, jnp.result_type(ml_dtypes.bfloat16, float))
k = jnp.zeros(2, jnp.result_type(int, np.uint8))
m = jnp.zeros(2, jnp.result_type(float, 1))
n = jnp.zeros(2, jnp.result_type(1.0))
p = jnp.zeros(2, jnp.result_type(ml_dtypes.float8_e4m3fn, float))
# ---
# np.result_type / np.promote_types: a Python type is its default dtype.
a = np.zeros(2, np.result_type(float, np.float32))
b = np.zeros(2, np.result_type(int, np.int8))
c = np.zeros(2, np.result_type(float))
d = np.zeros(2, np.result_type(complex, np.float32))
e = np.zeros(2, np.promote_types(float, float))
f = np.zeros(2, np.promote_types(int, np.uint64))
g = np.zeros(2, np.result_type(bool, int))
h = np.zeros(2, np.result_type(np.float16, 1e10))
# ---
# With ml_dtypes' types NumPy asks ml_dtypes' own promotion table.
a = np.zeros(2, np.result_type(ml_dtypes.bfloat16, np.float32))
b = np.zeros(2, np.result_type(ml_dtypes.bfloat16, float))
c = np.zeros(2, np.result_type(ml_dtypes.bfloat16, ml_dtypes.bfloat16))
d = np.zeros(2, np.result_type(ml_dtypes.bfloat16, 1.0))
e = np.zeros(2, np.result_type(ml_dtypes.bfloat16, 1))
f = np.zeros(2, np.result_type(ml_dtypes.float8_e4m3fn, np.float32))
g = np.zeros(2, np.result_type(ml_dtypes.int4, np.int8))
h = np.zeros(2, np.result_type(ml_dtypes.bfloat16, np.int8))
k = np.zeros(2, np.promote_types(ml_dtypes.bfloat16, np.float32))
m = np.zeros(2, np.promote_types(ml_dtypes.bfloat16, float))
# ---
x = np.zeros(2, np.result_type(ml_dtypes.bfloat16))
y = np.zeros(2, np.result_type(ml_dtypes.int4, True))
z = np.ones(2, np.promote_types(np.int8, ml_dtypes.bfloat16))
# ---
# Issue 17: dtypes and Python types.  jnp.promote_types(float, float) is float64 in every mode
# (JAX narrows it only where an array is made); np.result_type of an ml_dtypes type and a
# Python value follows ml_dtypes' table, whatever the value.
x = jnp.zeros(2, jnp.promote_types(float, float))
y = np.zeros(2, np.result_type(ml_dtypes.bfloat16, 1.0))
z = np.zeros(2, np.result_type(ml_dtypes.bfloat16, 300))
w = np.zeros(2, np.result_type(ml_dtypes.int4, 1))
v = np.zeros(2, np.result_type(ml_dtypes.float8_e5m2, 2.5))
u = np.zeros(2, np.result_type(ml_dtypes.uint4, 1.5))
t = np.zeros(2, np.result_type(1j, ml_dtypes.bfloat16))
s = np.zeros(2, np.promote_types(ml_dtypes.uint1, ml_dtypes.float8_e4m3fn))
r = np.zeros(2, np.result_type(ml_dtypes.int4, ml_dtypes.float8_e3m4))
# ---
dt = np.result_type(int, ml_dtypes.bfloat16)
# ---
dt = np.result_type(ml_dtypes.bfloat16, np.float16)
# ---
dt = np.promote_types(ml_dtypes.int4, np.uint8)
# ---
# The dtype JAX computes with, as an array's dtype: x64's mode decides.
from jax import dtypes as jax_dtypes
canonical_float = jnp.zeros(3, jax.dtypes.canonicalize_dtype(float))
canonical_int = jnp.ones(2, jax_dtypes.canonicalize_dtype(int))
canonical_f64 = jnp.zeros(3, jax.dtypes.canonicalize_dtype(jnp.float64)) + f32
canonical_default = jnp.zeros(3, jax.dtypes.canonicalize_dtype(None))
canonical_half = jnp.zeros(3, jax.dtypes.canonicalize_dtype(np.float16))
# ---
# jax.dtypes.result_type is jnp.result_type (ott's fixed_point_loop, neural-tangents' empirical):
# Python types are weak, their kind's default; x64's mode narrows 64-bit dtypes.
result_float = jnp.zeros(3, jax.dtypes.result_type(float))
result_leaves = jnp.zeros(3, jax.dtypes.result_type(f16, bf16))
result_of = jnp.ones(3, jax.dtypes.result_type(f32, 1.0)) + i8
result_wide = jnp.zeros(3, jax.dtypes.result_type(jnp.float64, int))
result_ints = jnp.zeros(3, jax.dtypes.result_type(jnp.int8, jnp.uint8, int))
