# Flow through statements: assignment, unpacking, augmented assignment, branches, loops, with.
x = f32
y = x
z = y * 2
# ---
lo, hi = i8, f16
mid = (lo + hi) / 2
# ---
pair = (f32, i8)
first, second = pair
total = first + second
# ---
a, b2 = 1.5, jnp.int16(3)
c = a * b2
# ---
(p, q), r = (i8, u8), f16
s = p + q + r
# ---
head, *rest = [f32, f16, i8]
# ---
x = jnp.zeros(3)
x += 1
x *= 2
x -= f16
# ---
x = jnp.zeros(3, jnp.int8)
x += 1.5
# ---
x = np.zeros(3)
x += 1
x /= 3
# ---
x = np.zeros(3, np.int32)
x += 1
x *= 2
# ---
x = np.zeros(3, np.int32)
x += 1.5
# ---
x = np.zeros(3, np.float32)
x += a64
# ---
x = np.zeros(3, np.int8)
x //= 2
x %= 3
x <<= 1
# ---
x = np.ones(3, np.float16)
x **= 2
# ---
x = 1
x += 2.5
x *= 2
# ---
n = 0
n += True
# ---
x = np.float32(1)
x += 1
x += np.float64(2)
# ---
acc = a_f32.copy()
acc += f32
# ---
if f32.sum() > 0:
    y = f32 * 2
else:
    y = f32 / 2
z = y + 1
# ---
flag = bool(i8[0] > 0)
if flag:
    y = f16
else:
    y = f32
z = y * 2
# ---
y = i8
if b[0]:
    y = y + 1
w = y
# ---
if True:
    scale = 2.0
else:
    scale = 2
out = f16 * scale
# ---
x = i8
if x.sum() > 100:
    x = x.astype(jnp.float32)
elif x.sum() > 10:
    x = x.astype(jnp.float16)
r = x
# ---
y = f32 if b[0] else f16
# ---
x = 0.0
for i in range(3):
    x = x + f32[i]
# ---
total = jnp.zeros(())
for v in f32:
    total = total + v
# ---
acc = jnp.zeros(3, jnp.float16)
for _ in range(4):
    acc = acc + f16 * 0.5
# ---
acc = np.zeros(3)
for i in range(3):
    acc += a_f32
# ---
state = i8
for step in range(3):
    state = state + 1
last = state
# ---
x = f32
count = 0
while count < 3:
    x = x * 0.5
    count += 1
end = x
# ---
vals = [f32 * k for k in range(3)]
# ---
sq = [v * v for v in a64]
# ---
total = sum(v for v in [1.0, 2.0])
# ---
if (n := f32.sum()) > 1:
    m = n * 2
# ---
with jax.default_device(jax.devices("cpu")[0]):
    y = f32 * 2.0
    z = i8 + 1
# ---
import contextlib
with contextlib.suppress(ValueError):
    y = f16 + f16
# ---
# oracle: follow-code
with jax.enable_x64(True):
    y = jnp.arange(3)
    z = jnp.zeros(2)
    w = y + 1.0
# ---
# oracle: follow-code
with jax.numpy_dtype_promotion("strict"):
    y = i8 + i8
    z = i8 + 1.0
# ---
# oracle: follow-code
with jax.numpy_dtype_promotion("strict"):
    y = f16 + f32
# ---
# oracle: follow-code
jax.config.update("jax_enable_x64", True)
x = jnp.ones(3)
y = x + np.float64(1)
# ---
# oracle: follow-code
jax.config.update("jax_numpy_dtype_promotion", "strict")
y = f32 + 1.0
z = f32 + i8
# ---
try:
    y = f32 * 2
except ValueError:
    y = f32
z = y + 1
# ---
class Config:
    scale = 0.5
    bias = jnp.float16(1)

y = f16 * Config.scale
# ---
data = {"w": f32}
w = data["w"] * 2
# ---
x = f32
del x
x = i8
y = x + 1
# ---
i = 0
while True:
    i += 1
    if i > 2:
        break
z = f32 * i
# ---
for k in range(2):
    if k == 0:
        continue
    y = f16 * k
# ---
for v in [1, 2]:
    w = i8 * v
else:
    w = i16
# ---
# Bodies written on their header's line.
flag = True
if flag: y = i8 + 1
else: y = f16 * 2
for k in range(2): acc = u8 + k
def one_line(a): return a * 2.0
z = one_line(i8)
with jax.numpy_dtype_promotion("standard"): w = i8 + f16
# ---
# oracle: follow-code
jax.config.update("jax_enable_x64", True)
def scaled(x):
    return x / np.sqrt(3.0)
a = scaled(jnp.ones(3, jnp.float32))
# ---
# oracle: follow-code
jax.config.update("jax_enable_x64", True)
def tau(x):
    n = x.shape[0]
    return jnp.maximum(x, 1 / np.log10(n * 2))
b = tau(jnp.ones(3, jnp.float32))
# ---
# oracle: follow-code
def widened(x):
    return x + jnp.asarray(1.0)
with jax.enable_x64(True):
    inside = widened(jnp.ones(3, jnp.int8))
outside = widened(jnp.ones(3, jnp.int8))
# ---
# A dict changed through another name for it: `state` is the same dict as `st`.
state = {"r": jnp.array(1.0)}
st = state
st["r"] = jnp.ones((), jnp.float16)
r = state["r"]
for s in [state]:
    s["q"] = f16
q = state["q"]
# ---
# A dict changed by a function it is passed to, directly and through a function that passes it
# on: the caller's dict is the one changed.
def _fill(into):
    into["r"] = jnp.ones((), jnp.float16)


def _fill_through(into):
    _fill(into)
    return into["r"]


held = {"r": jnp.array(1.0)}
_fill(held)
filled = held["r"]
through = _fill_through({"r": jnp.array(1.0)})
# ---
# A nested function called by a sibling with another argument than its enclosing function's own
# call passes: both calls decide its parameter (not the first recorded).  (Strict mode: the
# sibling's call raises, and a claim is for the calls that run.)
# oracle: modes=x64off,x64on
def _both(x):
    def step(i):
        return x + i

    def body(i):
        return step(i)

    return step(0), body(jnp.ones((), jnp.int32))


both = _both(i8)
