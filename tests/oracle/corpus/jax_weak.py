# Weak types through JAX: Python scalars, jnp.asarray of them, jit arguments, reductions.
x = jnp.asarray(1.0)
y = x * f16
z = x + 1
w = jnp.sin(x)
# ---
x = jnp.asarray(3)
y = x + i8
z = x / 2
w = x * 1.5
# ---
@jax.jit
def f(a, s):
    return a * s

y = f(f16, 2.0)
z = f(i8, 3)
# ---
@jax.jit
def g(s):
    return s + 1

y = g(2.0)
z = g(2)
# ---
x = jnp.float32(1.0)
y = x + 1.0
z = x * bf16
# ---
m = jnp.max(jnp.asarray(2.0))
s = jnp.sum(jnp.asarray(2))
mu = jnp.mean(jnp.asarray(3.0))
# ---
t = jnp.where(True, 1.0, 2.0)
u = jnp.where(b, 1.0, f16)
# ---
e = f16[0]
e2 = e * 2.0
e3 = e + np.float32(1)
# ---
k = i8.sum() * 1.0
k2 = i8.mean() + f16
# ---
c = jnp.zeros_like(2.0) + i8
c2 = jnp.ones_like(3) * f16
# ---
q = jnp.full((3,), 2.0) + bf16
q2 = jnp.full((3,), 2) + i8
# ---
a = jnp.array(2.0) * jnp.array(3)
a2 = jnp.array(2.0, dtype=jnp.float16) + 1
# ---
def scale(x, factor=0.5):
    return x * factor

r = scale(f16)
r2 = scale(i32)
r3 = scale(i8, factor=2)
# ---
acc = 0.0
for v in [f16, f16]:
    acc = acc + v
final = acc * 1
# ---
z = jnp.abs(-2)
z2 = jnp.negative(2.5)
z3 = jnp.square(3)
# ---
# Weak flags that do not follow promotion (catalog: log2/log10/gelu strong, hypot all-weak,
# heaviside weak as x1; one-array functions keep a weak bool weak).
wb = jnp.isnan(2.0)
w = jnp.asarray(2.0)
y = jnp.floor(wb)
y2 = wb.copy()
y3 = wb.reshape(-1)
y4 = wb.conjugate()
y5 = jnp.abs(wb)
y6 = jnp.sqrt(wb)
y7 = jnp.log2(w)
y8 = jnp.log10(jnp.asarray(2))
y9 = jax.nn.gelu(w)
y10 = jnp.hypot(w, i32)
y11 = jnp.hypot(w, 1.5)
y12 = jnp.heaviside(w, i8)
y13 = jnp.heaviside(i16, 0.5)
y14 = jnp.heaviside(wb, i16)
y15 = jnp.logical_and(wb, wb)
y16 = jnp.logical_and(w, w)
y17 = jnp.logaddexp(a_i8, 1j)
y18 = jnp.logaddexp(i8, 1.5)
y19 = jnp.logaddexp(w, 1j)
y20 = jax.nn.softplus(b)
y21 = jax.nn.softplus(wb)
