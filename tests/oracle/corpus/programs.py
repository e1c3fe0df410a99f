# Short programs the way people write them: NumPy preprocessing feeding JAX, training steps,
# metrics, and the mistakes that change dtypes along the way.
import numpy as np
import jax
import jax.numpy as jnp

data = np.random.rand(8, 3).astype(np.float32)
mean = data.mean(axis=0)
std = data.std(axis=0) + 1e-8
normalized = (data - mean) / std
batch = jnp.asarray(normalized)
logits = batch @ jnp.ones((3, 2), jnp.float32)
probs = jax.nn.softmax(logits)
# ---
w = jnp.zeros(3)
lr = 0.1
for step in range(3):
    g = 2 * w - 1
    w = w - lr * g
final = w
# ---
def loss_fn(params, x, y):
    pred = x @ params
    return jnp.mean((pred - y) ** 2)

params = jnp.zeros(3)
x = jnp.ones((4, 3))
y = jnp.arange(4.0)
loss = loss_fn(params, x, y)
grads = jax.grad(loss_fn)(params, x, y)
# ---
labels = np.array([0, 1, 1, 0])
preds = np.array([0.1, 0.8, 0.6, 0.3])
correct = (preds > 0.5) == labels
accuracy = correct.mean()
# ---
counts = np.bincount(np.array([0, 1, 1]))
hist = jnp.asarray(counts) / 3
# ---
img = np.zeros((4, 4), dtype=np.uint8)
img = img + 10
scaled = img / 255
as_jax = jnp.asarray(img) / 255.0
# ---
pixels = jnp.ones((2, 2), jnp.uint8)
bright = pixels * 2
wrapped = pixels + 300
# ---
x = jnp.linspace(-1, 1, 5)
y = jnp.where(x > 0, x, 0.01 * x)
z = jnp.clip(y, -0.5, 0.5)
# ---
tokens = jnp.array([1, 5, 2])
one_hot = jax.nn.one_hot(tokens, 6)
embedding = jnp.ones((6, 4), jnp.bfloat16)
vectors = one_hot @ embedding
# ---
acc = 0
for v in [1, 2, 3]:
    acc += v
avg = acc / 3
# ---
x = np.arange(10)
evens = x[x % 2 == 0]
total = evens.sum()
frac = total / x.size
# ---
theta = np.deg2rad(30.0)
rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
point = rot @ np.array([1.0, 0.0])
# ---
temps_c = jnp.array([20.5, 21.0, 19.8])
temps_f = temps_c * 9 / 5 + 32
hot = temps_f > 69
# ---
ids = np.arange(4, dtype=np.int32)
offsets = ids * 4
as_float = offsets.astype(np.float32) / 2
# ---
@jax.jit
def step(state, x):
    new = state * 0.9 + x * 0.1
    return new

state = jnp.zeros(3, jnp.float16)
state = step(state, f16)
# ---
def ema(values, decay=0.9):
    out = values[0]
    for v in values:
        out = decay * out + (1 - decay) * v
    return out

r = ema(a_f32)
# ---
key1 = jax.random.PRNGKey(1)
noise = jax.random.normal(key1, (3,), dtype=jnp.bfloat16)
signal = bf16 + noise * 0.5
# ---
mask = f32 > 0.5
masked = jnp.where(mask, f32, jnp.nan)
count = mask.sum()
# ---
a = np.float32(0.1)
b1 = a * 3
c = b1 + 0.2
d = jnp.asarray(c) + f16
# ---
nums = [1.5, 2.5]
arr = jnp.array(nums)
doubled = arr * 2
# ---
lo, hi = 0, 10
grid = np.linspace(lo, hi, 11)
idx = np.searchsorted(grid, 3.3)
value = grid[idx]
# ---
m = jnp.eye(3)
v = jnp.arange(3)
mv = m @ v
vm = v @ m
# ---
x = np.ones((2, 3), np.float16)
y = x.T @ x
z = y.sum(axis=1)
# ---
acc = jnp.zeros((), jnp.int32)
for i in range(4):
    acc = acc + i
# ---
flags = np.array([True, False])
n = flags.sum()
any_set = flags.any()
both = flags & ~flags
# ---
scores = jnp.array([0.2, 0.9, 0.4])
best = jnp.argmax(scores)
top = scores[best]
ranked = jnp.argsort(-scores)
# ---
eps = 1e-6
p = jnp.clip(f32 * 0.5, eps, 1 - eps)
entropy = -(p * jnp.log(p)).sum()
# ---
x = np.arange(6).reshape(2, 3)
row_means = x.mean(axis=1)
col_max = x.max(axis=0)
centered = x - row_means[:, None]
# ---
vals = np.array([1, 2, 3], dtype=np.int16)
cmp = vals != 2
le = vals <= 2
ge = vals >= 2
xr = vals ^ 1
# ---
j = jnp.arange(3)
le = j <= 1
t = 3 >= 2
o = True | False
# ---
def cumulative(xs):
    total = xs[0] * 0
    out = []
    for x in xs:
        total = total + x
        out.append(total)
    return total

s = cumulative(a_i32)
