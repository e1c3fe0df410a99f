# NumPy scalars versus arrays: what keeps dimensions and what gives a scalar.
v = np.arange(4.0)
first = v[0]
last = v[-1]
mid = v[1:3]
total = first + last
# ---
m = np.ones((3, 2), np.float32)
row = m[0]
cell = m[0, 1]
cell2 = m[1][0]
col = m[:, 1]
block = m[:2, :1]
# ---
m = np.zeros((2, 2))
r = m[0] * 2
s = m[0, 0] * 2
t = m[0, 0] + np.float32(1)
# ---
x = np.float32(2.0)
y = x * x
z = np.sqrt(x)
w = np.float32(2.0) ** 2
# ---
x = np.int32(7)
q = x // 2
r = x % 3
f = x / 2
# ---
x = np.array(5)
y = x + 1
z = x * np.ones(2)
u = np.exp(x)
# ---
x = np.array([1.5])
y = x[0]
z = x.sum()
w = x.reshape(())
# ---
a = np.ones(4, np.int16)
s = a.sum()
m = a.mean()
mx = a.max()
am = a.argmax()
p = a.prod()
# ---
a = np.ones((2, 3), np.float16)
s0 = a.sum(axis=0)
s1 = a.mean(axis=1)
sa = a.sum(axis=None)
k = a.sum(axis=0, keepdims=True)
# ---
a = np.ones(3)
d = a.dot(a)
o = np.outer(a, a)
e = np.einsum("i,i->", a, a)
# ---
vals = np.array([3, 1, 2])
for v in vals:
    doubled = v * 2
# ---
grid = np.ones((2, 2))
for row in grid:
    rs = row.sum()
    for cell in row:
        c = cell + 1
# ---
a = np.arange(5)
b2 = a[a > 2]
c = a[[0, 2]]
d = a[np.int64(1)]
# ---
x = np.float64(3.0)
n = x.item()
i = int(x)
f = float(np.float32(1.5))
# ---
s = np.float16(1) + np.float16(2)
t = -np.float16(1)
u = abs(np.int8(-3))
# ---
z = np.zeros(())
y = z + 1.0
w = z[()]
# ---
xs = np.linspace(0, 1, 3)
best = xs[np.argmax(xs)]
idx = np.argmax(xs)
# ---
# A scalar type called on a literal holds its value (for the integer rules); JAX's integer_pow
# takes a concrete NumPy or JAX integer as it takes a Python int.
a = i32 ** np.int32(-1)
# ---
b = f32 ** np.int32(-1)
c = i32 ** jnp.int32(2)
d = np.uint8(200) + 28
e = np.float32(3) + 3.0
